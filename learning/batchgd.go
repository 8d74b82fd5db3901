package learning

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// BatchGD is gradient descent on the perceptron risk of lecture notes 001,
//
//	R(w, b) = Σ_{i∈V} −y_i (w·x_i + b),   V = {i : y_i (w·x_i + b) ≤ 0},
//
// whose gradient is −Σ_{i∈V} y_i (x_i, 1). (Points on the boundary belong to
// V: they add nothing to R, but their term of the subgradient lets the zero
// start move.) Each step sets
//
//	(w, b) ← (w, b) + t Σ_{i∈V} y_i (x_i, 1)
//
// with t = ε (Step), and stops when V is empty — not when R = 0, which also
// holds at w = 0. With BatchSize b > 0 it is mini-batch stochastic gradient
// descent: each epoch draws a fresh permutation and takes one step per run of
// b rows, using only their mistakes (the notes' 002 mean over the batch is
// this sum with ε/b). With BatchSize 1 the steps are exactly the Perceptron's,
// in the same order for the same Seed.
//
// # Line search
//
// With LineSearch the step t replaces ε. R is positively homogeneous,
// R(λw) = λR(w) for λ > 0, so minimising R itself along a line is unsound:
// it rewards shrinking w, and its minimum R = 0 is at w = 0. The line search
// therefore minimises the scale-free risk ρ(w) = R(w)/‖w‖ (norms over (w, b))
// exactly along g = Σ_{i: y_i f(x_i) < 0} y_i (x_i, 1), the gradient of R
// where R is differentiable, and then rescales the result to the old length
// ‖w‖, which changes no prediction. Hence R(w_new) = ‖w‖·ρ(w_new) ≤
// ‖w‖·ρ(w) = R(w): the risk never increases. Along g,
//
//	ρ(t) = Σ_i max(0, −a_i − t c_i) / √(A + 2Bt + Ct²),
//
// with a_i = y_i f(x_i), c_i = y_i g·(x_i, 1), A = ‖w‖², B = w·g, C = ‖g‖².
// The numerator is convex and piecewise linear with kinks at t_i = −a_i/c_i;
// on each piece ρ = (α + βt)/ν(t) has at most one stationary point,
// t = (αB − βA)/(βB − αC). Sorting the kinks and checking every kink and
// stationary point finds the global minimum over t ≥ 0 in O(n log n), after
// one O(n·d) pass for the c_i. Where ρ reaches zero on an interval, the step
// goes to the middle of it (to twice its left end if it is unbounded), so no
// point is left on the boundary. The first step from the zero start, where
// ρ is undefined, is a plain step of size ε.
//
// The line search removes ε but not the difficulty of the problem: steepest
// descent with exact line search can zig-zag into a kink of a piecewise
// linear function and stall there (Wolfe 1975). When no step lowers ρ the run
// stops with a Status that says so. On well-conditioned data it reaches zero
// mistakes in a few steps; on badly scaled data the fixed step — the batch
// perceptron, whose convergence on separable data follows from Novikoff's
// argument — is the safer choice. (From the zero start the fixed-step iterates
// are ε times those for ε = 1, so there ε changes nothing but the scale.)
// With mini-batches the line search works on the batch's own risk, and R over
// the whole set may rise and fall.
//
// Result.Curve has one entry per epoch (one step for full batches): Mistakes
// is |V| where the epoch's steps were taken (summed over batches and over
// one-vs-rest machines), Risk is R after the epoch, summed over machines.
// Updates counts the steps. Multi-class data get one machine per class, as
// for the Perceptron. The model is a *LinearModel.
//
// Fit panics on invalid settings.
type BatchGD struct {
	// Step is the step size ε; 0 means 1. Ignored with LineSearch except for
	// the first step from the zero start.
	Step float64
	// LineSearch chooses each step by exact line search (see above).
	LineSearch bool
	// BatchSize is 0 for full-batch gradient descent, or the number of rows
	// per step of mini-batch SGD.
	BatchSize int
	// NoBias drops the always-on extra input.
	NoBias bool
	// MaxEpochs bounds the number of passes (steps, for full batches); 0
	// means 100.
	MaxEpochs int
	// InitScale is 0 for the zero start, else the half-width of a uniform
	// random start.
	InitScale float64
	// Seed seeds the batch order and the random start.
	Seed uint64
	// Watch, if not nil, is called after every step of every machine that
	// moved (for step-by-step traces; see GDStep).
	Watch func(GDStep)
	// Start, if not nil, is the starting point instead of zero, as for the
	// Perceptron (the notes' loop starts at "an arbitrary nonzero point").
	Start []float64
}

