// Package bytedot is the dot product of grey pictures stored as bytes
// (pixel values b/255), exact in integers, with an AVX2 kernel on amd64
// processors that have it. learning/svm and the kernel perceptron use it.
package bytedot

import "math"

// Scale turns a sum of byte products into the dot product of the values
// b/255: (Σ a_k b_k) / Scale.
const Scale = 255 * 255

// FromGrey reports whether every value of x is b/255 for a byte b, exactly
// as float64(b)/255 computes it, and if dst is not nil writes the bytes
// there (len(dst) ≥ len(x)).
func FromGrey(dst []uint8, x []float64) bool {
	for k, v := range x {
		b := math.Round(v * 255)
		if !(b >= 0 && b <= 255) || b/255 != v {
			return false
		}
		if dst != nil {
			dst[k] = uint8(b)
		}
	}
	return true
}

// Floats returns Σ x_k b_k over the bytes b of a grey row and a float64
// vector x (len(b) ≥ len(x)), summed in two alternating accumulators; the
// one rule for that sum, so that learning's Grey rows and the SVM's kernel
// rows agree to the last bit.
func Floats(x []float64, b []uint8) float64 {
	b = b[:len(x)]
	var s0, s1 float64
	n := len(x) &^ 1
	for k := 0; k < n; k += 2 {
		s0 += x[k] * float64(b[k])
		s1 += x[k+1] * float64(b[k+1])
	}
	if n < len(x) {
		s0 += x[n] * float64(b[n])
	}
	return s0 + s1
}

// maxAVX2Bytes is the longest row whose byte dot product the AVX2 kernel
// sums exactly in 32-bit lanes: 32768 · 255² < 2³¹.
const maxAVX2Bytes = 32768

// dotGo is the portable dot product of byte rows, with four accumulators.
func dotGo(a, b []uint8) int64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 int64
	n := len(a) &^ 3
	for k := 0; k < n; k += 4 {
		s0 += int64(a[k]) * int64(b[k])
		s1 += int64(a[k+1]) * int64(b[k+1])
		s2 += int64(a[k+2]) * int64(b[k+2])
		s3 += int64(a[k+3]) * int64(b[k+3])
	}
	for k := n; k < len(a); k++ {
		s0 += int64(a[k]) * int64(b[k])
	}
	return s0 + s1 + s2 + s3
}
