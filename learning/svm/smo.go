package svm

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"

	"mark1/learning"
	"mark1/learning/internal/bytedot"
	"mark1/learning/internal/f32dot"
	"mark1/learning/kernel"
)

// Binary is a trained two-class kernel SVM, the solution of the dual
//
//	min_α ½ αᵀQα − eᵀα  subject to  0 ≤ α_i ≤ C, yᵀα = 0,
//
// with Q_ij = y_i y_j k(x_i, x_j). Its decision function is
//
//	f(x) = Σ_i Coef_i k(SV_i, x) − Rho,  Coef_i = α_i y_i,
//
// positive for the class labelled +1.
type Binary struct {
	// Kernel is the kernel the machine was trained with.
	Kernel kernel.Kernel
	// SV holds the support vectors (α_i > 0): the rows of the training X,
	// not copies, when the machine was trained by Solve (nil inside a
	// KernelModel, which keeps its own).
	SV [][]float64
	// Index holds the row of X of each support vector.
	Index []int
	// Coef holds α_i y_i for each support vector.
	Coef []float64
	// Alpha holds α_i for every training example, in the order of X.
	Alpha []float64
	// Rho is the threshold: b = −Rho, as in LIBSVM's model files.
	Rho float64
	// C is the box bound of the last problem solved: Settings.C, or the
	// largest C tried on the way to a hard margin.
	C float64
	// Obj is the dual objective ½αᵀQα − eᵀα at the solution, with
	// LIBSVM's sign convention (its "obj =" line).
	Obj float64
	// W2 is ‖w‖² = Σ_ij α_i α_j y_i y_j k(x_i, x_j), the squared norm of
	// the separator in the kernel's feature space.
	W2 float64
	// Bounded is the number of support vectors with α_i = C.
	Bounded int
	// Iter is the number of SMO iterations (summed over the hard-margin
	// ladder).
	Iter int
	// Status says how the run ended.
	Status Status
	// Message says the same in one sentence, with numbers.
	Message string

	w     []float64 // explicit weights for the linear kernel
	upper []bool    // upper[k]: support vector k is at its bound
}

// Decision returns f(x) = Σ_i Coef_i k(SV_i, x) − Rho. It panics if x has
// the wrong length.
func (b *Binary) Decision(x []float64) float64 {
	if b.w != nil {
		return kernel.Dot(b.w, x) - b.Rho
	}
	var s float64
	for i, sv := range b.SV {
		s += b.Coef[i] * b.Kernel.Eval(sv, x)
	}
	return s - b.Rho
}

// Margin returns the geometric margin 1/‖w‖ of the separator in the
// kernel's feature space: the distance from the decision surface to the
// planes f = ±1. It is +Inf when w = 0.
func (b *Binary) Margin() float64 { return 1 / math.Sqrt(b.W2) }

// SupportVectors returns the number of support vectors and how many of them
// are bounded (α = C).
func (b *Binary) SupportVectors() (total, bounded int) { return len(b.Index), b.Bounded }

// Solve trains a binary C-SVM on the rows of X with labels y (each +1 or −1)
// by sequential minimal optimization with second-order working-set
// selection, shrinking and a kernel cache, as LIBSVM does. It panics if
// len(X) != len(y). It returns an error, wrapping ErrShape, ErrValue,
// ErrLabel, ErrOneClass or ErrSetting, if the rows differ in length or
// contain NaN or ±Inf, a label is not ±1, only one label occurs, C is
// negative or NaN, or the kernel's parameters are out of range. Whether the
// solver reached the tolerance is reported in the Status.
func Solve(X [][]float64, y []float64, k kernel.Kernel, s Settings) (*Binary, error) {
	return solveCtx(context.Background(), X, y, k, s, nil)
}

// SolveContext is Solve that stops, returning ctx.Err(), when ctx is done
// (checked at every iteration).
func SolveContext(ctx context.Context, X [][]float64, y []float64, k kernel.Kernel, s Settings) (*Binary, error) {
	return solveCtx(ctx, X, y, k, s, nil)
}

// SolveRowsContext is SolveContext on rows in any form (dense, sparse, bit
// sets, bytes), used in place: a sparse data set is never made dense. The
// Binary's SV is nil. The rows' values must be finite (learning's readers
// and Rows constructors see to it).
func SolveRowsContext(ctx context.Context, r learning.Rows, y []float64, k kernel.Kernel, s Settings) (*Binary, error) {
	if r.Len() != len(y) {
		panic("svm: rows and labels differ in number")
	}
	return solveAll(ctx, r, nil, y, k, s, nil)
}

// solveCtx is Solve with cancellation and a progress hook, called after
// every round of min(n, 1000) iterations and at the end with the number of
// iterations since the last call and the dual objective.
func solveCtx(ctx context.Context, X [][]float64, y []float64, k kernel.Kernel, s Settings, progress func(iter int, obj float64)) (*Binary, error) {
	if len(X) != len(y) {
		panic("svm: len(X) != len(y)")
	}
	if err := checkX(X); err != nil {
		return nil, err
	}
	return solveAll(ctx, learning.NewDense(X), X, y, k, s, progress)
}

// solveAll is solveRows on all of r, with the public entry points'
// defaults: the linear kernel for nil, and kernel rows on s.Threads cores
// (all when 0).
func solveAll(ctx context.Context, r learning.Rows, X [][]float64, y []float64, k kernel.Kernel, s Settings, progress func(iter int, obj float64)) (*Binary, error) {
	if k == nil {
		k = kernel.Linear{}
	}
	s.rowThreads = s.Threads
	if s.rowThreads <= 0 {
		s.rowThreads = runtime.GOMAXPROCS(0)
	}
	return solveRows(ctx, r, nil, X, y, k, s, progress)
}

// solveRows is solveCtx on rows sub of r (all when sub is nil), with labels
// y for those rows; X, when not nil, holds the same rows as slices for
// Binary.SV.
func solveRows(ctx context.Context, r learning.Rows, sub []int, X [][]float64, y []float64, k kernel.Kernel, s Settings, progress func(iter int, obj float64)) (*Binary, error) {
	p, pos, neg, err := newSolve(r, sub, X, y, k, s)
	if err != nil {
		return nil, err
	}
	s = p.s
	if s.nuSVC {
		return p.solveNuSVC(ctx, pos, neg, progress)
	}
	if s.Hard {
		return p.hard(ctx, progress)
	}
	cp, cn := s.C*weight(s.wpos), s.C*weight(s.wneg)
	var alpha0 []float64
	if s.start != nil {
		if alpha0, err = p.feasible(s.start, cp, cn); err != nil {
			return nil, err
		}
	}
	res, err := p.run(ctx, cp, cn, alpha0, progress)
	if err != nil {
		return nil, err
	}
	return p.finish(ctx, res)
}

