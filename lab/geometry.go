package lab

import (
	"encoding/json"
	"fmt"
	"math"

	"mark1/learning"
	"mark1/learning/kernel"
	"mark1/learning/svm"
)

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }

// Risk returns the perceptron risk of the notes (001),
//
//	R(w) = Σ_{i : y_i x̃_i·w < 0} −y_i x̃_i·w,
//
// with x̃ the points lifted by the bias trick when bias is set (then w ends
// in b). It panics if len(w) does not match.
func Risk(e Example, bias bool, w []float64) float64 {
	x := e.Lift(bias)
	d := &learning.Data{X: x, Y: e.Data().Y, Classes: 2}
	return learning.PerceptronRisk(d, w, 0)
}

// RiskGradient returns ∇R(w) = −Σ_{i∈V} y_i x̃_i, V = {i : y_i x̃_i·w < 0}
// (001). R is piecewise linear: the gradient is constant inside each cell of
// the arrangement of dual lines {w : x̃_i·w = 0} and jumps by ±x̃_i across
// line i where that sample enters or leaves V.
func RiskGradient(e Example, bias bool, w []float64) []float64 {
	x := e.Lift(bias)
	if len(w) != len(x[0]) {
		panic(fmt.Sprintf("lab: RiskGradient: %d weights for %d inputs", len(w), len(x[0])))
	}
	g := make([]float64, len(w))
	for i, xi := range x {
		y := float64(e.Y[i])
		if y*dot(xi, w) < 0 {
			for j := range g {
				g[j] -= y * xi[j]
			}
		}
	}
	return g
}

func dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// TheoremOf measures the perceptron convergence theorem's quantities on e as
// the perceptron sees it: R = max ‖x̃_i‖ and γ the maximum margin of a
// separator through the origin of the x̃_i (with bias, in d+1 dimensions).
// γ is found as the hard-margin SVM of the points together with their
// mirror images (−x̃_i, −y_i): that set is symmetric, so its unique
// maximum-margin separator has b = 0, and it separates the original points
// through the origin with the largest margin. γ is 0 and the bound +Inf
// when no separator through the origin exists.
func TheoremOf(e Example, bias bool) Theorem {
	x := e.Lift(bias)
	t := Theorem{R: learning.Radius(&learning.Data{X: x}, false), Bound: math.Inf(1)}
	n := len(x)
	xx := make([][]float64, 0, 2*n)
	yy := make([]float64, 0, 2*n)
	for i, xi := range x {
		m := make([]float64, len(xi))
		for j, v := range xi {
			m[j] = -v
		}
		xx = append(xx, xi, m)
		yy = append(yy, float64(e.Y[i]), -float64(e.Y[i]))
	}
	b, err := svm.Solve(xx, yy, kernel.Linear{}, svm.Settings{Hard: true, Eps: 1e-9})
	if err != nil || b.Status != svm.Separable {
		return t
	}
	w := make([]float64, len(x[0]))
	for i, sv := range b.SV {
		for j := range w {
			w[j] += b.Coef[i] * sv[j]
		}
	}
	norm := math.Sqrt(dot(w, w))
	if norm == 0 {
		return t
	}
	lo := math.Inf(1)
	for j := range w {
		w[j] /= norm
	}
	for i, xi := range x {
		lo = min(lo, float64(e.Y[i])*dot(w, xi))
	}
	if !(lo > 0) {
		return t
	}
	t.Gamma, t.Separator = lo, w
	t.Bound = (t.R / lo) * (t.R / lo)
	return t
}

// Point is a point of the plane.
type Point struct{ X, Y float64 }

// Box is the rectangle [X0, X1] × [Y0, Y1].
type Box struct{ X0, X1, Y0, Y1 float64 }

// FeasibleRegion returns the part of box where every sample is on its right
// side in w-space: the intersection of the half-planes y_i x_i·w ≥ 0 (001,
// "the bottom pizza slice") with the box, as a convex polygon in
// counter-clockwise order; empty when the intersection has no area. e must
// have two features: in w-space without the bias, each sample's dual line
// {w : x·w = 0} passes through the origin.
func FeasibleRegion(e Example, box Box) ([]Point, error) {
	if e.Dim() != 2 {
		return nil, fmt.Errorf("%s: the dual chart needs 2 features, the example has %d", e.Name, e.Dim())
	}
	return FeasibleSlice(e, 0, box)
}

// FeasibleSlice is FeasibleRegion for the bias trick's three-dimensional
// w-space (w₁, w₂, b), cut at the plane b = const: the part of box where
// y_i (x_i·w + b) ≥ 0 for every sample. Its dual lines x_i·w = −b no longer
// pass through the origin. FeasibleSlice(e, 0, box) is FeasibleRegion.
func FeasibleSlice(e Example, b float64, box Box) ([]Point, error) {
	if e.Dim() != 2 {
		return nil, fmt.Errorf("%s: the dual chart needs 2 features, the example has %d", e.Name, e.Dim())
	}
	poly := []Point{{box.X0, box.Y0}, {box.X1, box.Y0}, {box.X1, box.Y1}, {box.X0, box.Y1}}
	for i, x := range e.X {
		y := float64(e.Y[i])
		poly = clip(poly, y*x[0], y*x[1], y*b)
		if len(poly) == 0 {
			return nil, nil
		}
	}
	return poly, nil
}

// clip cuts the convex polygon p to the half-plane a·X + b·Y + c ≥ 0
// (Sutherland–Hodgman for one edge).
func clip(p []Point, a, b, c float64) []Point {
	var out []Point
	side := func(q Point) float64 { return a*q.X + b*q.Y + c }
	for i, cur := range p {
		prev := p[(i+len(p)-1)%len(p)]
		sc, sp := side(cur), side(prev)
		if (sc >= 0) != (sp >= 0) {
			t := sp / (sp - sc)
			out = append(out, Point{prev.X + t*(cur.X-prev.X), prev.Y + t*(cur.Y-prev.Y)})
		}
		if sc >= 0 {
			out = append(out, cur)
		}
	}
	// Drop repeated vertices (a line through a corner).
	var uniq []Point
	for i, q := range out {
		if i > 0 && near(q, out[i-1]) {
			continue
		}
		uniq = append(uniq, q)
	}
	if len(uniq) > 1 && near(uniq[0], uniq[len(uniq)-1]) {
		uniq = uniq[:len(uniq)-1]
	}
	if len(uniq) < 3 || area(uniq) < 1e-12 {
		return nil
	}
	return uniq
}

func near(p, q Point) bool { return math.Abs(p.X-q.X) < 1e-12 && math.Abs(p.Y-q.Y) < 1e-12 }

func area(p []Point) float64 {
	var s float64
	for i, a := range p {
		b := p[(i+1)%len(p)]
		s += a.X*b.Y - b.X*a.Y
	}
	return s / 2
}
