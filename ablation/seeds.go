package ablation

import (
	"context"
	"errors"
	"fmt"

	"mark1/images"
	"mark1/machine"
)

// A SeedRun is one fresh machine's ablation (Seeds).
type SeedRun struct {
	Seed        uint64
	Points      []Point
	Train, Test int // cards
}

// Seeds repeats the ablation over fresh machines like m: for each master
// seed, m's configuration and recipe with that seed (a new plugboard,
// cards, split, order and noise), the recipe's data loaded as
// machine.Recipe.Load loads them, within lim (name names m's file in
// errors), trained as the recipe says, then ablated with spec, its fault
// draws seeded by the same seed. spec.Workers machines run at once, each
// on one core; the results, in seed order, do not depend on it. Pool
// averages them.
func Seeds(ctx context.Context, m *machine.Machine, name string, spec Spec, seeds []uint64, lim images.Limits) ([]SeedRun, error) {
	if m.Recipe == nil {
		return nil, fmt.Errorf("%s: %w, so fresh machines cannot be trained like it", name, machine.ErrNoRecipe)
	}
	spec.Recipe = *m.Recipe
	threads := spec.Workers
	spec.Workers = 1 // the seeds run in parallel instead
	return machine.ForSeeds(ctx, seeds, threads, func(ctx context.Context, seed uint64) (SeedRun, error) {
		r := *m.Recipe
		r.Data.Seed = seed
		r.TrainSize, r.TestSize, r.TrainSum, r.TestSum = 0, 0, "", "" // a fresh split: its sizes and cards are not the file's
		r.TrainCards, r.TestCards = nil, nil
		train, test, err := r.LoadContext(ctx, m.Classes, name, lim)
		if err != nil {
			return SeedRun{}, err
		}
		if test.Len() == 0 {
			return SeedRun{}, errors.New("no held-out cards to measure P_g on")
		}
		fresh, err := machine.New(m.Config, m.Classes, machine.SeedsFrom(seed), nil)
		if err != nil {
			return SeedRun{}, err
		}
		tr, te := fresh.Fields(train), fresh.Fields(test)
		s, err := machine.NewSession(fresh, r, tr, te)
		if err != nil {
			return SeedRun{}, err
		}
		if _, err := s.Run(ctx, nil); err != nil {
			return SeedRun{}, err
		}
		sp := spec
		sp.Seed = seed
		pts, err := Run(ctx, fresh, tr, te, sp)
		return SeedRun{Seed: seed, Points: pts, Train: tr.Len(), Test: te.Len()}, err
	})
}

// SeedsReport is an ablation repeated over fresh machines: the points
// pooled over the machines (Pool) and each machine's own.
type SeedsReport struct {
	Seeds   []uint64  `json:"seeds"`
	Points  []Point   `json:"points"`
	PerSeed [][]Point `json:"per_seed"`
	// Train and Test are the cards each machine was trained and tested on.
	Train int `json:"train"`
	Test  int `json:"test"`
}

// SummariseSeeds pools runs, one per seed of seeds.
func SummariseSeeds(seeds []uint64, runs []SeedRun) *SeedsReport {
	r := &SeedsReport{Seeds: seeds, PerSeed: make([][]Point, len(runs))}
	for i, run := range runs {
		r.PerSeed[i] = run.Points
	}
	r.Points = Pool(r.PerSeed)
	if len(runs) > 0 {
		r.Train, r.Test = runs[0].Train, runs[0].Test
	}
	return r
}
