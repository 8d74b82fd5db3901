package kernel

import (
	"errors"
	"math"
	"testing"

	"mark1/internal/base/param"
)

func TestParse(t *testing.T) {
	tests := []struct {
		spec     string
		dim      int     // of the data, for gamma scale and auto
		variance float64 // of the data's values
		want     Kernel
		gamma    float64 // LIBSVM's γ the kernel uses (0: none)
		field    string  // the parameter a bad spec is refused for
	}{
		{spec: "linear", want: Linear{}},
		{spec: "poly:d=2,gamma=1", want: Polynomial{Degree: 2, Gamma: 1}, gamma: 1},
		{spec: "poly:degree=3,g=1,c=1", want: Polynomial{Degree: 3, Gamma: 1, Coef0: 1}, gamma: 1},
		// LIBSVM's defaults: degree 3, γ = scale, coef0 0.
		{spec: "poly", dim: 4, variance: 0.5, want: Polynomial{Degree: 3, Gamma: 0.5}, gamma: 0.5},
		{spec: "polynomial:gamma=auto", dim: 4, want: Polynomial{Degree: 3, Gamma: 0.25}, gamma: 0.25},
		{spec: "gaussian:sigma=2", want: Gaussian{Sigma: 2}},
		{spec: "rbf:gamma=0.5", want: Gaussian{Sigma: 1}, gamma: 0.5},
		{spec: "rbf:sigma=3", want: Gaussian{Sigma: 3}},
		{spec: "gaussian:gamma=0.125", want: Gaussian{Sigma: 2}, gamma: 0.125},
		{spec: "rbf", dim: 2, variance: 1, want: Gaussian{Sigma: 1}, gamma: 0.5},
		{spec: "rbf:gamma=scale", dim: 8, variance: 0, want: Gaussian{Sigma: 2}, gamma: 0.125}, // variance 0: 1/features
		{spec: "gaussian", dim: 2, variance: 0.25, want: Gaussian{Sigma: 0.5}, gamma: 2},
		{spec: "laplace:sigma=3", want: Laplace{Sigma: 3}},
		{spec: "laplace", want: Laplace{Sigma: 1}},
		{spec: "sigmoid:gamma=0.5,coef0=-1", want: Sigmoid{Gamma: 0.5, Coef0: -1}, gamma: 0.5},
		{spec: "sigmoid", dim: 10, want: Sigmoid{Gamma: 0.1}, gamma: 0.1},
		{spec: "poly:d=0", field: "kernel.degree"},
		{spec: "poly:d=2.5", field: "kernel.degree"},
		{spec: "poly:d=21", field: "kernel.degree"},
		{spec: "poly:c=NaN", field: "kernel.coef0"},
		{spec: "gaussian:sigma=-1", field: "kernel.sigma"},
		{spec: "gaussian:sigma=0", field: "kernel.sigma"},
		{spec: "gaussian:sigma=NaN", field: "kernel.sigma"},
		{spec: "gaussian:sigma=1e-160", field: "kernel.sigma"}, // 1/(2σ²) overflows
		{spec: "gaussian:sigma=1e160", field: "kernel.sigma"},  // 1/(2σ²) underflows to 0
		{spec: "rbf:gamma=1e308", field: "kernel.gamma"},
		{spec: "rbf:gamma=0", field: "kernel.gamma"},
		{spec: "rbf:gamma=often", field: "kernel.gamma"},
		{spec: "rbf:gamma=1,sigma=1", field: "kernel"},
		{spec: "laplace:sigma=1e-320", field: "kernel.sigma"},
		{spec: "gaussian:sigma=1e-150", want: Gaussian{Sigma: 1e-150}},
		{spec: "gaussian:width=1", field: "kernel"},
		{spec: "linear:gamma=1", field: "kernel"},
		{spec: "tanh", field: "kernel"},
		{spec: "poly:d", field: "kernel"},
		{spec: "poly:d=2,d=3", field: "kernel"},
	}
	for _, tt := range tests {
		s, err := Parse(tt.spec)
		var got Kernel
		var g float64
		if err == nil {
			got, g, err = s.Kernel(tt.dim, tt.variance)
		}
		if tt.field != "" {
			var fe *param.FieldError
			if !errors.As(err, &fe) || fe.Field != tt.field {
				t.Errorf("Parse(%q) = %v, %v; want a field error for %q", tt.spec, got, err, tt.field)
			}
			continue
		}
		if err != nil || got != tt.want || math.Abs(g-tt.gamma) > 1e-15 {
			t.Errorf("Parse(%q) = %v (γ %v), %v; want %v (γ %v)", tt.spec, got, g, err, tt.want, tt.gamma)
			continue
		}
		// A Spec's word reads back to the same Spec, and a Kernel's word
		// (as model files store it) to the same Kernel.
		if back, err := Parse(s.String()); err != nil || back != s {
			t.Errorf("Parse(%q.String() = %q) = %+v, %v; want %+v", tt.spec, s.String(), back, err, s)
		}
		if back, err := ParseKernel(got.String()); err != nil || back != got {
			t.Errorf("ParseKernel(%q) = %v, %v; want %v", got.String(), back, err, got)
		}
	}
}

