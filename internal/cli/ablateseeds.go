package cli

import (
	"context"

	"mark1/ablation"
	"mark1/images"
	"mark1/machine"
)

// ablateSeeds repeats the ablation over fresh machines: for each seed, the
// machine file's configuration and recipe with that master seed (a new
// plugboard, cards, split, order and fault draws), trained as the recipe
// says, then ablated with spec (its fault draws seeded by the same seed).
// The points are the mean ± standard deviation over the machines of each
// machine's mean over its draws. Seeds run in parallel; each is
// independent, so the result does not depend on the number of threads.
// The recorded data are loaded as plain ablate loads them
// (machine.Recipe.Load), within lim.
func ablateSeeds(ctx context.Context, env *Env, given givenFlags, m *machine.Machine, path, list string, spec ablation.Spec, lim images.Limits, jsonOut bool) error {
	for _, name := range []string{"task", "data", "test", "test-split", "n", "card-size", "seed", "plot"} {
		if given.has(name) {
			return usagef("ablate --seeds trains fresh machines on the data the machine file records: drop --%s", name)
		}
	}
	seeds, err := parseSeeds(list)
	if err != nil {
		return usageError{err}
	}
	// The runs are the library's (ablation.Seeds), and so is the refusal
	// of a machine file without a recipe.
	runs, err := ablation.Seeds(ctx, m, path, spec, seeds, lim)
	if err != nil {
		return dataHint(err)
	}
	rep := ablation.SummariseSeeds(seeds, runs)
	if jsonOut {
		return writeJSON(env.Stdout, rep)
	}
	return rep.WriteText(env.Stdout, path, spec, m.Recipe.Rule)
}
