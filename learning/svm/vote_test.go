package svm

import (
	"context"
	"testing"

	"mark1/learning"
	"mark1/learning/kernel"
)

// TestVotesLikeLIBSVM builds one-vs-one models by hand (as a model file
// reader does) and checks LIBSVM's voting rule from svm_predict_values: for
// the pair (i, j), i < j, f > 0 is a vote for i and f ≤ 0 one for j; the most
// votes win, the first class among equals.
func TestVotesLikeLIBSVM(t *testing.T) {
	tests := []struct {
		name string
		f    [3]float64 // decision values of the machines (0,1), (0,2), (1,2) at x = 1
		want int
	}{
		{"one vote each: the first class", [3]float64{1, -1, 1}, 0},
		{"one vote each, other cycle: still the first", [3]float64{-1, 1, -1}, 0},
		{"f = 0 votes for the second class", [3]float64{0, -1, 1}, 1},
		{"clear winner", [3]float64{-1, -2, -3}, 2},
	}
	for _, tt := range tests {
		km := &KernelModel{Kernel: kernel.Linear{}, Classes: 3, SV: [][]float64{{1}}}
		pairs := [3][2]int{{0, 1}, {0, 2}, {1, 2}}
		for m, p := range pairs {
			// f(1) = 1·(1·1) − Rho = f with Rho = 1 − f.
			km.Machines = append(km.Machines, Machine{Pos: p[0], Neg: p[1], SV: []int{0}, Coef: []float64{1}, Rho: 1 - tt.f[m]})
		}
		if got := km.Predict([]float64{1}); got != tt.want {
			t.Errorf("%s: class %d; want %d (votes %v)", tt.name, got, tt.want, km.Scores(nil, []float64{1}))
		}
	}
}

// TestNewKernelModel rebuilds a trained model from its parts, sparse, and
// checks that it predicts and scores as the trained one.
func TestNewKernelModel(t *testing.T) {
	X := [][]float64{{0, 0, 1}, {0, 1, 0}, {2, 0, 0}, {2, 1, 3}, {0, 0, 0}, {1, 2, 2}}
	y := []int{0, 1, 2, 2, 0, 1}
	res, err := Kernel{Kernel: kernel.Gaussian{Sigma: 1}}.Fit(context.Background(), &learning.Data{X: X, Y: y, Classes: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	km := res.Model.(*KernelModel)
	var ms []Machine
	for _, mc := range km.Machines {
		ms = append(ms, Machine{Pos: mc.Pos, Neg: mc.Neg, SV: mc.SV, Coef: mc.Coef, Rho: mc.Rho})
	}
	back := NewKernelModel(km.Kernel, 3, OneVsOne, sparseOf(t, 3, learning.NewDense(km.SV)), ms)
	for a := 0.0; a <= 2; a += 0.25 {
		for b := 0.0; b <= 2; b += 0.5 {
			x := []float64{a, b, a - b}
			if got, want := back.Predict(x), km.Predict(x); got != want {
				t.Errorf("x = %v: rebuilt %d, trained %d", x, got, want)
			}
		}
	}
}
