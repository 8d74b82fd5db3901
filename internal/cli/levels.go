package cli

import (
	"context"

	"mark1/levels"
)

func runLevels(ctx context.Context, env *Env, args []string) error {
	var (
		png     string
		threads int
		asJSON  bool
		fields  = fieldFlags{}
	)
	fs := newFlags(env, "levels [flags]", `What the motors cost: for each task, P_g of the machine with ideal pots (the
textbook perceptron) against the mark1 preset's pots, and — one property at a time
— the fewest readable pot levels, the largest step noise and the largest backlash
at which P_g stays within one point of the ideal machine's (mean of the paired
differences over the seeds, each machine against its ideal twin on the same cards
and wiring). It answers "how good did 1960 hardware have to be?". The same seeds
give the same table, whatever --threads.`)
	addOptions(fs, fields, levels.Settings())
	threadsFlag(fs, &threads, "machines trained at once")
	fs.StringVar(&png, "png", "", "draw the table to this PNG file")
	fs.BoolVar(&asJSON, "json", false, "print the report as JSON")
	if err := env.parse(fs, args); err != nil {
		return err
	}
	t, err := workers(threads)
	if err != nil {
		return err
	}
	opts := levels.Options{Threads: t}
	if err := setOptions(fs, &opts, levels.Settings(), false); err != nil {
		return err
	}
	if err := opts.Validate(); err != nil { // the ranges are the library's
		return fields.usageGiven(err, given(fs))
	}
	rep, err := levels.Measure(ctx, opts)
	if err != nil {
		return err
	}
	return emitDrawn(env.Stdout, asJSON, rep, rep.Draw, png, "the table")
}
