package svm

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"

	"mark1/learning"
	"mark1/learning/kernel"
)

// ValueModel is a trained SVM with a single real-valued decision function
//
//	f(x) = Σ_i Coef_i k(SV_i, x) − Rho,
//
// the one-class SVM (x is inside the estimated support when f(x) > 0, which
// LIBSVM's svm-predict prints as +1, and −1 otherwise) or a support vector
// regression (f(x) is the predicted value).
type ValueModel struct {
	// Type is OneClass, EpsilonSVR or NuSVR.
	Type Type
	// Kernel is the kernel.
	Kernel kernel.Kernel
	// SVRows holds the support vectors in the training data's form.
	SVRows learning.Rows
	// Coef holds α_i for the one-class SVM and α_i − α*_i for the
	// regressions, one per support vector.
	Coef []float64
	// Rho is the threshold.
	Rho float64
	// Epsilon is the half-width of the ε-insensitive tube: the one given
	// (EpsilonSVR) or the one the solution found (NuSVR, LIBSVM's
	// "epsilon = −r"); 0 for OneClass.
	Epsilon float64
	// Obj is the dual objective (LIBSVM's "obj ="), Bounded the number of
	// support vectors at the bound (|Coef| = C, or α = 1 for OneClass),
	// Iter the SMO iterations, Status how the solver ended and Message the
	// same in one sentence.
	Obj     float64
	Bounded int
	Iter    int
	Status  Status
	Message string

	sv *gram
	w  []float64 // explicit weights for the linear kernel
}

// NewValueModel builds a one-class SVM or support vector regression from its
// parts, as a model file reader does: f(x) = Σ_s coef[s] k(sv_s, x) − rho.
// It panics if coef and sv differ in length or t is a classifier.
func NewValueModel(t Type, k kernel.Kernel, sv learning.Rows, coef []float64, rho float64) *ValueModel {
	if t != OneClass && t != EpsilonSVR && t != NuSVR {
		panic("svm: NewValueModel: " + t.String() + " is not one-class or a regression")
	}
	if sv.Len() != len(coef) {
		panic("svm: NewValueModel: support vectors and coefficients differ in number")
	}
	if k == nil {
		k = kernel.Linear{}
	}
	m := &ValueModel{Type: t, Kernel: k, SVRows: sv, Coef: coef, Rho: rho}
	if _, ok := k.(kernel.Linear); ok {
		m.w = make([]float64, sv.Dim())
		for s, c := range coef {
			sv.AddTo(m.w, c, s)
		}
	} else {
		m.sv = newGram(sv, nil, k)
	}
	return m
}

// Value returns f(x). It panics if x has the wrong length.
func (m *ValueModel) Value(x []float64) float64 {
	var kv []float64
	return m.value(x, &kv, &evalScratch{})
}

func (m *ValueModel) value(x []float64, kv *[]float64, sc *evalScratch) float64 {
	if m.w != nil {
		if len(x) != len(m.w) {
			panic("svm: vector of wrong length")
		}
		return kernel.Dot(m.w, x) - m.Rho
	}
	n := len(m.Coef)
	*kv = slices.Grow((*kv)[:0], n)[:n]
	m.sv.evalAll(*kv, x, sc)
	var f float64
	for s, c := range m.Coef {
		f += c * (*kv)[s]
	}
	return f - m.Rho
}

// Label returns LIBSVM's prediction for x: f(x) for a regression, +1 or −1
// (the side of f(x) = 0, 0 counting as outside) for the one-class SVM.
func (m *ValueModel) Label(x []float64) float64 {
	return m.labelOf(m.Value(x))
}

func (m *ValueModel) labelOf(f float64) float64 {
	if m.Type != OneClass {
		return f
	}
	if f > 0 {
		return 1
	}
	return -1
}

