package cli

import (
	"cmp"
	"context"
	"fmt"

	"mark1/chart"
	"mark1/limits"
	"mark1/machine"

	"github.com/spf13/pflag"
)

func runCapacity(ctx context.Context, env *Env, args []string) error {
	var d, maxN int
	var asJSON bool
	var png string
	fs := newFlags(env, "capacity --d D [--max-n N] [--json]", `Cover's count (1965): of the 2^N labelings of N points in general position in d
dimensions, C(N,d) = 2·Σ_{k<d} binom(N−1,k) are realised by a linear threshold unit
with d weights (no separate bias). Prints C(N,d) exactly and its fraction of 2^N for
N = 1…4d: 1 up to N = d, exactly 1/2 at N = 2d, the unit's capacity (docs/limits.md).`)
	fs.IntVar(&d, "d", 10, "the dimension d, 1 to 1000")
	fs.IntVar(&maxN, "max-n", 0, "the largest N (0: 4d)")
	fs.BoolVar(&asJSON, "json", false, "print the table as JSON")
	fs.StringVar(&png, "png", "", "also draw the fraction against N to this PNG file")
	if err := env.parse(fs, args); err != nil {
		return err
	}
	r, err := limits.Capacity(d, cmp.Or(maxN, 4*d))
	if err != nil {
		return usageError{err}
	}
	if err := drawTo(png, func() (*chart.Drawing, error) {
		n, f := r.Curve()
		return chart.DrawLines(r.CurveTitle(), "N, the number of points", "separable labelings, % of 2^N", n, []string{""}, [][]float64{f})
	}); err != nil {
		return err
	}
	return emit(env.Stdout, asJSON, r)
}

func runLimitsParity(ctx context.Context, env *Env, args []string) error {
	var k, threads int
	var asJSON, onRetina bool
	var seedList string
	var mf machineFlags
	fields := fieldFlags{}
	fs := newFlags(env, "limits parity --k K [--json] | --on-retina [machine flags] [--seeds S]", `The order of parity (Minsky and Papert 1969, Theorem 3.1): the smallest j such that
parity on K points is a linear threshold function of the masks of at most j points. Found by
linear programming (K ≤ 6) and proved both ways: integer coefficients checked on all 2^K inputs,
and a Farkas vector, checked exactly in rationals, that order K − 1 is impossible.
--on-retina: train a machine per seed on the 2^K cards of K retina cells (the others dark)
and report which reach 100 %, and whether any weights could (docs/limits.md).`)
	fs.IntVar(&k, "k", 4, "the number of points K, 1 to 8 (with --on-retina: retina cells, 1 to 12)")
	fs.BoolVar(&asJSON, "json", false, "print the result as JSON")
	fs.BoolVar(&onRetina, "on-retina", false, "train machines on parity over K cells of the retina")
	fs.StringVar(&seedList, "seeds", "1-10", "with --on-retina: master seeds, one machine each")
	addOptions(fs, fields, under("with --on-retina", machine.ParitySettings()))
	threadsFlag(fs, &threads, "the --on-retina machines, one a core")
	mf.register(fs, nil)
	if err := env.parse(fs, args); err != nil {
		return err
	}
	if onRetina {
		return parityOnRetina(ctx, env, fs, &mf, fields, k, seedList, threads, asJSON)
	}
	if k < 1 || k > 8 {
		return usagef("limits parity: --k %d out of range [1, 8]", k)
	}
	r, err := limits.ParityOrder(k)
	if err != nil {
		return err
	}
	return emit(env.Stdout, asJSON, r)
}

// parityOnRetina is limits parity --on-retina: machine.Parity, printed.
func parityOnRetina(ctx context.Context, env *Env, fs *pflag.FlagSet, mf *machineFlags, fields fieldFlags, k int, seedList string, threads int, asJSON bool) error {
	g := given(fs)
	cfg, err := mf.build(g)
	if err != nil {
		return err
	}
	seeds, err := parseSeeds(seedList)
	if err != nil {
		return usageError{err}
	}
	o := machine.ParityOptions{DeckOptions: machine.DeckOptions{Config: cfg, Seeds: seeds, Threads: threads}, K: k}
	if err := setOptions(fs, &o, machine.ParitySettings(), false); err != nil {
		return err
	}
	if err := o.Validate(); err != nil {
		return fields.refuse(fmt.Errorf("limits parity --on-retina: %w", err), g)
	}
	res, err := machine.Parity(ctx, o)
	if err != nil {
		return err
	}
	return emit(env.Stdout, asJSON, res)
}

