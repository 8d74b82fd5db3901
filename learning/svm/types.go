package svm

import (
	"fmt"

	"mark1/learning"
)

// Settings configures the kernel SVM solver, Solve and the Kernel learner.
// The zero value means the documented defaults, which are LIBSVM's.
type Settings struct {
	// C is the penalty on margin violations in the soft-margin problem
	//	min ½‖w‖² + C Σ ξ_i  subject to  y_i (w·Φ(x_i) + b) ≥ 1 − ξ_i, ξ_i ≥ 0.
	// Zero means 1. +Inf asks for the hard margin, as Hard does. A negative
	// or NaN C is an error.
	C float64

	// Hard asks for the hard-margin separator, the limit C → ∞. On data
	// that are separable in the kernel's feature space it returns the
	// maximum-margin separator; otherwise the Status is NotSeparable. C is
	// then ignored.
	Hard bool

	// Eps is the stopping tolerance on the maximal KKT violation
	// m(α) − M(α) of Fan, Chen and Lin (LIBSVM's -e). Zero means 1e-3.
	Eps float64

	// CacheMB bounds the memory of the kernel-row cache, in mebibytes
	// (LIBSVM's -m). Zero means 100. The cache always holds at least two
	// rows, whatever the budget.
	CacheMB float64

	// NoShrinking turns off the shrinking heuristic (LIBSVM's -h 0).
	NoShrinking bool

	// MaxIter limits the SMO iterations of one binary problem (of each
	// step of the hard-margin ladder). Zero means LIBSVM's
	// max(10⁷, 100·n).
	MaxIter int

	// Threads is the number of binary problems (one-vs-one pairs or
	// one-vs-rest machines) solved at once and of goroutines predicting
	// batches; zero means runtime.GOMAXPROCS(0), all cores. CacheMB is
	// shared among the problems solved at once. The model is the same,
	// bit for bit, whatever the number. A negative value is an error.
	Threads int

	// Nu is the ν of the ν-SVC, the one-class SVM and the ν-SVR (LIBSVM's
	// -n): a lower bound on the fraction of support vectors and an upper
	// bound on the fraction of margin errors. Zero means 0.5; it must be
	// in (0, 1]. The C-SVC and the ε-SVR ignore it.
	Nu float64

	rowThreads int        // goroutines per kernel row, set by the solvers
	store      *rowStore  // the kernel cache's storage, shared by problems solved in turn (nil: the cache's own)
	cls        *classRows // the one-vs-one pairs' kernel rows within their classes (nil: none)
	weights    []float64  // class weights (Kernel.ClassWeight)
	wpos, wneg float64    // class weights of the current pair (0: 1)
	nuSVC      bool       // solve the ν-SVC
	start      []float64  // α to start from (warm start), nil for 0
}

// Loss selects the loss of the linear SVM.
type Loss int

const (
	// Hinge is the L1 loss max(0, 1 − y w·x) of the classical SVM
	// (LIBLINEAR -s 3). It is the default.
	Hinge Loss = iota
	// SquaredHinge is the L2 loss max(0, 1 − y w·x)² (LIBLINEAR -s 1).
	SquaredHinge
)

// String returns "hinge" or "squared-hinge".
func (l Loss) String() string {
	switch l {
	case Hinge:
		return "hinge"
	case SquaredHinge:
		return "squared-hinge"
	}
	return fmt.Sprintf("Loss(%d)", int(l))
}

// LinearSettings configures the linear SVM, SolveLinear and the Linear
// learner. The zero value means the documented defaults, which are
// LIBLINEAR's except that the bias term is on.
type LinearSettings struct {
	// C is the penalty on the loss; zero means 1. A negative or NaN C is an
	// error.
	C float64

	// Loss is Hinge (the default) or SquaredHinge.
	Loss Loss

	// Eps is the stopping tolerance on the projected gradient,
	// max PG − min PG over one pass (LIBLINEAR's -e). Zero means 0.1,
	// LIBLINEAR's default for its dual solvers.
	Eps float64

	// Bias is the value of the constant feature appended to every vector,
	// as LIBLINEAR's -B: the decision is w·x + w_b·Bias, and w_b is
	// regularized with w. Zero means 1; a negative value means no bias.
	Bias float64

	// MaxIter limits the passes over the data; zero means 1000, as
	// LIBLINEAR.
	MaxIter int

	// Seed seeds the random permutation of each pass (math/rand/v2 PCG).
	Seed uint64

	// NoShrinking turns off the shrinking of the active set.
	NoShrinking bool
}

