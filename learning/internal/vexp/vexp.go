// Package vexp is math.Exp over a slice, four values a step with AVX2 and
// FMA on amd64 processors that have them: the same operations as the
// standard library's amd64 assembly (Shibata's method, the FMA path)
// lane by lane, so that every result is math.Exp's, bit for bit. The
// Gaussian and Laplace kernel rows and predictions of learning/svm take an
// exponential per entry through it.
package vexp

import "math"

// Exp sets x[k] = math.Exp(x[k]) for every k, bit for bit. Values outside
// [-708, 709] (where the result may be subnormal or overflow) and NaNs are
// passed to math.Exp one at a time.
func Exp(x []float64) {
	for len(x) >= 4 {
		n := expAVX2(x)
		x = x[n:]
		if len(x) < 4 {
			break
		}
		// the next four hold a value out of the vector range (or the
		// processor has no AVX2 and FMA)
		for k := range 4 {
			x[k] = math.Exp(x[k])
		}
		x = x[4:]
	}
	for k, v := range x {
		x[k] = math.Exp(v)
	}
}
