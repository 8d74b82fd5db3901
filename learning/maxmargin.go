package learning

import (
	"fmt"
	"math"
)

// MarginStatus says how MaxMargin ended.
type MarginStatus int

const (
	// MarginFound: the largest margin is known to within the tolerance.
	MarginFound MarginStatus = iota
	// MarginNotSeparable: no separator of the asked form has a margin above
	// 10⁻⁶ of the data's radius (a bound
	// (R/γ)² above 10¹² mistakes) (the data are not separable in that form,
	// or only by a hair).
	MarginNotSeparable
	// MarginUndecided: the pass limit was reached first; Lower and Upper
	// still bound the largest margin.
	MarginUndecided
)

func (s MarginStatus) String() string {
	switch s {
	case MarginFound:
		return "found"
	case MarginNotSeparable:
		return "not separable"
	case MarginUndecided:
		return "undecided"
	}
	return fmt.Sprintf("MarginStatus(%d)", int(s))
}

// Margin is the largest margin of a two-class data set in the form the
// perceptron learns in, and the separator that has it.
type Margin struct {
	Status MarginStatus
	// W is the best separator found, with the bias weight last when the
	// form has a bias; it is not normalised.
	W []float64
	// Lower is W's own margin, min_i y_i W·x̃_i / ‖W‖: a margin some
	// separator has, so γ* ≥ Lower. Upper bounds γ* from the dual. With
	// MarginFound, Upper ≤ Lower·(1 + tolerance); γ = Lower.
	Lower, Upper float64
	Passes       int // passes over the data
}

// MaxMargin returns the largest margin γ* = max_{‖w̃‖=1} min_i y_i w̃·x̃_i of
// a two-class Data in the space the Perceptron learns in: x̃_i = x_i without
// a bias (NoBias), x̃_i = (x_i, 1) with one, the bias input being the same
// always-on 1 the perceptron appends and the features used as they are.
// This is the γ of the convergence theorem for the perceptron from the zero
// start: it makes at most (R/γ*)² mistakes with R = Radius(d, bias), and no
// other separator gives a smaller bound.
//
// It solves the hard-margin SVM without a bias term in that space,
// min ½‖w̃‖² subject to y_i w̃·x̃_i ≥ 1, whose solution is γ* = 1/‖w̃‖, by
// coordinate ascent on its dual — max Σα_i − ½‖Σ α_i y_i x̃_i‖² over α ≥ 0,
// with no equality constraint since there is no free bias — each step
// solving for one α_i exactly. After each pass it certifies the answer:
// w̃ = Σ α_i y_i x̃_i has margin Lower ≤ γ*, and weak duality gives
// γ* ≤ Upper = 1/√(2·dual). It stops when Upper ≤ Lower·(1 + tol) (tol 0
// means 10⁻⁶), after maxPasses passes (0 means 100,000), or when Upper
// falls below 10⁻⁶·R (not separable).
//
// It panics if d does not have two classes (misuse).
func MaxMargin(d *Data, bias bool, tol float64, maxPasses int) Margin {
	if d.Classes != 2 {
		panic(fmt.Sprintf("learning: MaxMargin needs two classes, got %d", d.Classes))
	}
	y := make([]float64, len(d.Y))
	for i, c := range d.Y {
		y[i] = ovrSign(c, 0, 2)
	}
	X := d.X
	if d.Rows != nil { // the solver reads slices; theory sets are small
		X = make([][]float64, d.Rows.Len())
		for i := range X {
			X[i] = d.Rows.Row(nil, i)
		}
	}
	return maxMarginOrigin(X, y, bias, tol, maxPasses)
}

// maxMarginOrigin is MaxMargin on rows x (each extended by a 1 if bias)
// with labels y = ±1.
func maxMarginOrigin(x [][]float64, y []float64, bias bool, tol float64, maxPasses int) Margin {
	if tol <= 0 {
		tol = 1e-6
	}
	if maxPasses <= 0 {
		maxPasses = 100_000
	}
	n := len(x)
	if n == 0 {
		return Margin{Status: MarginNotSeparable}
	}
	dim := len(x[0])
	extra := 0.0
	if bias {
		extra = 1
	}
	// w holds the feature weights, wb the bias weight.
	w := make([]float64, dim)
	var wb float64
	alpha := make([]float64, n)
	q := make([]float64, n)
	var r2 float64
	for i, xi := range x {
		q[i] = dot(xi, xi) + extra
		r2 = max(r2, q[i])
		if q[i] == 0 {
			// A point at the origin has margin 0 under every separator.
			return Margin{Status: MarginNotSeparable}
		}
	}
	floor := 1e-6 * math.Sqrt(r2)
	out := Margin{Status: MarginUndecided, Upper: math.Inf(1)}
	for pass := 1; pass <= maxPasses; pass++ {
		for i, xi := range x {
			g := y[i]*(dot(w, xi)+wb*extra) - 1
			a := max(0, alpha[i]-g/q[i])
			if delta := a - alpha[i]; delta != 0 {
				axpy(w, delta*y[i], xi)
				wb += delta * y[i] * extra
				alpha[i] = a
			}
		}
		// Certify: the margin of w, and the dual's bound.
		norm2 := dot(w, w) + wb*wb
		lo := math.Inf(1)
		var sa float64
		for i, xi := range x {
			lo = min(lo, y[i]*(dot(w, xi)+wb*extra))
			sa += alpha[i]
		}
		dual := sa - norm2/2
		out.Passes = pass
		if norm2 > 0 {
			out.Lower = max(lo/math.Sqrt(norm2), 0)
		}
		if dual > 0 {
			out.Upper = min(out.Upper, 1/math.Sqrt(2*dual))
		}
		switch {
		case out.Upper < floor:
			out.Status = MarginNotSeparable
		case out.Lower > 0 && out.Upper <= out.Lower*(1+tol):
			out.Status = MarginFound
		default:
			continue
		}
		break
	}
	out.W = w
	if bias {
		out.W = append(w, wb)
	}
	return out
}
