package bytedot

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Dot (AVX2 where the processor has it) equals the plain sum for every
// length around the kernel's 16- and 32-byte steps, for random bytes and
// for all 255s (the largest partial sums).
func TestDot(t *testing.T) {
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
			if got := Dot(a, b); got != want {
				t.Errorf("n=%d full=%v: Dot = %d, want %d", n, full, got, want)
			}
			if got := dotGo(a, b); got != want {
				t.Errorf("n=%d full=%v: dotGo = %d, want %d", n, full, got, want)
			}
		}
	}
}

func BenchmarkDot(b *testing.B) {
	x, y := make([]uint8, 400), make([]uint8, 400)
	for k := range x {
		x[k], y[k] = uint8(k), uint8(3*k)
	}
	var s int64
	for b.Loop() {
		s += Dot(x, y)
	}
	_ = s
}

func TestFromGrey(t *testing.T) {
	for _, tc := range []struct {
		x    []float64
		want bool
	}{
		{[]float64{0, 1, 128.0 / 255}, true},
		{[]float64{0.5}, false},
		{[]float64{-1}, false},
		{[]float64{2}, false},
		{[]float64{math.Nextafter(128.0/255, 1)}, false}, // one ulp off
	} {
		dst := make([]uint8, len(tc.x))
		if got := FromGrey(dst, tc.x); got != tc.want {
			t.Errorf("FromGrey(%v) = %v, want %v", tc.x, got, tc.want)
		}
	}
}
