package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"mark1/ablation"
	"mark1/images"
	"mark1/internal/base/atomicfile"
)

func runAblate(ctx context.Context, env *Env, args []string) error {
	var data dataFlags
	var path, parts, fractions, plotPath, seedList string
	var retrain, draws, threads int
	var seed uint64
	var jsonOut, quiet bool
	fields := fieldFlags{} // ablation.Spec's fields → the flags that set them
	fs := newFlags(env, "ablate --machine FILE [--task NAME | --data PATH] [flags]", `Fails increasing fractions of a trained machine's A-units or pots and measures
P_g on held-out cards, right after the failure and after a few epochs of
retraining: how gracefully the machine degrades (Rosenblatt 1958). A failed
A-unit never fires; a failed pot rests at a random position and cannot move.
Without --task or --data it uses the data the machine file records (the same
training and held-out cards as in training).`)
	fs.StringVar(&path, "machine", "mark1.json", "the trained machine file")
	data.register(fs, true)
	fs.StringVar(&parts, "fail", "a-units,pots", "what fails, comma-separated: a-units, pots")
	fs.StringVar(&fractions, "fractions", "0,0.05,0.1,0.2,0.3,0.5,0.7,0.9", "fractions of the parts that fail, comma-separated, each in [0, 1]")
	fs.IntVar(&retrain, "retrain", 3, "epochs of retraining after each failure (0 = none)")
	fields.add("fractions", "fractions")
	fields.add("parts", "fail")
	fields.add("retrain", "retrain")
	fs.StringVar(&seedList, "seeds", "", "repeat over fresh machines: for each master seed (A-B or a list) build and train a\nmachine as the machine file's recipe says, with that seed for wiring, cards and faults, and\nablate it; print the mean ± standard deviation over the machines")
	fs.IntVar(&draws, "draws", 5, "independent fault draws per fraction, averaged (mean ± standard deviation); run on all cores")
	fields.add("draws", "draws")
	fs.Uint64Var(&seed, "seed", 1, "seed for which parts fail, and for a built-in task's cards and split")
	fs.StringVar(&plotPath, "plot", "", "draw P_g against the fraction failed to this PNG")
	fs.BoolVar(&jsonOut, "json", false, "print the points as JSON")
	fs.BoolVar(&quiet, "quiet", false, "print no progress line on standard error (drawn only on a terminal, for runs over a second)")
	threadsFlag(fs, &threads, "the fault draws (or the --seeds machines)")
	fields.add("workers", "threads")
	if err := env.parse(fs, args); err != nil {
		return err
	}
	g := given(fs)
	nw, err := workers(threads)
	if err != nil {
		return err
	}
	spec := ablation.Spec{Retrain: retrain, Seed: seed, Draws: explicitZero(draws), Workers: nw}
	for _, p := range split(parts) {
		part, err := ablation.ParsePart(p)
		if err != nil {
			return usagef("--fail: %v", err)
		}
		spec.Parts = append(spec.Parts, part)
	}
	if len(spec.Parts) == 0 {
		return usagef("--fail: name a-units, pots or both")
	}
	for _, f := range split(fractions) {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return usagef("--fractions: %q is not a number", f)
		}
		spec.Fractions = append(spec.Fractions, v)
	}
	if len(spec.Fractions) == 0 {
		return usagef("--fractions: give at least one fraction")
	}
	if err := spec.Validate(); err != nil { // the ranges are the library's (ablation.Spec.Validate)
		if msg, ok := fields.blame(err, g); ok {
			return usageError{errors.New(msg)}
		}
		return usageError{err}
	}
	if plotPath != "" && !strings.HasSuffix(strings.ToLower(plotPath), ".png") {
		return usagef("--plot %q: the plot is a PNG; name the file *.png", plotPath)
	}
	m, err := loadMachine(ctx, data.memory.bytes(), path)
	if err != nil {
		return err
	}
	if seedList != "" {
		lim, err := data.limits(g)
		if err != nil {
			return err
		}
		return ablateSeeds(ctx, env, g, m, path, seedList, spec, lim, jsonOut)
	}
	var train, test *images.Dataset
	if data.task == "" && data.data == "" {
		if g.has("test", "test-split", "n", "card-size") {
			return usagef("ablate: --test, --test-split, --n and --card-size need --task or --data")
		}
		if m.Recipe == nil {
			return fmt.Errorf("%s: the machine file does not record its data (no recipe): give --task or --data", path)
		}
		var lim images.Limits
		if lim, err = data.limits(g); err != nil {
			return err
		}
		train, test, err = m.Recipe.LoadContext(ctx, m.Classes, path, lim)
		err = dataHint(err)
	} else {
		train, test, err = data.load(ctx, g, seed)
		if err == nil {
			if err = relabel(train, m.Classes); err == nil {
				err = relabel(test, m.Classes)
			}
		}
	}
	if err != nil {
		return err
	}
	if test.Len() == 0 {
		return usagef("ablate: no held-out cards to measure P_g on (use --test or a --test-split above 0)")
	}
	if m.Recipe != nil {
		spec.Recipe = *m.Recipe // retrain as it was trained; without a recipe: error correction, α, one pulse
	}
	if err := data.checkFit(m.Config, train, test); err != nil {
		return err
	}
	prog := newProgress(env.Stderr, quiet, time.Now)
	prog.begin("ablating "+filepath.Base(path), "measurement", 0, len(spec.Parts)*max(1, spec.Draws)*max(1, len(spec.Fractions)), false, 250*time.Millisecond)
	spec.Progress = func(done, _ int) { prog.set(done, "") }
	points, err := ablation.Run(ctx, m, m.Fields(train), m.Fields(test), spec)
	prog.end()
	if err != nil {
		if msg, ok := fields.blame(err, g); ok { // a range this machine narrows (its epochs and --retrain's)
			return errors.New(msg)
		}
		return err
	}
	if plotPath != "" {
		if err := plotAblation(plotPath, path, test.Name, len(m.Classes), spec, points); err != nil {
			return err
		}
	}
	if jsonOut {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(pointsJSON(points))
	}
	w := env.Stdout
	fmt.Fprintf(w, "%s on %s (%d held-out cards; %d A-units, %d pots): P_g as parts fail", path, test.Name, test.Len(), len(m.Plugboard.Units), m.Bank.Len())
	if retrain > 0 {
		fmt.Fprintf(w, ", then after %d epochs of retraining (%s) on %d cards", retrain, spec.Recipe.Rule, train.Len())
	}
	fmt.Fprintf(w, ".\n\n%s", ablation.Table(points))
	if plotPath != "" {
		fmt.Fprintf(w, "\nPlotted to %s.\n", plotPath)
	}
	return nil
}

