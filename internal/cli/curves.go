package cli

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"strings"

	"mark1/curves"
)

func runCurves(ctx context.Context, env *Env, args []string) error {
	var (
		figure, png string
		asJSON      bool
		data        dataFlags
		fields      = fieldFlags{}
	)
	fs := newFlags(env, "curves --figure NAME | --task NAME | --data PATH [flags]", `Draws Rosenblatt's 1958 learning curves from the papers' equations beside the
simulated machine: rt58-5 (RT58's Fig. 5, P_r and P_g for 100, 200 and 500
A-units per source-set on squares and circles, with RT58's worked point),
pr58-7 and pr58-8 (PR58's Figs. 7 and 8, P_r in the ideal environment, Σ and μ
decisions), pr58-9 (P_r against P_a, the machine's θ varied), pr58-10 (α, β
and γ with n_sr variable) and pr58-11 (P_r and P_g in a differentiated
environment, from P_a and P_c measured on the cards). Where a paper leaves a
constant unstated, or its OCR loses it, the value used, and why, is printed
and drawn. Measured points are means over seeds 1…N with Student-t 95%
intervals.
With --task or --data instead of --figure it draws pr58-11 for that card set:
P_r and P_g measured on its cards beside PR58's Eq. 11 at the P_a, P_c and
variances measured on them, with the limit and the ceiling those give.`)
	fs.StringVar(&figure, "figure", "", "the figure: "+strings.Join(curves.Names(), ", "))
	addOptions(fs, fields, curves.Settings())
	fs.StringVar(&png, "png", "", "draw the figure to this PNG file")
	fs.BoolVar(&asJSON, "json", false, "print every curve, the parameters used and (rt58-5) the worked point as JSON")
	data.register(fs, false)
	if err := env.parse(fs, args); err != nil {
		return err
	}
	g := given(fs)
	cards := g.has("task") || g.has("data")
	if err := checkCurvesSource(figure, cards, g); err != nil {
		return err
	}
	var opt curves.Options
	if err := setOptions(fs, &opt, curves.Settings(), false); err != nil {
		return err
	}
	if err := opt.Validate(); err != nil { // the ranges are the library's
		return fields.usageGiven(err, g)
	}
	var f *curves.Figure
	var err error
	if cards {
		f, err = curvesOfCards(ctx, &data, g, opt)
		if err != nil {
			return err
		}
		figure = "the card set's curves"
	} else if f, err = curves.Compute(ctx, figure, opt); err != nil {
		return cmp.Or(ctx.Err(), usagef("--figure %s: %v", figure, err))
	}
	return emitDrawn(env.Stdout, asJSON, curvesText{f}, f.Draw, png, figure)
}

// curvesText is a figure as mark1 curves prints it: the figure's text
// and, under RT58's worked point, the command that measures the cards.
type curvesText struct{ *curves.Figure }

func (f curvesText) WriteText(w io.Writer) error {
	if err := f.Figure.WriteText(w); err != nil || f.WorkedPoint == nil {
		return err
	}
	_, err := fmt.Fprintf(w, "    (P_a and P_c of the cards, with PR58's criterion: mark1 pa --task square-circle.)\n")
	return err
}

// checkCurvesSource refuses a figure and a card set together, or neither,
// and the card set's flags with a figure.
func checkCurvesSource(figure string, cards bool, g givenFlags) error {
	switch {
	case figure == "" && !cards:
		return usagef("curves: give --figure (%s), or --task NAME or --data PATH for a card set's own curves", strings.Join(curves.Names(), ", "))
	case figure != "" && cards:
		return usagef("curves: give --figure or a card set (--task, --data), not both")
	case !cards:
		for _, name := range []string{"n", "card-size", "max-pixels"} {
			if g.has(name) {
				return usagef("curves --figure: --%s is for a card set (--task, --data); the figures draw their own cards", name)
			}
		}
	}
	return nil
}

// curvesOfCards draws a card set's own curves (curves.CardsFigure): a
// built-in task, whose cards each seed draws afresh (--n and --card-size do
// not apply), or a data file, read as other commands read it.
func curvesOfCards(ctx context.Context, d *dataFlags, g givenFlags, opt curves.Options) (*curves.Figure, error) {
	if g["task"] != "" && g["data"] != "" {
		return nil, usagef("give --task or --data, not both")
	}
	var cards curves.Cards
	if cards.Task = g["task"]; cards.Task != "" {
		if g.has("n") || g.has("card-size") {
			return nil, usagef("curves --task: each seed draws the task's cards afresh, as many as --max-n asks (and 100 fresh per class), at the built-in size; --n and --card-size do not apply")
		}
		if _, err := d.source(g, 1); err != nil { // the task's name
			return nil, err
		}
	} else {
		all, _, err := d.load(ctx, g, 1)
		if err != nil {
			return nil, err
		}
		cards.Data = all
	}
	f, err := curves.CardsFigure(ctx, cards, opt)
	if err != nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return f, err
}
