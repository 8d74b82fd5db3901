package learning_test

import (
	"context"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"mark1/learning"
	"mark1/limits"
)

// TestPerceptronCycleXOR: on XOR over {0,1}² with the bias trick, ε = 1,
// w₀ = 0 and the given order, the run stops as soon as the weights repeat,
// saying so: period 4 (w visits (0,0,0), (0,0,−1), (0,1,0), (1,1,1)).
func TestPerceptronCycleXOR(t *testing.T) {
	d := &learning.Data{X: [][]float64{{0, 0}, {0, 1}, {1, 0}, {1, 1}}, Y: []int{0, 1, 1, 0}, Classes: 2}
	res, err := learning.Perceptron{InOrder: true}.Fit(context.Background(), d, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != learning.Cycling || res.Epochs != 1 || res.Updates != 4 || !strings.Contains(res.Summary, "bounded, cycling, period 4") {
		t.Errorf("status %v after %d epochs, %d updates: %s", res.Status, res.Epochs, res.Updates, res.Summary)
	}
}

// TestPerceptronCycleAgainstIntegers: on small random integer data, the
// perceptron in the given order stops cycling exactly when the exact
// integer perceptron of package limits finds a cycle, with the same period,
// and converges when it does.
func TestPerceptronCycleAgainstIntegers(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	cycles := 0
	for trial := range 300 {
		n := 3 + r.IntN(5)
		var x [][]float64
		var xi [][]int64
		var y []int
		var yi []int64
		for range n {
			a, b := r.IntN(5)-2, r.IntN(5)-2
			x, xi = append(x, []float64{float64(a), float64(b)}), append(xi, []int64{int64(a), int64(b), 1})
			c := r.IntN(2)
			y, yi = append(y, c), append(yi, int64(2*c-1))
		}
		if !hasBoth(y) {
			continue
		}
		want := limits.PerceptronCycle(xi, yi, 1, 200)
		res, err := learning.Perceptron{InOrder: true, MaxEpochs: 200}.Fit(context.Background(), &learning.Data{X: x, Y: y, Classes: 2}, nil)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case want.Cycling:
			cycles++
			if res.Status != learning.Cycling || !strings.Contains(res.Summary, "period "+strconv.Itoa(want.Period)+":") {
				t.Errorf("trial %d: integers cycle with period %d; got %v: %s", trial, want.Period, res.Status, res.Summary)
			}
		case want.Converged:
			if res.Status != learning.Converged {
				t.Errorf("trial %d: integers converge; got %v: %s", trial, res.Status, res.Summary)
			}
		}
	}
	if cycles < 20 {
		t.Errorf("only %d of the trials cycle: the test says little", cycles)
	}
}

func hasBoth(y []int) bool {
	s := 0
	for _, c := range y {
		s += c
	}
	return s > 0 && s < len(y)
}
