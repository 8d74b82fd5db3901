package lab

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"
)

// TestLossPerceptronIsThePerceptron checks notes 002's Example 3: SGD on
// the perceptron loss with ε = 1 is the perceptron, update for update; and
// full-batch GD on it is batch GD (whose R sums where the loss's mean
// averages: ε scaled by n).
func TestLossPerceptronIsThePerceptron(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"notes-004", "pizza-001", "needs-bias", "narrow-slice"} {
		e := mustFind(t, name)
		for _, bias := range []bool{false, true} {
			p, err := TracePerceptron(ctx, e, PerceptronOptions{Bias: bias, MaxEpochs: 30})
			if err != nil {
				t.Fatal(err)
			}
			l, err := TraceLoss(ctx, e, LossOptions{Loss: "perceptron", Bias: bias, MaxEpochs: 30})
			if err != nil {
				t.Fatal(err)
			}
			// A perceptron in the given order stops where it starts cycling;
			// SGD goes on, repeating the cycle.
			cycling := strings.HasPrefix(p.Status, "bounded, cycling")
			if cycling && len(l.Steps) > len(p.Steps) {
				l.Steps = l.Steps[:len(p.Steps)]
			}
			if len(l.Steps) != len(p.Steps) || l.Converged != p.Converged {
				t.Fatalf("%s bias %v: %d steps (converged %v); the perceptron %d (%v)", name, bias, len(l.Steps), l.Converged, len(p.Steps), p.Converged)
			}
			for i, s := range l.Steps {
				if !slices.Equal(s.Next, p.Steps[i].W) {
					t.Fatalf("%s bias %v step %d: w = %v; the perceptron's %v", name, bias, i+1, s.Next, p.Steps[i].W)
				}
			}
			g, err := TraceBatchGD(ctx, e, GDOptions{Bias: bias, Eps: 0.5, MaxSteps: 20})
			if err != nil {
				t.Fatal(err)
			}
			l, err = TraceLoss(ctx, e, LossOptions{Loss: "perceptron", Bias: bias, Batch: len(e.X), Eps: 0.5 * float64(len(e.X)), MaxEpochs: 20})
			if err != nil {
				t.Fatal(err)
			}
			for i, s := range g.Steps {
				if i >= len(l.Steps) || maxAbs(sub(l.Steps[i].Next, s.Next)) > 1e-9 {
					t.Fatalf("%s bias %v: full-batch step %d differs from batch GD's %v", name, bias, i+1, s.Next)
				}
			}
		}
	}
}

func sub(a, b []float64) []float64 {
	out := make([]float64, len(a))
	for i := range a {
		out[i] = a[i] - b[i]
	}
	return out
}

// TestLossGradients checks each loss's gradient against central
// differences of its risk, away from the kinks.
func TestLossGradients(t *testing.T) {
	e := mustFind(t, "overlap")
	for _, loss := range Losses() {
		p, err := newLossProblem(e, loss, true)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range [][]float64{{0.3, -0.7, 0.2}, {1.1, 0.4, -0.9}, {-0.45, 0.3, 0.55}} {
			if loss == "squared" {
				w = w[:2]
			}
			g := make([]float64, len(w))
			for i := range p.x {
				p.lossGrad(w, i, g, 1/float64(len(p.x)))
			}
			for j := range w {
				const h = 1e-6
				up, dn := slices.Clone(w), slices.Clone(w)
				up[j] += h
				dn[j] -= h
				if num := (p.risk(up) - p.risk(dn)) / (2 * h); math.Abs(num-g[j]) > 1e-5 {
					t.Errorf("%s at %v: ∂R/∂w%d = %v; differences give %v", loss, w, j, g[j], num)
				}
			}
		}
	}
}

// TestSquaredLossIsLeastSquares checks that full-batch GD on the squared
// loss reaches the least-squares line through the points (x₁ → x₂),
// worked out from the normal equations, and that SGD and mini-batches get
// near it too.
func TestSquaredLossIsLeastSquares(t *testing.T) {
	e := mustFind(t, "overlap")
	var sx, sy, sxx, sxy float64
	n := float64(len(e.X))
	for _, x := range e.X {
		sx += x[0]
		sy += x[1]
		sxx += x[0] * x[0]
		sxy += x[0] * x[1]
	}
	slope := (n*sxy - sx*sy) / (n*sxx - sx*sx)
	icpt := (sy - slope*sx) / n
	for _, c := range []struct {
		batch int
		eps   float64
		tol   float64
	}{{len(e.X), 0.1, 1e-6}, {4, 0.02, 0.05}, {1, 0.01, 0.1}} {
		l, err := TraceLoss(context.Background(), e, LossOptions{Loss: "squared", Batch: c.batch, Eps: c.eps, MaxEpochs: 5000 / ((len(e.X) + c.batch - 1) / c.batch) * 4})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(l.Final[0]-slope) > c.tol || math.Abs(l.Final[1]-icpt) > c.tol {
			t.Errorf("batch %d: w = %v (%s); least squares (%v, %v)", c.batch, l.Final, l.Status, slope, icpt)
		}
	}
	// Too large a step diverges, and says so.
	l, err := TraceLoss(context.Background(), e, LossOptions{Loss: "squared", Eps: 1})
	if err != nil || l.Converged || !contains(l.Status, "diverged") {
		t.Errorf("ε = 1 on the squared loss: %v, %q; want diverged", err, l.Status)
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// TestMiniBatches checks that each epoch's batches present every sample
// once, in batches of the size asked (the last may be smaller).
func TestMiniBatches(t *testing.T) {
	e := mustFind(t, "overlap")
	l, err := TraceLoss(context.Background(), e, LossOptions{Loss: "logistic", Batch: 5, Shuffle: true, Seed: 7, Eps: 0.5, MaxEpochs: 3})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int][]int{}
	for _, s := range l.Steps {
		if len(s.Batch) > 5 {
			t.Fatalf("step %d: a batch of %d", s.Step, len(s.Batch))
		}
		seen[s.Epoch] = append(seen[s.Epoch], s.Batch...)
	}
	for ep := 1; ep <= 3; ep++ {
		got := slices.Sorted(slices.Values(seen[ep]))
		for i, v := range got {
			if v != i+1 {
				t.Fatalf("epoch %d presents %v; want every sample once", ep, got)
			}
		}
	}
	if len(l.Steps) != 3*4 {
		t.Errorf("%d steps; want 3 epochs of 4 batches (16 samples, batches of 5)", len(l.Steps))
	}
}