// binaryLabels returns the labels y, each +1 or −1, as int8; an error
// names the first other label (ErrLabel), or says all are the same
// (ErrOneClass).
func binaryLabels(y []float64) ([]int8, error) {
	yy := make([]int8, len(y))
	pos := 0
	for i, v := range y {
		switch v {
		case 1:
			yy[i] = 1
			pos++
		case -1:
			yy[i] = -1
		default:
			return nil, fmt.Errorf("label %v of example %d is not ±1: %w", v, i, ErrLabel)
		}
	}
	if pos == 0 || pos == len(y) {
		return nil, fmt.Errorf("all %d labels are %v: %w", len(y), y[0], ErrOneClass)
	}
	return yy, nil
}

// newSolve checks the settings (filling in their defaults, kept in the
// problem's s) and labels and makes the problem; it returns the numbers of
// labels +1 and −1.
func newSolve(r learning.Rows, sub []int, X [][]float64, y []float64, k kernel.Kernel, s Settings) (*problem, int, int, error) {
	if err := checkSettings(&s, k); err != nil {
		return nil, 0, 0, err
	}
	if s.start != nil && (s.Hard || s.nuSVC) {
		return nil, 0, 0, fmt.Errorf("a warm start is for the soft-margin C-SVC, not the hard margin or the ν-SVC: %w", ErrSetting)
	}
	yy, err := binaryLabels(y)
	if err != nil {
		return nil, 0, 0, err
	}
	pos := 0
	for _, v := range yy {
		if v == 1 {
			pos++
		}
	}
	neg := len(yy) - pos
	p := newProblem(r, sub, X, yy, k, s)
	for i, q := range p.qd {
		if math.IsNaN(q) || math.IsInf(q, 0) {
			// A kernel whose parameters overflow on these data (a high
			// degree of large values): no optimum can be computed.
			return nil, 0, 0, fmt.Errorf("kernel %v: k(x, x) of example %d is %v, not a finite number; choose smaller parameters or scale the data: %w", k, i, q, ErrKernel)
		}
	}
	return p, pos, neg, nil
}

// weight is a class weight, 1 when unset (0).
func weight(w float64) float64 {
	if w == 0 {
		return 1
	}
	return w
}

// finish builds the Binary of a finished run with its message, or
// returns ctx.Err() once ctx is done (binary).
func (p *problem) finish(ctx context.Context, r *smoResult) (*Binary, error) {
	b, err := p.binary(ctx, r)
	if err != nil {
		return nil, err
	}
	if r.status == Optimal {
		b.Message = fmt.Sprintf("optimal to eps %g after %d iterations", p.s.Eps, r.iter)
	} else {
		b.Message = fmt.Sprintf("iteration limit %d reached; KKT gap still %.3g > eps %g", p.maxIter(), r.gap, p.s.Eps)
	}
	return b, nil
}

// solveNuSVC solves the ν-SVC of Schölkopf et al. as LIBSVM's solve_nu_svc:
// min ½αᵀQα subject to 0 ≤ α_i ≤ 1, yᵀα = 0, eᵀα = νl, from α filled up
// to νl/2 on each side in the order of the examples, by Solver_NU; the
// solution scaled by 1/r is the C-SVC's with C = 1/r. pos and neg count
// the two labels: ν must be at most 2 min(pos, neg)/l.
func (p *problem) solveNuSVC(ctx context.Context, pos, neg int, progress func(int, float64)) (*Binary, error) {
	nu := p.s.Nu
	if nu*float64(pos+neg)/2 > float64(min(pos, neg)) {
		return nil, fmt.Errorf("ν = %g is infeasible for %d and %d examples of the two classes: want ν ≤ 2·min/total = %.4g: %w",
			nu, pos, neg, 2*float64(min(pos, neg))/float64(pos+neg), ErrSetting)
	}
	alpha0 := make([]float64, p.n)
	sumPos, sumNeg := nu*float64(p.n)/2, nu*float64(p.n)/2
	for i := range p.n {
		p.lin[i] = 0
		if p.y[i] == 1 {
			alpha0[i] = math.Min(1, sumPos)
			sumPos -= alpha0[i]
		} else {
			alpha0[i] = math.Min(1, sumNeg)
			sumNeg -= alpha0[i]
		}
	}
	p.nu = true
	r, err := p.run(ctx, 1, 1, alpha0, progress)
	if err != nil {
		return nil, err
	}
	p.rhoNU() // sets p.rNU
	if !(p.rNU > 0) || math.IsInf(p.rNU, 1) {
		return nil, fmt.Errorf("ν-SVC with ν = %g: the solution's r = %v is not a finite number > 0, so no C-SVC has it (too few free support vectors); try another ν: %w", nu, p.rNU, ErrSetting)
	}
	b, err := p.finish(ctx, r)
	if err != nil {
		return nil, err
	}
	b.Message += fmt.Sprintf("; ν = %g gives C = %.6g", nu, b.C)
	return b, nil
}

// checkSettings fills in defaults and checks ranges.
func checkSettings(s *Settings, k kernel.Kernel) error {
	if err := kernel.Validate(k); err != nil {
		return fmt.Errorf("%w: %v", ErrSetting, err)
	}
	switch {
	case math.IsNaN(s.C) || s.C < 0:
		return fmt.Errorf("penalty C = %v, want C > 0: %w", s.C, ErrSetting)
	case s.C == 0:
		s.C = 1
	case math.IsInf(s.C, 1):
		s.Hard = true
	}
	if math.IsNaN(s.Eps) || s.Eps < 0 || math.IsInf(s.Eps, 0) {
		return fmt.Errorf("tolerance Eps = %v, want a finite Eps ≥ 0: %w", s.Eps, ErrSetting)
	}
	if s.Eps == 0 {
		s.Eps = 1e-3
	}
	if math.IsNaN(s.CacheMB) || s.CacheMB < 0 {
		return fmt.Errorf("CacheMB = %v, want ≥ 0: %w", s.CacheMB, ErrSetting)
	}
	if s.CacheMB == 0 {
		s.CacheMB = 100
	}
	if s.MaxIter < 0 {
		return fmt.Errorf("MaxIter = %d, want ≥ 0: %w", s.MaxIter, ErrSetting)
	}
	if s.Threads < 0 {
		return fmt.Errorf("Settings.Threads = %d, want ≥ 0: %w", s.Threads, ErrSetting)
	}
	if !(s.Nu >= 0 && s.Nu <= 1) {
		return fmt.Errorf("ν = %v, want 0 < ν ≤ 1: %w", s.Nu, ErrSetting)
	}
	if s.Nu == 0 {
		s.Nu = 0.5
	}
	return nil
}

