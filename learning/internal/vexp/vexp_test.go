package vexp

import (
	"math"
	"math/rand/v2"
	"testing"
)

// check runs Exp on a copy of x and compares every result with math.Exp,
// bit for bit.
func check(t *testing.T, x []float64) {
	t.Helper()
	got := append([]float64(nil), x...)
	Exp(got)
	for k, v := range x {
		if want := math.Exp(v); math.Float64bits(got[k]) != math.Float64bits(want) && !(math.IsNaN(want) && math.IsNaN(got[k])) {
			t.Fatalf("Exp(%v) at %d = %v (%#x), math.Exp = %v (%#x)", v, k, got[k], math.Float64bits(got[k]), want, math.Float64bits(want))
		}
	}
}

func TestExpMatchesMath(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for _, tc := range []struct {
		name   string
		lo, hi float64
	}{
		{"kernel values", -40, 0},
		{"near zero", -1e-6, 1e-6},
		{"wide", -720, 720},
		{"vector range edges", -709, -707},
		{"overflow edge", 708, 711},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := make([]float64, 100_003)
			for k := range x {
				x[k] = tc.lo + (tc.hi-tc.lo)*r.Float64()
			}
			check(t, x)
		})
	}
	special := []float64{0, math.Copysign(0, -1), 1, -1, -708, 709, math.Nextafter(-708, -1000), math.Nextafter(709, 1000),
		-708.4, -708.5, -709, -745, -746, -800, 709.78, 709.79, 710, 1e-300, -1e-300, 5e-324,
		math.NaN(), math.Inf(1), math.Inf(-1), math.MaxFloat64, -math.MaxFloat64, 0.5 * math.Ln2, -0.5 * math.Ln2}
	t.Run("special values", func(t *testing.T) {
		check(t, special)
		// every special value in every lane of a block of ordinary ones
		for _, v := range special {
			for lane := range 4 {
				x := []float64{-1, -2, -3, -4, -5, -6, -7, -8, -9}
				x[4+lane] = v
				check(t, x)
			}
		}
	})
	t.Run("lengths", func(t *testing.T) {
		for n := range 13 {
			x := make([]float64, n)
			for k := range x {
				x[k] = -float64(k) / 3
			}
			check(t, x)
		}
	})
}

func FuzzExp(f *testing.F) {
	f.Add(-1.5, 0.25, -708.0, 709.5)
	f.Add(math.Inf(-1), 0.0, -745.2, 1e-9)
	f.Fuzz(func(t *testing.T, a, b, c, d float64) {
		check(t, []float64{a, b, c, d, a, b, c, d, b})
	})
}

func BenchmarkExp(b *testing.B) {
	x := make([]float64, 4096)
	y := make([]float64, len(x))
	for k := range x {
		x[k] = -float64(k) / 512
	}
	b.Run("vexp", func(b *testing.B) {
		for b.Loop() {
			copy(y, x)
			Exp(y)
		}
	})
	b.Run("math", func(b *testing.B) {
		for b.Loop() {
			for k, v := range x {
				y[k] = math.Exp(v)
			}
		}
	})
}
