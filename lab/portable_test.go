package lab

import (
	"math"
	"math/big"
	"testing"

	"mark1/learning/kernel"
)

// TestExp checks the portable exp against math.Exp: within one unit in
// the last place over a wide range, and exact at the special values.
func TestExp(t *testing.T) {
	for x := -745.0; x <= 709; x += 0.37 {
		got, want := exp(x), math.Exp(x)
		if want != 0 && math.Abs(got-want) > 2*(math.Nextafter(want, math.Inf(1))-want) {
			t.Fatalf("exp(%v) = %v; math.Exp %v", x, got, want)
		}
	}
	for _, c := range []struct{ x, want float64 }{{0, 1}, {math.Inf(1), math.Inf(1)}, {math.Inf(-1), 0}, {800, math.Inf(1)}, {-800, 0}} {
		if got := exp(c.x); got != c.want {
			t.Errorf("exp(%v) = %v; want %v", c.x, got, c.want)
		}
	}
}

// TestExpULP checks the portable exp against the true value, computed
// with 256-bit math/big (Taylor series), within one unit in the last
// place over the range the kernels and the logistic loss use. (amd64's
// assembly math.Exp is off by up to 1.4 ulp there: it and exp may differ
// by 2, which TestExp allows.)
func TestExpULP(t *testing.T) {
	worst := 0.0
	for x := -40.0; x <= 40; x += 1.0 / 64 {
		got, want := exp(x), bigExp(x)
		ulp := math.Nextafter(want, math.Inf(1)) - want
		if d := math.Abs(got-want) / ulp; d > worst {
			worst = d
		}
	}
	if worst > 1 {
		t.Errorf("exp is %v ulp from the true value; want at most 1", worst)
	}
}

// bigExp returns e^x rounded to float64, summed as a Taylor series in
// 256-bit floats (e^x = 1/e^|x| for x < 0).
func bigExp(x float64) float64 {
	const prec = 256
	a := new(big.Float).SetPrec(prec).SetFloat64(math.Abs(x))
	sum := new(big.Float).SetPrec(prec).SetInt64(1)
	term := new(big.Float).SetPrec(prec).SetInt64(1)
	for n := int64(1); n < 400; n++ {
		term.Mul(term, a)
		term.Quo(term, new(big.Float).SetPrec(prec).SetInt64(n))
		sum.Add(sum, term)
	}
	if x < 0 {
		sum.Quo(new(big.Float).SetPrec(prec).SetInt64(1), sum)
	}
	f, _ := sum.Float64()
	return f
}

// TestPortableKernels checks the lab's kernels against package kernel's:
// the same kernel within a few ulp of 1 (they differ only in exp).
func TestPortableKernels(t *testing.T) {
	pts := [][]float64{{0, 0}, {1, 2}, {-1.5, 0.25}, {3, -2}, {0.1, 0.1}}
	for _, k := range []kernel.Kernel{
		kernel.Gaussian{Sigma: 1}, kernel.Gaussian{Sigma: 0.3}, kernel.Laplace{Sigma: 2},
		kernel.Sigmoid{Gamma: 0.5, Coef0: -1}, kernel.Sigmoid{Gamma: 0.1, Coef0: 0.2},
		kernel.Polynomial{Degree: 2, Gamma: 1, Coef0: 1}, kernel.Linear{},
	} {
		p := portable(k)
		if p.String() != k.String() {
			t.Errorf("portable(%v) is written %v", k, p)
		}
		for _, x := range pts {
			for _, z := range pts {
				got, want := p.Eval(x, z), k.Eval(x, z)
				if math.Abs(got-want) > 4e-16*math.Max(1, math.Abs(want)) {
					t.Errorf("%v(%v, %v) = %v; package kernel %v", k, x, z, got, want)
				}
			}
		}
	}
	for x := -30.0; x <= 30; x += 0.01 {
		if got, want := tanh(x), math.Tanh(x); math.Abs(got-want) > math.Nextafter(math.Abs(want), 2)-math.Abs(want) {
			t.Fatalf("tanh(%v) = %v; math.Tanh %v", x, got, want)
		}
	}
}
