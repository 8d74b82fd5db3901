package cli

import (
	"context"
	"fmt"
	"io"
	"math"

	"mark1/learning"
	"mark1/machine"
)

// trainSeeds runs train once per --seeds seed (the master seed: wiring,
// cards, split, order and noise) and prints a row per seed and the mean ±
// standard deviation. It saves no machine.
func trainSeeds(ctx context.Context, env *Env, given givenFlags, o *trainOptions) error {
	for _, name := range []string{"resume", "record", "checkpoint-every", "seed", "out"} {
		if given.has(name) {
			return usagef("train --seeds repeats a fresh run for each seed and saves no machine: drop --%s", name)
		}
	}
	seeds, err := parseSeeds(o.seeds)
	if err != nil {
		return usageError{err}
	}
	threads, err := workers(o.threads)
	if err != nil {
		return err
	}
	// The flags are checked once, in the foreground, so a bad flag is one
	// usage error rather than one per seed; the runs are the library's
	// (machine.SeedExperiment).
	m, recipe, _, _, err := newTraining(ctx, given, o)
	if err != nil {
		return err
	}
	lim, err := o.data.limits(given)
	if err != nil {
		return err
	}
	exp := machine.SeedExperiment{Config: m.Config, Recipe: recipe, Limits: lim, Threads: threads}
	if o.machine.listing != "" {
		exp.Plugboard = m.Plugboard
	}
	runs, err := exp.Run(ctx, seeds)
	if err != nil {
		return dataHint(err)
	}
	if o.jsonOut {
		return writeJSON(env.Stdout, machine.SummariseSeeds(runs))
	}
	printSeedSummary(env.Stdout, machine.SummariseSeeds(runs))
	return nil
}

// printSeedSummary prints a row per seed and the runs taken together.
func printSeedSummary(w io.Writer, sum machine.SeedSummary) {
	r0 := sum.Runs[0]
	fmt.Fprintf(w, "Training over %d seeds (each a fresh machine, cards, split and order); %d training cards and %d held out per seed.\n\n",
		len(sum.Runs), r0.Train, r0.Test)
	fmt.Fprintf(w, "%6s  %-12s %6s %8s %11s %7s %7s %7s %9s\n", "seed", "ended", "epochs", "trials", "last corr.", "P_r", "P_g", "P_a", "P_a model")
	for _, r := range sum.Runs {
		pgs := "-"
		if !math.IsNaN(r.Pg) {
			pgs = fmt.Sprintf("%.1f%%", 100*r.Pg)
		}
		fmt.Fprintf(w, "%6d  %-12s %6d %8d %11d %6.1f%% %7s %6.1f%% %8.1f%%\n", r.Seed, r.Status, r.Epochs, r.Trials, r.LastMistake, 100*r.Pr, pgs, 100*r.Pa, 100*r.PaModel)
	}
	fmt.Fprintf(w, "\nOver %d seeds (mean ± standard deviation): converged %d of %d; epochs %s; last correction at trial %s;\n",
		len(sum.Runs), sum.Converged, len(sum.Runs), count(sum.Epochs), count(sum.LastMistake))
	fmt.Fprintf(w, "  P_r %s; P_g %s", pctSpread(sum.Pr), pctSpread(sum.Pg))
	if p := sum.PgPooled; p != nil {
		// All seeds' held-out cards pooled: one Wilson interval on the
		// total, beside the spread between seeds.
		fmt.Fprintf(w, " (all %d held-out cards pooled: %s)", p.N, rate(*p))
	}
	fmt.Fprintf(w, ";\n  P_a %s (the 1958 model at each card's lit area: %s).\n", pctSpread(sum.Pa), pctSpread(sum.PaModel))
	if p := sum.Purity; p != nil {
		fmt.Fprintf(w, "Trained without labels (spontaneous): P_r and P_g above count a response as the class of its number, which means nothing here;\n  as clusters of the hidden classes, purity %s, collapsed to one response in %d of %d seeds.\n",
			pctSpread(*p), sum.Collapsed, len(sum.Runs))
	}
}

// pctSpread formats a spread of fractions as "71.9 ± 3.1%".
func pctSpread(s learning.Spread) string {
	if math.IsNaN(s.Mean) {
		return "-"
	}
	return fmt.Sprintf("%.1f ± %.1f%%", 100*s.Mean, 100*s.SD)
}

// count formats a spread of counts as "59.0 ± 15.0".
func count(s learning.Spread) string {
	if math.IsNaN(s.Mean) {
		return "-"
	}
	return fmt.Sprintf("%.1f ± %.1f", s.Mean, s.SD)
}
