package compare_test

import (
	"context"
	"fmt"
	"os"

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

// A report written as mark1 compare prints it: the table, the pairwise
// note for two classes, the footnotes and the theorem's line. The report
// here is made by hand, so that its times are fixed; Run and RunRaw
// return the same kind.
func ExampleReport_WriteText() {
	preset, margin, bound, radius, mistakes := "mark1", 0.25, 16.0, 1.0, 3
	pg, prCards := 0.9, 40
	rep := &compare.Report{Data: "leftright", Classes: []string{"left", "right"}, Train: prCards, Test: 10, PrCards: prCards,
		Preset: &preset, Kernel: "linear", Pa: 0.1, PaModel: 0.12,
		Rows: []compare.Row{{Learner: "perceptron", Features: "pixels", Pr: 1, Pg: &pg, Updates: 3, Epochs: 2, Converged: true,
			Margin: &margin, Seconds: 0.0012}},
		Theory: []compare.Theory{{Features: "pixels", Separable: true, Radius: &radius, Margin: &margin, Bound: &bound, PerceptronMistakes: &mistakes}},
	}
	if err := rep.WriteText(os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output:
	// Comparison on leftright: 2 classes, 40 training cards, 10 held out; machine preset "mark1"; kernel linear.
	//
	// P_a, A-units firing per card: 10.0% (the 1958 model at each card's lit area: 12.0%).
	//
	// learner            features         P_r     P_g P_g 95%CI  updates epochs    margin     SVs      time machine time    pulses
	// perceptron         pixels        100.0%   90.0%    60–98%        3     2     0.2500       -     1.2ms            -         -
	//
	// For two classes 1958's pairwise P_r and P_g are these accuracies.
	//
	// * stopped at a limit, not converged. updates: mistakes corrected (perceptrons, hardware), adaptations (ADALINEs: every card),
	// steps (batch GD) or solver iterations (SVMs). pulses: the Mark I's motor pulses; the memistor ADALINE's plating pulses, one per adaptation.
	// margin: smallest over the binary machines. Perceptrons, hardware, memistor ADALINE: the geometric margin min y·f(x)/‖w‖ on the training data
	// (negative: a training card on the wrong side). SVMs: 1/‖w‖, the margin they maximize (the same when no card lies inside it).
	// Theory, pixels: separable; in the perceptron's space (x, 1) the largest margin γ = 0.25 (hard-margin SVM without a bias term there), R = max ‖(x, 1)‖ = 1, mistake bound (R/γ)² = 16; the perceptron made 3 mistakes.
}
