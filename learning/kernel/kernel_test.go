package kernel

import (
	"math"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		spec string
		want Kernel
		bad  bool
	}{
		{spec: "linear", want: Linear{}},
		{spec: "poly:d=2", want: Polynomial{Degree: 2, Gamma: 1}},
		{spec: "poly:d=3,c=1", want: Polynomial{Degree: 3, Gamma: 1, Coef0: 1}},
		{spec: "gaussian:sigma=2", want: Gaussian{Sigma: 2}},
		{spec: "rbf:gamma=0.5", want: Gaussian{Sigma: 1}},
		{spec: "laplace:sigma=3", want: Laplace{Sigma: 3}},
		{spec: "poly:d=0", bad: true},
		{spec: "poly:d=2.5", bad: true},
		{spec: "gaussian:sigma=-1", bad: true},
		{spec: "gaussian:sigma=0", bad: true},
		{spec: "gaussian:sigma=NaN", bad: true},
		{spec: "gaussian:sigma=1e-160", bad: true}, // 1/(2σ²) overflows
		{spec: "gaussian:sigma=1e160", bad: true},  // 1/(2σ²) underflows to 0
		{spec: "rbf:gamma=1e308", bad: true},
		{spec: "laplace:sigma=1e-320", bad: true},
		{spec: "gaussian:sigma=1e-150", want: Gaussian{Sigma: 1e-150}},
		{spec: "gaussian:width=1", bad: true},
		{spec: "sigmoid", want: Sigmoid{Gamma: 1}},
		{spec: "sigmoid:gamma=0.5,c=-1", want: Sigmoid{Gamma: 0.5, Coef0: -1}},
		{spec: "sigmoid:gamma=0", bad: true},
		{spec: "cosine", bad: true},
		{spec: "poly:d", bad: true},
	}
	for _, tt := range tests {
		got, err := Parse(tt.spec)
		if tt.bad {
			if err == nil {
				t.Errorf("Parse(%q) = %v; want an error", tt.spec, got)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Parse(%q) = %v, %v; want %v", tt.spec, got, err, tt.want)
			continue
		}
		back, err := Parse(got.String())
		if err != nil || back != got {
			t.Errorf("Parse(%q.String()) = %v, %v; want round trip", tt.spec, back, err)
		}
	}
}

func TestEval(t *testing.T) {
	x, z := []float64{1, 2}, []float64{3, -1}
	tests := []struct {
		k    Kernel
		want float64
	}{
		{Linear{}, 1},
		{Polynomial{Degree: 2, Coef0: 1}, 4},
		{Polynomial{Degree: 3, Gamma: 2}, 8},
		{Gaussian{Sigma: 1}, math.Exp(-13.0 / 2)},
		{Laplace{Sigma: 2}, math.Exp(-math.Sqrt(13) / 2)},
	}
	for _, tt := range tests {
		if got := tt.k.Eval(x, z); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%v.Eval = %v; want %v", tt.k, got, tt.want)
		}
	}
}

// The degree-2 kernel (x·z)² is the inner product of the notes' explicit
// feature map Φ(x) = (x1², x2², √2·x1·x2).
func TestPolynomialFeatureMap(t *testing.T) {
	phi := func(x []float64) []float64 {
		return []float64{x[0] * x[0], x[1] * x[1], math.Sqrt2 * x[0] * x[1]}
	}
	k := Polynomial{Degree: 2}
	pts := [][]float64{{1, 2}, {-0.5, 3}, {0, 0}, {2.5, -1.25}}
	for _, x := range pts {
		for _, z := range pts {
			if got, want := k.Eval(x, z), Dot(phi(x), phi(z)); math.Abs(got-want) > 1e-12 {
				t.Errorf("k(%v,%v) = %v; Φ·Φ = %v", x, z, got, want)
			}
		}
	}
}