// checkX reports ragged, empty or non-finite data.
func checkX(X [][]float64) error {
	if len(X) == 0 {
		return fmt.Errorf("no examples: %w", ErrShape)
	}
	d := len(X[0])
	for i, x := range X {
		if len(x) != d {
			return fmt.Errorf("example %d has %d features, example 0 has %d: %w", i, len(x), d, ErrShape)
		}
		for j, v := range x {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("example %d, feature %d is %v: %w", i, j, v, ErrValue)
			}
		}
	}
	return nil
}

// checkRows is checkX for rows in any form: the stored values must be
// finite and the rows must have features.
func checkRows(r learning.Rows) error {
	switch r := r.(type) {
	case *learning.Dense:
		return checkX(r.X)
	case *learning.Sparse:
		for i := range r.Len() {
			idx, val := r.NonZeros(i)
			for k, v := range val {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return fmt.Errorf("example %d, feature %d is %v: %w", i, idx[k], v, ErrValue)
				}
			}
		}
	}
	if r.Dim() == 0 {
		return fmt.Errorf("examples have no features: %w", ErrShape)
	}
	return nil
}

// α status at the bounds.
const (
	atLower uint8 = iota
	atUpper
	free
)

// tau replaces a non-positive curvature, as in LIBSVM.
const tau = 1e-12

// problem is one binary dual problem with its kernel cache. Arrays are
// indexed by position; perm maps positions to rows of X.
type problem struct {
	n     int
	s     Settings
	g     *gram
	c     *cache
	y     []int8
	qd    []float64 // Q_ii
	perm  []int
	alpha []float64
	grad  []float64 // ∇f(α) = Qα − e
	// up[t] is −y_t when t is in I_up (α_t can move up in y_t's
	// direction) and NaN otherwise, low[t] y_t when t is in I_low and NaN
	// otherwise: −y_t∇f_t is up[t]·∇f_t, and a NaN product fails every
	// comparison, so that selectPair's loops need no branch on the
	// labels and bounds (setStatus keeps them).
	up, low []float64
	gbar    []float64 // Σ_{j: α_j = C} C Q_ij
	status  []uint8
	active  int
	cp, cn  float64     // the current box bounds of y = +1 and y = −1
	lin     []float64   // the linear term p of ½αᵀQα + pᵀα (−1 for the C-SVC)
	nu      bool        // Solver_NU: pairs of equal y, two equality constraints
	rNU     float64     // Solver_NU's r at the solution
	X       [][]float64 // the rows as slices (Solve), or nil
	r       learning.Rows
	sub     []int // the problem's rows of r, or nil for all
	kern    kernel.Kernel
	// ahead says whether rows are computed ahead (rowAhead, prefetch),
	// from active data of aheadFrom bytes (aheadBytes), with their scratch:
	// positions and rows; computedAhead counts the rows rowAhead computed
	// beyond the one asked for.
	ahead         bool
	aheadFrom     int
	aheadIs       []int
	aheadQ        [][]float32
	computedAhead int
	// cls, when not nil, holds the kernel rows of the pair's two classes
	// over their own class (classrows.go): loc[k] is position k's row
	// within its class, clsBuf scratch for a row.
	cls    *classRows
	clsG   *gram // cls's rows, as the pair computes them (classRows.view)
	clsID  int32 // the pair's id in cls
	loc    []int32
	clsBuf []float64
}

type smoResult struct {
	status Status
	iter   int
	gap    float64
	obj    float64
}

func newProblem(r learning.Rows, sub []int, X [][]float64, y []int8, k kernel.Kernel, s Settings) *problem {
	n := len(sub)
	if sub == nil {
		n = r.Len()
	}
	p := &problem{
		n: n, s: s, g: newGramIn(r, sub, k, s.store), y: y, X: X, r: r, sub: sub, kern: k,
		c:      newCache(n, int64(s.CacheMB*(1<<20)), s.store),
		qd:     make([]float64, n),
		perm:   make([]int, n),
		alpha:  make([]float64, n),
		grad:   make([]float64, n),
		gbar:   make([]float64, n),
		status: make([]uint8, n),
		lin:    make([]float64, n),
		up:     make([]float64, n),
		low:    make([]float64, n),
	}
	p.g.threads = s.rowThreads
	p.useShared(s)
	p.ahead, p.aheadFrom = p.g.tiled() && p.c.maxSlots >= 8*window, aheadBytes
	for i := range n {
		p.perm[i] = i
		p.qd[i] = p.g.eval(i, i)
		p.lin[i] = -1
	}
	return p
}

// bound returns the box bound of position i: Cp for y_i = +1, Cn for −1.
func (p *problem) bound(i int) float64 {
	if p.y[i] > 0 {
		return p.cp
	}
	return p.cn
}

// row returns Q_i over positions [0, length).
func (p *problem) row(i, length int) []float32 {
	r, start := p.c.get(i, length)
	if start < length {
		if p.cls != nil {
			p.rowShared(r, i, start, length)
		} else {
			p.g.row(r[start:length], p.y, i, start)
		}
	}
	return r[:length]
}

// aheadBytes is the least memory of the active rows' data for which
// rowAhead computes rows ahead: below it the data stay in the processor's
// caches, where a row costs little to read, and a row computed ahead
// would cost more than the reads it saves (bench/README.md, fourth round).
const aheadBytes = 12 << 20

// window is the number of positions prefetch looks at a time; a cache
// of fewer than 8 windows of rows computes no rows ahead. The solver
// looks at its context every window of kernel rows where it computes
// many outside its iterations (a warm start's gradient, the gradient
// rebuilt when the shrunk variables come back): 16 rows over 150,000
// variables of 400 features take a fraction of a second.
const window = 16

