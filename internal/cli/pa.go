package cli

import (
	"context"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"mark1/associator"
	"mark1/dials"
	"mark1/internal/base/atomicfile"
	"mark1/learning"
	"mark1/machine"
)

// defaultPaModels are further settings drawn beside the machine's own: the
// two families of the 1958 paper's figures (x=y=5, and x=10 with no
// inhibition), at thresholds chosen to show how θ moves the curve.
var defaultPaModels = []string{"5:5:1", "5:5:3", "10:0:3", "10:0:6"}

func runPa(ctx context.Context, env *Env, args []string) error {
	var mf machineFlags
	var df dataFlags
	var png, svg string
	var models []string
	fs := newFlags(env, "pa [--task NAME | --data PATH] [machine flags] [--png FILE]", `Shows a task's cards to an untrained machine and sets the fraction of
A-units each one fires (P_a) beside Rosenblatt's 1958 probability model for
the machine's x, y and θ at the card's lit area. The model is computed exactly
for a unit whose x+y origin points are distinct S-units drawn at random (as
the plugboard is wired), on a retina with exactly that many cells lit.
Prints a table by lit area; --png or --svg draws P_a against the fraction lit:
the model's curves and the cards as points.`)
	df.register(fs, false)
	mf.register(fs, df.memory)
	fs.StringVar(&png, "png", "", "draw P_a against the fraction lit to this PNG file")
	fs.StringVar(&svg, "svg", "", "draw it to this SVG file")
	fs.StringSliceVar(&models, "models", defaultPaModels, "further model curves to draw, each x:y:θ")
	if err := env.parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("pa: unexpected argument %q", fs.Arg(0))
	}
	cfg, err := mf.build(given(fs))
	if err != nil {
		return err
	}
	if cfg.Retina.Analog {
		return usagef("pa: the 1958 model assumes on/off S-units; drop --analog")
	}
	own := associator.ModelOf(cfg.Associator)
	curves := []associator.Model{own}
	for _, s := range models {
		m, err := parseModel(s)
		if err != nil {
			return usagef("pa: --models %q: %v", s, err)
		}
		if m != own {
			curves = append(curves, m)
		}
	}
	seeds := machine.SeedsFrom(mf.seed)
	all, _, err := df.load(ctx, given(fs), seeds.Master)
	if err != nil {
		return err
	}
	if err := df.checkFit(cfg, all); err != nil {
		return err
	}
	m, err := machine.New(cfg, all.Classes, seeds, nil)
	if err != nil {
		return err
	}
	for _, c := range curves {
		if c.X+c.Y > m.Retina.Cells() {
			return usagef("pa: --models: %v has more origin points than the %d S-units", c, m.Retina.Cells())
		}
	}
	fields := m.Fit(all)
	cards := m.MeasurePa(fields)
	if err := ctx.Err(); err != nil {
		return err
	}
	w := env.Stdout
	s := machine.SummarisePa(cards)
	fmt.Fprintf(w, "%s: %d cards on a %d-cell retina, %d A-units with %v (seed %d).\n",
		all.Name, len(cards), m.Retina.Cells(), len(m.Plugboard.Units), own, mf.seed)
	fmt.Fprintf(w, "  lit area: mean %.1f%% of the retina\n", 100*s.MeanLit)
	fmt.Fprintf(w, "  P_a measured: mean %.1f%%, smallest %.1f%%, largest %.1f%%; correlation with lit area %.2f\n",
		100*s.Mean, 100*s.Min, 100*s.Max, s.Correlation)
	over := 0
	for _, c := range cards {
		if c.Pa() > 0.20 {
			over++
		}
	}
	fmt.Fprintf(w, "  P_a of the 1958 model at each card's lit area: mean %.1f%%; cards above 20%%: %d\n", 100*s.Model, over)
	fmt.Fprintf(w, "\n  %-12s %6s %12s %12s\n", "lit area", "cards", "P_a measured", "P_a model")
	for b := range 10 {
		var in []machine.PaCard
		for _, c := range cards {
			if k := min(int(10*c.Fraction()), 9); k == b {
				in = append(in, c)
			}
		}
		if len(in) == 0 {
			continue
		}
		bs := machine.SummarisePa(in)
		fmt.Fprintf(w, "  %3d–%3d%%     %6d %11.1f%% %11.1f%%\n", 10*b, 10*b+10, len(in), 100*bs.Mean, 100*bs.Model)
	}
	// P_c: a card against the next card of its class (cards are
	// interleaved by class) and against the next card of another class.
	k := len(all.Classes)
	pcMeas, pcModel := map[bool]float64{}, map[bool]float64{}
	for _, same := range []bool{true, false} {
		var meas, model []float64
		for i := 0; i < len(fields) && len(meas) < 200; i++ {
			j := i + 1
			if same {
				j = i + k
			}
			if j >= len(fields) {
				break
			}
			pc := m.MeasurePc(fields[i], fields[j])
			if !math.IsNaN(pc.Pc()) && !math.IsNaN(pc.Model) {
				meas, model = append(meas, pc.Pc()), append(model, pc.Model)
			}
		}
		if len(meas) == 0 {
			continue
		}
		which := "of the same class"
		if !same {
			which = "of different classes"
		}
		fmt.Fprintf(w, "  P_c, units firing for a card that also fire for the next card %s (%d pairs): measured %.1f%%, 1958 model %.1f%%\n",
			which, len(meas), 100*learning.SpreadOf(meas).Mean, 100*learning.SpreadOf(model).Mean)
		pcMeas[same], pcModel[same] = learning.SpreadOf(meas).Mean, learning.SpreadOf(model).Mean
	}
	// PR58's ω and N_e: only units not shared by two responses bias the
	// choice between them.
	if l := m.Layer; l.Used() >= 2 {
		sizes := l.SourceSetSizes()
		per := l.Associators()
		if sizes != nil {
			per = sizes[0]
		}
		fmt.Fprintf(w, "  source-sets: ω = %.3g (the fraction of the sets each A-unit feeds), %d A-units in R0's set, N_e = %d of them\n    not feeding R1 (PR58's effective units: those in common add equally to both sides)\n",
			l.Omega(), per, l.Effective(0, 1))
	}
	// PR58's condition for generalisation better than chance: a unit firing
	// for a card is likelier to fire for another card of its class than for
	// a card at random, and less likely for a card of another class.
	if _, ok := pcMeas[false]; ok {
		if _, ok := pcMeas[true]; ok {
			holds := func(c12, pa, c11 float64) string {
				if c12 < pa && pa < c11 {
					return "holds"
				}
				return "does not hold"
			}
			fmt.Fprintf(w, "  PR58's generalisation criterion P_c12 < P_a < P_c11 (other class < any card < same class;\n    sufficient for P_g above chance, not necessary):\n")
			fmt.Fprintf(w, "    measured:   P_c12 %.1f%%, P_a %.1f%%, P_c11 %.1f%%: %s\n", 100*pcMeas[false], 100*s.Mean, 100*pcMeas[true], holds(pcMeas[false], s.Mean, pcMeas[true]))
			fmt.Fprintf(w, "    1958 model: P_c12 %.1f%%, P_a %.1f%%, P_c11 %.1f%%: %s\n", 100*pcModel[false], 100*s.Model, 100*pcModel[true], holds(pcModel[false], s.Model, pcModel[true]))
		}
	}
	fmt.Fprintf(w, "\n  the 1958 model (%v) by lit area: ", own)
	for _, r := range []float64{0.05, 0.1, 0.2, 0.3, 0.5, 0.7} {
		fmt.Fprintf(w, "%.0f%% → %.1f%%  ", 100*r, 100*own.PaFinite(m.Retina.Cells(), int(math.Round(r*float64(m.Retina.Cells())))))
	}
	fmt.Fprintln(w)
	if png == "" && svg == "" {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	d, err := dials.PaCurves(fmt.Sprintf("P_a against lit area: %s, %d A-units, seed %d", all.Name, len(m.Plugboard.Units), mf.seed),
		cards, m.Retina.Cells(), curves)
	if err != nil {
		return err
	}
	for _, out := range []struct {
		path  string
		write func(f *os.File) error
	}{
		{png, func(f *os.File) error { return d.WritePNG(f) }},
		{svg, func(f *os.File) error { return d.WriteSVG(f) }},
	} {
		if out.path == "" {
			continue
		}
		if err := atomicfile.Write(out.path, out.write); err != nil {
			return err
		}
		fmt.Fprintf(w, "Drew P_a against lit area to %s.\n", out.path)
	}
	return nil
}

// parseModel reads x:y:θ.
func parseModel(s string) (associator.Model, error) {
	f := strings.Split(s, ":")
	if len(f) != 3 {
		return associator.Model{}, fmt.Errorf("want x:y:θ, e.g. 10:0:3")
	}
	var v [3]int
	for i, t := range f {
		n, err := strconv.Atoi(t)
		if err != nil || n < 0 || n > 64 {
			return associator.Model{}, fmt.Errorf("%q is not a count in [0, 64]", t)
		}
		v[i] = n
	}
	if v[0]+v[1] < 1 || v[0]+v[1] > 400 {
		return associator.Model{}, fmt.Errorf("need at least one origin point")
	}
	return associator.Model{X: v[0], Y: v[1], Theta: v[2]}, nil
}
