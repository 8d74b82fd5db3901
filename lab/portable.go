package lab

import (
	"math"

	"mark1/learning/kernel"
)

// exp is math.Exp computed the same way on every architecture: Go's own
// pure-Go algorithm (FreeBSD's e_exp.c), within 1 ulp of e^x (TestExpULP).
// math.Exp is assembly on amd64, arm64 and s390x and differs there in the
// last bits from the pure Go the WebAssembly build runs, and the static
// lab's traces must be those of mark1 lab byte for byte.
func exp(x float64) float64 {
	const (
		ln2Hi     = 6.93147180369123816490e-01
		ln2Lo     = 1.90821492927058770002e-10
		log2e     = 1.44269504088896338700e+00
		overflow  = 7.09782712893383973096e+02
		underflow = -7.45133219101941108420e+02
		nearZero  = 1.0 / (1 << 28)
	)
	switch {
	case math.IsNaN(x) || math.IsInf(x, 1):
		return x
	case math.IsInf(x, -1):
		return 0
	case x > overflow:
		return math.Inf(1)
	case x < underflow:
		return 0
	case -nearZero < x && x < nearZero:
		return 1 + x
	}
	var k int
	switch {
	case x < 0:
		k = int(log2e*x - 0.5)
	case x > 0:
		k = int(log2e*x + 0.5)
	}
	hi := x - float64(k)*ln2Hi
	lo := float64(k) * ln2Lo
	const (
		p1 = 1.66666666666666657415e-01
		p2 = -2.77777777770155933842e-03
		p3 = 6.61375632143793436117e-05
		p4 = -1.65339022054652515390e-06
		p5 = 4.13813679705723846039e-08
	)
	r := hi - lo
	t := r * r
	c := r - t*(p1+t*(p2+t*(p3+t*(p4+t*p5))))
	y := 1 - ((lo - (r*c)/(2-c)) - hi)
	return math.Ldexp(y, k)
}

// tanh is math.Tanh (Go's pure-Go algorithm, from Cephes) with the
// portable exp: math.Tanh calls math.Exp.
func tanh(x float64) float64 {
	const maxLog = 8.8029691931113054295988e+01 // log(2**127)
	z := math.Abs(x)
	switch {
	case z > 0.5*maxLog:
		if x < 0 {
			return -1
		}
		return 1
	case z >= 0.625:
		s := exp(2 * z)
		z = 1 - 2/(s+1)
		if x < 0 {
			z = -z
		}
	default:
		if x == 0 {
			return x
		}
		const (
			p0, p1, p2 = -9.64399179425052238628e-1, -9.92877231001918586564e1, -1.61468768441708447952e3
			q0, q1, q2 = 1.12811678491632931402e2, 2.23548839060100448583e3, 4.84406305325125486048e3
		)
		s := x * x
		z = x + x*s*((p0*s+p1)*s+p2)/(((s+q0)*s+q1)*s+q2)
	}
	return z
}

// The kernels that call exp, computed with the portable exp: the lab's
// learners see them through these (portable), so that its traces are the
// same on amd64 and in the static site's WebAssembly. Each differs from
// its package kernel twin only in exp (TestPortableKernels).
type (
	gaussianK struct{ kernel.Gaussian }
	laplaceK  struct{ kernel.Laplace }
	sigmoidK  struct{ kernel.Sigmoid }
)

func (k gaussianK) Eval(x, z []float64) float64 {
	return exp(-kernel.SqDist(x, z) / (2 * k.Sigma * k.Sigma))
}

func (k laplaceK) Eval(x, z []float64) float64 {
	return exp(-math.Sqrt(kernel.SqDist(x, z)) / k.Sigma)
}

func (k sigmoidK) Eval(x, z []float64) float64 {
	return tanh(k.Gamma*kernel.Dot(x, z) + k.Coef0)
}

// portable returns k computed the same way on every architecture: the
// kernels that call exp (Gaussian, rbf, Laplace, sigmoid) with the lab's
// exp; the others, which need only +, × and √, as they are.
func portable(k kernel.Kernel) kernel.Kernel {
	switch k := k.(type) {
	case kernel.Gaussian:
		return gaussianK{k}
	case kernel.Laplace:
		return laplaceK{k}
	case kernel.Sigmoid:
		return sigmoidK{k}
	}
	return k
}
