package machine_test

import (
	"context"
	"fmt"
	"image/png"
	"os"
	"path/filepath"

	"mark1/images"
	"mark1/machine"
)

// A training run as mark1 train makes one: the cards read, the machine
// made and the recipe recording its data (NewTraining), the session
// started and run to its end; a finished machine resumed has nothing left
// to do (Machine.Resume, Session.WriteFinished).
func ExampleNewTraining() {
	ctx := context.Background()
	cfg, _ := machine.Preset("ideal")
	seeds := machine.SeedsFrom(1)
	opts := machine.TrainOptions{Config: cfg, Seeds: seeds,
		Recipe: machine.Recipe{Rule: machine.ErrorCorrection, Pulses: 1, MaxEpochs: 20},
		Data:   images.Source{Task: "leftright", PerClass: 10, TestSplit: 0.5, Seed: seeds.Master}}
	t, err := machine.NewTraining(ctx, opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d training cards, %d held out; the recipe records %d and %d\n", t.Train.Len(), t.Test.Len(), t.Recipe.TrainSize, t.Recipe.TestSize)
	s, err := t.Session(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	status, _ := s.Run(ctx, nil)
	fmt.Println(status)

	again, err := t.Machine.Resume(ctx, "m.json", images.Limits{})
	if err != nil {
		fmt.Println(err)
		return
	}
	s, _ = again.Session(ctx)
	s.WriteFinished(os.Stdout, "m.json")
	// Output:
	// 10 training cards, 10 held out; the recipe records 10 and 10
	// converged
	// m.json has finished training (converged): 2 epochs (limit 20), 0 mistakes in the last; nothing to do.
}

// A trained machine's answers to picture files, as mark1 predict prints
// them (Predictions.WriteText; --json writes the same value).
func ExampleMachine_Predict() {
	ctx := context.Background()
	cfg, _ := machine.Preset("ideal")
	seeds := machine.SeedsFrom(1)
	t, _ := machine.NewTraining(ctx, machine.TrainOptions{Config: cfg, Seeds: seeds,
		Recipe: machine.Recipe{Rule: machine.ErrorCorrection, Pulses: 1, MaxEpochs: 20},
		Data:   images.Source{Task: "leftright", PerClass: 10, Seed: seeds.Master}})
	s, _ := t.Session(ctx)
	s.Run(ctx, nil)

	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	cards, _ := images.Generate("leftright", 1, 20, 7)
	var files []string
	for _, c := range cards.Samples {
		f, _ := os.Create(fmt.Sprintf("%s/%s.png", dir, cards.Classes[c.Label]))
		png.Encode(f, c.Image)
		f.Close()
		files = append(files, f.Name())
	}
	p, err := t.Machine.Predict(ctx, "m.json", files, images.Limits{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range p.Pictures {
		fmt.Printf("%s: %s\n", filepath.Base(a.File), *a.Class)
	}
	// Output:
	// left.png: left
	// right.png: right
}
