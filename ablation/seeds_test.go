package ablation_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"mark1/ablation"
	"mark1/images"
	"mark1/machine"
)

// TestSeeds: each seed's ablation is that of a fresh machine trained by
// hand with the seed, the results do not depend on the number of workers,
// and a machine without a recipe is refused.
func TestSeeds(t *testing.T) {
	cfg, _ := machine.Preset("mark1")
	src := images.Source{Task: "leftright", PerClass: 15, CardSize: 20, TestSplit: 0.3}
	r := machine.Recipe{Data: src, MaxEpochs: 5}
	m, err := machine.New(cfg, []string{"left", "right"}, machine.SeedsFrom(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	m.Recipe = &r
	spec := ablation.Spec{Parts: []ablation.Part{ablation.AUnits}, Fractions: []float64{0, 0.5}, Draws: 2, Retrain: 1}
	var byWorkers [][]ablation.SeedRun
	for _, workers := range []int{1, 3} {
		sp := spec
		sp.Workers = workers
		runs, err := ablation.Seeds(context.Background(), m, "m.json", sp, []uint64{3, 1, 2}, images.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		byWorkers = append(byWorkers, runs)
	}
	if !reflect.DeepEqual(byWorkers[0], byWorkers[1]) {
		t.Errorf("1 worker %+v\n3 workers %+v", byWorkers[0], byWorkers[1])
	}
	// Seed 1 by hand.
	s := src
	s.Seed = 1
	train, test, err := s.Load()
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := machine.New(cfg, train.Classes, machine.SeedsFrom(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	rr := r
	rr.Data = s
	tr, te := fresh.Fields(train), fresh.Fields(test)
	sess, err := machine.NewSession(fresh, rr, tr, te)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sess.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	sp := spec
	sp.Seed, sp.Recipe, sp.Workers = 1, r, 1
	pts, err := ablation.Run(context.Background(), fresh, tr, te, sp)
	if err != nil {
		t.Fatal(err)
	}
	if got := byWorkers[0][1]; got.Seed != 1 || !reflect.DeepEqual(got.Points, pts) {
		t.Errorf("seed 1: %+v; by hand %+v", got.Points, pts)
	}
	m.Recipe = nil
	if _, err := ablation.Seeds(context.Background(), m, "m.json", spec, []uint64{1}, images.Limits{}); err == nil || !strings.Contains(err.Error(), "m.json: the machine file does not record how it was trained") {
		t.Errorf("no recipe: %v", err)
	}
}