var _ Learner = BatchGD{}

// Name returns "batch-gd".
func (BatchGD) Name() string { return "batch-gd" }

// gdState is the working memory of a BatchGD fit.
type gdState struct {
	d       *Data
	rows    Rows
	ys      []float64
	mach    int
	dim     int
	biasIn  float64
	w, b    []float64 // weights, M×dim and M
	gw, gb  []float64 // descent direction Σ y (x, 1) over the mistakes
	miss    []int     // mistakes per machine in the last evaluation
	a, c    []float64 // y f and y g·x per machine (M × n), by position in idx
	events  []kink
	stalled bool
	flat    bool   // the last step found ∇R = 0 for every machine with mistakes
	strict  bool   // take the direction from the points strictly on the wrong side
	zero    []bool // machines whose weights are all zero
	watch   func(GDStep)
	steps   int // steps taken, for watch

	overflow  int     // the first row whose margin was not finite, or −1
	overflowV float64 // that margin
}

// kink is where a term of φ switches on (on = 1) or off (on = −1), changing
// φ's intercept and slope by da and db.
type kink struct {
	t, da, db float64
	on        int
}

// Fit trains on d; see the type's documentation.
func (g BatchGD) Fit(ctx context.Context, d *Data, rec Recorder) (*Result, error) {
	s := onlineSettings{name: "batchgd", step: g.Step, bias: !g.NoBias, maxEpochs: g.MaxEpochs, initScale: g.InitScale, seed: g.Seed}
	s.check()
	if g.BatchSize < 0 {
		panic(fmt.Sprintf("learning: batchgd: negative BatchSize %d", g.BatchSize))
	}
	if err := d.Validate(); err != nil {
		return nil, err
	}
	rows := d.Features()
	n, dim, mach := rows.Len(), rows.Dim(), ovrMachines(d)
	// the weights, their gradient and the model's copy; margins and
	// coefficients per row and machine
	need := Times(mach, dim+1)*24 + Times(n, 16*mach+16)
	if err := CheckMemory(ctx, s.name, need, fmt.Sprintf("%d machines × %d weights and %d rows", mach, dim+1, n)); err != nil {
		return nil, err
	}
	st := &gdState{
		d: d, rows: rows, ys: signs(nil, d), mach: mach, dim: dim,
		w: make([]float64, mach*dim), b: make([]float64, mach),
		gw: make([]float64, mach*dim), gb: make([]float64, mach), miss: make([]int, mach),
		a: make([]float64, mach*n), c: make([]float64, mach*n),
		strict: g.LineSearch, zero: make([]bool, mach), watch: g.Watch,
	}
	if s.bias {
		st.biasIn = 1
	}
	initWeights(st.w, st.b, s.initScale, s.bias, s.seed)
	startAt(st.w, st.b, g.Start, dim, s.bias, s.initScale, s.name)
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	full := g.BatchSize == 0 || g.BatchSize >= n
	var perm []int
	var order *rand.Rand
	if !full {
		perm = make([]int, n)
		order = rand.New(rand.NewPCG(s.seed, orderStream))
	}

	res := &Result{}
	finish := func(status Status) {
		lm := newLinearModel(d.Classes, dim, st.w, st.b)
		lm.train = d
		res.Model = lm
		res.Status = status
	}
	st.overflow = -1
	mistakes, _ := st.evaluate(all, full)
	for epoch := 1; epoch <= s.maxEpochs; epoch++ {
		if st.overflow >= 0 {
			return nil, overflowError(s.name, st.overflow, st.overflowV)
		}
		if mistakes == 0 {
			break
		}
		if err := ctx.Err(); err != nil {
			finish(Cancelled)
			res.Summary = fmt.Sprintf("cancelled after %d epochs: %v", res.Epochs, err)
			return res, err
		}
		var risk float64
		seen := mistakes
		if full {
			st.step(all, s.step, g.LineSearch)
			res.Updates++
			if st.stalled {
				finish(Stalled)
				res.Summary = fmt.Sprintf("line search stalled after %d steps with %d mistakes: no step along −∇R lowers R/‖w‖ at this kink", res.Updates-1, mistakes)
				if st.flat {
					res.Summary = fmt.Sprintf("stalled after %d steps with %d mistakes: the misclassified points' pulls cancel, so ∇R = 0 and there is no direction to move (a start away from 0 may help)", res.Updates-1, mistakes)
				}
				return res, nil
			}
		} else {
			seen = 0
			nextOrder(perm, order, false)
			for lo := 0; lo < n; lo += g.BatchSize {
				idx := perm[lo:min(lo+g.BatchSize, n)]
				m, _ := st.evaluate(idx, true)
				if m > 0 {
					st.step(idx, s.step, g.LineSearch)
					res.Updates++
					seen += m
				}
			}
		}
		mistakes, risk = st.evaluate(all, full)
		res.Epochs = epoch
		e := Epoch{Epoch: epoch, Mistakes: seen, Risk: risk}
		res.Curve = append(res.Curve, e)
		if rec != nil {
			if err := rec.Record(e); err != nil {
				finish(Stopped)
				res.Summary = fmt.Sprintf("stopped by its recorder after %d epochs: %v", res.Epochs, err)
				return res, err
			}
		}
	}
	if st.overflow >= 0 {
		return nil, overflowError(s.name, st.overflow, st.overflowV)
	}
	if mistakes == 0 {
		finish(Converged)
		res.Summary = fmt.Sprintf("converged: no mistakes after %d steps in %d epochs", res.Updates, res.Epochs)
		return res, nil
	}
	finish(EpochLimit)
	res.Summary = limitStatus(s.maxEpochs, mistakes)
	return res, nil
}

