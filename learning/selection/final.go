package selection

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
)

// Machine is what a task of a final plan found: its binary problem's
// machine, f(x) = Σ Coef[k]·K(row SV[k], x) − Rho over the data's rows SV
// (0-based, in the data's order, as the machine lists them), positive for
// the pair's first class; Gamma is the γ it was trained with (scale or
// auto resolved on all rows), null for a kernel without one.
type Machine struct {
	SV    []int     `json:"sv"`
	Coef  []float64 `json:"coef"`
	Rho   float64   `json:"rho"`
	Gamma *float64  `json:"gamma"`
}

// NewFinalPlan makes the plan of the final model's fit (Plan.Final) on
// data d (read as d says, with d's fingerprint, rows, dimension and
// classes filled in by the caller: the fingerprint of the rows as fit
// takes them), for the learner and options with one value of C and of γ
// ("" for a learner without γ): a task per binary problem of d's classes.
func NewFinalPlan(d Data, learner string, options map[string]string, c float64, gamma string) (*Plan, error) {
	p := &Plan{Format: PlanFormat, Version: Version, Data: d, Learner: learner, Options: options,
		C: []float64{c}, Gamma: []string{gamma}, Final: true}
	if err := p.ByPair(); err != nil {
		return nil, err
	}
	return p, nil
}

// checkFinal reports the first inconsistency of a final plan.
func (p *Plan) checkFinal() error {
	switch k := p.Data.Classes; {
	case len(p.C) != 1 || len(p.Gamma) != 1:
		return fmt.Errorf("a final plan of %d C and %d γ; it trains one of each", len(p.C), len(p.Gamma))
	case p.Folds != 0 || p.FoldRows != nil || p.Seed != 0 || p.WarmStart || p.Log2C != nil || p.Log2Gamma != nil:
		return errors.New("a final plan with folds, a fold seed, warm starts or log2 axes: it trains once on all rows")
	case k < 2 || k > MaxPairClasses || p.Pairs != k*(k-1)/2:
		return fmt.Errorf("a final plan of pairs %d for %d classes; want k·(k−1)/2 for k in [2, %d]", p.Pairs, k, MaxPairClasses)
	case p.Data.Rows < 2:
		return fmt.Errorf("a final plan for data of %d rows", p.Data.Rows)
	}
	return nil
}

// FinalFitFunc trains binary problem pair (of the classes PairClasses
// gives) on all of the plan's data (which it holds), as the SVM trains it
// within its fit of them all, with C c and γ gamma (as in Plan.Gamma),
// and returns its machine and the solver's iterations.
type FinalFitFunc func(ctx context.Context, pair int, c float64, gamma string) (Machine, int, error)

// RunFinal does task i of final plan p with fit, on data whose
// fingerprint (as the plan's, modelfile.FitFingerprint) is fingerprint:
// it returns a Result holding the task's machine. It wraps ErrData when
// the fingerprint is not the plan's.
func RunFinal(ctx context.Context, p *Plan, fingerprint string, i int, fit FinalFitFunc) (Result, error) {
	switch {
	case !p.Final:
		return Result{}, errors.New("not a final plan: its tasks are folds of a grid (Run, RunPair)")
	case fingerprint != p.Data.Fingerprint:
		return Result{}, fmt.Errorf("%w: the data have fingerprint %.12s…, the plan's data (%s: %d rows, %d features) %.12s…", ErrData, fingerprint, p.Data.Path, p.Data.Rows, p.Data.Dim, p.Data.Fingerprint)
	case i < 0 || i >= p.Tasks:
		return Result{}, fmt.Errorf("task %d out of range [0, %d)", i, p.Tasks)
	}
	col := p.Column(i)
	m, iters, err := fit(ctx, col.Pair, p.C[0], p.Gamma[0])
	if err != nil {
		return Result{}, fmt.Errorf("task %d (pair %d: classes %d and %d): %w", i, col.Pair, col.A, col.B, err)
	}
	r := Result{Format: ResultFormat, Version: Version, Plan: p.ID(), Task: i, Gamma: p.Gamma[0], Rows: p.Data.Rows,
		C: p.C, Iterations: []int{iters}, Pair: col.Pair, Machine: &m}
	if why := p.badMachine(r); why != "" {
		return Result{}, fmt.Errorf("task %d: %s", i, why)
	}
	return r, nil
}

// badMachine says why r's machine is not one a final plan's task makes
// (support vectors out of range or repeated, coefficients of another
// number, a number that is not finite), or "".
func (p *Plan) badMachine(r Result) string {
	m := r.Machine
	if m == nil {
		return fmt.Sprintf("task %d records no machine", r.Task)
	}
	if len(m.SV) != len(m.Coef) {
		return fmt.Sprintf("task %d's machine has %d support vectors and %d coefficients", r.Task, len(m.SV), len(m.Coef))
	}
	seen := make(map[int]bool, len(m.SV))
	for _, s := range m.SV {
		if s < 0 || s >= p.Data.Rows || seen[s] {
			return fmt.Sprintf("task %d's machine names row %d twice or out of the data's %d", r.Task, s, p.Data.Rows)
		}
		seen[s] = true
	}
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	if !finite(m.Rho) || slices.ContainsFunc(m.Coef, func(v float64) bool { return !finite(v) }) || m.Gamma != nil && !(*m.Gamma > 0 && finite(*m.Gamma)) {
		return fmt.Sprintf("task %d's machine holds a number that is not finite", r.Task)
	}
	return ""
}

// foreignFinal says why r is not a result of task r.Task of final plan p,
// or "".
func (p *Plan) foreignFinal(r Result) string {
	if !slices.Equal(r.C, p.C) || r.Gamma != p.Gamma[0] || r.Fold != 0 || r.Rows != p.Data.Rows || r.Pair != r.Task ||
		len(r.Iterations) != 1 || r.Iterations[0] < 0 || r.Right != nil || r.Votes != nil || r.Labels != "" {
		return fmt.Sprintf("task %d's C, γ, pair or counts disagree with the final plan", r.Task)
	}
	return p.badMachine(r)
}

// Machines returns the machines of a final plan's results (checked by
// ReadResults, in task order), in pair order.
func Machines(results []Result) []Machine {
	out := make([]Machine, len(results))
	for i, r := range results {
		out[i] = *r.Machine
	}
	return out
}
