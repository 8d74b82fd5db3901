package svm

import (
	"context"
	"fmt"
	"math"
)

// hardLimit is the largest C tried for a hard margin, in units of
// 1/mean_i k(x_i, x_i), which makes it independent of the scale of the
// data: a separable problem is recognised if its margin γ satisfies
// γ² ≥ mean k(x_i, x_i) / hardLimit, that is, if the margin is at least
// 1/10⁴ of the typical length of the points in feature space.
const hardLimit = 1e8

// hard finds the hard-margin separator as the limit C → ∞ of soft-margin
// problems: C runs up a ladder 1, 10, 100, … (times 1/mean k(x,x)), each
// problem warm-started from the last solution, which stays feasible. If the
// data are separable with margin γ, the hard-margin α* has
// max α*_i ≤ Σα*_i = 1/γ², so as soon as C exceeds it the soft solution
// has no α at the bound C and satisfies the hard-margin KKT conditions;
// conversely a soft solution without bounded α is the hard-margin one. If
// bounded α remain at the top of the ladder the data are reported as not
// separable, with the bound on the margin of any separator that the last
// solution gives: for feasible α, γ* ≤ ‖w‖ / Σα_i (the two classes' convex
// hulls are at most 2‖w‖/Σα apart). The ladder stops early when that bound
// is below the margin the top of the ladder could recognise.
func (p *problem) hard(ctx context.Context, progress func(int, float64)) (*Binary, error) {
	var mean float64
	for _, q := range p.qd {
		mean += q
	}
	mean /= float64(p.n)
	if !(mean > 0) {
		mean = 1
	}
	C, top := 1/mean, hardLimit/mean
	iters := 0
	var alpha0 []float64
	for {
		r, err := p.run(ctx, C, C, alpha0, progress)
		if err != nil {
			return nil, err
		}
		iters += r.iter
		alpha0 = p.alpha // run copies from it before overwriting
		if r.status == IterationLimit {
			b, err := p.binary(ctx, r)
			if err != nil {
				return nil, err
			}
			b.Iter = iters
			b.Message = fmt.Sprintf("hard margin: iteration limit %d reached at C = %.3g with KKT gap %.3g > eps %g; separability undecided",
				p.maxIter(), C, r.gap, p.s.Eps)
			return b, nil
		}
		b, err := p.binary(ctx, r)
		if err != nil {
			return nil, err
		}
		b.Iter = iters
		if b.Bounded == 0 {
			b.Status = Separable
			b.Message = fmt.Sprintf("hard margin: separable in the kernel's feature space, margin %.6g, %d support vectors, %d iterations",
				b.Margin(), len(b.Index), iters)
			return b, nil
		}
		var sa float64
		for _, a := range p.alpha {
			sa += a
		}
		if bound := math.Sqrt(b.W2) / sa; C >= top*(1-1e-9) || bound*bound < mean/hardLimit {
			wrong, inside := 0, 0
			for i := range p.n {
				yf := p.grad[i] + 1 - float64(p.y[i])*b.Rho
				if yf <= 0 {
					wrong++
				} else if yf < 1-p.s.Eps {
					inside++
				}
			}
			b.Status = NotSeparable
			b.Message = fmt.Sprintf("hard margin: not linearly separable in the kernel's feature space: at C = %.3g, %d training points are still misclassified and %d inside the margin; any separator's margin is below %.3g",
				C, wrong, inside, bound)
			return b, nil
		}
		C *= 10
	}
}
