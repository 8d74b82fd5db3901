package svm

import (
	"context"
	"fmt"
	"math"

	"mark1/learning"
	"mark1/learning/kernel"
)

// SolveRowsFrom is SolveRowsContext started from alpha (one α per row of
// r, in the order of Binary.Alpha) instead of α = 0: a warm start, as
// LIBSVM's solver starts from any feasible point. alpha must be feasible
// for the problem: 0 ≤ α_i ≤ C and Σ_i y_i α_i = 0, as Binary.StartAt(C)
// of a solution on the same rows and labels is. Any feasible start leads
// to the same optimum, to the tolerance Eps; a start near it (the solution
// for a nearby C) takes fewer iterations. alpha is not modified. It
// returns an error wrapping ErrSetting when alpha is infeasible or Hard is
// set (the hard-margin ladder warm-starts itself), and the errors of
// SolveRowsContext. It panics if len(alpha) != r.Len().
func SolveRowsFrom(ctx context.Context, r learning.Rows, y []float64, k kernel.Kernel, s Settings, alpha []float64) (*Binary, error) {
	if len(alpha) != r.Len() {
		panic("svm: SolveRowsFrom: rows and start α differ in number")
	}
	s.start = alpha
	return SolveRowsContext(ctx, r, y, k, s)
}

// StartAt returns a feasible start for the problem b solved with the box
// bound C = c (SolveRowsFrom): for c ≥ b.C, b's α themselves (they stay
// within the larger box); for a smaller c, b's α scaled by c/b.C into
// it. Either keeps Σ y_i α_i = 0. Along a grid of increasing C the
// previous C's solution is a start near the next optimum (Kernel.FitPath
// does this for every machine). Scaling the α up by c/b.C, which is
// feasible too, starts farther: on bench/selection's grid it took 3 %
// more SMO iterations than starting from 0, and the α kept as they are
// 35 % fewer (bench/selection/results.md). It panics if c is not a
// finite number > 0.
func (b *Binary) StartAt(c float64) []float64 {
	if !(c > 0) || math.IsInf(c, 0) {
		panic(fmt.Sprintf("svm: StartAt(%v): want a finite C > 0", c))
	}
	f := math.Min(1, c/b.C)
	out := make([]float64, len(b.Alpha))
	for i, a := range b.Alpha {
		out[i] = a * f
	}
	return out
}

// feasible checks a start α (by position, before any swap) against the
// boxes cp (y = +1) and cn (y = −1) and the equality yᵀα = 0, and returns
// it clipped into the box (a scaled bound may pass it by an ulp).
func (p *problem) feasible(start []float64, cp, cn float64) ([]float64, error) {
	if len(start) != p.n {
		return nil, fmt.Errorf("a warm start of %d α for %d examples: %w", len(start), p.n, ErrSetting)
	}
	const rel = 1e-9
	out := make([]float64, p.n)
	var sum, sy float64
	for i, a := range start {
		c := cp
		if p.y[i] < 0 {
			c = cn
		}
		if math.IsNaN(a) || a < -rel*c || a > c*(1+rel) {
			return nil, fmt.Errorf("warm start α_%d = %v is outside its box [0, %g]: %w", i, a, c, ErrSetting)
		}
		a = math.Min(math.Max(a, 0), c)
		out[i] = a
		sum += a
		sy += float64(p.y[i]) * a
	}
	if math.Abs(sy) > rel*(1+sum) {
		return nil, fmt.Errorf("warm start has Σ y_i α_i = %.3g, not 0 (Σ α_i = %.6g): %w", sy, sum, ErrSetting)
	}
	return out, nil
}

// FitPath fits the learner on d once for each C of cs, which must increase,
// as Fit would with Settings.C = cs[i], and calls each with i and the
// result, in the order of cs, one model at a time (a model the caller
// does not keep is free to go before the next is made); an error from
// each stops FitPath, which returns it. Each binary problem is solved for every C in turn on one
// solver whose kernel cache stays filled between them, each C from the
// solution for the C before it (its α, feasible in the larger box: the
// warm start along C of a grid search). Every solution is optimal to the
// tolerance Eps, as Fit's is, but stops at a slightly different point
// within it than a fit from α = 0 would. The Results have no Curve.
// The binary solutions of every C are held until the end (an α per row of
// each problem for each C), the kernel caches one problem at a time.
// FitPath is for the soft-margin C-SVC: it returns an error wrapping
// ErrSetting for another Type, Hard, or values of C that are not
// finite numbers > 0 in increasing order, and Fit's errors otherwise.
func (l Kernel) FitPath(ctx context.Context, d *learning.Data, cs []float64, each func(i int, r *learning.Result) error) error {
	for i, c := range cs {
		if !(c > 0) || math.IsInf(c, 0) || (i > 0 && !(c > cs[i-1])) {
			return fmt.Errorf("the values of C %v: want finite numbers > 0 in increasing order: %w", cs, ErrSetting)
		}
	}
	switch {
	case len(cs) == 0:
		return fmt.Errorf("no values of C: %w", ErrSetting)
	case l.Type != CSVC || l.Settings.Hard || math.IsInf(l.Settings.C, 1):
		return fmt.Errorf("a path along C is for the soft-margin C-SVC (Type CSVC, not Hard): %w", ErrSetting)
	}
	l.Settings.C = cs[0]
	k, s, classes, err := kernelSetup(ctx, d, l)
	if err != nil {
		return err
	}
	ps := pairs(d, classes, l.Multiclass)
	rows := d.Features()
	solved, err := solvePairs(ctx, ps, s, func(learning.Epoch) {}, func(ctx context.Context, p pair, s Settings, _ func(int, float64)) ([]*Binary, error) {
		sub, y := p.members()
		return solvePath(ctx, rows, sub, y, k, p.settings(s), cs)
	})
	if err != nil {
		return err
	}
	for i, c := range cs {
		col := make([]*Binary, len(ps))
		for q := range ps {
			col[q], solved[q][i] = solved[q][i], nil
		}
		sc := s
		sc.C = c
		_, res, err := assemble(ctx, d, k, l.Multiclass, sc, classes, ps, col)
		if err != nil {
			return err
		}
		if err := each(i, res); err != nil {
			return err
		}
	}
	return nil
}

// solvePath solves the binary problem on rows sub of r with labels y for
// each C of cs (increasing) on one problem, each run from the last one's
// α, the kernel rows cached by one serving the next.
func solvePath(ctx context.Context, r learning.Rows, sub []int, y []float64, k kernel.Kernel, s Settings, cs []float64) ([]*Binary, error) {
	p, _, _, err := newSolve(r, sub, nil, y, k, s)
	if err != nil {
		return nil, err
	}
	out := make([]*Binary, len(cs))
	var alpha0 []float64
	for i, c := range cs {
		p.s.C = c
		res, err := p.run(ctx, c*weight(p.s.wpos), c*weight(p.s.wneg), alpha0, nil)
		if err != nil {
			return nil, err
		}
		if out[i], err = p.finish(ctx, res); err != nil {
			return nil, err
		}
		// assemble reads the support vectors' coefficients, as Fit's
		// pairs keep them: each C's α for every row would pile up until
		// the path is assembled
		out[i].Alpha = nil
		alpha0 = p.alpha // run reads it before writing (the box only grows)
	}
	return out, nil
}
