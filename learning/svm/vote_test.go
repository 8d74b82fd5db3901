package svm

import (
	"testing"

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