// rowAhead is row(i, act) for a variable the pair selection takes (its i,
// and its j in step). When no part of the row is cached and the active
// rows' data outgrow a core's caches, it is computed in one pass over the
// data (gram.rows) with the rows of the most violating variable of each
// side (I_up by −y∇f, I_low by y∇f) whose rows are not cached either:
// the solver takes most of them soon after, and each costs the
// arithmetic of a row but not the reading of the data again. The cache
// holds at least 8 windows of rows (p.ahead), so a row obtained before
// stays valid.
func (p *problem) rowAhead(i, act int) []float32 {
	if !p.ahead || p.c.rows[i] != nil || act*p.g.v.rowBytes() < p.aheadFrom {
		return p.row(i, act)
	}
	is := append(p.aheadIs[:0], i)
	up, low := p.violators(i, act)
	for _, t := range [2]int{up, low} {
		if t >= 0 && !slices.Contains(is, t) {
			is = append(is, t)
		}
	}
	p.aheadIs = is
	p.fill(is, 0, act)
	p.computedAhead += len(is) - 1
	return p.c.rows[i][:act]
}

// violators returns the most violating positions t < act, t ≠ i, of I_up
// (largest −y_t∇f_t) and of I_low (largest y_t∇f_t) whose rows are not
// cached, or −1.
func (p *problem) violators(i, act int) (up, low int) {
	up, low = -1, -1
	vu, vl := math.Inf(-1), math.Inf(-1)
	y, grad, st, rows := p.y[:act], p.grad[:act], p.status[:act], p.c.rows[:act]
	for t := range act {
		if rows[t] != nil || t == i {
			continue
		}
		v := -float64(y[t]) * grad[t] // −y∇f, I_up's measure; I_low's is its negative
		inUp, inLow := st[t] != atUpper, st[t] != atLower
		if y[t] == -1 {
			inUp, inLow = inLow, inUp
		}
		if inUp && v > vu {
			up, vu = t, v
		}
		if inLow && -v > vl {
			low, vl = t, -v
		}
	}
	return up, low
}

// prefetch computes the rows of positions [lo, hi) (those want accepts,
// all when nil) over [0, length) where they are not, the rows computed as
// far as the same entry together (gram.rows), so that a loop over the
// positions finds them cached.
func (p *problem) prefetch(lo, hi, length int, want func(int) bool) {
	if !p.ahead {
		return
	}
	is := p.aheadIs[:0]
	for t := lo; t < hi; t++ {
		if (want == nil || want(t)) && len(p.c.rows[t]) < length {
			is = append(is, t)
		}
	}
	slices.SortStableFunc(is, func(a, b int) int { return cmp.Compare(len(p.c.rows[a]), len(p.c.rows[b])) })
	p.aheadIs = is
	for len(is) > 0 {
		from := len(p.c.rows[is[0]])
		k := 1
		for k < len(is) && len(p.c.rows[is[k]]) == from {
			k++
		}
		if k > 1 {
			p.fill(is[:k], from, length)
		}
		is = is[k:]
	}
}

// fill computes the rows is over [from, length), each computed as far as
// from, in one pass over the data (gram.rows), into the cache. Only rows
// not cached at all (from = 0) take slots, and the cache holds 8 windows
// of rows, so no row of is evicts another.
func (p *problem) fill(is []int, from, length int) {
	q := p.aheadQ[:0]
	for _, t := range is {
		r, _ := p.c.get(t, length)
		q = append(q, r[from:length])
	}
	p.aheadQ = q
	p.g.rows(q, p.y, is, from)
}

func (p *problem) swap(i, j int) {
	if i == j {
		return
	}
	p.c.swap(i, j)
	p.g.swap(i, j)
	p.y[i], p.y[j] = p.y[j], p.y[i]
	p.qd[i], p.qd[j] = p.qd[j], p.qd[i]
	p.perm[i], p.perm[j] = p.perm[j], p.perm[i]
	p.alpha[i], p.alpha[j] = p.alpha[j], p.alpha[i]
	p.grad[i], p.grad[j] = p.grad[j], p.grad[i]
	p.gbar[i], p.gbar[j] = p.gbar[j], p.gbar[i]
	p.status[i], p.status[j] = p.status[j], p.status[i]
	p.up[i], p.up[j] = p.up[j], p.up[i]
	p.low[i], p.low[j] = p.low[j], p.low[i]
	p.lin[i], p.lin[j] = p.lin[j], p.lin[i]
	if p.loc != nil {
		p.loc[i], p.loc[j] = p.loc[j], p.loc[i]
	}
}

func (p *problem) setStatus(i int) {
	switch {
	case p.alpha[i] >= p.bound(i):
		p.status[i] = atUpper
	case p.alpha[i] <= 0:
		p.status[i] = atLower
	default:
		p.status[i] = free
	}
	y := float64(p.y[i])
	p.up[i], p.low[i] = -y, y
	// I_up: y = +1 below C or y = −1 above 0; I_low the other way round
	if p.status[i] == atUpper && y > 0 || p.status[i] == atLower && y < 0 {
		p.up[i] = math.NaN()
	}
	if p.status[i] == atLower && y > 0 || p.status[i] == atUpper && y < 0 {
		p.low[i] = math.NaN()
	}
}

