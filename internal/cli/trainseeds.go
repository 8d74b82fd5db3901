package cli

import (
	"context"

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
	t, err := newTraining(ctx, given, o)
	if err != nil {
		return err
	}
	lim, err := o.data.limits(given)
	if err != nil {
		return err
	}
	exp := machine.SeedExperiment{Config: t.Machine.Config, Recipe: t.Recipe, Limits: lim, Threads: threads}
	if o.machine.listing != "" {
		exp.Plugboard = t.Machine.Plugboard
	}
	runs, err := exp.Run(ctx, seeds)
	if err != nil {
		return dataHint(err)
	}
	if o.jsonOut {
		return writeJSON(env.Stdout, machine.SummariseSeeds(runs))
	}
	return machine.SummariseSeeds(runs).WriteText(env.Stdout)
}
