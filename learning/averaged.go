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
// It is a Perceptron in its settings (the same fields, the same defaults),
// stopping rule and Curve. The model is a
// *LinearModel whose Margin is that of the averaged separator.
type AveragedPerceptron Perceptron

var _ Learner = AveragedPerceptron{}

// Name returns "averaged".
func (AveragedPerceptron) Name() string { return "averaged" }

// Fit trains on d; see the type's documentation.
func (p AveragedPerceptron) Fit(ctx context.Context, d *Data, rec Recorder) (*Result, error) {
	return fitOnline(ctx, d, rec, Perceptron(p).settings("averaged perceptron"), averagedVariant)
}
