package svm

import (
	"math"
	"math/rand/v2"
	"testing"

	"mark1/learning"
	"mark1/learning/kernel"
)

// On grey pictures (bytes over 255) the byte layout is chosen and its
// kernel rows equal the dense layout's to rounding.
func TestBytesLayoutMatchesDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	X := make([][]float64, 50)
	for i := range X {
		X[i] = make([]float64, 400)
		for k := range X[i] {
			if rng.IntN(3) > 0 {
				X[i][k] = float64(rng.IntN(256)) / 255
			}
		}
	}
	r := learning.NewDense(X)
	g := newGram(r, nil, kernel.Gaussian{Sigma: 3})
	if g.v.layout != layoutBytes {
		t.Fatalf("layout %d, want bytes", g.v.layout)
	}
	dense := newGram(r, nil, kernel.Gaussian{Sigma: 3})
	dense.v = newVectors(r, nil, layoutDense, false, nil)
	y := make([]int8, len(X))
	for i := range y {
		y[i] = 1
	}
	a, b := make([]float32, len(X)), make([]float32, len(X))
	want, got := make([]float64, len(X)), make([]float64, len(X))
	for i := range X {
		g.row(a, y, i, 0)
		dense.row(b, y, i, 0)
		g.evalAll(got, X[i], &evalScratch{})
		dense.evalAll(want, X[i], &evalScratch{})
		for j := range a {
			if math.Abs(float64(a[j]-b[j])) > 1e-6 || math.Abs(got[j]-want[j]) > 1e-12 {
				t.Fatalf("K(%d, %d): bytes %v / %v, dense %v / %v", i, j, a[j], got[j], b[j], want[j])
			}
		}
	}
}