// The options' gamma, degree and coef0 fill what a kernel word does not
// write, and a value given both ways is refused.
func TestParseWith(t *testing.T) {
	p := Params{Gamma: Gamma{Value: 2}, Degree: 2, Coef0: 1}
	s, err := ParseWith("poly", p)
	if err != nil {
		t.Fatal(err)
	}
	if k, _, _ := s.Kernel(1, 1); k != (Polynomial{Degree: 2, Gamma: 2, Coef0: 1}) {
		t.Errorf("poly with options %+v = %v", p, k)
	}
	if _, err := ParseWith("poly:degree=4", p); err == nil {
		t.Error("degree given by the word and by the options: no error")
	}
	if _, err := ParseWith("poly:degree=2,gamma=2", p); err != nil {
		t.Errorf("the same value both ways: %v", err)
	}
	if _, err := ParseWith("poly:degree=5", DefaultParams()); err != nil {
		t.Errorf("the word over the default: %v", err)
	}
}

func TestSigmoidIsLIBSVMs(t *testing.T) {
	x, z := []float64{1, 2}, []float64{3, -1}
	k := Sigmoid{Gamma: 0.3, Coef0: -0.5}
	if got, want := k.Eval(x, z), math.Tanh(0.3*1-0.5); math.Abs(got-want) > 1e-15 {
		t.Errorf("sigmoid = %v; want tanh(γ x·z + coef0) = %v", got, want)
	}
	if v, ok := FromDot(k, 1, 5, 10); !ok || v != k.Eval(x, z) {
		t.Errorf("FromDot = %v, %v; want %v", v, ok, k.Eval(x, z))
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"linear", "poly:d=2,gamma=1,c=1", "rbf:gamma=scale", "gaussian:sigma=2", "laplace", "sigmoid:gamma=auto,coef0=1", "rbf:gamma=1e308"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, word string) {
		s, err := Parse(word)
		if err != nil {
			if param.As(err) == nil {
				t.Fatalf("Parse(%q): %v is not a field error", word, err)
			}
			return
		}
		back, err := Parse(s.String())
		if err != nil || back != s {
			t.Fatalf("Parse(%q) = %+v; its word %q reads back as %+v, %v", word, s, s.String(), back, err)
		}
		k, _, err := s.Kernel(3, 0.5)
		if err != nil {
			return
		}
		kk, err := ParseKernel(k.String())
		if err != nil || kk != k {
			t.Fatalf("kernel %v: its word reads back as %v, %v", k, kk, err)
		}
	})
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

// TestUses: the parameters each family reads, as LIBSVM's svm-train
// documents them (-d "set degree in kernel function", -g "set gamma in
// kernel function", -r "set coef0 in kernel function" for the kernels
// whose formulas hold them).
func TestUses(t *testing.T) {
	for _, tt := range []struct {
		word                 string
		gamma, degree, coef0 bool
	}{
		{"linear", false, false, false},
		{"poly", true, true, true},
		{"rbf", true, false, false},
		{"sigmoid", true, false, true},
		{"gaussian:sigma=2", false, false, false},
		{"laplace:sigma=2", false, false, false},
	} {
		s, err := Parse(tt.word)
		if err != nil {
			t.Fatal(err)
		}
		got := [3]bool{s.Uses("gamma"), s.Uses("degree"), s.Uses("coef0")}
		if want := [3]bool{tt.gamma, tt.degree, tt.coef0}; got != want || s.Uses("C") || s.Uses("gamma") != s.UsesGamma() {
			t.Errorf("%s: uses gamma, degree, coef0 = %v; want %v (and nothing else)", tt.word, got, want)
		}
	}
}
