package modelfile

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"mark1/dataset"
	"mark1/learning/kernel"
	"mark1/learning/learners"
	"mark1/learning/selection"
)

// GridText is a grid's two axes as text, as LIBSVM's grid.py takes them:
// C as a range of base-2 exponents (Log2C, "begin,end,step") or, when
// Log2C is "", a list of values (C, "0.1,1,10"); γ likewise, its list able
// to hold scale and auto. The γ axis is read only for a kernel with a γ.
type GridText struct {
	C, Log2C, Gamma, Log2Gamma string
}

// A Grid is the axes of a grid search: the values of C, of γ as a plan
// records them ("" alone for a kernel without γ), and their base-2
// exponents when they were given as ranges.
type Grid struct {
	C            []float64
	Gamma        []string
	Log2C, Log2G []float64
}

// A GridError is an axis of a grid refused. Field is the text at fault
// ("C", "log2c", "gamma" or "log2g", Err then a *selection.RangeError) or,
// when Value is not "", the axis ("C" or "gamma") one of whose values the
// learner refuses, Err saying why.
type GridError struct {
	Field, Value string
	Err          error
}

func (e *GridError) Error() string {
	if e.Value != "" {
		return fmt.Sprintf("%s %s: %v", e.Field, e.Value, e.Err)
	}
	return e.Err.Error()
}

func (e *GridError) Unwrap() error { return e.Err }

// Grid reads the axes of a grid search of the learner and checks every
// value by the learner's own rules, as fit checks its C and γ.
func (l Setup) Grid(t GridText) (Grid, error) {
	var g Grid
	var err error
	field := "C"
	if t.Log2C == "" {
		g.C, err = selection.ParseList("C", t.C)
	} else {
		field = "log2c"
		g.C, g.Log2C, err = selection.ParseLog2Range("C", t.Log2C)
	}
	if err != nil {
		return g, &GridError{Field: field, Err: err}
	}
	for _, c := range g.C {
		o := l.Options
		o.C = c
		if err := l.Spec.Check(o); err != nil {
			return g, &GridError{Field: "C", Value: strconv.FormatFloat(c, 'g', -1, 64), Err: err}
		}
	}
	if !l.HasGamma() {
		g.Gamma = []string{""}
		return g, nil
	}
	if g.Gamma, g.Log2G, err = gammaAxis(t); err != nil {
		return g, err
	}
	for _, v := range g.Gamma {
		o := l.Options
		if o.Gamma, err = kernel.ParseGamma(v); err == nil {
			var ks kernel.Spec
			if ks, err = o.KernelSpec(); err == nil {
				err = ks.Validate()
			}
		}
		if err != nil {
			return g, &GridError{Field: "gamma", Value: v, Err: err}
		}
	}
	return g, nil
}

// gammaAxis reads the γ values as a plan writes them, from t.Gamma or
// t.Log2Gamma (with the exponents).
func gammaAxis(t GridText) (gs []string, lg []float64, err error) {
	if t.Log2Gamma != "" {
		var gv []float64
		if gv, lg, err = selection.ParseLog2Range("gamma", t.Log2Gamma); err != nil {
			return nil, nil, &GridError{Field: "log2g", Err: err}
		}
		for _, v := range gv {
			gs = append(gs, strconv.FormatFloat(v, 'g', -1, 64))
		}
		return gs, lg, nil
	}
	for _, s := range strings.Split(t.Gamma, ",") {
		if s = strings.TrimSpace(s); s == "scale" || s == "auto" {
			gs = append(gs, s)
			continue
		}
		v, err := selection.ParseList("gamma", s)
		if err != nil {
			return nil, nil, &GridError{Field: "gamma", Err: err}
		}
		gs = append(gs, strconv.FormatFloat(v[0], 'g', -1, 64))
	}
	if len(slices.Compact(slices.Sorted(slices.Values(gs)))) != len(gs) {
		return nil, nil, &GridError{Field: "gamma", Err: &selection.RangeError{Param: "gamma", Text: t.Gamma, Problem: "a value appears twice"}}
	}
	return gs, nil, nil
}

// NewPlan writes down the grid search of the learner on set, the data d
// (selection.NewPlan), along g's axes in folds folds dealt with seed; warm
// asks for warm starts along C, which the kernel SVM has.
func (l Setup) NewPlan(set *dataset.Set, d selection.Data, g Grid, folds int, seed uint64, warm bool) (*selection.Plan, error) {
	p, err := selection.NewPlan(set, d, l.Spec.Name, l.PlanOptions(), g.C, g.Gamma, folds, seed)
	if err != nil {
		return nil, err
	}
	p.Log2C, p.Log2Gamma = g.Log2C, g.Log2G
	p.WarmStart = warm && l.Spec.Form == learners.KernelSVMForm && len(g.C) > 1
	return p, nil
}

// RunTask runs task i of p on set (selection.Run, or selection.RunPair for
// a plan split by pair), the SVM on threads goroutines (0: all cores)
// with the learner's kernel cache.
func (l Setup) RunTask(ctx context.Context, p *selection.Plan, set *dataset.Set, i, threads int) (selection.Result, error) {
	if p.Pairs != 0 {
		return selection.RunPair(ctx, p, set, i, l.PairFit(threads, l.Options.CacheMB))
	}
	return selection.Run(ctx, p, set, i, l.FoldFit(threads, l.Options.CacheMB))
}