// evaluate computes a = y f(x) for the rows idx and every machine, the number
// of mistakes (y f ≤ 0) and the risk; with direction it also sets the descent
// direction (gw, gb) to Σ y (x, 1) over each machine's mistakes.
func (st *gdState) evaluate(idx []int, direction bool) (mistakes int, risk float64) {
	mach, dim, n := st.mach, st.dim, st.rows.Len()
	if direction {
		clear(st.gw)
		clear(st.gb)
	}
	clear(st.miss)
	if direction && st.strict {
		for k := range mach {
			st.zero[k] = st.b[k] == 0 && !slices.ContainsFunc(st.w[k*dim:(k+1)*dim], func(v float64) bool { return v != 0 })
		}
	}
	for p, i := range idx {
		for k := range mach {
			y := st.ys[i*mach+k]
			a := y * (st.rows.Dot(i, st.w[k*dim:(k+1)*dim]) + st.b[k])
			if !finite(a) && st.overflow < 0 {
				st.overflow, st.overflowV = i, a
			}
			st.a[k*n+p] = a
			if a > 0 {
				continue
			}
			st.miss[k]++
			risk -= a
			if direction && (a < 0 || !st.strict || st.zero[k]) {
				st.rows.AddTo(st.gw[k*dim:(k+1)*dim], y, i)
				st.gb[k] += y * st.biasIn
			}
		}
	}
	for _, m := range st.miss {
		mistakes += m
	}
	return mistakes, risk
}

// step moves every machine with mistakes along its direction, by eps or by
// the exact line search. It sets stalled when no machine could move.
func (st *gdState) step(idx []int, eps float64, search bool) {
	mach, dim, n := st.mach, st.dim, st.rows.Len()
	moved, flat := false, true
	if search {
		// c = y g·(x, 1) for the machines that move.
		for p, i := range idx {
			for k := range mach {
				if st.miss[k] > 0 {
					st.c[k*n+p] = st.ys[i*mach+k] * (st.rows.Dot(i, st.gw[k*dim:(k+1)*dim]) + st.gb[k]*st.biasIn)
				}
			}
		}
	}
	for k := range mach {
		if st.miss[k] == 0 {
			continue
		}
		wk, gk := st.w[k*dim:(k+1)*dim], st.gw[k*dim:(k+1)*dim]
		cc := dot(gk, gk) + st.gb[k]*st.gb[k]
		flat = flat && cc == 0
		if cc == 0 {
			// The misclassified points' pulls cancel (a point and its
			// opposite twin): no direction, no step. The line search
			// would divide by ‖g‖ = 0.
			continue
		}
		t, scale := eps, 1.0
		if search {
			aa := dot(wk, wk) + st.b[k]*st.b[k]
			if aa > 0 {
				bb := dot(wk, gk) + st.b[k]*st.gb[k]
				t = st.lineSearch(st.a[k*n:k*n+len(idx)], st.c[k*n:k*n+len(idx)], aa, bb, cc, math.Sqrt(aa/cc))
				scale = math.Sqrt(aa / max(aa+2*bb*t+cc*t*t, math.SmallestNonzeroFloat64))
			}
		}
		if t == 0 {
			continue
		}
		moved = true
		var before GDStep
		if st.watch != nil {
			before = st.report(k, idx)
		}
		axpy(wk, t, gk)
		st.b[k] += t * st.gb[k]
		if scale != 1 {
			for j := range wk {
				wk[j] *= scale
			}
			st.b[k] *= scale
		}
		if st.watch != nil {
			before.T, before.Scale, before.W, before.B = t, scale, wk, st.b[k]
			st.watch(before)
		}
	}
	if moved {
		st.steps++
	}
	st.stalled, st.flat = !moved, flat
}