// run solves the problem with box bounds cp (y = +1) and cn (y = −1) from
// α0 (indexed by position; nil means zero), as LIBSVM's Solver::Solve (and
// Solver_NU's when p.nu is set).
func (p *problem) run(ctx context.Context, cp, cn float64, alpha0 []float64, progress func(iters int, obj float64)) (*smoResult, error) {
	n := p.n
	p.cp, p.cn = cp, cn
	p.active = n
	for i := range n {
		a := 0.0
		if alpha0 != nil {
			a = math.Min(alpha0[i], p.bound(i)) // alpha0 may be p.alpha itself
		}
		p.alpha[i] = a
		p.setStatus(i)
		p.grad[i] = p.lin[i]
		p.gbar[i] = 0
	}
	rows := 0
	for i := range n {
		if p.status[i] == atLower {
			continue
		}
		// A warm start's gradient is a kernel row over every variable for
		// each support vector: minutes on a large problem (n × SVs values)
		if rows%window == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		rows++
		qi := p.row(i, n)
		ai := p.alpha[i]
		for j, q := range qi {
			p.grad[j] += ai * float64(q)
		}
		if p.status[i] == atUpper {
			ci := p.bound(i)
			for j, q := range qi {
				p.gbar[j] += ci * float64(q)
			}
		}
	}
	obj := p.objective()

	maxIter := p.maxIter()
	round := min(n, 1000)
	counter := round + 1
	unshrink := false
	res := &smoResult{}
	iter, reported := 0, 0
	for iter < maxIter {
		if counter--; counter == 0 {
			counter = round
			if !p.s.NoShrinking {
				var err error
				if unshrink, err = p.shrink(ctx, unshrink); err != nil {
					return nil, err
				}
			}
			if progress != nil && iter > reported {
				progress(iter-reported, obj)
				reported = iter
			}
		}
		// Every iteration: on large sparse data one iteration's two kernel
		// rows can take tens of milliseconds, and a round of them seconds.
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		i, j, gap, ok := p.selectPair()
		if !ok {
			if err := p.reconstruct(ctx); err != nil {
				return nil, err
			}
			p.active = n
			i, j, gap, ok = p.selectPair()
			if !ok {
				res.gap = gap
				break
			}
			counter = 1
		}
		res.gap = gap
		iter++
		obj += p.step(i, j)
	}
	if iter >= maxIter {
		if p.active < n {
			if err := p.reconstruct(ctx); err != nil {
				return nil, err
			}
			p.active = n
		}
		_, _, res.gap, _ = p.selectPair()
		res.status = IterationLimit
	} else {
		res.status = Optimal
	}
	res.iter = iter
	res.obj = p.objective()
	if progress != nil && iter > reported {
		progress(iter-reported, res.obj)
	}
	return res, nil
}

// objective returns ½αᵀQα + pᵀα = ½ Σ α_i (∇f_i + p_i).
func (p *problem) objective() float64 {
	var obj float64
	for i := range p.n {
		obj += p.alpha[i] * (p.grad[i] + p.lin[i])
	}
	return obj / 2
}

// maxIter is Settings.MaxIter or its default.
func (p *problem) maxIter() int {
	if p.s.MaxIter > 0 {
		return p.s.MaxIter
	}
	return max(10_000_000, 100*p.n)
}

// selectPair is WSS 3 of Fan, Chen and Lin (2005): i maximizes −y_i ∇f_i
// over I_up, j minimizes the second-order decrease of the objective over
// I_low among the pairs violating the KKT conditions. ok is false when the
// maximal violation gap m(α) − M(α) is below Eps.
func (p *problem) selectPair() (int, int, float64, bool) {
	if p.nu {
		return p.selectPairNU()
	}
	gmax, gmax2 := math.Inf(-1), math.Inf(-1)
	gi := -1
	act := p.active
	grad, up, low := p.grad[:act], p.up[:act], p.low[:act]
	from := 0
	if useSelectAVX2 && act >= 8 {
		from = act &^ 3
		c := [12]float64{4: 0, 5: 1, 6: 2, 7: 3, 8: math.Inf(-1), 9: -1, 10: 4}
		var out [16]float64
		selectIAVX2(grad[:from], up[:from], &c, &out)
		gmax, gi = bestLane(out[0:4], out[4:8])
	}
	for t := from; t < act; t++ {
		// −y_t∇f_t over I_up (NaN, never ≥, outside it)
		if v := up[t] * grad[t]; v >= gmax {
			gmax, gi = v, t
		}
	}
	gj := -1
	objMin := math.Inf(1)
	if gi >= 0 {
		qi := p.rowAhead(gi, act)[:act]
		qdi := p.qd[gi]
		yi := float64(p.y[gi])
		qd := p.qd[:act]
		from = 0
		if useSelectAVX2 && act >= 8 {
			from = act &^ 3
			gmax2, gj, objMin = selectJ(grad[:from], low[:from], qd[:from], qi[:from], gmax, qdi, 2*yi)
		}
		for t := from; t < act; t++ {
			// y_t∇f_t over I_low; gd is LIBSVM's gmax + ∇f_t (y_t = +1)
			// or gmax − ∇f_t (y_t = −1), and a its qd_i + qd_t ∓ 2y_i Q_it
			// (the product with y_t = ±1 is exact)
			g := grad[t]
			v := float64(low[t] * g)
			if v >= gmax2 {
				gmax2 = v
			}
			if gd := gmax + v; gd > 0 {
				a := qdi + qd[t] - float64(2*yi*low[t]*float64(qi[t]))
				if a <= 0 {
					a = tau
				}
				if o := -gd * gd / a; o <= objMin {
					gj, objMin = t, o
				}
			}
		}
	}
	gap := gmax + gmax2
	if gap < p.s.Eps || gj < 0 {
		return -1, -1, gap, false
	}
	return gi, gj, gap, true
}

// selectJ is selectPair's second loop over all of grad (a multiple of 4
// entries) with selectJAVX2: it returns the largest y_t∇f_t, the position
// j of the least o = −gd²/a and that o, as the scalar loop finds them, to
// the last tie (a lane keeps the last of its entries reaching its best,
// and the lanes' bests are joined by value and then by the later
// position). o ≤ objMin is −gd²/a ≤ −(gd_best²/a_best), gd²/a ≥
// gd_best²/a_best, the negation being exact.
func selectJ(grad, low, qd []float64, qi []float32, gmax, qdi, yi2 float64) (gmax2 float64, gj int, objMin float64) {
	c := [12]float64{gmax, qdi, yi2, tau, 0, 1, 2, 3, math.Inf(-1), -1, 4}
	var out [16]float64
	selectJAVX2(grad, low, qd, qi, &c, &out)
	gmax2, _ = bestLane(out[0:4], out[4:8])
	q, gj := bestLane(out[8:12], out[12:16])
	return gmax2, gj, -q
}

// bestLane joins four lanes' largest values val and the last positions
// idx reaching them (−1: none) into the largest value and the last
// position reaching it, as one loop over all positions finds them: −Inf
// and −1 when no lane has one.
func bestLane(val, idx []float64) (float64, int) {
	v, at := math.Inf(-1), -1
	for l := range 4 {
		if i := int(idx[l]); i >= 0 && (val[l] > v || val[l] == v && i > at || at < 0) {
			v, at = val[l], i
		}
	}
	return v, at
}

