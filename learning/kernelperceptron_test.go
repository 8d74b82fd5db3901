package learning_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"mark1/learning"
	"mark1/learning/kernel"
)

// The kernel perceptron with the linear kernel is the primal perceptron:
// same seed, same order, same mistakes, same predictions, same margin.
func TestKernelLinearIsPerceptron(t *testing.T) {
	for _, tc := range []struct {
		name   string
		d      *learning.Data
		noBias bool
	}{
		{"separable", pt(ptPlanted(21, 300, 4, 0.02, true)), false},
		{"separable, no bias", pt(ptPlanted(22, 300, 4, 0.02, false)), true},
		{"noisy", ptNoisy(23, 200, 3, 0.1), false},
		{"3 classes", ptBlobs(24, 150, 3, 3, 0.6), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, _ := learning.Perceptron{Seed: 3, NoBias: tc.noBias, MaxEpochs: 15}.Fit(context.Background(), tc.d, nil)
			for _, cache := range []int{0, -1, 7} {
				k, err := learning.KernelPerceptron{Seed: 3, NoBias: tc.noBias, MaxEpochs: 15, CacheRows: cache}.Fit(context.Background(), tc.d, nil)
				if err != nil {
					t.Fatal(err)
				}
				ptSameRun(t, p, k)
				probe, _, _ := ptPlanted(99, 500, len(tc.d.X[0]), 0, false)
				for i, x := range probe.X {
					if a, b := p.Model.Predict(x), k.Model.Predict(x); a != b {
						t.Errorf("cache %d, probe %d: got class %d; want the perceptron's %d", cache, i, b, a)
					}
				}
				if tc.d.Classes == 2 {
					pm, km := p.Model.(learning.Margined).Margin(), k.Model.(learning.Margined).Margin()
					if math.Abs(pm-km) > 1e-9*math.Abs(pm) {
						t.Errorf("got margin %v; want the perceptron's %v", km, pm)
					}
				}
			}
		})
	}
}

func ptSameRun(t *testing.T, p, k *learning.Result) {
	t.Helper()
	if p.Updates != k.Updates || p.Epochs != k.Epochs || p.Status.Converged() != k.Status.Converged() {
		t.Fatalf("got %d mistakes in %d epochs (converged %v); want %d in %d (%v)", k.Updates, k.Epochs, k.Status.Converged(), p.Updates, p.Epochs, p.Status.Converged())
	}
	for i, e := range k.Curve {
		if e.Mistakes != p.Curve[i].Mistakes {
			t.Errorf("epoch %d: got %d mistakes; want %d", i+1, e.Mistakes, p.Curve[i].Mistakes)
		}
	}
}

// The kernel (x·z)² is the perceptron on Φ(x) = (x₁², x₂², √2·x₁x₂) (notes
// 004), with the bias as the same "+1" input in both, or without it.
func TestKernelPolynomialIsFeatureMap(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	phi := func(x []float64) []float64 { return []float64{x[0] * x[0], x[1] * x[1], math.Sqrt2 * x[0] * x[1]} }
	for _, tc := range []struct {
		name   string
		label  func(x []float64) bool
		noBias bool
	}{
		{"circle, bias", func(x []float64) bool { return x[0]*x[0]+x[1]*x[1] < 0.5 }, false},
		{"hyperbola, no bias", func(x []float64) bool { return x[0]*x[0]-2*x[1]*x[1]+x[0]*x[1] > 0 }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := &learning.Data{Classes: 2}
			mapped := &learning.Data{Classes: 2}
			for range 200 {
				x := []float64{2*r.Float64() - 1, 2*r.Float64() - 1}
				y := 0
				if tc.label(x) {
					y = 1
				}
				d.X, d.Y = append(d.X, x), append(d.Y, y)
				mapped.X, mapped.Y = append(mapped.X, phi(x)), append(mapped.Y, y)
			}
			p, _ := learning.Perceptron{Seed: 8, NoBias: tc.noBias, MaxEpochs: 30}.Fit(context.Background(), mapped, nil)
			k, err := learning.KernelPerceptron{Seed: 8, NoBias: tc.noBias, MaxEpochs: 30, Kernel: kernel.Polynomial{Degree: 2}}.Fit(context.Background(), d, nil)
			if err != nil {
				t.Fatal(err)
			}
			ptSameRun(t, p, k)
			for i, x := range d.X {
				if a, b := p.Model.Predict(phi(x)), k.Model.Predict(x); a != b {
					t.Errorf("row %d: got class %d; want %d", i, b, a)
				}
			}
		})
	}
}

