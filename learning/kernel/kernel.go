// Package kernel provides the kernel functions of the lecture notes and of
// LIBSVM: linear, polynomial, Gaussian (LIBSVM's rbf), Laplace and sigmoid.
// A kernel k(x, z) = Φ(x)·Φ(z) is an inner product in a feature space that
// is never built; the kernel perceptron and the SVM of package learning see
// the data only through it.
//
// A kernel is written one way everywhere (fit, compare, lab, the panel, model
// files): Parse reads a Spec, LIBSVM's words and the notes' alike —
// "linear", "poly:degree=2,gamma=1,coef0=1", "rbf:gamma=scale",
// "gaussian:sigma=2", "laplace:sigma=1", "sigmoid:gamma=0.1,coef0=0" — and
// Spec.Kernel turns it into a Kernel once the training data have given γ a
// value (scale or auto).
//
// Kernels are small value types. Their zero values are not usable except for
// Linear; build them with Parse or with a literal and check them with Validate.
// Eval panics if x and z differ in length (a programming error); bad parameters
// are reported by Parse and Validate as *param.FieldError values naming the
// parameter.
package kernel

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"mark1/internal/base/param"
)

// Kernel is a similarity k(x, z): positive semi-definite, except the
// sigmoid.
type Kernel interface {
	// Eval returns k(x, z). It panics if len(x) != len(z).
	Eval(x, z []float64) float64
	// String returns the kernel in the form Parse reads.
	String() string
}

// Linear is k(x, z) = x·z.
type Linear struct{}

// Polynomial is k(x, z) = (Gamma·x·z + Coef0)^Degree. A zero Gamma means 1, so
// the zero-Gamma form is the notes' (x·z + c)^d; LIBSVM calls the same kernel
// "polynomial" with its -g, -r and -d options.
type Polynomial struct {
	Degree int
	Gamma  float64
	Coef0  float64
}

// Gaussian is k(x, z) = exp(−‖x−z‖² / (2σ²)), the notes' form; in LIBSVM's
// terms it is the RBF kernel with γ = 1/(2σ²).
type Gaussian struct {
	Sigma float64
}

// Laplace is k(x, z) = exp(−‖x−z‖ / σ).
//
// The lecture slides print exp(−‖x−z‖/(2σ²)); that is the same family with a
// different parametrization, and we keep the usual exp(−‖x−z‖/σ) so that σ is
// a length in input units for both the Gaussian and the Laplace kernel.
type Laplace struct {
	Sigma float64
}

// Sigmoid is k(x, z) = tanh(Gamma·x·z + Coef0), LIBSVM's -t 3. It is not
// positive semi-definite for every Gamma and Coef0 (Lin and Lin 2003), so
// an SVM with it may stop at a point that is not the optimum; it is here
// because LIBSVM users ask for it.
type Sigmoid struct {
	Gamma float64
	Coef0 float64
}

// Dot returns x·z. It panics if the lengths differ.
func Dot(x, z []float64) float64 {
	if len(x) != len(z) {
		panic("kernel: vectors of different length")
	}
	var s float64
	for i, v := range x {
		s += v * z[i]
	}
	return s
}

// SqDist returns ‖x−z‖². It panics if the lengths differ.
func SqDist(x, z []float64) float64 {
	if len(x) != len(z) {
		panic("kernel: vectors of different length")
	}
	var s float64
	for i, v := range x {
		d := v - z[i]
		s += d * d
	}
	return s
}

// Eval returns x·z.
func (Linear) Eval(x, z []float64) float64 { return Dot(x, z) }

// Eval returns (Gamma·x·z + Coef0)^Degree.
func (k Polynomial) Eval(x, z []float64) float64 { return k.FromDot(Dot(x, z)) }

// FromDot returns the kernel value for inputs whose dot product x·z is d:
// (Gamma·d + Coef0)^Degree. Solvers that cache dot products use it.
func (k Polynomial) FromDot(d float64) float64 {
	g := k.Gamma
	if g == 0 {
		g = 1
	}
	return ipow(g*d+k.Coef0, k.Degree)
}

// Eval returns exp(−‖x−z‖² / (2σ²)).
func (k Gaussian) Eval(x, z []float64) float64 {
	return math.Exp(-SqDist(x, z) / (2 * k.Sigma * k.Sigma))
}

// Eval returns tanh(Gamma·x·z + Coef0).
func (k Sigmoid) Eval(x, z []float64) float64 { return k.FromDot(Dot(x, z)) }

