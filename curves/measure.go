package curves

import (
	"context"
	"fmt"

	"mark1/images"
	"mark1/machine"
	"mark1/response"
)

// run is one simulated learning series and its test: the machine of the
// ideal preset (unbounded, continuous, noiseless pots: the theory's
// values) with 2·ne A-units in two source-sets, one R-unit per class,
// trained by monovalent forced learning (α) on n cards of each class, each
// presented once, then frozen and tested.
type run struct {
	task     string
	ne, n    int
	decision response.Decision
	seed     uint64
}

// testCards is the number of fresh cards per class P_g is measured on.
const testCards = 100

// measured is what one run gives: PR58's pairwise P_r on the learning
// series, P_g on fresh cards of the same task, and the machine's P_a.
type measured struct{ pr, pg, pa float64 }

func (r run) do(ctx context.Context) (measured, error) {
	if err := ctx.Err(); err != nil {
		return measured{}, err
	}
	cfg, err := machine.Preset("ideal")
	if err != nil {
		return measured{}, err
	}
	cfg.Associator.Units = 2 * r.ne
	cfg.Response.Code = response.OnePerClass
	cfg.Response.Decision = r.decision
	seeds := machine.SeedsFrom(r.seed)
	// Sample j of a class is the same card whatever the number asked for,
	// so the first n of each class are the learning series and the rest are
	// fresh cards.
	all, err := images.Generate(r.task, r.n+testCards, images.DefaultCardSize, seeds.Master)
	if err != nil {
		return measured{}, err
	}
	k := len(all.Classes)
	train := &images.Dataset{Name: all.Name, Classes: all.Classes, Samples: all.Samples[:k*r.n]}
	test := &images.Dataset{Name: all.Name, Classes: all.Classes, Samples: all.Samples[k*r.n:]}
	m, err := machine.New(cfg, all.Classes, seeds, nil)
	if err != nil {
		return measured{}, err
	}
	tr, te := m.Fields(train), m.Fields(test)
	rec := machine.Recipe{Data: images.Source{Task: r.task, PerClass: r.n, Seed: seeds.Master},
		Rule: machine.ForcedMonovalent, MaxEpochs: 1, Stop: machine.EpochLimit}
	s, err := machine.NewSession(m, rec, tr, te)
	if err != nil {
		return measured{}, fmt.Errorf("curves: %s, %d cards per class: %w", r.task, r.n, err)
	}
	if _, err := s.Run(ctx, nil); err != nil {
		return measured{}, err
	}
	return measured{
		pr: m.Pairwise(tr.X, tr.Y),
		pg: m.Pairwise(te.X, te.Y),
		pa: machine.SummarisePa(m.MeasurePa(te.X)).Mean,
	}, nil
}
