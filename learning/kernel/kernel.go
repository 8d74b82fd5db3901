// Package kernel provides the kernel functions of the lecture notes: linear,
// polynomial, Gaussian and Laplace. A kernel k(x, z) = Φ(x)·Φ(z) is an inner
// product in a feature space that is never built; the kernel perceptron and the
// SVM of package learning see the data only through it.
//
// Kernels are small value types. Their zero values are not usable except for
// Linear; build them with Parse or with a literal and check them with Validate.
// Eval panics if x and z differ in length (a programming error); bad parameters
// from a user are reported by Parse and Validate as errors.
package kernel

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Kernel is a positive semi-definite similarity k(x, z).
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

// Sigmoid is k(x, z) = tanh(Gamma·x·z + Coef0), LIBSVM's "sigmoid" kernel
// (-t 3). It is not positive semi-definite for every Gamma and Coef0, so an
// SVM with it solves a non-convex problem (LIBSVM's solver copes, with a
// replacement for non-positive curvature); it is here for LIBSVM's users
// and models. Gamma must be > 0.
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

// Eval returns tanh(Gamma·x·z + Coef0).
func (k Sigmoid) Eval(x, z []float64) float64 { return k.FromDot(Dot(x, z)) }

// FromDot returns tanh(Gamma·d + Coef0) for x·z = d.
func (k Sigmoid) FromDot(d float64) float64 { return math.Tanh(k.Gamma*d + k.Coef0) }

// Eval returns exp(−‖x−z‖² / (2σ²)).
func (k Gaussian) Eval(x, z []float64) float64 {
	return math.Exp(-SqDist(x, z) / (2 * k.Sigma * k.Sigma))
}

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
	return "sigmoid:gamma=" + ftoa(k.Gamma) + ",c=" + ftoa(k.Coef0)
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// Validate reports whether k's parameters are in range: a polynomial degree
// from 1 to 20 and a non-negative Gamma; a finite, positive σ.
func Validate(k Kernel) error {
	switch k := k.(type) {
	case Linear:
		return nil
	case Polynomial:
		if k.Degree < 1 || k.Degree > 20 {
			return fmt.Errorf("kernel %s: degree %d out of range [1, 20]", k, k.Degree)
		}
		if k.Gamma < 0 || !finite(k.Gamma) || !finite(k.Coef0) {
			return fmt.Errorf("kernel %s: gamma must be finite and ≥ 0, c finite", k)
		}
		return nil
	case Gaussian:
		return checkSigma("gaussian", k.Sigma)
	case Laplace:
		return checkSigma("laplace", k.Sigma)
	case Sigmoid:
		if !(k.Gamma > 0) || !finite(k.Gamma) || !finite(k.Coef0) {
			return fmt.Errorf("kernel %s: gamma must be finite and > 0, c finite", k)
		}
		return nil
	case nil:
		return fmt.Errorf("kernel: none given")
	}
	return nil
}

// Bounds of a kernel's sigma: beyond them the kernel's scale, 1/(2σ²) or
// 1/σ, over- or underflows, and every kernel value is 0, 1 or NaN.
const (
	minSigma = 1e-150
	maxSigma = 1e150
)

func checkSigma(name string, s float64) error {
	if !(s >= minSigma && s <= maxSigma) {
		return fmt.Errorf("kernel %s: sigma %v out of range [%g, %g]", name, s, float64(minSigma), float64(maxSigma))
	}
	return nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// Parse reads a kernel specification: "linear"; "poly:d=2,c=1" (optionally
// gamma=…; defaults d=2, gamma=1, c=0); "gaussian:sigma=2" (alias "rbf", or
// gamma=… in LIBSVM's terms, σ = 1/√(2γ); default σ=1); "laplace:sigma=1";
// "sigmoid:gamma=0.5,c=0" (LIBSVM's tanh(γ x·z + coef0); defaults gamma=1,
// c=0).
func Parse(spec string) (Kernel, error) {
	name, args, _ := strings.Cut(strings.TrimSpace(spec), ":")
	params := map[string]float64{}
	if args != "" {
		for _, kv := range strings.Split(args, ",") {
			key, val, ok := strings.Cut(kv, "=")
			if !ok {
				return nil, fmt.Errorf("kernel %q: parameter %q is not key=value", spec, kv)
			}
			v, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
			if err != nil || !finite(v) {
				return nil, fmt.Errorf("kernel %q: parameter %s: %q is not a finite number", spec, key, val)
			}
			params[strings.ToLower(strings.TrimSpace(key))] = v
		}
	}
	allow := func(keys ...string) error {
		for k := range params {
			found := false
			for _, a := range keys {
				found = found || k == a
			}
			if !found {
				return fmt.Errorf("kernel %q: unknown parameter %q (want %s)", spec, k, strings.Join(keys, ", "))
			}
		}
		return nil
	}
	get := func(key string, def float64) float64 {
		if v, ok := params[key]; ok {
			return v
		}
		return def
	}
	var k Kernel
	var err error
	switch strings.ToLower(name) {
	case "linear":
		err = allow()
		k = Linear{}
	case "poly", "polynomial":
		err = allow("d", "degree", "c", "coef0", "gamma")
		d := get("d", get("degree", 2))
		if d != math.Trunc(d) {
			return nil, fmt.Errorf("kernel %q: degree must be a whole number", spec)
		}
		k = Polynomial{Degree: int(d), Gamma: get("gamma", 1), Coef0: get("c", get("coef0", 0))}
	case "gaussian", "rbf":
		err = allow("sigma", "gamma")
		s := get("sigma", 1)
		if g, ok := params["gamma"]; ok {
			if !(g > 0) {
				return nil, fmt.Errorf("kernel %q: gamma must be > 0", spec)
			}
			s = 1 / math.Sqrt(2*g)
		}
		k = Gaussian{Sigma: s}
	case "laplace":
		err = allow("sigma")
		k = Laplace{Sigma: get("sigma", 1)}
	case "sigmoid":
		err = allow("gamma", "c", "coef0")
		k = Sigmoid{Gamma: get("gamma", 1), Coef0: get("c", get("coef0", 0))}
	default:
		return nil, fmt.Errorf("unknown kernel %q (want linear, poly, gaussian, laplace or sigmoid)", name)
	}
	if err != nil {
		return nil, err
	}
	if err := Validate(k); err != nil {
		return nil, err
	}
	return k, nil
}

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