// LabelRows returns Label for every row of r, in dst (grown as needed),
// with the rows shared out in blocks among threads goroutines (all cores
// when 0). The answers do not depend on threads. It panics if the rows have
// the wrong length or threads < 0.
func (m *ValueModel) LabelRows(dst []float64, r learning.Rows, threads int) []float64 {
	n := r.Len()
	dst = slices.Grow(dst[:0], n)[:n]
	inBlocks(n, blockThreads(n, threads, "LabelRows"), func(int) func(lo, hi int) {
		var x, kv []float64
		sc := &evalScratch{}
		return func(lo, hi int) {
			for i := lo; i < hi; i++ {
				x = r.Row(x, i)
				dst[i] = m.labelOf(m.value(x, &kv, sc))
			}
		}
	})
	return dst
}

// SupportVectors returns the number of support vectors and of those at the
// bound.
func (m *ValueModel) SupportVectors() (total, bounded int) { return len(m.Coef), m.Bounded }

// OneClassSVM is the one-class SVM of Schölkopf, Platt, Shawe-Taylor, Smola
// and Williamson ("Estimating the support of a high-dimensional
// distribution", 2001), as LIBSVM's -s 2: it solves
//
//	min_α ½αᵀKα  subject to  0 ≤ α_i ≤ 1, eᵀα = νl,
//
// and f(x) = Σ α_i k(x_i, x) − ρ is positive on (about) a fraction 1 − ν
// of the training data. Settings.Nu is ν (zero: 0.5); C, Hard and the
// weights do not apply.
type OneClassSVM struct {
	Kernel   kernel.Kernel
	Settings Settings
}

// SVR is support vector regression as LIBSVM's -s 3 (ε-SVR) and -s 4
// (ν-SVR). The ε-SVR solves
//
//	min ½‖w‖² + C Σ (ξ_i + ξ*_i)  subject to  |w·Φ(x_i) + b − z_i| ≤ ε + ξ_i^(*),
//
// in its dual of 2l variables α, α* (Smola and Schölkopf, "A tutorial on
// support vector regression", 2004); the ν-SVR (Schölkopf et al. 2000)
// replaces ε by ν, which bounds the fraction of points outside the tube,
// and finds ε. f(x) = Σ (α_i − α*_i) k(x_i, x) − ρ.
type SVR struct {
	Kernel   kernel.Kernel
	Settings Settings
	// Nu selects the ν-SVR, with Settings.Nu (zero: 0.5) in place of
	// Epsilon.
	Nu bool
	// Epsilon is the half-width ε ≥ 0 of the insensitive tube of the
	// ε-SVR (LIBSVM's -p, scikit-learn's epsilon). Unlike the other
	// settings its zero value is a choice, ε = 0; LIBSVM's default is 0.1.
	Epsilon float64
}

// Name returns "one-class".
func (OneClassSVM) Name() string { return "one-class" }

// Name returns "epsilon-svr" or "nu-svr".
func (l SVR) Name() string {
	if l.Nu {
		return "nu-svr"
	}
	return "epsilon-svr"
}

// progressFunc adapts a Recorder to the solver's progress hook.
func progressFunc(rec learning.Recorder) func(int, float64) {
	epoch := 0
	return func(iters int, obj float64) {
		epoch++
		if rec != nil {
			_ = rec.Record(learning.Epoch{Epoch: epoch, Mistakes: iters, Risk: obj}) // a stop arrives through ctx (stoppable)
		}
	}
}

// checkValueData checks the rows of a one-class or regression problem.
func checkValueData(r learning.Rows, k kernel.Kernel, s *Settings) (kernel.Kernel, error) {
	if r == nil || r.Len() == 0 {
		return nil, fmt.Errorf("no examples: %w", ErrShape)
	}
	if err := checkRows(r); err != nil {
		return nil, err
	}
	if k == nil {
		k = kernel.Linear{}
	}
	if err := checkSettings(s, k); err != nil {
		return nil, err
	}
	if s.Hard {
		return nil, fmt.Errorf("a hard margin (C = +Inf) is for classifiers: %w", ErrSetting)
	}
	s.rowThreads = s.Threads
	if s.rowThreads <= 0 {
		s.rowThreads = runtime.GOMAXPROCS(0)
	}
	return k, nil
}

