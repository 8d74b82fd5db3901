package f32dot

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// exactDot is Σ a[k]·b[k] summed exactly (big.Float) and rounded once.
func exactDot(a, b []float32) (sum, abs float64) {
	s := new(big.Float).SetPrec(2048)
	for k := range a {
		p := float64(a[k]) * float64(b[k]) // exact: 24+24 bits
		s.Add(s, big.NewFloat(p))
		abs += math.Abs(p)
	}
	sum, _ = s.Float64()
	return sum, abs
}

// Dot (AVX2 where the processor has it) and the portable dotGo agree with
// the exact sum to within the rounding of a float32 sum of a chunk
// (Chunk·2⁻²⁴ of Σ|a_k b_k|, far more than is ever seen), for every length
// around the kernel's 8- and 32-entry steps and the chunk length, for
// values of mixed signs and magnitudes.
func TestDot(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 7, 8, 9, 31, 32, 33, 39, 40, 63, 64, 65, 400, 401, 784, Chunk - 1, Chunk, Chunk + 1, Chunk + 9, 3*Chunk + 17} {
		for _, scale := range []float64{1, 1e-3, 1e6} {
			a, b := make([]float32, n), make([]float32, n+5)
			for k := range a {
				a[k] = float32(scale * rng.NormFloat64())
				b[k] = float32(rng.Float64())
			}
			want, abs := exactDot(a, b)
			tol := abs * 64 * 0x1p-24
			for name, got := range map[string]float64{"Dot": Dot(a, b), "dotGo": dotGo(a, b)} {
				if math.Abs(got-want) > tol {
					t.Errorf("n=%d scale=%g: %s = %v, want %v ± %g", n, scale, name, got, want, tol)
				}
			}
		}
	}
}

// Small integers are summed exactly on every path, and a row's dot product
// with itself is the same number whichever copy of the row is read.
func TestDotExactIntegers(t *testing.T) {
	for _, n := range []int{5, 8, 40, 400, 2*Chunk + 3} {
		a, b := make([]float32, n), make([]float32, n)
		var want float64
		for k := range a {
			a[k], b[k] = float32(k%13-6), float32(k%7)
			want += float64(a[k]) * float64(b[k])
		}
		if got := Dot(a, b); got != want {
			t.Errorf("n=%d: Dot = %v, want %v", n, got, want)
		}
		c := append([]float32(nil), a...)
		if Dot(a, a) != Dot(c, c) || Dot(a, c) != Dot(a, a) {
			t.Errorf("n=%d: Dot depends on the copy of the row", n)
		}
	}
}

// Dots gives Dot's number for every row, bit for bit, for every count of
// rows (pairs and a single one) and lengths around the steps and the chunk.
func TestDots(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{0, 3, 8, 13, 32, 40, 400, 401, Chunk, Chunk + 8} {
		x := make([]float32, n)
		for k := range x {
			x[k] = float32(rng.NormFloat64())
		}
		for _, count := range []int{0, 1, 2, 3, 7} {
			rows := make([][]float32, count)
			for r := range rows {
				rows[r] = make([]float32, n+r%2)
				for k := range rows[r] {
					rows[r][k] = float32(rng.Float64())
				}
			}
			dst := make([]float64, count)
			Dots(dst, x, rows)
			for r, row := range rows {
				if want := Dot(x, row); dst[r] != want {
					t.Errorf("n=%d, %d rows: Dots[%d] = %v, Dot %v", n, count, r, dst[r], want)
				}
			}
		}
	}
}

func TestExact(t *testing.T) {
	for _, tc := range []struct {
		x    []float64
		want bool
	}{
		{[]float64{0, 1, 0.5, -3}, true},
		{[]float64{float64(float32(0.1))}, true},
		{[]float64{0.1}, false},
		{[]float64{1e300}, false},
	} {
		if got := Exact(tc.x); got != tc.want {
			t.Errorf("Exact(%v) = %v, want %v", tc.x, got, tc.want)
		}
	}
}

// benchRows is the benchmarks' x and 2000 rows, of 400 features each.
func benchRows() ([]float32, [][]float32) {
	x := make([]float32, 400)
	rows := make([][]float32, 2000)
	for r := range rows {
		rows[r] = make([]float32, 400)
		for k := range x {
			x[k], rows[r][k] = float32(k)/400, float32(3*k+r)/400
		}
	}
	return x, rows
}

func BenchmarkDots(b *testing.B) {
	x, rows := benchRows()
	dst := make([]float64, len(rows))
	for b.Loop() {
		Dots(dst, x, rows)
	}
}

func BenchmarkDotLoop(b *testing.B) {
	x, rows := benchRows()
	dst := make([]float64, len(rows))
	for b.Loop() {
		for r, row := range rows {
			dst[r] = Dot(x, row)
		}
	}
}

func BenchmarkDot(b *testing.B) {
	x, y := make([]float32, 400), make([]float32, 400)
	for k := range x {
		x[k], y[k] = float32(k)/400, float32(3*k)/400
	}
	var s float64
	for b.Loop() {
		s += Dot(x, y)
	}
	_ = s
}
