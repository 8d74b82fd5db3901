package svm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"mark1/learning"
)

// sparseRow returns a row of nnz increasing indices below dim and random
// values (signs mixed, magnitudes far apart, so that the order of the sums
// shows).
func sparseRow(rng *rand.Rand, dim, nnz int) ([]int32, []float64) {
	perm := rng.Perm(dim)[:nnz]
	idx := make([]int32, 0, nnz)
	for j := range dim {
		for _, p := range perm {
			if p == j {
				idx = append(idx, int32(j))
			}
		}
	}
	val := make([]float64, nnz)
	for k := range val {
		val[k] = (rng.Float64() - 0.3) * math.Pow(10, float64(rng.IntN(12)-6))
	}
	return idx, val
}

// dotAt gives the Go loop's value to the bit, at every length.
func TestDotAtSameAsScalar(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const dim = 64
	for n := range 200 {
		widx, wval := sparseRow(rng, dim, rng.IntN(dim+1))
		w := make([]float64, dim)
		for k, j := range widx {
			w[j] = wval[k]
		}
		idx, val := sparseRow(rng, dim, n%(dim+1))
		want := dotAtGo(w, idx, val)
		if got := dotAt(w, idx, val); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("%d non-zeros: dotAt %v, the Go loop %v", len(idx), got, want)
		}
	}
	// dotsAt, rows of 0/1 values (nil) among them
	for range 20 {
		w := make([]float64, dim)
		for k := range w {
			w[k] = rng.Float64() - 0.5
		}
		m := rng.IntN(12)
		dst := make([]float64, m)
		idx := make([][]int32, m)
		val := make([][]float64, m)
		for r := range m {
			idx[r], val[r] = sparseRow(rng, dim, rng.IntN(dim+1))
			if rng.IntN(4) == 0 {
				val[r] = nil
			}
		}
		dotsAt(dst, w, idx, val)
		for r := range m {
			want := sumAt(w, idx[r])
			if val[r] != nil {
				want = dotAtGo(w, idx[r], val[r])
			}
			if math.Float64bits(dst[r]) != math.Float64bits(want) {
				t.Fatalf("dotsAt row %d of %d: %v, the Go loop %v", r, m, dst[r], want)
			}
		}
	}
}

// BenchmarkDotAt is sparse dot products of 12 and 106 non-zeros (106: 20x20
// digits, a quarter non-zero) against a scattered row of 400 features, 512
// rows: one call a row (dotAt, and its Go loop) and a kernel row's call
// (dotsAt).
func BenchmarkDotAt(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	const dim, rows = 400, 512
	for _, nnz := range []int{12, 106} {
		w := make([]float64, dim)
		widx, wval := sparseRow(rng, dim, nnz)
		for k, j := range widx {
			w[j] = wval[k]
		}
		idx := make([][]int32, rows)
		val := make([][]float64, rows)
		for r := range rows {
			idx[r], val[r] = sparseRow(rng, dim, nnz)
		}
		dst := make([]float64, rows)
		perDot := func(b *testing.B) {
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*rows), "ns/dot")
		}
		for _, c := range []struct {
			name string
			f    func([]float64, []int32, []float64) float64
		}{{"dotAt", dotAt}, {"go", dotAtGo}} {
			b.Run(fmt.Sprintf("%s/nnz=%d", c.name, nnz), func(b *testing.B) {
				for b.Loop() {
					for r := range rows {
						dst[r] = c.f(w, idx[r], val[r])
					}
				}
				perDot(b)
			})
		}
		b.Run(fmt.Sprintf("dotsAt/nnz=%d", nnz), func(b *testing.B) {
			for b.Loop() {
				dotsAt(dst, w, idx, val)
			}
			perDot(b)
		})
	}
}

// The diagonal of sparse rows, without the scatter, is dots's value to the
// bit.
func TestSelfDotSameAsDots(t *testing.T) {
	X, _, sp := groupedSparse(60, 30, 3, 4)
	ones := make([][]float64, len(X))
	for i, x := range X {
		ones[i] = make([]float64, len(x))
		for k, f := range x {
			if f != 0 {
				ones[i][k] = 1
			}
		}
	}
	for _, v := range []*vectors{
		newVectors(sp, nil, layoutSparse, false, nil),
		newVectors(learning.NewDense(ones), nil, layoutSparse, true, nil),
	} {
		for i := range X {
			var one [1]float64
			v.dots(one[:], i, i)
			if got := v.selfDot(i); math.Float64bits(got) != math.Float64bits(one[0]) {
				t.Fatalf("row %d: selfDot %v, dots %v", i, got, one[0])
			}
		}
	}
}