// addRows sets grad[k] += Q_ik·di + Q_jk·dj, four entries at a time with
// AVX2 (the same operations in the same order: the same bits; the
// conversions keep the compiler from fusing a product and a sum where the
// processor has FMA, as the assembly does not).
func addRows(grad []float64, qi, qj []float32, di, dj float64) {
	qi, qj = qi[:len(grad)], qj[:len(grad)]
	from := 0
	if useSelectAVX2 {
		from = len(grad) &^ 3
		addRowsAVX2(grad[:from], qi[:from], qj[:from], di, dj)
	}
	for k := from; k < len(grad); k++ {
		grad[k] += float64(float64(qi[k])*di) + float64(float64(qj[k])*dj)
	}
}

// step solves the two-variable sub-problem on (i, j) analytically, clips it
// to the box, and updates the gradients. It returns the change of the
// objective.
func (p *problem) step(i, j int) float64 {
	act := p.active
	qi := p.row(i, act)
	qj := p.rowAhead(j, act)
	ci, cj := p.bound(i), p.bound(j)
	ai, aj := p.alpha[i], p.alpha[j]
	gi, gj := p.grad[i], p.grad[j]
	qij := float64(qi[j])
	if p.y[i] != p.y[j] {
		a := p.qd[i] + p.qd[j] + 2*qij
		if a <= 0 {
			a = tau
		}
		delta := (-gi - gj) / a
		diff := ai - aj
		ni, nj := ai+delta, aj+delta
		if diff > 0 {
			if nj < 0 {
				nj, ni = 0, diff
			}
		} else if ni < 0 {
			ni, nj = 0, -diff
		}
		if diff > ci-cj {
			if ni > ci {
				ni, nj = ci, ci-diff
			}
		} else if nj > cj {
			nj, ni = cj, cj+diff
		}
		p.alpha[i], p.alpha[j] = ni, nj
	} else {
		a := p.qd[i] + p.qd[j] - 2*qij
		if a <= 0 {
			a = tau
		}
		delta := (gi - gj) / a
		sum := ai + aj
		ni, nj := ai-delta, aj+delta
		if sum > ci {
			if ni > ci {
				ni, nj = ci, sum-ci
			}
		} else if nj < 0 {
			nj, ni = 0, sum
		}
		if sum > cj {
			if nj > cj {
				nj, ni = cj, sum-cj
			}
		} else if ni < 0 {
			ni, nj = 0, sum
		}
		p.alpha[i], p.alpha[j] = ni, nj
	}
	di, dj := p.alpha[i]-ai, p.alpha[j]-aj
	dobj := gi*di + gj*dj + 0.5*(p.qd[i]*di*di+p.qd[j]*dj*dj) + qij*di*dj
	addRows(p.grad[:act], qi[:act], qj[:act], di, dj)
	ui, uj := p.status[i] == atUpper, p.status[j] == atUpper
	p.setStatus(i)
	p.setStatus(j)
	p.updateGbar(i, ui)
	p.updateGbar(j, uj)
	return dobj
}

// updateGbar keeps Ḡ = Σ_{α=C} C Q_·j right when α_i enters or leaves the
// upper bound.
func (p *problem) updateGbar(i int, wasUpper bool) {
	isUpper := p.status[i] == atUpper
	if wasUpper == isUpper {
		return
	}
	q := p.row(i, p.n)
	c := p.bound(i)
	if wasUpper {
		c = -c
	}
	for k, v := range q {
		p.gbar[k] += c * float64(v)
	}
}

// reconstruct recomputes the gradient of the shrunk variables from Ḡ and
// the free α's, choosing the cheaper of LIBSVM's two loop orders.
func (p *problem) reconstruct(ctx context.Context) error {
	n, act := p.n, p.active
	if act == n {
		return nil
	}
	for j := act; j < n; j++ {
		p.grad[j] = p.gbar[j] + p.lin[j]
	}
	nfree := 0
	for j := range act {
		if p.status[j] == free {
			nfree++
		}
	}
	if nfree*n > 2*act*(n-act) {
		for i := act; i < n; i++ {
			if (i-act)%window == 0 {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				p.prefetch(i, min(n, i+window), act, nil)
			}
			q := p.row(i, act)
			var s float64
			for j, v := range q {
				if p.status[j] == free {
					s += p.alpha[j] * float64(v)
				}
			}
			p.grad[i] += s
		}
	} else {
		for i := range act {
			if i%window == 0 {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				p.prefetch(i, min(act, i+window), n, func(t int) bool { return p.status[t] == free })
			}
			if p.status[i] != free {
				continue
			}
			q := p.row(i, n)
			a := p.alpha[i]
			for j := act; j < n; j++ {
				p.grad[j] += a * float64(q[j])
			}
		}
	}
	return nil
}

// shrink moves the variables that are likely to stay at a bound out of the
// active set, as LIBSVM's do_shrinking; once the gap is within 10·Eps it
// first restores the full set once (unshrink).
func (p *problem) shrink(ctx context.Context, unshrink bool) (bool, error) {
	if p.nu {
		return p.shrinkNU(ctx, unshrink)
	}
	gmax1, gmax2 := math.Inf(-1), math.Inf(-1)
	for i := range p.active {
		g := p.grad[i]
		if p.y[i] == 1 {
			if p.status[i] != atUpper && -g >= gmax1 {
				gmax1 = -g
			}
			if p.status[i] != atLower && g >= gmax2 {
				gmax2 = g
			}
		} else {
			if p.status[i] != atUpper && -g >= gmax2 {
				gmax2 = -g
			}
			if p.status[i] != atLower && g >= gmax1 {
				gmax1 = g
			}
		}
	}
	return p.shrinkBy(ctx, unshrink, gmax1+gmax2, shrinkBounds{gmax1, gmax2, gmax2, gmax1})
}

// shrinkBounds are the violations beyond which a variable at a bound is
// shrunk: -∇f_i above upPos (upNeg) for y_i = +1 (−1) at the upper bound,
// ∇f_i above lowPos (lowNeg) at the lower bound.
type shrinkBounds struct{ upPos, upNeg, lowPos, lowNeg float64 }

