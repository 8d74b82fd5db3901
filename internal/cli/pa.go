package cli

import (
	"context"
	"errors"

	"mark1/associator"
	"mark1/dials"
	"mark1/machine"

	"github.com/spf13/pflag"
)

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
	// Further settings drawn beside the machine's own: the two families
	// of the 1958 paper's figures (x=y=5, and x=10 with no inhibition), at
	// thresholds chosen to show how θ moves the curve.
	fs.StringSliceVar(models, "models", []string{"5:5:1", "5:5:3", "10:0:3", "10:0:6"}, "further model curves to draw, each x:y:θ")
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
	extra, err := associator.ParseModels(models)
	if err != nil {
		return usagef("pa: --models %v", err)
	}
	seeds := machine.SeedsFrom(mf.seed)
	all, _, err := df.load(ctx, given(fs), seeds.Master)
	if err != nil {
		return err
	}
	res, err := machine.MeasurePaCards(ctx, machine.PaOptions{Config: cfg, Seeds: seeds, Cards: all, Models: extra, MaxBytes: df.memory.bytes()})
	if errors.As(err, new(*machine.PaModelError)) {
		return usagef("pa: --models: %v", err)
	}
	if err != nil {
		return dataHint(err)
	}
	if err := res.WriteText(env.Stdout); err != nil || png == "" && svg == "" {
		return err
	}
	if err := ctx.Err(); err != nil { // interrupted before the drawing
		return err
	}
	d, err := dials.PaCurves(res.DrawTitle(), res.Cards, res.Cells, res.Curves)
	if err != nil {
		return err
	}
	return drawFiles(env.Stdout, d, png, svg, "Drew P_a against lit area to %s.\n")
}
