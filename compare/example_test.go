package compare_test

import (
	"context"
	"fmt"

	"mark1/compare"
	"mark1/images"
	"mark1/machine"
)

// A comparison repeated over three seeds, each a fresh machine, fresh
// cards and a fresh split: the hardware rule beside the perceptron on the
// machine's A-units, as mean ± standard deviation over the seeds.
func ExampleSeedExperiment() {
	cfg, _ := machine.Preset("mark1")
	src := images.Source{Task: "leftright", PerClass: 10, CardSize: 20, TestSplit: 0.25}
	exp := compare.SeedExperiment{
		Config: cfg,
		Spec:   compare.Spec{Learners: []string{"hardware", "perceptron"}, Features: []string{"association"}, NoTheory: true},
		Load: func(ctx context.Context, seed uint64) (*images.Dataset, *images.Dataset, error) {
			s := src
			s.Seed = seed
			return s.LoadContext(ctx)
		},
		Threads: 1,
	}
	rep, err := exp.Run(context.Background(), []uint64{1, 2, 3})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range rep.Rows {
		fmt.Printf("%-10s %-11s P_r %.2f, P_g %.2f ± %.2f (pooled: %d of %d cards), converged %d of %d\n", r.Learner, r.Features,
			r.Pr.Mean, r.Pg.Mean, r.Pg.SD, int(r.PgPooled.P*float64(r.PgPooled.N)+0.5), r.PgPooled.N, r.Converged, len(rep.Seeds))
	}
	// Output:
	// hardware   association P_r 1.00, P_g 0.83 ± 0.17 (pooled: 15 of 18 cards), converged 3 of 3
	// perceptron association P_r 1.00, P_g 0.94 ± 0.10 (pooled: 17 of 18 cards), converged 3 of 3
}