func runLimitsFigures(ctx context.Context, env *Env, args []string) error {
	var mf machineFlags
	var rule, seedList string
	var threads int
	var reach, asJSON bool
	fields := fieldFlags{}
	fs := newFlags(env, "limits figures [--wiring local:D] [--length L] [--seeds S] [--rule R] [--reach] [--json]", `Minsky and Papert's four figures (1969, §0.8): three strands joined at each end
top–middle or middle–bottom, connected (X01, X10) or in two pieces (X00, X11). Trains a
machine per seed on the four and reports how many it answers right, and how many of its
A-units see both ends (break the locality identity). With --wiring local:D and D below the
figure's span (L + 2), no A-unit can, and no machine answers all four right. --reach: for
L = 4…18, the smallest D at which some seed does (docs/limits.md).`)
	mf.register(fs, nil)
	addOptions(fs, fields, machine.FourSettings(), "length")
	fs.StringVar(&seedList, "seeds", "1-10", "master seeds, one machine each (A-B or a list 1,4,9)")
	fs.StringVar(&rule, "rule", "error-correction", "training rule, as train's --rule")
	addOptions(fs, fields, machine.FourSettings(), "epochs")
	fs.BoolVar(&reach, "reach", false, "for L = 4…18, the smallest window D at which some seed answers all four right")
	fs.BoolVar(&asJSON, "json", false, "print the result as JSON")
	threadsFlag(fs, &threads, "the machines, one a core")
	if err := env.parse(fs, args); err != nil {
		return err
	}
	g := given(fs)
	cfg, err := mf.build(g)
	if err != nil {
		return err
	}
	r, err := machine.ParseRule(rule)
	if err != nil {
		return usagef("--rule: %v", err)
	}
	seeds, err := parseSeeds(seedList)
	if err != nil {
		return usageError{err}
	}
	o := machine.FourOptions{DeckOptions: machine.DeckOptions{Config: cfg, Recipe: machine.Recipe{Rule: r}, Seeds: seeds, Threads: threads}}
	if err := setOptions(fs, &o, machine.FourSettings(), false); err != nil {
		return err
	}
	if err := o.Validate(); err != nil {
		return fields.refuse(fmt.Errorf("limits figures: %w", err), g)
	}
	if reach {
		rows, err := machine.FourReachAll(ctx, o, machine.FourReachLengths())
		if err != nil || asJSON {
			return cmp.Or(err, writeJSON(env.Stdout, rows))
		}
		return machine.WriteFourReach(env.Stdout, rows, o)
	}
	res, err := machine.FourFigures(ctx, o)
	if err != nil {
		return err
	}
	return emit(env.Stdout, asJSON, res)
}

func runLimitsVC(ctx context.Context, env *Env, args []string) error {
	var pts, png string
	var asJSON bool
	fs := newFlags(env, "limits vc [--points \"x,y;x,y;…\"] [--png FILE] [--json]", `The VC dimension of lines in the plane: of the 2^n labelings of n points, which a line
separates (decided by linear programming, a separating line for each). Four points in
general position: 14 of 16; the two that fail on the square's corners are XOR and XNOR.`)
	fs.StringVar(&pts, "points", "0,0;1,0;0,1;1,1", "the points, x,y separated by semicolons (1 to 6 points)")
	fs.StringVar(&png, "png", "", "draw every labeling, with its line, as a sheet to this PNG file")
	fs.BoolVar(&asJSON, "json", false, "print the result as JSON")
	if err := env.parse(fs, args); err != nil {
		return err
	}
	points, err := limits.ParsePoints(pts, 6)
	if err != nil {
		return usagef("--points: %v", err)
	}
	r, err := limits.CountSeparable(points)
	if err != nil {
		return err
	}
	if err := drawTo(png, func() (*chart.Drawing, error) {
		panels, err := r.Panels()
		return chart.DrawSheet(r.SheetTitle(), min(4, len(panels)), panels), err
	}); err != nil {
		return err
	}
	return emit(env.Stdout, asJSON, r)
}