// A Gaussian kernel separates XOR; the linear kernel cannot.
func TestKernelXOR(t *testing.T) {
	d := ptXOR(5)
	res, err := learning.KernelPerceptron{Kernel: kernel.Gaussian{Sigma: 0.5}, Seed: 1}.Fit(context.Background(), d, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Status.Converged() || ptErrors(res.Model, d) != 0 {
		t.Fatalf("got %q; want XOR learned", res.Summary)
	}
	sv, bounded := res.Model.(learning.SupportVectored).SupportVectors()
	if sv < 4 || sv > len(d.X) || bounded != 0 {
		t.Errorf("got %d stored mistakes (%d bounded); want between 4 and %d, 0 bounded", sv, bounded, len(d.X))
	}
	if m := res.Model.(learning.Margined).Margin(); !(m > 0) {
		t.Errorf("got margin %v; want > 0", m)
	}
}

// A budget bounds the stored mistakes of every machine.
func TestKernelBudget(t *testing.T) {
	d := ptBlobs(31, 300, 4, 3, 1.0)
	for _, budget := range []int{1, 5, 20} {
		res, err := learning.KernelPerceptron{Kernel: kernel.Laplace{Sigma: 2}, Budget: budget, MaxEpochs: 10, Seed: 2}.Fit(context.Background(), d, nil)
		if err != nil {
			t.Fatal(err)
		}
		km := res.Model.(*learning.KernelModel)
		for m, coef := range km.Coef {
			n := 0
			for _, c := range coef {
				if c != 0 {
					n++
				}
			}
			if n > budget {
				t.Errorf("budget %d, machine %d: got %d stored; want ≤ %d", budget, m, n, budget)
			}
		}
	}
}

func TestKernelRejectsBadKernel(t *testing.T) {
	_, err := learning.KernelPerceptron{Kernel: kernel.Gaussian{}}.Fit(context.Background(), ptXOR(1), nil)
	if err == nil {
		t.Error("got no error for σ = 0; want one")
	}
}

// On grey pictures (values b/255) the kernel perceptron's model scores a
// grey row from byte dot products; the scores equal the sum over its
// support vectors with the kernel's own Eval, to rounding.
func TestKernelGreyScoresMatchEval(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	d := &learning.Data{Classes: 3}
	for i := range 150 {
		x := make([]float64, 64)
		for k := range x {
			if rng.IntN(2) == 0 {
				x[k] = float64(rng.IntN(256)) / 255
			}
		}
		d.X = append(d.X, x)
		d.Y = append(d.Y, i%3)
	}
	k := kernel.Gaussian{Sigma: 2}
	res, err := learning.KernelPerceptron{Kernel: k, Seed: 1, MaxEpochs: 5}.Fit(context.Background(), d, nil)
	if err != nil {
		t.Fatal(err)
	}
	km := res.Model.(*learning.KernelModel)
	for _, x := range d.X[:20] {
		got := km.Scores(nil, x)
		for m := range km.Coef {
			var want float64
			for j, sv := range km.SV {
				want += km.Coef[m][j] * (k.Eval(sv, x) + 1)
			}
			if math.Abs(got[m]-want) > 1e-9*(1+math.Abs(want)) {
				t.Fatalf("machine %d: score %v, by Eval %v", m, got[m], want)
			}
		}
	}
}
