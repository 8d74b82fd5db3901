package learning_test

import (
	"math"
	"testing"

	"mark1/learning"
)

func TestTheoryHelpers(t *testing.T) {
	// Class 1 at (2, 0), class 0 at (−1, 0) and (0, 3).
	d := &learning.Data{X: [][]float64{{2, 0}, {-1, 0}, {0, 3}}, Y: []int{1, 0, 0}, Classes: 2}
	for _, tc := range []struct {
		name      string
		w         []float64
		b         float64
		bias      bool
		margin    float64 // GeometricMargin
		bmargin   float64 // the margin MistakeBound uses
		radius    float64
		risk      float64
		separates bool
	}{
		{"through origin", []float64{1, -1}, 0, false, 1 / math.Sqrt2, 1 / math.Sqrt2, 3, 0, true},
		{"with bias", []float64{1, 0}, -0.5, true, 0.5, 0.5 / math.Sqrt(1.25), math.Sqrt(10), 0, true},
		{"wrong way", []float64{-1, 0}, 0, false, -2, -2, 3, 3, false},
	} {
		if got := learning.GeometricMargin(d, tc.w, tc.b); math.Abs(got-tc.margin) > 1e-12 {
			t.Errorf("%s: got margin %v; want %v", tc.name, got, tc.margin)
		}
		if got := learning.PerceptronRisk(d, tc.w, tc.b); math.Abs(got-tc.risk) > 1e-12 {
			t.Errorf("%s: got risk %v; want %v", tc.name, got, tc.risk)
		}
		r, g, bound := learning.MistakeBound(d, tc.w, tc.b, tc.bias)
		if math.Abs(r-tc.radius) > 1e-12 || math.Abs(g-tc.bmargin) > 1e-12 {
			t.Errorf("%s: got R = %v, γ = %v; want %v, %v", tc.name, r, g, tc.radius, tc.bmargin)
		}
		if want := (r / g) * (r / g); tc.separates && math.Abs(bound-want) > 1e-9 || !tc.separates && !math.IsInf(bound, 1) {
			t.Errorf("%s: got bound %v", tc.name, bound)
		}
	}
}
