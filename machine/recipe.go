package machine

import (
	"fmt"

	"mark1/images"
)

// Recipe is how a machine is trained: its data and how they were split, the
// rule, the value system, the pulses per correction, the epoch limit and the
// stopping rule. It is saved in the machine file, so that a resumed run, the
// web panel, ablate and compare train the machine exactly as it was trained.
// The zero value of each field means its documented default; Defaults fills
// them in.
type Recipe struct {
	// Data says how the training and held-out cards are made.
	Data images.Source `json:"data"`
	// Rule is error correction (the default) or forced training.
	Rule Rule `json:"rule"`
	// Values is the value system: α (the default) or γ.
	Values ValueSystem `json:"values"`
	// Pulses is the motor pulses per correction; 0 means 1.
	Pulses int `json:"pulses"`
	// MaxEpochs bounds training, counting every epoch the machine has had;
	// 0 means DefaultMaxEpochs.
	MaxEpochs int `json:"max_epochs"`
	// Stop ends training early; StopAuto is the rule's own stopping rule.
	Stop Stop `json:"stop"`
	// TrainSize and TestSize are the numbers of cards the data gave when
	// training began (0 if unknown); making the data again must give as many.
	TrainSize int `json:"train_size,omitempty"`
	TestSize  int `json:"test_size,omitempty"`
}

// DefaultMaxEpochs is the epoch limit of a Recipe whose MaxEpochs is 0.
const DefaultMaxEpochs = 50

// Defaults returns the recipe with every zero field set to its default.
func (r Recipe) Defaults() Recipe {
	if r.Pulses == 0 {
		r.Pulses = 1
	}
	if r.MaxEpochs == 0 {
		r.MaxEpochs = DefaultMaxEpochs
	}
	if r.Stop == StopAuto {
		r.Stop = NoMistakes
		if r.Rule == Forced {
			r.Stop = AllRecognized
		}
	}
	return r
}

// Validate reports a field out of range, naming it as the command line does.
func (r Recipe) Validate() error {
	switch {
	case r.Rule != ErrorCorrection && r.Rule != Forced:
		return fmt.Errorf("--rule: unknown training rule %d", r.Rule)
	case r.Values != Alpha && r.Values != Gamma:
		return fmt.Errorf("--values: unknown value system %d", r.Values)
	case r.Pulses < 0 || r.Pulses > 1000:
		return fmt.Errorf("--pulses %d out of range [1, 1000]", r.Pulses)
	case r.MaxEpochs < 0 || r.MaxEpochs > 1_000_000:
		return fmt.Errorf("--epochs %d out of range [1, 1000000]", r.MaxEpochs)
	case r.Stop < StopAuto || r.Stop > EpochLimit:
		return fmt.Errorf("--stop: unknown stopping rule %d", r.Stop)
	case r.TrainSize < 0 || r.TestSize < 0:
		return fmt.Errorf("negative data sizes %d and %d", r.TrainSize, r.TestSize)
	}
	return r.Data.Validate()
}

// Load makes the recipe's data again and checks that it is what the
// recipe recorded: the machine's classes, and as many cards as before.
// name is the machine file, for errors.
func (r Recipe) Load(classes []string, name string) (train, test *images.Dataset, err error) {
	train, test, err = r.Data.Load()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: making its training data again (%s): %w", name, r.Data, err)
	}
	if err := images.SameClasses(&images.Dataset{Name: name, Classes: classes}, train); err != nil {
		return nil, nil, fmt.Errorf("%s: the data changed since training: %w", name, err)
	}
	if r.TrainSize > 0 && (train.Len() != r.TrainSize || test.Len() != r.TestSize) {
		return nil, nil, fmt.Errorf("%s: the data changed since training: %d training and %d held-out cards then, %d and %d now",
			name, r.TrainSize, r.TestSize, train.Len(), test.Len())
	}
	return train, test, nil
}
