package learning

import (
	"context"
	"strconv"
)

// Data is a labelled set of feature vectors: row i has label Y[i], a class
// index in [0, Classes). The features are Rows when it is set (dense, bit-set
// or sparse; see Compact), and otherwise the rows of X, all of one length.
// Learners read them through Features.
type Data struct {
	X       [][]float64
	Y       []int
	Classes int
	// Rows, when not nil, holds the features, and X is ignored.
	Rows Rows
}

// Learner fits a classifier on labelled feature vectors.
type Learner interface {
	// Name is a short identifier, such as "perceptron" or "svm".
	Name() string
	// Fit trains on d. It reports progress to rec if rec is not nil, and
	// stops early, returning ctx.Err(), if ctx is cancelled.
	Fit(ctx context.Context, d *Data, rec Recorder) (*Result, error)
}

// Model is a trained classifier.
type Model interface {
	// Predict returns the class index for x.
	Predict(x []float64) int
}

// Scorer is implemented by models that give a real-valued score per class
// (the R-unit sums, w·x+b, or an SVM decision value).
type Scorer interface {
	Scores(dst []float64, x []float64) []float64
}

// Margined is implemented by models with a linear or kernel separator whose
// geometric margin on the training data is known (the SVM's 1/‖w‖, or the
// perceptron's min_i y_i w·x_i / ‖w‖ for a binary problem).
type Margined interface {
	Margin() float64
}

// SupportVectored is implemented by models that keep training examples:
// support vectors of an SVM, stored mistakes of a kernel perceptron.
type SupportVectored interface {
	// SupportVectors returns the number of examples kept and how many of
	// them are bounded (α = C for the SVM; 0 when that does not apply).
	SupportVectors() (total, bounded int)
}

// Epoch is what one pass over the training data did.
type Epoch struct {
	Epoch    int     // 1-based
	Mistakes int     // wrong answers (or updates) during the pass
	Risk     float64 // the objective after the pass, where the learner has one (perceptron risk, SVM dual); NaN otherwise
	// Machine is the binary machine the entry is about, 0-based, for
	// learners that train their machines one after another (the SVMs: the
	// one-vs-one pair or one-vs-rest machine); 0 for the others, whose
	// entries are about all machines at once.
	Machine int
}

// Recorder watches a run: it is told about each finished epoch (each solver
// pass or block of SMO iterations for the SVMs). If it returns an error,
// the run stops after that entry — the Result's Status is Stopped — and Fit
// returns the error with the Result so far, as machine.Session.Run does.
// The CLI draws progress with it; the web panel streams from it.
type Recorder interface {
	Record(e Epoch) error
}

// RecorderFunc adapts a function to a Recorder.
type RecorderFunc func(Epoch) error

// Record calls f(e).
func (f RecorderFunc) Record(e Epoch) error { return f(e) }

// Status says how a fit ended, as machine.Status says how a training
// session did (and gonum's optimize.Status how an optimization did).
type Status int

const (
	// Running: the zero value, for a Result not yet finished.
	Running Status = iota
	// Converged: the stopping rule was met — an epoch without mistakes,
	// every machine's KKT conditions to tolerance.
	Converged
	// EpochLimit: the epoch (or iteration) limit ended the run first.
	EpochLimit
	// Stalled: no step could move the weights (batch GD's line search at a
	// kink, or the misclassified points' pulls cancelling).
	Stalled
	// NotSeparable: a hard margin was asked of data that no separator
	// splits in the kernel's feature space.
	NotSeparable
	// Cancelled: the context was cancelled (Fit returns its error).
	Cancelled
	// Stopped: the Recorder returned an error (Fit returns it).
	Stopped
	// Diverged: the weights grew without bound (ADALINE's α-LMS with
	// α ≥ 2, or μ-LMS with μ too large): reported, never as NaNs.
	Diverged
	// Cycling: the perceptron, presenting the rows in the given order,
	// met the weights it had at the start of an earlier epoch: from there
	// it repeats itself for ever, bounded, and no epoch will be
	// error-free (the data are not linearly separable).
	Cycling
)

// String returns the status's short name: "converged", "epoch-limit", ….
func (s Status) String() string {
	names := []string{"running", "converged", "epoch-limit", "stalled", "not-separable", "cancelled", "stopped", "diverged", "cycling"}
	if s < 0 || int(s) >= len(names) {
		return "Status(" + strconv.Itoa(int(s)) + ")"
	}
	return names[s]
}

// Converged reports whether the stopping rule was met rather than a limit.
func (s Status) Converged() bool { return s == Converged }

// MarshalText writes the short name, for JSON.
func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Result is the outcome of a fit: the model and what happened on the way.
type Result struct {
	Model Model
	// Epochs is the number of passes (or solver iterations for an SVM).
	Epochs int
	// Updates counts the corrections made (mistakes for perceptrons,
	// motor corrections for the hardware, steps for gradient descent).
	Updates int
	// Status says how the run ended; Status.Converged() is true when the
	// stopping rule was met (an error-free epoch, KKT conditions to
	// tolerance) rather than a limit.
	Status Status
	// Summary says in one sentence how the run ended, for people.
	Summary string
	// Curve holds one entry per epoch, for learning curves.
	Curve []Epoch
}
