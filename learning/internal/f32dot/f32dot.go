// Package f32dot is the dot product of float32 rows, the form learning
// keeps dense numeric data in (learning.Float32): eight products a step
// with AVX2 and FMA on amd64 processors that have them, summed in float32
// lanes over chunks of at most Chunk entries and the chunks in float64, so
// that the rounding error stays that of a short sum whatever the length.
// learning/svm and learning use it.
package f32dot

// Chunk is the most entries summed in float32 lanes before the partial
// sums are added in float64.
const Chunk = 1024

// Dot returns Σ a[k]·b[k] over len(a) entries, in float64. It panics if b
// is shorter than a. The result is the same on every call with the same
// rows (it does not depend on where the rows lie in memory), on a given
// processor.
func Dot(a, b []float32) float64 {
	b = b[:len(a)]
	if !useAVX2 {
		return dotGo(a, b)
	}
	var s float64
	for len(a) >= 8 {
		m := min(len(a), Chunk) &^ 7
		s += dotAVX2(a[:m], b[:m])
		a, b = a[m:], b[m:]
	}
	for k, v := range a {
		s += float64(v) * float64(b[k])
	}
	return s
}

// Dots sets dst[r] = Dot(x, rows[r]) for every row, to the last bit, with
// two rows at a time sharing the reads of x where the AVX2 kernel runs
// (rows of at most Chunk entries). It panics if a row is shorter than x
// or dst shorter than rows.
func Dots(dst []float64, x []float32, rows [][]float32) {
	dst = dst[:len(rows)]
	for _, r := range rows {
		if len(r) < len(x) {
			panic("f32dot: Dots: row shorter than x")
		}
	}
	if !useAVX2 || len(x) > Chunk || len(x) < 8 {
		for r, row := range rows {
			dst[r] = Dot(x, row)
		}
		return
	}
	m := len(x) &^ 7
	dotsAVX2(x[:m], rows, dst)
	if m == len(x) {
		return
	}
	for r, row := range rows {
		s := dst[r]
		for k := m; k < len(x); k++ {
			s += float64(x[k]) * float64(row[k])
		}
		dst[r] = s
	}
}

// dotGo is the portable dot product: products of float32s are exact in
// float64, summed in four float64 accumulators.
func dotGo(a, b []float32) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	n := len(a) &^ 3
	for k := 0; k < n; k += 4 {
		s0 += float64(a[k]) * float64(b[k])
		s1 += float64(a[k+1]) * float64(b[k+1])
		s2 += float64(a[k+2]) * float64(b[k+2])
		s3 += float64(a[k+3]) * float64(b[k+3])
	}
	for k := n; k < len(a); k++ {
		s0 += float64(a[k]) * float64(b[k])
	}
	return (s0 + s1) + (s2 + s3)
}

// FromFloat64 writes x rounded to float32 into dst (len(dst) ≥ len(x)).
func FromFloat64(dst []float32, x []float64) {
	dst = dst[:len(x)]
	for k, v := range x {
		dst[k] = float32(v)
	}
}

// Exact reports whether every value of x is a float32 (float64(float32(v))
// == v), as the values of learning.Float32 rows are.
func Exact(x []float64) bool {
	for _, v := range x {
		if float64(float32(v)) != v {
			return false
		}
	}
	return true
}
