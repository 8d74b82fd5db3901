package cli

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"mark1/associator"
	"mark1/dials"
	"mark1/machine"

	"github.com/spf13/pflag"
)

// defaultPaModels are further settings drawn beside the machine's own: the
// two families of the 1958 paper's figures (x=y=5, and x=10 with no
// inhibition), at thresholds chosen to show how θ moves the curve.
var defaultPaModels = []string{"5:5:1", "5:5:3", "10:0:3", "10:0:6"}

// paFlags registers pa's flags on a new flag set.
func paFlags(env *Env, mf *machineFlags, df *dataFlags, png, svg *string, models *[]string) *pflag.FlagSet {
	fs := newFlags(env, "pa [--task NAME | --data PATH] [machine flags] [--png FILE]", `Shows a task's cards to an untrained machine and sets the fraction of
A-units each one fires (P_a) beside Rosenblatt's 1958 probability model for
the machine's x, y and θ at the card's lit area. The model is computed exactly
for a unit whose x+y origin points are distinct S-units drawn at random (as
the plugboard is wired), on a retina with exactly that many cells lit.
Prints a table by lit area; --png or --svg draws P_a against the fraction lit:
the model's curves and the cards as points.`)
	df.register(fs, false)
	mf.register(fs, df.memory)
	fs.StringVar(png, "png", "", "draw P_a against the fraction lit to this PNG file")
	fs.StringVar(svg, "svg", "", "draw it to this SVG file")
	fs.StringSliceVar(models, "models", defaultPaModels, "further model curves to draw, each x:y:θ")
	return fs
}

func runPa(ctx context.Context, env *Env, args []string) error {
	var mf machineFlags
	var df dataFlags
	var png, svg string
	var models []string
	fs := paFlags(env, &mf, &df, &png, &svg, &models)
	if err := env.parse(fs, args); err != nil {
		return err
	}
	cfg, err := mf.build(given(fs))
	if err != nil {
		return err
	}
	if cfg.Retina.Analog {
		return usagef("pa: the 1958 model assumes on/off S-units; drop --analog")
	}
	own := associator.ModelOf(cfg.Associator)
	curves, err := paModels(own, models)
	if err != nil {
		return err
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
	rep, err := machine.MeasureCards(ctx, m, m.Fit(all), len(all.Classes))
	if err != nil {
		return err
	}
	printCards(env.Stdout, rep, fmt.Sprintf("%s: %d cards on a %d-cell retina, %d A-units with %v (seed %d).", all.Name, len(rep.Cards), m.Retina.Cells(), len(m.Plugboard.Units), own, mf.seed), own)
	if png == "" && svg == "" {
		return nil
	}
	return drawPa(ctx, env, fmt.Sprintf("P_a against lit area: %s, %d A-units, seed %d", all.Name, len(m.Plugboard.Units), mf.seed), rep, m.Retina.Cells(), curves, png, svg)
}

// drawPa draws P_a against the lit area to the PNG and SVG files named.
func drawPa(ctx context.Context, env *Env, title string, rep *machine.CardsReport, cells int, curves []associator.Model, png, svg string) error {
	if err := ctx.Err(); err != nil { // interrupted before the drawing
		return err
	}
	d, err := dials.PaCurves(title, rep.Cards, cells, curves)
	if err != nil {
		return err
	}
	if err := writeDrawing(d, png, svg); err != nil {
		return err
	}
	for _, path := range []string{png, svg} {
		if path != "" {
			fmt.Fprintf(env.Stdout, "Drew P_a against lit area to %s.\n", path)
		}
	}
	return nil
}

// paModels returns the model curves to draw: the machine's own, then the
// --models that differ from it.
func paModels(own associator.Model, models []string) ([]associator.Model, error) {
	curves := []associator.Model{own}
	for _, s := range models {
		m, err := parseModel(s)
		if err != nil {
			return nil, usagef("pa: --models %q: %v", s, err)
		}
		if m != own {
			curves = append(curves, m)
		}
	}
	return curves, nil
}

// printCards prints what MeasureCards found: P_a, by lit area, P_c, the
// source-sets and PR58's criterion.
func printCards(w io.Writer, r *machine.CardsReport, title string, own associator.Model) {
	s := r.Summary
	fmt.Fprintln(w, title)
	fmt.Fprintf(w, "  lit area: mean %.1f%% of the retina\n", 100*s.MeanLit)
	fmt.Fprintf(w, "  P_a measured: mean %.1f%%, smallest %.1f%%, largest %.1f%%; correlation with lit area %.2f\n",
		100*s.Mean, 100*s.Min, 100*s.Max, s.Correlation)
	fmt.Fprintf(w, "  P_a of the 1958 model at each card's lit area: mean %.1f%%; cards above 20%%: %d\n", 100*s.Model, r.Over20)
	fmt.Fprintf(w, "\n  %-12s %6s %12s %12s\n", "lit area", "cards", "P_a measured", "P_a model")
	for _, b := range r.Bins {
		fmt.Fprintf(w, "  %3.0f–%3.0f%%     %6d %11.1f%% %11.1f%%\n", 100*b.Lo, 100*b.Hi, b.Cards, 100*b.Mean, 100*b.Model)
	}
	for _, pc := range []struct {
		which string
		m     *machine.PcMean
	}{{"of the same class", r.Same}, {"of different classes", r.Other}} {
		if pc.m != nil {
			fmt.Fprintf(w, "  P_c, units firing for a card that also fire for the next card %s (%d pairs): measured %.1f%%, 1958 model %.1f%%\n",
				pc.which, pc.m.Pairs, 100*pc.m.Measured, 100*pc.m.Model)
		}
	}
	if ss := r.SourceSets; ss != nil {
		fmt.Fprintf(w, "  source-sets: ω = %.3g (the fraction of the sets each A-unit feeds), %d A-units in R0's set, N_e = %d of them\n    not feeding R1 (PR58's effective units: those in common add equally to both sides)\n",
			ss.Omega, ss.InR0, ss.Effective)
	}
	if c := r.Criterion; c != nil {
		holds := map[bool]string{true: "holds", false: "does not hold"}
		fmt.Fprintf(w, "  PR58's generalisation criterion P_c12 < P_a < P_c11 (other class < any card < same class;\n    sufficient for P_g above chance, not necessary):\n")
		fmt.Fprintf(w, "    measured:   P_c12 %.1f%%, P_a %.1f%%, P_c11 %.1f%%: %s\n", 100*r.Other.Measured, 100*s.Mean, 100*r.Same.Measured, holds[c.Measured])
		fmt.Fprintf(w, "    1958 model: P_c12 %.1f%%, P_a %.1f%%, P_c11 %.1f%%: %s\n", 100*r.Other.Model, 100*s.Model, 100*r.Same.Model, holds[c.Model])
	}
	fmt.Fprintf(w, "\n  the 1958 model (%v) by lit area: ", own)
	for _, p := range r.ModelAt {
		fmt.Fprintf(w, "%.0f%% → %.1f%%  ", 100*p.Lit, 100*p.Pa)
	}
	fmt.Fprintln(w)
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
