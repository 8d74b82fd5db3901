package cli

import (
	"context"
	"fmt"
	"io"
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
	if asJSON {
		if err := writeJSON(env.Stdout, rep); err != nil {
			return err
		}
	} else {
		printLevels(env.Stdout, rep)
	}
	if png != "" {
		d, err := rep.Draw()
		if err != nil {
			return err
		}
		if err := writeDrawing(d, png, ""); err != nil {
			return err
		}
		if !asJSON {
			fmt.Fprintf(env.Stdout, "Drew the table to %s.\n", png)
		}
	}
	return nil
}

func printLevels(w io.Writer, r *levels.Report) {
	fmt.Fprintf(w, "P_g with ideal pots and with the mark1 preset's; how coarse or noisy the pots may be before P_g falls more than %.0f point\nbelow the ideal machine's (paired differences, mean and 95%% CI over seeds 1–%d; %d cards per class, 40%% held out, %d epochs):\n\n",
		100*r.Tolerance, r.Seeds, r.PerClass, r.Epochs)
	fmt.Fprintf(w, "%-15s %7s %8s %27s %27s %11s %15s %13s\n", "task", "classes", "ideal", "mark1 (diff, 95% CI)", "end stops only (diff, CI)", "min levels", "max step noise", "max backlash")
	for _, row := range r.Rows {
		fmt.Fprintf(w, "%-15s %7d %7.1f%% %7.1f%% (%+5.1f, %+5.1f…%+5.1f) %7.1f%% (%+5.1f, %+5.1f…%+5.1f) %11s %15s %13s\n", row.Task, row.Classes, 100*row.Ideal.Pg,
			100*row.Mark1.Pg, 100*row.Mark1.Diff, 100*row.Mark1.DiffLow, 100*row.Mark1.DiffHigh,
			100*row.Stops.Pg, 100*row.Stops.Diff, 100*row.Stops.DiffLow, 100*row.Stops.DiffHigh,
			orNone(row.MinLevels != 0, fmt.Sprint(row.MinLevels)), orNone(row.MaxNoise != 0, fmt.Sprint(row.MaxNoise)), orNone(row.MaxBacklash != 0, fmt.Sprint(row.MaxBacklash)))
	}
	fmt.Fprintf(w, "\nLevels are readable positions between end stops at ±%g (step %g, no noise or backlash); step noise and backlash on\notherwise ideal pots. \"none\": even the finest setting swept falls short. Settings swept: levels %v, noise %v, backlash %v.\n",
		r.Limit, r.Step, levels.Levels(), levels.Noises(), levels.Backlashes())
}

func orNone(ok bool, s string) string {
	if ok {
		return s
	}
	return "none"
}