// Status says how a solver run ended.
type Status int

const (
	// NotTerminated is the zero Status.
	NotTerminated Status = iota
	// Optimal means the KKT conditions hold to the tolerance Eps.
	Optimal
	// IterationLimit means MaxIter was reached first; the solution is
	// usable but not optimal to Eps.
	IterationLimit
	// Separable means the hard-margin problem was solved: the data are
	// separable in the kernel's feature space and the solution is the
	// maximum-margin separator, to tolerance Eps.
	Separable
	// NotSeparable means a hard margin was asked for but even at the
	// largest C tried training points stay inside the margin or on the
	// wrong side: the data are not linearly separable in the kernel's
	// feature space (or only with a margin too small to be told apart).
	NotSeparable
)

// String returns a short name for s.
func (s Status) String() string {
	switch s {
	case NotTerminated:
		return "NotTerminated"
	case Optimal:
		return "Optimal"
	case IterationLimit:
		return "IterationLimit"
	case Separable:
		return "Separable"
	case NotSeparable:
		return "NotSeparable"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Converged reports whether s is a successful end: Optimal or Separable.
func (s Status) Converged() bool { return s == Optimal || s == Separable }

// Learning returns s as a learner's status (learning.Status): Converged,
// EpochLimit (the iteration limit) or NotSeparable.
func (s Status) Learning() learning.Status {
	switch s {
	case Optimal, Separable:
		return learning.Converged
	case IterationLimit:
		return learning.EpochLimit
	case NotSeparable:
		return learning.NotSeparable
	}
	return learning.Running
}

// Multiclass selects how a problem with more than two classes is split into
// binary ones.
type Multiclass int

const (
	// OneVsOne trains a machine for every pair of classes and predicts by
	// voting, as LIBSVM does. It is the default for the kernel SVM.
	OneVsOne Multiclass = iota
	// OneVsRest trains one machine per class against all others and
	// predicts the class with the largest decision value, as LIBLINEAR
	// does. The linear SVM always uses it.
	OneVsRest
)

// String returns "one-vs-one" or "one-vs-rest".
func (m Multiclass) String() string {
	switch m {
	case OneVsOne:
		return "one-vs-one"
	case OneVsRest:
		return "one-vs-rest"
	}
	return fmt.Sprintf("Multiclass(%d)", int(m))
}

// Type is one of LIBSVM's five formulations (svm-train's -s).
type Type int

const (
	// CSVC is the C-support vector classifier (-s 0), the default.
	CSVC Type = iota
	// NuSVC is the ν-support vector classifier (-s 1): ν in place of C.
	NuSVC
	// OneClass is the one-class SVM (-s 2) of Schölkopf et al., which
	// estimates the support of a distribution from unlabelled examples.
	OneClass
	// EpsilonSVR is ε-support vector regression (-s 3).
	EpsilonSVR
	// NuSVR is ν-support vector regression (-s 4): ν in place of ε.
	NuSVR
)

// String returns LIBSVM's name of t, as in its model files: c_svc, nu_svc,
// one_class, epsilon_svr or nu_svr.
func (t Type) String() string {
	switch t {
	case CSVC:
		return "c_svc"
	case NuSVC:
		return "nu_svc"
	case OneClass:
		return "one_class"
	case EpsilonSVR:
		return "epsilon_svr"
	case NuSVR:
		return "nu_svr"
	}
	return fmt.Sprintf("Type(%d)", int(t))
}

// ParseType returns the Type of LIBSVM's name (c_svc, nu_svc, one_class,
// epsilon_svr, nu_svr).
func ParseType(name string) (Type, error) {
	for t := CSVC; t <= NuSVR; t++ {
		if t.String() == name {
			return t, nil
		}
	}
	return 0, fmt.Errorf("unknown svm_type %q: want c_svc, nu_svc, one_class, epsilon_svr or nu_svr: %w", name, ErrSetting)
}
