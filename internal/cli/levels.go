package cli

import (
	"context"
	"strings"

	"mark1/levels"
)

func runLevels(ctx context.Context, env *Env, args []string) error {
	var (
		tasks, png string
		seeds, n   int
		epochs     int
		threads    int
		asJSON     bool
	)
	fs := newFlags(env, "levels [flags]", `What the motors cost: for each task, P_g of the machine with ideal pots (the
textbook perceptron) against the mark1 preset's pots, and — one property at a time
— the fewest readable pot levels, the largest step noise and the largest backlash
at which P_g stays within one point of the ideal machine's (mean of the paired
differences over the seeds, each machine against its ideal twin on the same cards
and wiring). It answers "how good did 1960 hardware have to be?". The same seeds
give the same table, whatever --threads.`)
	fs.StringVar(&tasks, "tasks", strings.Join(levels.DefaultTasks(), ","), "comma-separated built-in tasks")
	fs.IntVar(&seeds, "seeds", 10, "master seeds 1…N, 2 to 1000")
	fs.IntVar(&n, "n", 50, "cards per class (40% held out), 2 to 10000")
	fs.IntVar(&epochs, "epochs", 50, "epoch limit of each machine, 1 to 100000")
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
	opts := levels.Options{Tasks: strings.Split(tasks, ","), Seeds: explicitZero(seeds), PerClass: explicitZero(n), Epochs: explicitZero(epochs), Threads: t}
	fields := fieldFlags{"seeds": "--seeds", "per_class": "--n", "epochs": "--epochs", "tasks": "--tasks"}
	if err := opts.Validate(); err != nil { // the ranges are the library's
		return fields.usageGiven(err, given(fs))
	}
	rep, err := levels.Measure(ctx, opts)
	if err != nil {
		return err
	}
	return emitDrawn(env.Stdout, asJSON, rep, rep.Draw, png, "the table")
}