// plotAblation draws P_g against the fraction of parts failed.
// A dotted line marks chance, 1/classes.
func plotAblation(path, machineFile, data string, classes int, spec ablation.Spec, points []ablation.Point) error {
	p := plot.New()
	p.Title.Text = "Graceful degradation: " + machineFile + " on " + data
	p.X.Label.Text = "parts failed (%)"
	p.Y.Label.Text = "P_g, held-out cards recognized (%)"
	p.X.Min, p.X.Max = 0, 100
	p.Y.Min, p.Y.Max = 0, 100
	p.Legend.Top = false
	p.Legend.Left = true
	p.Add(plotter.NewGrid())
	chance, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 100 / float64(classes)}, {X: 100, Y: 100 / float64(classes)}})
	if err != nil {
		return fmt.Errorf("plotting %s: %w", path, err)
	}
	chance.Dashes = []vg.Length{vg.Points(1), vg.Points(3)}
	p.Add(chance)
	p.Legend.Add(fmt.Sprintf("chance (1 in %d)", classes), chance)
	add := func(name string, pick func(ablation.Point) *float64, part ablation.Part, dashed bool) error {
		var pts plotter.XYs
		for _, q := range points {
			if v := pick(q); q.Part == part && v != nil {
				pts = append(pts, plotter.XY{X: 100 * q.Fraction, Y: 100 * *v})
			}
		}
		if len(pts) == 0 {
			return nil
		}
		l, s, err := plotter.NewLinePoints(pts)
		if err != nil {
			return fmt.Errorf("plotting %s: %w", path, err)
		}
		c := plotutil.Color(int(part))
		l.Color, s.Color = c, c
		l.Width = vg.Points(1.5)
		s.Shape = draw.CircleGlyph{}
		if dashed {
			l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
			s.Shape = draw.BoxGlyph{}
		}
		p.Add(l, s)
		p.Legend.Add(name, l, s)
		return nil
	}
	for _, part := range spec.Parts {
		if err := add(part.String()+" failed", func(q ablation.Point) *float64 { return &q.Pg }, part, false); err != nil {
			return err
		}
		if spec.Retrain > 0 {
			name := fmt.Sprintf("%s failed, then %d epochs retrained", part, spec.Retrain)
			if err := add(name, func(q ablation.Point) *float64 { return q.Retrained }, part, true); err != nil {
				return err
			}
		}
	}
	wt, err := p.WriterTo(8*vg.Inch, 5*vg.Inch, "png")
	if err != nil {
		return fmt.Errorf("plotting %s: %w", path, err)
	}
	return atomicfile.Write(path, func(f *os.File) error { _, err := wt.WriteTo(f); return err })
}

// pointJSON is an ablation point as ablate --json prints it.
type pointJSON struct {
	Part      string   `json:"part"`
	Fraction  float64  `json:"fraction"`
	Failed    int      `json:"failed"`
	Of        int      `json:"of"`
	Pg        float64  `json:"p_g"`
	Retrained *float64 `json:"p_g_retrained"`
	Draws     int      `json:"draws"`
	Machines  int      `json:"machines,omitempty"`
	PgSD      float64  `json:"p_g_sd"`
	RetSD     *float64 `json:"p_g_retrained_sd"`
}

func pointsJSON(points []ablation.Point) []pointJSON {
	out := make([]pointJSON, len(points))
	for i, p := range points {
		out[i] = pointJSON{Part: p.Part.String(), Fraction: p.Fraction, Failed: p.Failed, Of: p.Of, Pg: p.Pg, Retrained: p.Retrained,
			Draws: p.Draws, Machines: p.Machines, PgSD: p.PgSD, RetSD: p.RetrainedSD}
	}
	return out
}
