package learning_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"mark1/learning"
)

// With the exact line search the perceptron risk never increases, also on
// badly scaled data where it may stall, and on well-conditioned separable
// data the run ends with no mistakes.
func TestBatchGDLineSearch(t *testing.T) {
	for _, tc := range []struct {
		seed  uint64
		n     int
		dim   int
		gamma float64
		bias  bool
	}{
		{1, 200, 2, 0.05, true},
		{2, 500, 5, 0.02, true},
		{3, 300, 20, 0.05, false},
		{4, 1000, 3, 0.01, true},
		{5, 400, 10, 0.01, false},
	} {
		t.Run(fmt.Sprintf("seed=%d,d=%d", tc.seed, tc.dim), func(t *testing.T) {
			skewed, err := learning.BatchGD{LineSearch: true, NoBias: !tc.bias, MaxEpochs: 2000}.Fit(context.Background(), ptSkewed(tc.seed, tc.n, tc.dim, tc.gamma, tc.bias), nil)
			if err != nil {
				t.Fatal(err)
			}
			for i := 1; i < len(skewed.Curve); i++ {
				if p, q := skewed.Curve[i-1].Risk, skewed.Curve[i].Risk; q > p*(1+1e-9)+1e-12 {
					t.Errorf("skewed, step %d: risk rose from %v to %v", i+1, p, q)
				}
			}
			if skewed.Epochs == 2000 {
				t.Errorf("skewed: got %q; want convergence or a stall, not the limit", skewed.Status)
			}
			d := pt(ptPlanted(tc.seed, tc.n, tc.dim, tc.gamma, tc.bias))
			res, err := learning.BatchGD{LineSearch: true, NoBias: !tc.bias, MaxEpochs: 2000}.Fit(context.Background(), d, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i := 1; i < len(res.Curve); i++ {
				if p, q := res.Curve[i-1].Risk, res.Curve[i].Risk; q > p*(1+1e-9)+1e-12 {
					t.Errorf("step %d: risk rose from %v to %v", i+1, p, q)
				}
			}
			if !res.Status.Converged() || ptErrors(res.Model, d) != 0 {
				t.Fatalf("got %q after %d steps; want no mistakes", res.Summary, res.Updates)
			}
			if last := res.Curve[len(res.Curve)-1].Risk; last != 0 {
				t.Errorf("got final risk %v; want 0", last)
			}
			// The fixed-step descent gets there too, but the line search
			// should not need more steps on these problems.
			fixed, _ := learning.BatchGD{NoBias: !tc.bias, MaxEpochs: 20000}.Fit(context.Background(), d, nil)
			t.Logf("line search: %d steps; ε = 1: %d steps (%s)", res.Updates, fixed.Updates, fixed.Status)
		})
	}
}

// The risk reported in the curve is the perceptron risk of the model.
func TestBatchGDRiskMatchesTheory(t *testing.T) {
	d := ptNoisy(7, 300, 4, 0.1)
	res, err := learning.BatchGD{MaxEpochs: 7, Step: 0.01}.Fit(context.Background(), d, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := res.Model.(*learning.LinearModel)
	got, want := res.Curve[len(res.Curve)-1].Risk, learning.PerceptronRisk(d, m.W[0], m.B[0])
	if diff := got - want; diff > 1e-9*want || diff < -1e-9*want {
		t.Errorf("got risk %v; want PerceptronRisk %v", got, want)
	}
	if res.Updates != 7 || res.Epochs != 7 {
		t.Errorf("got %d updates in %d epochs; want 7 and 7", res.Updates, res.Epochs)
	}
}

// Mini-batch SGD with one row per batch is the perceptron, step for step.
func TestBatchGDBatchOneIsPerceptron(t *testing.T) {
	for _, d := range []*learning.Data{pt(ptPlanted(8, 300, 5, 0.02, true)), ptNoisy(9, 200, 3, 0.1), ptBlobs(10, 200, 3, 3, 0.5)} {
		p, _ := learning.Perceptron{Seed: 5, MaxEpochs: 30, Step: 0.5}.Fit(context.Background(), d, nil)
		g, _ := learning.BatchGD{Seed: 5, MaxEpochs: 30, Step: 0.5, BatchSize: 1}.Fit(context.Background(), d, nil)
		pm, gm := p.Model.(*learning.LinearModel), g.Model.(*learning.LinearModel)
		if fmt.Sprint(pm.W, pm.B) != fmt.Sprint(gm.W, gm.B) {
			t.Errorf("got weights %v %v; want the perceptron's %v %v", gm.W, gm.B, pm.W, pm.B)
		}
		// Updates counts steps, which for several machines may fix more
		// than one mistake; the curves count mistakes.
		if sum(g.Curve) != sum(p.Curve) || p.Status.Converged() != g.Status.Converged() {
			t.Errorf("got %d mistakes (converged %v); want %d (%v)", sum(g.Curve), g.Status.Converged(), sum(p.Curve), p.Status.Converged())
		}
		for i, e := range g.Curve {
			if e.Mistakes != p.Curve[i].Mistakes {
				t.Errorf("epoch %d: got %d mistakes; want %d", i+1, e.Mistakes, p.Curve[i].Mistakes)
			}
		}
	}
}

func TestBatchGDMultiClass(t *testing.T) {
	d := ptBlobs(11, 300, 4, 5, 0.3)
	for _, ls := range []bool{false, true} {
		res, err := learning.BatchGD{LineSearch: ls, MaxEpochs: 1000}.Fit(context.Background(), d, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Status.Converged() || ptErrors(res.Model, d) != 0 || !strings.HasPrefix(res.Summary, "converged") {
			t.Errorf("line search %v: got %q; want convergence", ls, res.Summary)
		}
	}
}

func sum(c []learning.Epoch) int {
	n := 0
	for _, e := range c {
		n += e.Mistakes
	}
	return n
}

// ptSkewed is ptPlanted with feature j scaled by 30^(j/(dim−1)), and its
// positive class shifted away from the origin, so that the plain gradient
// zig-zags.
func ptSkewed(seed uint64, n, dim int, gamma float64, bias bool) *learning.Data {
	d, _, _ := ptPlanted(seed, n, dim, gamma, bias)
	for _, x := range d.X {
		for j := range x {
			x[j] *= math.Pow(30, float64(j)/float64(dim-1))
		}
	}
	return d
}

// When the misclassified points' pulls cancel — a point and its twin of
// the other class — the gradient is zero: there is no direction, and the
// line search must not divide by ‖∇R‖ = 0 (it made the weights NaN, and
// every later epoch count every card as a mistake).
func TestBatchGDZeroGradient(t *testing.T) {
	d := &learning.Data{X: [][]float64{{1, 0}, {1, 0}, {0, 1}}, Y: []int{1, 0, 1}, Classes: 2}
	for _, search := range []bool{true, false} {
		res, err := learning.BatchGD{LineSearch: search, NoBias: true, MaxEpochs: 50}.Fit(context.Background(), d, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range res.Curve {
			if math.IsNaN(e.Risk) || math.IsInf(e.Risk, 0) {
				t.Fatalf("line search %v: epoch %d has risk %v", search, e.Epoch, e.Risk)
			}
		}
		if s := res.Model.(learning.Scorer).Scores(nil, []float64{0, 1}); math.IsNaN(s[1]) || s[1] <= 0 {
			t.Errorf("line search %v: scores %v for the point (0, 1) of class 1; want a finite positive one for class 1", search, s)
		}
		if res.Epochs == 50 {
			t.Errorf("line search %v: ran to the epoch limit (%s); want a stall reported", search, res.Summary)
		}
	}
}
