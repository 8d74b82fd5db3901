package svm

import (
	"context"
	"fmt"

	"mark1/learning"
)

// FitPair trains binary problem q alone of the one-vs-one fit of d — the
// q-th pair of the classes that occur, numbered (0,1), (0,2), …, (1,2), …
// — as Fit trains it within its fit of all of d, to the bit: the rows of
// the pair's first class, then the second's, each in d's order, with the
// settings and class weights of l (the model does not depend on the
// sharing of kernel rows between pairs, nor on the cache or the threads).
// It returns the machine with SV holding rows of d (not indices into a
// model's list), in the order the solver lists them, as Fit's model would
// list them. Joined in pair order, taking each row's first place, the
// machines of every q make Fit's KernelModel. Errors are Fit's, and
// ErrSetting for one-vs-rest or a q out of range.
func (l Kernel) FitPair(ctx context.Context, d *learning.Data, q int) (*Machine, error) {
	k, s, cs, err := kernelSetup(ctx, d, l)
	if err != nil {
		return nil, err
	}
	if l.Multiclass != OneVsOne && len(cs) > 2 {
		return nil, fmt.Errorf("a %v SVM has no one-vs-one pairs: %w", l.Multiclass, ErrSetting)
	}
	ps := pairs(d, cs, OneVsOne)
	if q < 0 || q >= len(ps) {
		return nil, fmt.Errorf("pair %d of %d classes out of range [0, %d): %w", q, len(cs), len(ps), ErrSetting)
	}
	p := ps[q]
	rows := d.Features()
	solved, err := solvePairs(ctx, []pair{p}, s, func(learning.Epoch) {}, func(ctx context.Context, p pair, s Settings, progress func(int, float64)) (*Binary, error) {
		sub, y := p.members()
		return solveRows(ctx, rows, sub, nil, y, k, p.settings(s), progress)
	})
	if err != nil {
		return nil, err
	}
	b := solved[0]
	mc := &Machine{Pos: p.pos, Neg: p.neg, Rho: b.Rho, W2: b.W2, Obj: b.Obj,
		Bounded: b.Bounded, Iter: b.Iter, Status: b.Status, Message: b.Message}
	mc.SV, mc.Coef = make([]int, len(b.Index)), make([]float64, len(b.Index))
	for j, i := range b.Index {
		mc.SV[j], mc.Coef[j] = p.row(i), b.Coef[j]
	}
	return mc, nil
}
