package cli

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"mark1/ablation"
	"mark1/chart"
	"mark1/images"
	"mark1/internal/progress"
	"mark1/machine"

	"github.com/spf13/pflag"
)

// ablateOptions are ablate's flags.
type ablateOptions struct {
	data                     dataFlags
	path, plotPath, seedList string
	threads                  int
	seed                     uint64
	jsonOut, quiet           bool
	fs                       *pflag.FlagSet
	fields                   fieldFlags // ablation.Spec's fields → the flags that set them
}

// ablateFlags registers ablate's flags on a new flag set.
func ablateFlags(env *Env, o *ablateOptions) *pflag.FlagSet {
	o.fields = fieldFlags{"workers": "--threads"}
	fs := newFlags(env, "ablate --machine FILE [--task NAME | --data PATH] [flags]", `Fails increasing fractions of a trained machine's A-units or pots and measures
P_g on held-out cards, right after the failure and after a few epochs of
retraining: how gracefully the machine degrades (Rosenblatt 1958). A failed
A-unit never fires; a failed pot rests at a random position and cannot move.
Without --task or --data it uses the data the machine file records (the same
training and held-out cards as in training).`)
	fs.StringVar(&o.path, "machine", "mark1.json", "the trained machine file")
	o.data.register(fs, true)
	addOptions(fs, o.fields, ablation.SpecOptions(), "fail", "fractions", "retrain")
	fs.StringVar(&o.seedList, "seeds", "", "repeat over fresh machines: for each master seed (A-B or a list) build and train a\nmachine as the machine file's recipe says, with that seed for wiring, cards and faults, and\nablate it; print the mean ± standard deviation over the machines")
	addOptions(fs, o.fields, ablation.SpecOptions(), "draws")
	fs.Uint64Var(&o.seed, "seed", 1, "seed for which parts fail, and for a built-in task's cards and split")
	fs.StringVar(&o.plotPath, "plot", "", "draw P_g against the fraction failed to this PNG")
	fs.BoolVar(&o.jsonOut, "json", false, "print the points as JSON")
	fs.BoolVar(&o.quiet, "quiet", false, "print no progress line on standard error (drawn only on a terminal, for runs over a second)")
	threadsFlag(fs, &o.threads, "the fault draws (or the --seeds machines)")
	o.fs = fs
	return fs
}

func runAblate(ctx context.Context, env *Env, args []string) error {
	var o ablateOptions
	fs := ablateFlags(env, &o)
	if err := env.parse(fs, args); err != nil {
		return err
	}
	g := given(fs)
	spec, err := o.spec(g)
	if err != nil {
		return err
	}
	m, err := loadMachine(ctx, o.data.memory.bytes(), o.path)
	if err != nil {
		return err
	}
	if o.seedList != "" {
		lim, err := o.data.limits(g)
		if err != nil {
			return err
		}
		return ablateSeeds(ctx, env, g, m, o.path, o.seedList, spec, lim, o.jsonOut)
	}
	train, test, err := o.cards(ctx, g, m)
	if err != nil {
		return err
	}
	if m.Recipe != nil {
		spec.Recipe = *m.Recipe // retrain as it was trained; without a recipe: error correction, α, one pulse
	}
	prog := progress.New(env.Stderr, o.quiet, time.Now)
	prog.Begin(progress.Run{Label: "ablating " + filepath.Base(o.path), Unit: "measurement", Total: len(spec.Parts) * max(1, spec.Draws) * max(1, len(spec.Fractions)), Tick: 250 * time.Millisecond})
	spec.Progress = func(done, _ int) { prog.Set(done, "") }
	points, err := ablation.Run(ctx, m, m.Fields(train), m.Fields(test), spec)
	prog.End()
	if err != nil {
		if msg, ok := o.fields.blame(err, g); ok { // a range this machine narrows (its epochs and --retrain's)
			return errors.New(msg)
		}
		return err
	}
	if err := drawTo(o.plotPath, func() (*chart.Drawing, error) {
		return ablation.Draw(o.path+" on "+test.Name, len(m.Classes), spec, points)
	}); err != nil {
		return err
	}
	if o.jsonOut {
		return writeJSON(env.Stdout, points)
	}
	if err := ablation.WriteRun(env.Stdout, o.path, m, train, test, spec, points); err != nil || o.plotPath == "" {
		return err
	}
	_, err = fmt.Fprintf(env.Stdout, "\nPlotted to %s.\n", o.plotPath)
	return err
}

// spec returns the ablation the flags ask for, checked by its own rules
// (ablation.Spec.Validate).
func (o *ablateOptions) spec(g givenFlags) (ablation.Spec, error) {
	nw, err := workers(o.threads)
	if err != nil {
		return ablation.Spec{}, err
	}
	spec := ablation.Spec{Seed: o.seed, Workers: nw}
	if err := setOptions(o.fs, &spec, ablation.SpecOptions(), false); err != nil {
		return spec, err
	}
	if err := spec.Validate(); err != nil { // the ranges are the library's (ablation.Spec.Validate)
		return spec, o.fields.refuse(err, g)
	}
	if o.plotPath != "" && !strings.HasSuffix(strings.ToLower(o.plotPath), ".png") {
		return spec, usagef("--plot %q: the plot is a PNG; name the file *.png", o.plotPath)
	}
	return spec, nil
}

// cards returns the training and held-out cards: --task's or --data's
// (labelled as the machine's classes), else those the machine file
// records.
func (o *ablateOptions) cards(ctx context.Context, g givenFlags, m *machine.Machine) (train, test *images.Dataset, err error) {
	train, test, err = o.data.machineCards(ctx, g, m, o.path, o.seed, "ablate")
	if err != nil {
		return nil, nil, err
	}
	if test.Len() == 0 {
		return nil, nil, usagef("ablate: no held-out cards to measure P_g on (use --test or a --test-split above 0)")
	}
	return train, test, o.data.checkFit(m.Config, train, test)
}