// checkQD refuses a kernel that overflows on the data.
func checkQD(p *problem, k kernel.Kernel) error {
	for i, q := range p.qd {
		if math.IsNaN(q) || math.IsInf(q, 0) {
			return fmt.Errorf("kernel %v: k(x, x) of example %d is %v, not a finite number; choose smaller parameters or scale the data: %w", k, i%p.r.Len(), q, ErrKernel)
		}
	}
	return nil
}

// Fit trains on the rows of r (their labels play no part) as LIBSVM's
// solve_one_class: α starts at 1 on the first ⌊νl⌋ examples and νl −
// ⌊νl⌋ on the next. rec, if not nil, is told of the progress as by
// Kernel.Fit. Errors are as for Kernel.Fit; ctx.Err() if ctx is cancelled.
func (l OneClassSVM) Fit(ctx context.Context, r learning.Rows, rec learning.Recorder) (*ValueModel, error) {
	s := l.Settings
	k, err := checkValueData(r, l.Kernel, &s)
	if err != nil {
		return nil, err
	}
	n := r.Len()
	y := make([]int8, n)
	alpha0 := make([]float64, n)
	full := int(s.Nu * float64(n))
	for i := range n {
		y[i] = 1
		switch {
		case i < full:
			alpha0[i] = 1
		case i == full:
			alpha0[i] = s.Nu*float64(n) - float64(full)
		}
	}
	p := newProblem(r, nil, nil, y, k, s)
	if err := checkQD(p, k); err != nil {
		return nil, err
	}
	for i := range p.lin {
		p.lin[i] = 0
	}
	res, err := p.run(ctx, 1, 1, alpha0, progressFunc(rec))
	if err != nil {
		return nil, err
	}
	coef := make([]float64, n)
	bounded := make([]bool, n)
	for i := range n {
		coef[p.perm[i]] = p.alpha[i]
		bounded[p.perm[i]] = p.status[i] == atUpper
	}
	m := p.valueModel(OneClass, r, coef, bounded, res)
	m.Message = fmt.Sprintf("%s; ν = %g, %d support vectors (%d at α = 1)", m.Message, s.Nu, len(m.Coef), m.Bounded)
	return m, nil
}

