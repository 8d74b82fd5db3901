package svm

import (
	"context"
	"slices"

	"mark1/learning"
	"mark1/learning/kernel"
)

// Kernel is the kernel SVM as a learning.Learner: C-SVMs solved by SMO
// (Solve), joined one-vs-one or one-vs-rest for more than two classes. Its
// zero value is a linear-kernel SVM with C = 1 and LIBSVM's defaults.
type Kernel struct {
	// Kernel is the kernel; nil means kernel.Linear{}.
	Kernel kernel.Kernel
	// Settings configures each binary solver.
	Settings Settings
	// Multiclass is OneVsOne (the default) or OneVsRest.
	Multiclass Multiclass
	// Type is CSVC (the default) or NuSVC, which takes Settings.Nu in
	// place of Settings.C (and ignores Hard and ClassWeight).
	Type Type
	// ClassWeight, when not nil, multiplies C for each class, as LIBSVM's
	// -wi: in the machine for classes a and b, the examples of a have the
	// bound C·ClassWeight[a] (one-vs-rest: the rest keep C). Zero or a
	// missing entry means 1; a negative or non-finite weight is an error.
	// BalancedWeights gives scikit-learn's "balanced".
	ClassWeight []float64
}

var _ learning.Learner = Kernel{}

// Name returns "svm", or "nu-svc" for the ν-SVC.
func (l Kernel) Name() string {
	if l.Type == NuSVC {
		return "nu-svc"
	}
	return "svm"
}

// BalancedWeights returns scikit-learn's class_weight="balanced" for
// labels y in [0, classes): n/(classes·count_c) for each class c that
// occurs (classes counting only those that occur), 0 (that is, 1) for the
// others.
func BalancedWeights(y []int, classes int) []float64 {
	count := make([]int, classes)
	for _, c := range y {
		if c >= 0 && c < classes {
			count[c]++
		}
	}
	present := 0
	for _, n := range count {
		if n > 0 {
			present++
		}
	}
	w := make([]float64, classes)
	for c, n := range count {
		if n > 0 {
			w[c] = float64(len(y)) / (float64(present) * float64(n))
		}
	}
	return w
}

// RowOrder returns an order of training rows of classes y in [0, classes)
// from which l learns the same model, to the bit, and faster: row order[k]
// of the data as row k, the rows grouped by class in increasing class
// order, each class's rows in their order. One-vs-one (and any two
// classes) solves each pair on the first class's rows and then the
// second's, in their order, whatever the order of the data, as LIBSVM's
// svm_train groups them; grouped, a pair's rows lie in two runs that the
// solver reads where they are, instead of gathering a copy of them
// (vectors.setF32). RowOrder returns nil, the rows as they are, for
// one-vs-rest with more than two classes, whose machines see every row in
// its order, and when y is already grouped so.
func (l Kernel) RowOrder(y []int, classes int) []int {
	count := make([]int, classes+1)
	present := 0
	for _, c := range y {
		if c < 0 || c >= classes {
			return nil // Fit refuses the labels
		}
		if count[c+1] == 0 {
			present++
		}
		count[c+1]++
	}
	if l.Multiclass == OneVsRest && present > 2 {
		return nil
	}
	if slices.IsSorted(y) {
		return nil
	}
	for c := range classes {
		count[c+1] += count[c]
	}
	order := make([]int, len(y))
	for i, c := range y {
		order[count[c]] = i
		count[c]++
	}
	return order
}

// Fit trains on d and returns a Result whose Model is a *KernelModel. The
// Result counts SMO iterations in Epochs and Updates; its Curve has one
// entry per round of min(n, 1000) iterations of each binary solver and one
// at the end of each, with the iterations of the round as Mistakes and the
// dual objective of the machine being trained as Risk and that machine's
// index in KernelModel.Machines as Machine, and rec is told of each (in
// machine order, whatever the number of threads). Fit returns an error, wrapping ErrShape,
// ErrValue, ErrLabel, ErrOneClass or ErrSetting, for ragged or non-finite
// data, labels outside [0, Classes), a single class or bad settings, and
// ctx.Err() if ctx is cancelled.
func (l Kernel) Fit(ctx context.Context, d *learning.Data, rec learning.Recorder) (*learning.Result, error) {
	ctx, rec, done := stoppable(ctx, rec)
	_, res, err := fitKernel(ctx, d, l, rec)
	return res, done(res, err)
}

// Linear is the linear SVM as a learning.Learner: dual coordinate descent
// (SolveLinear), one machine for two classes and one-vs-rest for more, as
// LIBLINEAR. Its zero value has C = 1, the hinge loss, a bias feature of 1
// and LIBLINEAR's tolerance 0.1.
type Linear struct {
	Settings LinearSettings
}

var _ learning.Learner = Linear{}

// Name returns "linear-svm".
func (Linear) Name() string { return "linear-svm" }

// Fit trains on d and returns a Result whose Model is a *LinearModel.
// Epochs counts passes over the data (summed over the machines); the Curve
// has one entry per pass with the coordinates changed as Mistakes, the
// dual objective as Risk and the machine's index in LinearModel.Machines as
// Machine, and rec is told of each. Errors are as for
// Kernel.Fit.
func (l Linear) Fit(ctx context.Context, d *learning.Data, rec learning.Recorder) (*learning.Result, error) {
	ctx, rec, done := stoppable(ctx, rec)
	_, res, err := fitLinear(ctx, d, l.Settings, rec)
	return res, done(res, err)
}

// stoppable lets a Recorder stop a solver: the solvers watch a context,
// so a recorder's error cancels it with that error as its cause. It
// returns the context, the recorder the solvers tell (its errors go to
// the context), and done, which turns the fit's error back into the
// recorder's (the Result, if any, Stopped) or passes it on.
func stoppable(ctx context.Context, rec learning.Recorder) (context.Context, learning.Recorder, func(*learning.Result, error) error) {
	if rec == nil {
		return ctx, nil, func(_ *learning.Result, err error) error { return err }
	}
	stop, cancel := context.WithCancelCause(ctx)
	var asked error
	wrapped := learning.RecorderFunc(func(e learning.Epoch) error {
		if asked == nil {
			if err := rec.Record(e); err != nil {
				asked = err
				cancel(err)
			}
		}
		return nil
	})
	return stop, wrapped, func(res *learning.Result, err error) error {
		defer cancel(nil)
		if asked != nil && ctx.Err() == nil {
			if res != nil {
				res.Status, res.Summary = learning.Stopped, "stopped by its recorder: "+asked.Error()
			}
			return asked
		}
		return err
	}
}
