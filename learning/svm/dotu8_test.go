package svm

import (
	"math"
	"math/rand/v2"
	"testing"

	"mark1/learning"
	"mark1/learning/kernel"
)

// dotU8 (AVX2 where the processor has it) equals the plain sum for every
// length around the kernel's 16- and 32-byte steps, for random bytes and
// for all 255s (the largest partial sums).
func TestDotU8(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 15, 16, 17, 31, 32, 33, 47, 48, 63, 64, 400, 401, 784, 4099, maxAVX2Bytes, maxAVX2Bytes + 1} {
		for _, full := range []bool{false, true} {
			a, b := make([]uint8, n), make([]uint8, n+3)
			for k := range a {
				a[k], b[k] = uint8(rng.UintN(256)), uint8(rng.UintN(256))
				if full {
					a[k], b[k] = 255, 255
				}
			}
			var want int64
			for k := range a {
				want += int64(a[k]) * int64(b[k])
			}
			if got := dotU8(a, b); got != want {
				t.Errorf("n=%d full=%v: dotU8 = %d, want %d", n, full, got, want)
			}
			if got := dotU8Go(a, b); got != want {
				t.Errorf("n=%d full=%v: dotU8Go = %d, want %d", n, full, got, want)
			}
		}
	}
}

func BenchmarkDotU8(b *testing.B) {
	x, y := make([]uint8, 400), make([]uint8, 400)
	for k := range x {
		x[k], y[k] = uint8(k), uint8(3*k)
	}
	var s int64
	for b.Loop() {
		s += dotU8(x, y)
	}
	_ = s
}

func BenchmarkDotF64(b *testing.B) {
	x, y := make([]float64, 400), make([]float64, 400)
	for k := range x {
		x[k], y[k] = float64(k), float64(3*k)
	}
	var s float64
	for b.Loop() {
		s += dot(x, y)
	}
	_ = s
}

// On grey pictures (bytes over 255) the byte layout is chosen and its
// kernel rows equal the dense layout's to rounding.
func TestBytesLayoutMatchesDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	X := make([][]float64, 50)
	for i := range X {
		X[i] = make([]float64, 400)
		for k := range X[i] {
			if rng.IntN(3) > 0 {
				X[i][k] = float64(rng.IntN(256)) / 255
			}
		}
	}
	r := learning.NewDense(X)
	g := newGram(r, nil, kernel.Gaussian{Sigma: 3})
	if g.v.layout != layoutBytes {
		t.Fatalf("layout %d, want bytes", g.v.layout)
	}
	dense := newGram(r, nil, kernel.Gaussian{Sigma: 3})
	dense.v = newVectors(r, nil, layoutDense, false)
	y := make([]int8, len(X))
	for i := range y {
		y[i] = 1
	}
	a, b := make([]float32, len(X)), make([]float32, len(X))
	want, got := make([]float64, len(X)), make([]float64, len(X))
	for i := range X {
		g.row(a, y, i, 0)
		dense.row(b, y, i, 0)
		g.evalAll(got, X[i], nil)
		dense.evalAll(want, X[i], nil)
		for j := range a {
			if math.Abs(float64(a[j]-b[j])) > 1e-6 || math.Abs(got[j]-want[j]) > 1e-12 {
				t.Fatalf("K(%d, %d): bytes %v / %v, dense %v / %v", i, j, a[j], got[j], b[j], want[j])
			}
		}
	}
}