// Fit trains on the rows of r with targets z (one per row) as LIBSVM's
// solve_epsilon_svr or solve_nu_svr: 2l variables, the first l with y = +1
// and linear term ε − z_i, the others with y = −1 and ε + z_i (for the
// ν-SVR the terms are −z_i and z_i, α and α* start at C filled up to
// Cνl/2, and Solver_NU finds ρ and ε = −r). rec is as for OneClassSVM.Fit.
// It returns an error, wrapping ErrShape, ErrValue or ErrSetting, if z and r
// differ in length, a target is not finite or a setting is out of range,
// and ctx.Err() if ctx is cancelled.
func (l SVR) Fit(ctx context.Context, r learning.Rows, z []float64, rec learning.Recorder) (*ValueModel, error) {
	s := l.Settings
	k, err := checkValueData(r, l.Kernel, &s)
	if err != nil {
		return nil, err
	}
	n := r.Len()
	if len(z) != n {
		return nil, fmt.Errorf("%d examples but %d targets: %w", n, len(z), ErrShape)
	}
	for i, v := range z {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("target %d is %v: %w", i, v, ErrValue)
		}
	}
	if !l.Nu && (!(l.Epsilon >= 0) || math.IsInf(l.Epsilon, 0)) {
		return nil, fmt.Errorf("ε = %v, want a finite ε ≥ 0: %w", l.Epsilon, ErrSetting)
	}
	// Both halves of the 2l variables read the same rows: position i and
	// i + l are example i.
	sub := make([]int, 2*n)
	y := make([]int8, 2*n)
	for i := range n {
		sub[i], sub[i+n] = i, i
		y[i], y[i+n] = 1, -1
	}
	p := newProblem(r, sub, nil, y, k, s)
	if err := checkQD(p, k); err != nil {
		return nil, err
	}
	C := s.C
	var alpha0 []float64
	if l.Nu {
		alpha0 = make([]float64, 2*n)
		sum := C * s.Nu * float64(n) / 2
		for i := range n {
			a := math.Min(sum, C)
			alpha0[i], alpha0[i+n] = a, a
			sum -= a
			p.lin[i], p.lin[i+n] = -z[i], z[i]
		}
		p.nu = true
	} else {
		for i := range n {
			p.lin[i], p.lin[i+n] = l.Epsilon-z[i], l.Epsilon+z[i]
		}
	}
	res, err := p.run(ctx, C, C, alpha0, progressFunc(rec))
	if err != nil {
		return nil, err
	}
	a := make([]float64, 2*n)
	for i := range 2 * n {
		a[p.perm[i]] = p.alpha[i]
	}
	coef := make([]float64, n)
	bounded := make([]bool, n)
	for i := range n {
		coef[i] = a[i] - a[i+n]
		bounded[i] = math.Abs(coef[i]) >= C
	}
	typ := EpsilonSVR
	if l.Nu {
		typ = NuSVR
	}
	m := p.valueModel(typ, r, coef, bounded, res)
	m.Epsilon = l.Epsilon
	if l.Nu {
		m.Epsilon = -p.rNU
		m.Message = fmt.Sprintf("%s; ν = %g gives ε = %.6g", m.Message, s.Nu, m.Epsilon)
	}
	return m, nil
}

// valueModel builds the model of a solved one-class or regression problem
// from the coefficient of every training row.
func (p *problem) valueModel(t Type, r learning.Rows, coef []float64, bounded []bool, res *smoResult) *ValueModel {
	var rows []int
	var c []float64
	nb := 0
	for i, v := range coef {
		if v != 0 {
			rows = append(rows, i)
			c = append(c, v)
			if bounded[i] {
				nb++
			}
		}
	}
	m := NewValueModel(t, p.kern, learning.Subset(r, rows), c, p.rho())
	m.Obj, m.Iter, m.Status, m.Bounded = res.obj, res.iter, res.status, nb
	if res.status == Optimal {
		m.Message = fmt.Sprintf("optimal to eps %g after %d iterations", p.s.Eps, res.iter)
	} else {
		m.Message = fmt.Sprintf("iteration limit %d reached; KKT gap still %.3g > eps %g", p.maxIter(), res.gap, p.s.Eps)
	}
	return m
}

// ValueLearner trains a model with a real-valued decision function: the
// one-class SVM (which ignores z) and the SVRs (z are the targets).
type ValueLearner interface {
	// Name is the learner's name: "one-class", "epsilon-svr" or "nu-svr".
	Name() string
	// FitValues trains on the rows of r with targets z (one per row;
	// nil for the one-class SVM), telling rec of progress.
	FitValues(ctx context.Context, r learning.Rows, z []float64, rec learning.Recorder) (*ValueModel, error)
}

var (
	_ ValueLearner = OneClassSVM{}
	_ ValueLearner = SVR{}
)

// FitValues is Fit; z is not used.
func (l OneClassSVM) FitValues(ctx context.Context, r learning.Rows, _ []float64, rec learning.Recorder) (*ValueModel, error) {
	ctx, rec, done := stoppable(ctx, rec)
	m, err := l.Fit(ctx, r, rec)
	return m, done(nil, err)
}

// FitValues is Fit.
func (l SVR) FitValues(ctx context.Context, r learning.Rows, z []float64, rec learning.Recorder) (*ValueModel, error) {
	ctx, rec, done := stoppable(ctx, rec)
	m, err := l.Fit(ctx, r, z, rec)
	return m, done(nil, err)
}
