package machine

import (
	"context"
	"errors"
	"testing"

	"mark1/images"
)

// TestNewTraining: a recipe the machine cannot train is refused before the
// cards are read, a machine or cards over MaxBytes before the machine is
// made, and a plugboard sets the A-units; a machine without a recipe
// cannot be resumed.
func TestNewTraining(t *testing.T) {
	ctx := context.Background()
	cfg, _ := Preset("ideal")
	data := images.Source{Task: "leftright", PerClass: 5, TestSplit: 0.2, Seed: 1}
	recipe := Recipe{Rule: ErrorCorrection, Pulses: 1, MaxEpochs: 3}
	good, err := NewTraining(ctx, TrainOptions{Config: cfg, Seeds: SeedsFrom(1), Recipe: recipe, Data: data})
	if err != nil {
		t.Fatal(err)
	}
	fewer := cfg // the plugboard's A-units count, not the configuration's
	fewer.Associator.Units = 100
	tests := []struct {
		name string
		o    TrainOptions
		want func(error) bool
	}{
		{"a rule for one R-unit per class", TrainOptions{Config: cfg, Recipe: Recipe{Rule: TrialAndError}, Data: images.Source{Task: "no such task"}},
			func(err error) bool { var f *FieldError; return errors.As(err, &f) && f.Field == "rule" }},
		{"over the memory", TrainOptions{Config: cfg, Recipe: recipe, Data: data, MaxBytes: 1000},
			func(err error) bool { var m *memoryError; return errors.As(err, &m) }},
		{"a plugboard", TrainOptions{Config: fewer, Recipe: recipe, Data: data, Plugboard: good.Machine.Plugboard},
			func(err error) bool { return err == nil }},
	}
	for _, tt := range tests {
		tr, err := NewTraining(ctx, tt.o)
		if !tt.want(err) {
			t.Errorf("%s: %v", tt.name, err)
		}
		if err == nil && len(tr.Machine.Plugboard.Units) != len(good.Machine.Plugboard.Units) {
			t.Errorf("%s: %d A-units; want the plugboard's %d", tt.name, len(tr.Machine.Plugboard.Units), len(good.Machine.Plugboard.Units))
		}
	}
	if good.Recipe.TrainSize != good.Train.Len() || good.Recipe.Data.Task != "leftright" {
		t.Errorf("the recipe records %d cards of %q; want %d of leftright", good.Recipe.TrainSize, good.Recipe.Data.Task, good.Train.Len())
	}
	bare, _ := New(cfg, good.Train.Classes, SeedsFrom(1), nil)
	if _, err := bare.Resume(ctx, "m.json", images.Limits{}); !errors.Is(err, ErrNoRecipe) {
		t.Errorf("resuming a machine without a recipe: %v; want ErrNoRecipe", err)
	}
	if _, err := MeasurePaCards(ctx, PaOptions{Config: cfg, Seeds: SeedsFrom(1), Cards: good.Train, MaxBytes: 1000}); err == nil {
		t.Error("MeasurePaCards over MaxBytes: no error")
	}
}