// FromDot returns tanh(Gamma·d + Coef0) for inputs whose dot product is d.
func (k Sigmoid) FromDot(d float64) float64 { return math.Tanh(k.Gamma*d + k.Coef0) }

// Eval returns exp(−‖x−z‖ / σ).
func (k Laplace) Eval(x, z []float64) float64 {
	return math.Exp(-math.Sqrt(SqDist(x, z)) / k.Sigma)
}

func ipow(b float64, n int) float64 {
	r := 1.0
	for ; n > 0; n >>= 1 {
		if n&1 == 1 {
			r *= b
		}
		b *= b
	}
	return r
}

func (Linear) String() string { return "linear" }

func (k Polynomial) String() string {
	g := k.Gamma
	if g == 0 {
		g = 1
	}
	return fmt.Sprintf("poly:d=%d,gamma=%s,c=%s", k.Degree, ftoa(g), ftoa(k.Coef0))
}

func (k Gaussian) String() string { return "gaussian:sigma=" + ftoa(k.Sigma) }
func (k Laplace) String() string  { return "laplace:sigma=" + ftoa(k.Sigma) }
func (k Sigmoid) String() string {
	return "sigmoid:gamma=" + ftoa(k.Gamma) + ",coef0=" + ftoa(k.Coef0)
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// Validate reports whether k's parameters are in range, as a
// *param.FieldError naming the parameter ("degree", "gamma", "coef0",
// "sigma"): a polynomial degree from 1 to 20 and a finite Gamma ≥ 0; a
// finite, positive σ within [1e-150, 1e150]; a sigmoid's finite Gamma > 0.
func Validate(k Kernel) error {
	switch k := k.(type) {
	case Linear:
		return nil
	case Polynomial:
		if k.Degree < MinDegree || k.Degree > MaxDegree {
			return param.Errorf("degree", k.Degree, "a whole number in [%d, %d]", MinDegree, MaxDegree)
		}
		if k.Gamma < 0 || !finite(k.Gamma) {
			return param.Errorf("gamma", k.Gamma, "a finite number ≥ 0")
		}
		if !finite(k.Coef0) {
			return param.Errorf("coef0", k.Coef0, "a finite number")
		}
		return nil
	case Gaussian:
		return checkSigma(k.Sigma)
	case Laplace:
		return checkSigma(k.Sigma)
	case Sigmoid:
		if !(k.Gamma > 0) || !finite(k.Gamma) {
			return param.Errorf("gamma", k.Gamma, "a finite number > 0")
		}
		if !finite(k.Coef0) {
			return param.Errorf("coef0", k.Coef0, "a finite number")
		}
		return nil
	case nil:
		return &param.FieldError{Field: "kernel", Range: "a kernel (" + strings.Join(Names(), ", ") + ")"}
	}
	return nil
}

// Bounds of a kernel's parameters. Beyond the sigma bounds the kernel's
// scale, 1/(2σ²) or 1/σ, over- or underflows, and every kernel value is
// 0, 1 or NaN; the gamma bounds of the rbf kernel are the same, as γ =
// 1/(2σ²).
const (
	MinSigma  = 1e-150
	MaxSigma  = 1e150
	MinDegree = 1
	MaxDegree = 20
	minGamma  = 1 / (2 * MaxSigma * MaxSigma)
	maxGamma  = 1 / (2 * MinSigma * MinSigma)
)

func checkSigma(s float64) error {
	if !(s >= MinSigma && s <= MaxSigma) {
		return param.Errorf("sigma", s, "a number in [%g, %g]", float64(MinSigma), float64(MaxSigma))
	}
	return nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// FromDot returns k(x, z) from x·z = d, ‖x‖² = sqx and ‖z‖² = sqz for the
// kernels that are functions of them (Linear, Polynomial, Gaussian and
// Laplace, with ‖x−z‖² = sqx + sqz − 2d clamped at 0), so that a row of
// kernel values costs one dot product each with any storage of the vectors.
// ok is false for other kernels.
func FromDot(k Kernel, d, sqx, sqz float64) (v float64, ok bool) {
	switch k := k.(type) {
	case Linear:
		return d, true
	case Polynomial:
		return k.FromDot(d), true
	case Gaussian:
		return math.Exp(-max(sqx+sqz-2*d, 0) / (2 * k.Sigma * k.Sigma)), true
	case Laplace:
		return math.Exp(-math.Sqrt(max(sqx+sqz-2*d, 0)) / k.Sigma), true
	case Sigmoid:
		return k.FromDot(d), true
	}
	return 0, false
}