// shrinkBy is the common end of do_shrinking: with the gap within 10·Eps it
// first restores the full set once (unshrink), then it moves each
// shrinkable variable behind the active set.
func (p *problem) shrinkBy(ctx context.Context, unshrink bool, gap float64, b shrinkBounds) (bool, error) {
	if !unshrink && gap <= 10*p.s.Eps {
		unshrink = true
		if err := p.reconstruct(ctx); err != nil {
			return unshrink, err
		}
		p.active = p.n
	}
	for i := 0; i < p.active; i++ {
		if !p.shrinkable(i, b) {
			continue
		}
		p.active--
		for p.active > i {
			if !p.shrinkable(p.active, b) {
				p.swap(i, p.active)
				break
			}
			p.active--
		}
	}
	return unshrink, nil
}

func (p *problem) shrinkable(i int, b shrinkBounds) bool {
	switch p.status[i] {
	case atUpper:
		if p.y[i] == 1 {
			return -p.grad[i] > b.upPos
		}
		return -p.grad[i] > b.upNeg
	case atLower:
		if p.y[i] == 1 {
			return p.grad[i] > b.lowPos
		}
		return p.grad[i] > b.lowNeg
	}
	return false
}

// rho is LIBSVM's calculate_rho: the mean of y_i ∇f_i over the free
// variables, or the middle of the feasible interval if none is free.
func (p *problem) rho() float64 {
	if p.nu {
		return p.rhoNU()
	}
	ub, lb := math.Inf(1), math.Inf(-1)
	var sum float64
	nfree := 0
	for i := range p.n {
		yg := float64(p.y[i]) * p.grad[i]
		switch p.status[i] {
		case atUpper:
			if p.y[i] == -1 {
				ub = math.Min(ub, yg)
			} else {
				lb = math.Max(lb, yg)
			}
		case atLower:
			if p.y[i] == 1 {
				ub = math.Min(ub, yg)
			} else {
				lb = math.Max(lb, yg)
			}
		default:
			nfree++
			sum += yg
		}
	}
	if nfree > 0 {
		return sum / float64(nfree)
	}
	return (ub + lb) / 2
}

// w2 returns ‖w‖² = αᵀQα = Σ_ij α_i α_j y_i y_j k(x_i, x_j), summed over
// the support vectors with every kernel value computed afresh in float64.
// The identity αᵀQα = 2(obj + Σα) would be O(1), but the objective comes
// from gradients built of the solver's float32 kernel rows, and its error
// shows in the fourth digit of a margin (1.8912 for 1.8890 on the lab's
// overlap example with the poly:d=2 kernel and C = 10). It is
// O(SVs²) kernel values, minutes at tens of thousands of support vectors:
// it looks at ctx every window of support vectors, and returns ctx.Err()
// once ctx is done.
func (p *problem) w2(ctx context.Context) (float64, error) {
	var sv []int
	for i, a := range p.alpha {
		if a > 0 {
			sv = append(sv, i)
		}
	}
	// row[a] = Σ_{b > a} c_b k(x_a, x_b), in increasing b.
	row := make([]float64, len(sv))
	if g := p.g; (g.v.layout == layoutF32 || g.v.layout == layoutBytes) && g.kind != kindGeneric {
		// On float32 or byte rows the later vectors are taken a tile of
		// blockSV at a time (it stays in a core's cache) against every
		// earlier vector, with the dot products eval takes (f32dot's,
		// bytedot's: the same values to the last bit): on 3,904 support
		// vectors of 400 features, vector against vector, this was a
		// tenth of the fit.
		var dots func(d []float64, a, from int)
		if g.v.layout == layoutF32 {
			rows := make([][]float32, len(sv))
			for a, i := range sv {
				rows[a] = g.v.f32[i]
			}
			dots = func(d []float64, a, from int) { f32dot.Dots(d, rows[a], rows[from:from+len(d)]) }
		} else {
			rows := make([][]uint8, len(sv))
			for a, i := range sv {
				rows[a] = g.v.bytes[i]
			}
			dots = func(d []float64, a, from int) {
				for k, x := range rows[from : from+len(d)] {
					d[k] = float64(bytedot.Dot(rows[a], x)) / bytedot.Scale
				}
			}
		}
		// The kernel values are apply's, to the bit, taken a tile at a time
		// (kernelRow: the exponentials four at a time).
		d, sq := make([]float64, blockSV), make([]float64, len(sv))
		for a, i := range sv {
			sq[a] = g.v.sq[i]
		}
		for lo := 0; lo < len(sv); lo += blockSV {
			hi := min(len(sv), lo+blockSV)
			if err := ctx.Err(); err != nil {
				return 0, err
			}
			for a := range hi - 1 {
				if a%(4*window) == 0 && ctx.Err() != nil {
					return 0, ctx.Err()
				}
				from := max(a+1, lo)
				d := d[:hi-from]
				dots(d, a, from)
				g.kernelRow(d, sq[a], sq[from:hi])
				for k, j := range sv[from:hi] {
					row[a] += p.alpha[j] * float64(p.y[j]) * d[k]
				}
			}
		}
	} else if g.v.layout == layoutSparse && g.kind != kindGeneric {
		// On sparse rows each vector is scattered once for all the later
		// ones (eval scatters it for each): the same dot products and
		// kernel values, to the bit; on 20x20 digits (a quarter of the
		// values non-zero) the scatters were a tenth of the fit.
		d := make([]float64, len(sv))
		idx, val := make([][]int32, len(sv)), make([][]float64, len(sv))
		for a, i := range sv {
			idx[a], val[a] = g.v.idx[i], g.v.val[i]
		}
		for a, i := range sv {
			if a%window == 0 && ctx.Err() != nil {
				return 0, ctx.Err()
			}
			js := sv[a+1:]
			dotsAt(d[:len(js)], g.v.scatterRow(i), idx[a+1:], val[a+1:])
			g.v.clearScatter(i)
			for k, j := range js {
				row[a] += p.alpha[j] * float64(p.y[j]) * g.apply(d[k], i, j)
			}
		}
	} else {
		for a, i := range sv {
			if a%window == 0 && ctx.Err() != nil {
				return 0, ctx.Err()
			}
			for _, j := range sv[a+1:] {
				row[a] += p.alpha[j] * float64(p.y[j]) * p.g.eval(i, j)
			}
		}
	}
	var w2 float64
	for a, i := range sv {
		ci := p.alpha[i] * float64(p.y[i])
		w2 += ci * ci * p.g.eval(i, i)
		w2 += 2 * ci * row[a]
	}
	return math.Max(w2, 0), nil
}

