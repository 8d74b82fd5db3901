package machine_test

import (
	"context"
	"fmt"
	"os"

	"mark1/images"
	"mark1/machine"
)

// A Mark I with the default preset, shown one card of the left/right task
// before any training: every pot is at zero, so no R-unit lights and the
// machine shows no class (-1).
func Example() {
	cfg, _ := machine.Preset("mark1")
	d, _ := images.Generate("leftright", 1, 20, 1)
	m, _ := machine.New(cfg, d.Classes, machine.SeedsFrom(1), nil)
	var r machine.Response
	m.Present(&r, m.Fit(d)[0], nil)
	fmt.Printf("%d S-units, %d A-units, %d pots\n", m.Retina.Cells(), len(m.Plugboard.Units), m.Bank.Len())
	fmt.Printf("R-unit sums %v, class %d\n", r.Sums, r.Class)
	// Output:
	// 400 S-units, 512 A-units, 512 pots
	// R-unit sums [0], class -1
}

// leftRight is a session of the ideal machine on 20 cards of left and
// right, with 20 held out, by error correction for at most 20 epochs.
func leftRight() (*machine.Session, error) {
	cfg, _ := machine.Preset("ideal")
	train, _ := images.Generate("leftright", 10, 20, 1)
	test, _ := images.Generate("leftright", 10, 20, 2)
	m, _ := machine.New(cfg, train.Classes, machine.SeedsFrom(1), nil)
	r := machine.Recipe{Rule: machine.ErrorCorrection, Pulses: 1, MaxEpochs: 20}
	return machine.NewSession(m, r, m.Fields(train), m.Fields(test))
}

// A session's Report is what train prints and --json writes: here the
// ideal machine learns left from right, and the report gives P_r and P_g
// with their 95% intervals and what its motors did.
func ExampleSession_Report() {
	s, err := leftRight()
	if err != nil {
		fmt.Println(err)
		return
	}
	s.Run(context.Background(), nil)
	rep := s.Report()
	fmt.Printf("%s\n", rep.Summary)
	fmt.Printf("P_r %.0f%% of %d (95%% CI %.0f–%.0f%%), P_g %.0f%% of %d\n", 100*rep.Pr.P, rep.Pr.N, 100*rep.Pr.Lo, 100*rep.Pr.Hi, 100*rep.Pg.P, rep.Pg.N)
	// Output:
	// converged: epoch 2 needed no correction
	// P_r 100% of 20 (95% CI 84–100%), P_g 75% of 20
}

// A session's header, its epoch lines and its report as mark1 train
// prints them (Session.WriteHeader, EpochLine, Report.WriteText; no wall
// time is given, so none is printed).
func ExampleReport_WriteText() {
	s, err := leftRight()
	if err != nil {
		fmt.Println(err)
		return
	}
	s.WriteHeader(os.Stdout, "leftright", "", true)
	s.Run(context.Background(), machine.RecorderFunc(func(e machine.Epoch) error {
		line, _ := s.EpochLine(e, false)
		fmt.Print(line)
		return nil
	}))
	if err := s.Report().WriteText(os.Stdout, 0); err != nil {
		fmt.Println(err)
	}
	// Output:
	// Training a "ideal" machine (400 S-units, 512 A-units, 1 of 8 R-units in use, 512 pots) on leftright:
	//   2 classes (left, right), 20 training cards, 20 held out.
	//
	//   epoch  mistakes   P_r     P_g    machine time  pulses
	//       1     5/20    100.0%   75.0%          1m1s  82
	//       2     0/20    100.0%   75.0%          2m1s  82
	//
	// Converged: epoch 2 needed no correction.
	//   P_r, on the cards it was trained on:  100.0% (95% CI 83.9–100.0%)
	//   P_g, on  20 cards it never saw:       75.0% (95% CI 53.1–88.8%); chance 50.0%
	//   P_r and P_g pairwise, 1958:           100.0%, 75.0% (for two classes the same as above)
	//   P_a, on the held-out cards:           4.7% of the A-units fire (the 1958 model for x=5, y=5, θ=2 at each card's lit area: 4.7%)
	//   Motors: 82 pulses, 0 against end stops; 0 of 512 pots rest at a stop.
	//   Simulated machine time 2m1s (3 s per card, 0.1 s per pulse).
}

// Training repeated over seeds, taken together: how many runs converged,
// and P_g's mean ± standard deviation beside all seeds' held-out cards
// pooled into one accuracy with its 95% interval.
func ExampleSummariseSeeds() {
	cfg, _ := machine.Preset("mark1")
	exp := machine.SeedExperiment{Config: cfg, Threads: 1,
		Recipe: machine.Recipe{Rule: machine.ErrorCorrection, Pulses: 1, MaxEpochs: 20,
			Data: images.Source{Task: "leftright", PerClass: 10, CardSize: 20, TestSplit: 0.25}}}
	runs, err := exp.Run(context.Background(), []uint64{1, 2, 3})
	if err != nil {
		fmt.Println(err)
		return
	}
	s := machine.SummariseSeeds(runs)
	fmt.Printf("converged %d of %d; P_g %.2f ± %.2f; pooled %.2f of %d cards (95%% CI %.2f–%.2f)\n",
		s.Converged, len(runs), s.Pg.Mean, s.Pg.SD, s.PgPooled.P, s.PgPooled.N, s.PgPooled.Lo, s.PgPooled.Hi)
	// Output:
	// converged 3 of 3; P_g 0.83 ± 0.17; pooled 0.83 of 18 cards (95% CI 0.61–0.94)
}

// What an untrained machine's A-units do on a task's cards, beside the
// 1958 model: P_a on the cards, and P_c between cards of one class and of
// two (PR58's criterion for generalisation asks P_c12 < P_a < P_c11).
func ExampleMeasureCards() {
	cfg, _ := machine.Preset("mark1")
	d, _ := images.Generate("square-circle", 20, 20, 1)
	m, _ := machine.New(cfg, d.Classes, machine.SeedsFrom(1), nil)
	r, err := machine.MeasureCards(context.Background(), m, m.Fit(d), len(d.Classes))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d cards: P_a %.3f (model %.3f)\n", len(r.Cards), r.Summary.Mean, r.Summary.Model)
	fmt.Printf("P_c same class %.3f, other class %.3f; criterion holds: %v\n", r.Same.Measured, r.Other.Measured, r.Criterion.Measured)
	// Output:
	// 40 cards: P_a 0.158 (model 0.159)
	// P_c same class 0.403, other class 0.419; criterion holds: false
}
