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
// With LineSearch the step t replaces ε and is found by an exact line search.
// Along the direction g = Σ_{i∈V} y_i (x_i, 1) the risk is
//
//	φ(t) = R(w + t g) = Σ_i max(0, −a_i − t c_i),  a_i = y_i f(x_i), c_i = y_i g·(x_i, 1),
//
// a convex, piecewise linear function of t whose kinks are at t_i = −a_i/c_i.
// Sorting the kinks and walking them while the slope is negative finds its
// minimum exactly in O(n log n) after one O(n·d) pass for the c_i. When the
// minimum is attained on an interval the step goes to its middle (or, when
// the interval is unbounded, to twice its left end), so that no point is
// left on the boundary; otherwise to the kink itself. Because t minimises φ,
// R never increases from step to step — which is the test that the line
// search is sound. Two facts about R shape the rule: R is positively
// homogeneous (R(λw) = λR(w)), so from w = 0 every direction looks equally
// good and the first step from the zero start is a plain step of size ε; and
// the line search can stall at a kink where −g is no descent direction
// (steepest descent is not guaranteed to converge on a non-smooth function),
// in which case the run stops with a Status that says so. With mini-batches
// the line search minimises the batch's own risk, so R over the whole set may
// rise and fall.
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
}

var _ Learner = BatchGD{}

// Name returns "batchgd".
func (BatchGD) Name() string { return "batchgd" }

// gdState is the working memory of a BatchGD fit.
type gdState struct {
	d       *Data
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
}

type kink struct{ t, ds float64 }

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
	n, dim, mach := len(d.X), len(d.X[0]), ovrMachines(d)
	st := &gdState{
		d: d, ys: signs(nil, d), mach: mach, dim: dim,
		w: make([]float64, mach*dim), b: make([]float64, mach),
		gw: make([]float64, mach*dim), gb: make([]float64, mach), miss: make([]int, mach),
		a: make([]float64, mach*n), c: make([]float64, mach*n),
	}
	if s.bias {
		st.biasIn = 1
	}
	initWeights(st.w, st.b, s.initScale, s.bias, s.seed)
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
	finish := func(converged bool) {
		lm := newLinearModel(d.Classes, dim, st.w, st.b)
		lm.margin = linearMargin(d, st.ys, st.w, st.b)
		res.Model = lm
		res.Converged = converged
	}
	mistakes, _ := st.evaluate(all, full)
	for epoch := 1; epoch <= s.maxEpochs; epoch++ {
		if mistakes == 0 {
			break
		}
		if err := ctx.Err(); err != nil {
			finish(false)
			res.Status = fmt.Sprintf("cancelled after %d epochs: %v", res.Epochs, err)
			return res, err
		}
		var risk float64
		seen := mistakes
		if full {
			st.step(all, s.step, g.LineSearch)
			res.Updates++
			if st.stalled {
				finish(false)
				res.Status = fmt.Sprintf("line search stalled after %d steps with %d mistakes: −∇R is no descent direction at this kink of R", res.Updates-1, mistakes)
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
			rec.Record(e)
		}
	}
	if mistakes == 0 {
		finish(true)
		res.Status = fmt.Sprintf("converged: no mistakes after %d steps in %d epochs", res.Updates, res.Epochs)
		return res, nil
	}
	finish(false)
	res.Status = limitStatus(s.maxEpochs, mistakes)
	return res, nil
}

// evaluate computes a = y f(x) for the rows idx and every machine, the number
// of mistakes (y f ≤ 0) and the risk; with direction it also sets the descent
// direction (gw, gb) to Σ y (x, 1) over each machine's mistakes.
func (st *gdState) evaluate(idx []int, direction bool) (mistakes int, risk float64) {
	mach, dim, n := st.mach, st.dim, len(st.d.X)
	if direction {
		clear(st.gw)
		clear(st.gb)
	}
	clear(st.miss)
	for p, i := range idx {
		x := st.d.X[i]
		for k := range mach {
			y := st.ys[i*mach+k]
			a := y * (dot(st.w[k*dim:(k+1)*dim], x) + st.b[k])
			st.a[k*n+p] = a
			if a > 0 {
				continue
			}
			st.miss[k]++
			risk -= a
			if direction {
				axpy(st.gw[k*dim:(k+1)*dim], y, x)
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
	mach, dim, n := st.mach, st.dim, len(st.d.X)
	moved := false
	if search {
		// c = y g·(x, 1) for the machines that move.
		for p, i := range idx {
			x := st.d.X[i]
			for k := range mach {
				if st.miss[k] > 0 {
					st.c[k*n+p] = st.ys[i*mach+k] * (dot(st.gw[k*dim:(k+1)*dim], x) + st.gb[k]*st.biasIn)
				}
			}
		}
	}
	for k := range mach {
		if st.miss[k] == 0 {
			continue
		}
		wk, gk := st.w[k*dim:(k+1)*dim], st.gw[k*dim:(k+1)*dim]
		t := eps
		if search {
			ww := dot(wk, wk) + st.b[k]*st.b[k]
			if ww > 0 {
				gg := dot(gk, gk) + st.gb[k]*st.gb[k]
				t = st.lineSearch(st.a[k*n:k*n+len(idx)], st.c[k*n:k*n+len(idx)], math.Sqrt(ww/gg))
			}
		}
		if t > 0 {
			moved = true
		}
		axpy(wk, t, gk)
		st.b[k] += t * st.gb[k]
	}
	st.stalled = !moved
}

// lineSearch returns a minimiser t ≥ 0 of φ(t) = Σ_i max(0, −a_i − t c_i); see
// BatchGD. far is the step taken when φ is flat from 0 to infinity.
func (st *gdState) lineSearch(a, c []float64, far float64) float64 {
	ev := st.events[:0]
	var slope, scale float64 // slope of φ at 0+, and a scale for "zero"
	for i, ai := range a {
		ci := c[i]
		scale += math.Abs(ci)
		switch {
		case ci > 0 && ai < 0: // active until −a/c
			slope -= ci
			ev = append(ev, kink{-ai / ci, ci})
		case ci < 0 && ai <= 0: // active for all t > 0
			slope -= ci
		case ci < 0: // active from a/|c| on
			ev = append(ev, kink{-ai / ci, -ci})
		}
	}
	st.events = ev
	slices.SortFunc(ev, func(p, q kink) int { return cmp.Compare(p.t, q.t) })
	tol := 1e-12 * scale
	flat := func(lo float64, j int) float64 { // φ is flat from lo to the next kink after j
		for ; j < len(ev) && ev[j].t <= lo; j++ {
		}
		switch {
		case j < len(ev):
			return (lo + ev[j].t) / 2
		case lo > 0:
			return 2 * lo
		default:
			return far
		}
	}
	if slope > tol {
		return 0
	}
	if slope >= -tol {
		return flat(0, 0)
	}
	for j, e := range ev {
		slope += e.ds
		if j+1 < len(ev) && ev[j+1].t == e.t {
			continue
		}
		if slope > tol {
			return e.t
		}
		if slope >= -tol {
			return flat(e.t, j+1)
		}
	}
	// Unreachable: after the last kink the slope is Σ_{c<0} |c| ≥ 0.
	if len(ev) > 0 {
		return ev[len(ev)-1].t
	}
	return far
}