// report fills a GDStep with machine k's state before its step over the rows
// idx (V, R and the direction); the caller adds the step and the result.
func (st *gdState) report(k int, idx []int) GDStep {
	n, dim := st.rows.Len(), st.dim
	g := GDStep{Step: st.steps + 1, Machine: k, Dir: st.gw[k*dim : (k+1)*dim], DirB: st.gb[k]}
	for p, i := range idx {
		if a := st.a[k*n+p]; a <= 0 {
			g.V = append(g.V, i)
			g.Risk -= a
		}
	}
	slices.Sort(g.V)
	return g
}

// lineSearch returns the step t ≥ 0 along g that minimises the normalised
// risk ρ(t) = φ(t)/ν(t), φ(t) = Σ_i max(0, −a_i − t c_i) and ν(t) = ‖w + t g‖ =
// √(A + 2Bt + Ct²); see BatchGD. It returns 0 when no step lowers ρ. far is
// the step taken when ρ is zero from 0 to infinity.
func (st *gdState) lineSearch(a, c []float64, aa, bb, cc, far float64) float64 {
	ev := st.events[:0]
	var alpha, beta float64 // φ(t) = alpha + beta·t on the current piece
	active := 0
	for i, ai := range a {
		ci := c[i]
		switch {
		case ci > 0 && ai < 0: // active until −a/c
			alpha, beta = alpha-ai, beta-ci
			active++
			ev = append(ev, kink{-ai / ci, ai, ci, -1})
		case ci < 0 && ai <= 0: // active for all t > 0
			alpha, beta = alpha-ai, beta-ci
			active++
		case ci < 0: // active from a/|c| on
			ev = append(ev, kink{-ai / ci, -ai, -ci, 1})
		case ci == 0 && ai < 0:
			alpha -= ai
			active++
		}
	}
	st.events = ev
	slices.SortFunc(ev, func(p, q kink) int { return cmp.Compare(p.t, q.t) })
	nu := func(t float64) float64 { return math.Sqrt(max(aa+2*bb*t+cc*t*t, 0)) }
	rho0 := alpha / math.Sqrt(aa)
	bestT, bestRho := 0.0, rho0
	try := func(t float64) {
		if r := (alpha + beta*t) / nu(t); r < bestRho {
			bestT, bestRho = t, r
		}
	}
	lo := 0.0
	for j := 0; ; {
		hi := math.Inf(1)
		if j < len(ev) {
			hi = ev[j].t
		}
		if active == 0 { // ρ = 0 on [lo, hi]: the middle leaves no point on the boundary
			switch {
			case !math.IsInf(hi, 1):
				return (lo + hi) / 2
			case lo > 0:
				return 2 * lo
			default:
				return far
			}
		}
		if den := beta*bb - alpha*cc; den != 0 {
			if ts := (alpha*bb - beta*aa) / den; ts > lo && ts < hi {
				try(ts)
			}
		}
		if math.IsInf(hi, 1) {
			break
		}
		try(hi)
		for ; j < len(ev) && ev[j].t == hi; j++ {
			e := ev[j]
			alpha += e.da
			beta += e.db
			active += e.on
		}
		lo = hi
	}
	if !(bestRho < rho0*(1-1e-12)) {
		return 0
	}
	return bestT
}
