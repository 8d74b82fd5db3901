package machine

import (
	"encoding/json"

	"context"
	"errors"
	"fmt"
	"mark1/internal/base/jsonnum"
	"math"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"mark1/associator"
	"mark1/images"
)

// MaxSeeds bounds a list of seeds (ParseSeeds).
const MaxSeeds = 10_000

// ParseSeeds reads a list of master seeds: a range "A-B" (inclusive), a
// comma-separated list "1,4,9", or both ("1-3,9"); at most MaxSeeds.
func ParseSeeds(s string) ([]uint64, error) {
	var out []uint64
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if a, b, ok := strings.Cut(part, "-"); ok {
			lo, err1 := strconv.ParseUint(a, 10, 64)
			hi, err2 := strconv.ParseUint(b, 10, 64)
			if err1 != nil || err2 != nil || hi < lo {
				return nil, fmt.Errorf("%q is not a range A-B with A ≤ B", part)
			}
			if hi-lo >= MaxSeeds {
				return nil, fmt.Errorf("%q has more than %d seeds", part, MaxSeeds)
			}
			for v := lo; ; v++ {
				out = append(out, v)
				if v == hi {
					break
				}
			}
		} else {
			v, err := strconv.ParseUint(part, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("%q is not a seed (want A-B or a list like 1,4,9)", part)
			}
			out = append(out, v)
		}
		if len(out) > MaxSeeds {
			return nil, fmt.Errorf("more than %d seeds", MaxSeeds)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("no seeds")
	}
	return out, nil
}

// ForSeeds runs job once per seed, at most threads at a time (0: one per
// core), and returns the results in seed order: when each job depends only
// on its seed, the results are the same whatever the number of threads.
// The first error, in seed order, is returned, naming its seed; once ctx is
// cancelled, jobs not yet started are not started.
func ForSeeds[T any](ctx context.Context, seeds []uint64, threads int, job func(ctx context.Context, seed uint64) (T, error)) ([]T, error) {
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	out := make([]T, len(seeds))
	errs := make([]error, len(seeds))
	sem := make(chan struct{}, threads)
	var wg sync.WaitGroup
	for i, s := range seeds {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if err := ctx.Err(); err != nil {
				errs[i] = err
				return
			}
			out[i], errs[i] = job(ctx, s)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("seed %d: %w", seeds[i], err)
		}
	}
	return out, nil
}

// A SeedRun is what one seed's training run measured.
type SeedRun struct {
	Seed        uint64
	Status      Status
	Epochs      int
	Trials      int     // cards presented
	LastMistake int     // trial (1-based) of the last correction; 0 if none
	Pr, Pg      float64 // Pg is NaN without held-out cards
	Train, Test int     // cards
	Pa, PaModel float64 // P_a measured on the held-out cards (else the training cards), and the 1958 model's
	// Clusters, for a machine trained without labels (spontaneous), is how
	// its responses split the held-out cards (else the training cards)
	// against the hidden classes; nil for the other rules, whose Pr and Pg
	// mean what they say.
	Clusters *Clusters
}

// MarshalJSON writes r with snake_case names, its status in words and a
// P_g that was not measured as null.
func (r SeedRun) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Seed        uint64    `json:"seed"`
		Status      string    `json:"status"`
		Epochs      int       `json:"epochs"`
		Trials      int       `json:"trials"`
		LastMistake int       `json:"last_mistake"`
		Pr          float64   `json:"pr"`
		Pg          *float64  `json:"pg"`
		Train       int       `json:"train"`
		Test        int       `json:"test"`
		Pa          *float64  `json:"pa"`
		PaModel     *float64  `json:"pa_model"`
		Clusters    *Clusters `json:"clusters,omitempty"`
	}{r.Seed, r.Status.String(), r.Epochs, r.Trials, r.LastMistake, r.Pr, jsonnum.Of(r.Pg), r.Train, r.Test, jsonnum.Of(r.Pa), jsonnum.Of(r.PaModel), r.Clusters})
}

// MaxThreads bounds the goroutines that run independent work at once: a
// SeedExperiment's Threads and an ablation's workers.
const MaxThreads = 1024

// A SeedExperiment trains a fresh machine for each master seed: the
// configuration Config (wired by Plugboard if it is not nil), trained as
// Recipe says on Recipe.Data drawn and split with that seed, loaded within
// Limits (which also bound the machine and its cards, Config.CheckSize and
// CheckFit). The seed gives the wiring, the cards, the split, the order
// and the noise (SeedsFrom).
type SeedExperiment struct {
	Config    Config
	Plugboard *associator.Plugboard
	Recipe    Recipe
	Limits    images.Limits
	// Threads bounds the machines trained at once (0: one per core); the
	// results do not depend on it.
	Threads int
}

// Run trains a machine for each seed (ForSeeds) and returns what each run
// measured, in seed order.
func (e SeedExperiment) Run(ctx context.Context, seeds []uint64) ([]SeedRun, error) {
	return ForSeeds(ctx, seeds, e.Threads, e.one)
}

func (e SeedExperiment) one(ctx context.Context, seed uint64) (SeedRun, error) {
	src := e.Recipe.Data
	src.Seed = seed
	train, test, err := src.Within(e.Limits).LoadContext(ctx)
	if err != nil {
		return SeedRun{}, err
	}
	if mem := e.Limits.MaxBytes; mem > 0 {
		if err := e.Config.CheckSize(len(train.Classes), mem); err != nil {
			return SeedRun{}, err
		}
		if err := e.Config.CheckFit(train.Len()+test.Len(), mem); err != nil {
			return SeedRun{}, err
		}
	}
	m, err := New(e.Config, train.Classes, SeedsFrom(seed), e.Plugboard)
	if err != nil {
		return SeedRun{}, err
	}
	r := e.Recipe
	r.Data = src
	r.TrainSize, r.TestSize = train.Len(), test.Len()
	tr, te := m.Fields(train), m.Fields(test)
	s, err := NewSession(m, r, tr, te)
	if err != nil {
		return SeedRun{}, err
	}
	run := SeedRun{Seed: seed, Train: tr.Len(), Test: te.Len(), Pg: math.NaN()}
	var resp Response
	for !s.Done() {
		if err := ctx.Err(); err != nil {
			return SeedRun{}, err
		}
		p, err := s.Step(&resp)
		if err != nil {
			return SeedRun{}, err
		}
		run.Trials++
		if p.Mistake {
			run.LastMistake = run.Trials
		}
	}
	last := m.History[len(m.History)-1]
	run.Status, run.Epochs, run.Pr = s.Status(), len(m.History), last.Pr
	if last.Pg != nil {
		run.Pg = *last.Pg
	}
	on := te
	if on.Len() == 0 {
		on = tr
	}
	pa := SummarisePa(m.MeasurePa(on.X))
	run.Pa, run.PaModel = pa.Mean, pa.Model
	if r.Rule == Spontaneous {
		c := m.ClustersOf(on.X, on.Y)
		run.Clusters = &c
	}
	return run, nil
}