// binary builds the result from the solved problem, or returns ctx.Err()
// once ctx is done (w2).
func (p *problem) binary(ctx context.Context, r *smoResult) (*Binary, error) {
	b := &Binary{
		Kernel: p.kern, C: p.cp, Obj: r.obj, Iter: r.iter, Status: r.status,
		Rho: p.rho(), Alpha: make([]float64, p.n),
	}
	upper := make([]bool, p.n)
	y := make([]int8, p.n)
	for i := range p.n {
		b.Alpha[p.perm[i]] = p.alpha[i]
		upper[p.perm[i]] = p.status[i] == atUpper
		y[p.perm[i]] = p.y[i]
	}
	var err error
	if b.W2, err = p.w2(ctx); err != nil {
		return nil, err
	}
	if p.nu {
		// Solver_NU solved the problem scaled by r (Chang and Lin 2001):
		// the ν-SVC's α, ρ and objective are the solution's over r.
		r := p.rNU
		for i := range b.Alpha {
			b.Alpha[i] /= r
		}
		b.Rho /= r
		b.Obj /= r * r
		b.W2 /= r * r
		b.C = 1 / r
	}
	for i, a := range b.Alpha {
		if a > 0 {
			b.Index = append(b.Index, i)
		}
	}
	if p.X != nil {
		b.SV = make([][]float64, len(b.Index))
	}
	b.Coef = make([]float64, len(b.Index))
	b.upper = make([]bool, len(b.Index))
	for k, i := range b.Index {
		if p.X != nil {
			b.SV[k] = p.X[i]
		}
		b.Coef[k] = b.Alpha[i] * float64(y[i])
		if upper[i] {
			b.Bounded++
			b.upper[k] = true
		}
	}
	if _, ok := p.kern.(kernel.Linear); ok {
		b.w = make([]float64, p.r.Dim())
		for k, i := range b.Index {
			if p.sub != nil {
				i = p.sub[i]
			}
			p.r.AddTo(b.w, b.Coef[k], i)
		}
	}
	return b, nil
}

// selectPairNU is Solver_NU's working-set selection: the pair has equal
// labels, the most violating i among the y = +1 or the y = −1 variables and
// the j of the same label with the largest second-order decrease. The gap
// is the larger of the two labels' violations.
func (p *problem) selectPairNU() (int, int, float64, bool) {
	gmaxp, gmaxp2 := math.Inf(-1), math.Inf(-1)
	gmaxn, gmaxn2 := math.Inf(-1), math.Inf(-1)
	ip, in := -1, -1
	act := p.active
	y, grad, st := p.y[:act], p.grad[:act], p.status[:act]
	for t := range act {
		if y[t] == 1 {
			if st[t] != atUpper && -grad[t] >= gmaxp {
				gmaxp, ip = -grad[t], t
			}
		} else if st[t] != atLower && grad[t] >= gmaxn {
			gmaxn, in = grad[t], t
		}
	}
	var qip, qin []float32
	if ip >= 0 {
		qip = p.row(ip, act)
	}
	if in >= 0 {
		qin = p.row(in, act)
	}
	gj := -1
	objMin := math.Inf(1)
	qd := p.qd[:act]
	for t := range act {
		if y[t] == 1 {
			if st[t] == atLower {
				continue
			}
			gd := gmaxp + grad[t]
			if grad[t] >= gmaxp2 {
				gmaxp2 = grad[t]
			}
			if gd > 0 {
				a := qd[ip] + qd[t] - 2*float64(qip[t])
				if a <= 0 {
					a = tau
				}
				if o := -gd * gd / a; o <= objMin {
					gj, objMin = t, o
				}
			}
		} else {
			if st[t] == atUpper {
				continue
			}
			gd := gmaxn - grad[t]
			if -grad[t] >= gmaxn2 {
				gmaxn2 = -grad[t]
			}
			if gd > 0 {
				a := qd[in] + qd[t] - 2*float64(qin[t])
				if a <= 0 {
					a = tau
				}
				if o := -gd * gd / a; o <= objMin {
					gj, objMin = t, o
				}
			}
		}
	}
	gap := math.Max(gmaxp+gmaxp2, gmaxn+gmaxn2)
	if gap < p.s.Eps || gj < 0 {
		return -1, -1, gap, false
	}
	if y[gj] == 1 {
		return ip, gj, gap, true
	}
	return in, gj, gap, true
}

// shrinkNU is Solver_NU's do_shrinking: shrink with the violations of the
// two labels apart.
func (p *problem) shrinkNU(ctx context.Context, unshrink bool) (bool, error) {
	g1, g2, g3, g4 := math.Inf(-1), math.Inf(-1), math.Inf(-1), math.Inf(-1)
	for i := range p.active {
		g := p.grad[i]
		if p.status[i] != atUpper {
			if p.y[i] == 1 {
				g1 = math.Max(g1, -g)
			} else {
				g4 = math.Max(g4, -g)
			}
		}
		if p.status[i] != atLower {
			if p.y[i] == 1 {
				g2 = math.Max(g2, g)
			} else {
				g3 = math.Max(g3, g)
			}
		}
	}
	return p.shrinkBy(ctx, unshrink, math.Max(g1+g2, g3+g4), shrinkBounds{g1, g4, g2, g3})
}

// rhoNU is Solver_NU's calculate_rho: r1 and r2, the thresholds of the
// y = +1 and y = −1 variables (the mean gradient over the free ones, or the
// middle of the feasible interval), give ρ = (r1 − r2)/2 and r = (r1 + r2)/2
// (kept in p.rNU).
func (p *problem) rhoNU() float64 {
	// side 0: y = +1, side 1: y = −1
	ub := [2]float64{math.Inf(1), math.Inf(1)}
	lb := [2]float64{math.Inf(-1), math.Inf(-1)}
	var sum [2]float64
	var n [2]int
	for i := range p.active {
		g := p.grad[i]
		k := 0
		if p.y[i] != 1 {
			k = 1
		}
		switch p.status[i] {
		case atUpper:
			lb[k] = math.Max(lb[k], g)
		case atLower:
			ub[k] = math.Min(ub[k], g)
		default:
			n[k]++
			sum[k] += g
		}
	}
	var r [2]float64
	for k := range r {
		r[k] = (ub[k] + lb[k]) / 2
		if n[k] > 0 {
			r[k] = sum[k] / float64(n[k])
		}
	}
	r1, r2 := r[0], r[1]
	p.rNU = (r1 + r2) / 2
	return (r1 - r2) / 2
}
