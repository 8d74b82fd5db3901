package learning

import (
	"fmt"
	"math"
)

// The helpers in this file measure a data set against a linear separator
// (w, b) with the quantities of the perceptron convergence theorem. They take
// a two-class Data (class 1 is y = +1, class 0 is y = −1) and panic, as
// misuse, if d has other than two classes or len(w) differs from the rows'
// length.

func checkBinary(d *Data, w []float64, who string) {
	if d.Classes != 2 {
		panic(fmt.Sprintf("learning: %s needs two classes, got %d", who, d.Classes))
	}
	if r := d.Features(); r.Len() > 0 && len(w) != r.Dim() {
		panic(fmt.Sprintf("learning: %s: %d weights for rows of %d features", who, len(w), r.Dim()))
	}
}

// GeometricMargin returns γ = min_i y_i (w·x_i + b)/‖w‖, the distance from the
// hyperplane w·x + b = 0 to the nearest point, counted negative when that
// point is on the wrong side. It is NaN when w is zero.
func GeometricMargin(d *Data, w []float64, b float64) float64 {
	checkBinary(d, w, "GeometricMargin")
	norm := math.Sqrt(dot(w, w))
	if norm == 0 {
		return math.NaN()
	}
	return signedMin(d, w, b) / norm
}

// Radius returns R = max_i ‖x_i‖, the radius of the smallest ball around the
// origin that holds the data; with bias true each x_i is extended by the
// bias input 1, so R = max_i √(‖x_i‖² + 1).
func Radius(d *Data, bias bool) float64 {
	var r2 float64
	rows := d.Features()
	for i := range rows.Len() {
		s := rows.SqNorm(i)
		if bias {
			s++
		}
		r2 = max(r2, s)
	}
	return math.Sqrt(r2)
}

// MistakeBound returns the bound (R/γ)² of the perceptron convergence theorem
// (Novikoff 1962, "On convergence proofs on perceptrons"; notes 002 and 004)
// on the number of mistakes — over all epochs, in any order, for any step
// size — that the Perceptron makes from the zero start on d, given a
// separator (w, b) of the data:
//
//   - With bias false the perceptron learns a separator through the origin,
//     so b must be 0 (it panics otherwise); R = Radius(d, false) and γ is
//     GeometricMargin(d, w, 0).
//   - With bias true the perceptron runs in d+1 dimensions on x̃ = (x, 1), and
//     the theorem applies there: R̃ = Radius(d, true) = max_i √(‖x_i‖²+1), and
//     γ̃ = min_i y_i (w·x_i + b)/‖(w, b)‖, the margin of the augmented
//     separator, which is smaller than the geometric margin in x-space.
//
// It returns R, γ (or γ̃) and the bound; the bound is +Inf when γ ≤ 0 (the
// separator does not separate, and the theorem says nothing).
func MistakeBound(d *Data, w []float64, b float64, bias bool) (radius, margin, bound float64) {
	checkBinary(d, w, "MistakeBound")
	if !bias && b != 0 {
		panic("learning: MistakeBound: a bias b ≠ 0 needs bias true")
	}
	radius = Radius(d, bias)
	norm := math.Sqrt(dot(w, w) + b*b)
	if norm == 0 {
		return radius, math.NaN(), math.Inf(1)
	}
	margin = signedMin(d, w, b) / norm
	if !(margin > 0) {
		return radius, margin, math.Inf(1)
	}
	r := radius / margin
	return radius, margin, r * r
}

// PerceptronRisk returns the perceptron risk of the lecture notes (001),
//
//	R(w, b) = Σ_{i : y_i (w·x_i + b) < 0} −y_i (w·x_i + b),
//
// the total distance, in units of ‖w‖, by which the misclassified points are
// on the wrong side. It is zero exactly when no point is strictly on the wrong
// side — in particular at w = 0, which is why the learners stop on mistakes,
// not on zero risk.
func PerceptronRisk(d *Data, w []float64, b float64) float64 {
	checkBinary(d, w, "PerceptronRisk")
	var r float64
	rows := d.Features()
	for i := range rows.Len() {
		if m := ovrSign(d.Y[i], 0, 2) * (rows.Dot(i, w) + b); m < 0 {
			r -= m
		}
	}
	return r
}

// signedMin returns min_i y_i (w·x_i + b) over the rows of a two-class d.
func signedMin(d *Data, w []float64, b float64) float64 {
	lo := math.Inf(1)
	rows := d.Features()
	for i := range rows.Len() {
		lo = min(lo, ovrSign(d.Y[i], 0, 2)*(rows.Dot(i, w)+b))
	}
	return lo
}
