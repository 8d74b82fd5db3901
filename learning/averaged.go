package learning

import "context"

// AveragedPerceptron runs the Perceptron rule and returns the average of all
// the weight vectors it held, one per example presented (the starting point
// included), instead of the last one. Freund & Schapire (1999, "Large margin
// classification using the perceptron algorithm", Machine Learning 37) derive
// it as a cheap approximation of the voted perceptron; on data that are not
// separable the average is much steadier than the last iterate, which keeps
// jumping after every mistake.
//
// The average is kept exactly at no extra cost per example (Daumé, A Course
// in Machine Learning, §4.7): beside w the learner keeps u = Σ c·Δw over the
// updates, c counting the examples presented, and the average is w − u/c.
//
// The settings, stopping rule and Curve are the Perceptron's. The model is a
// *LinearModel whose Margin is that of the averaged separator.
type AveragedPerceptron struct {
	// Step is the step size ε; 0 means 1.
	Step float64
	// NoBias drops the always-on extra input.
	NoBias bool
	// MaxEpochs bounds the number of passes; 0 means 100.
	MaxEpochs int
	// InitScale is 0 for the zero start, else the half-width of a uniform
	// random start.
	InitScale float64
	// InOrder presents the rows in data order in every epoch.
	InOrder bool
	// Seed seeds the presentation order and the random start.
	Seed uint64
}

var _ Learner = AveragedPerceptron{}

// Name returns "averaged".
func (AveragedPerceptron) Name() string { return "averaged" }

// Fit trains on d; see the type's documentation.
func (p AveragedPerceptron) Fit(ctx context.Context, d *Data, rec Recorder) (*Result, error) {
	return fitOnline(ctx, d, rec, onlineSettings{
		name: "averaged perceptron", step: p.Step, bias: !p.NoBias, maxEpochs: p.MaxEpochs,
		initScale: p.InitScale, inOrder: p.InOrder, seed: p.Seed,
	}, averagedVariant)
}
