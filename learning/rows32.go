package learning

import (
	"fmt"

	"mark1/learning/internal/f32dot"
)

// Float32 is Rows of dense values stored as float32: row i's feature k is
// float64(V[i*Dim+k]), or, for a view (View), of row idx[i] of V's rows. A row takes 4 bytes a feature, half of float64 rows,
// and holds 7 significant digits, more than the 6 that most tools write
// data files with. Dot products of two rows (the kernel SVM's) are summed
// with AVX2 where the processor has it. Make it with NewFloat32 (values
// rounded to float32) or Sparse.Compact.
type Float32 struct {
	V   []float32
	dim int
	n   int
	at  []int // a view's rows of V (View); nil: row i is V's row i
}

// NewFloat32 stores X rounded to float32, in one block. It returns an
// error naming the row if the rows differ in length or a value is not a
// finite number within float32's range (|v| < 3.4e38).
func NewFloat32(X [][]float64) (*Float32, error) {
	f := &Float32{n: len(X), dim: denseDim(X)}
	f.V = make([]float32, f.n*f.dim)
	for i, x := range X {
		if len(x) != f.dim {
			return nil, fmt.Errorf("learning: row %d has %d features, row 0 has %d", i, len(x), f.dim)
		}
		r := f.V[i*f.dim : (i+1)*f.dim]
		f32dot.FromFloat64(r, x)
		for k, v := range r {
			if v-v != 0 { // NaN or ±Inf, also from a float64 over float32's range
				return nil, fmt.Errorf("learning: row %d, feature %d: %v is not a finite float32", i, k, x[k])
			}
		}
	}
	return f, nil
}

// Float32Of returns n rows of dim features held in v (len(v) = n·dim), used
// in place (not copied).
func Float32Of(dim int, v []float32) (*Float32, error) {
	if dim <= 0 || len(v)%dim != 0 {
		return nil, fmt.Errorf("learning: %d float32 values are not whole rows of %d features", len(v), dim)
	}
	return &Float32{V: v, dim: dim, n: len(v) / dim}, nil
}

// Len returns the number of rows.
func (f *Float32) Len() int { return f.n }

// Dim returns the number of features.
func (f *Float32) Dim() int { return f.dim }

// Values returns row i's values.
func (f *Float32) Values(i int) []float32 {
	if f.at != nil {
		i = f.at[i]
	}
	return f.V[i*f.dim : (i+1)*f.dim : (i+1)*f.dim]
}

// IsView reports whether f is a view (View) of another Float32's rows.
func (f *Float32) IsView() bool { return f.at != nil }

// View returns rows idx of f, in that order, as Float32 rows that read
// f's values where they lie: nothing is copied, and idx is used in place.
// Every method gives what it gives of a copy of those rows (Subset), to
// the bit, so that a learner given a view of a set's rows (a fold of
// cross-validation) learns what it learns from their copy. It panics if
// an index is out of range.
func (f *Float32) View(idx []int) *Float32 {
	at := viewRows(f.at, idx, f.n)
	return &Float32{V: f.V, dim: f.dim, n: len(at), at: at}
}

// Dot returns x_i·w, in float64.
func (f *Float32) Dot(i int, w []float64) float64 {
	if len(w) != f.dim {
		panic("learning: Float32.Dot: vector of wrong length")
	}
	x := f.Values(i)
	var s0, s1 float64
	n := len(x) &^ 1
	for k := 0; k < n; k += 2 {
		s0 += float64(x[k]) * w[k]
		s1 += float64(x[k+1]) * w[k+1]
	}
	if n < len(x) {
		s0 += float64(x[n]) * w[n]
	}
	return s0 + s1
}

// AddTo sets dst += a·x_i.
func (f *Float32) AddTo(dst []float64, a float64, i int) {
	if len(dst) != f.dim {
		panic("learning: Float32.AddTo: vector of wrong length")
	}
	for k, v := range f.Values(i) {
		if v != 0 {
			dst[k] += a * float64(v)
		}
	}
}

// SqNorm returns ‖x_i‖², summed as x_i·x_j of two rows is (f32dot.Dot), so
// that ‖x_i − x_i‖² computed from them is 0.
func (f *Float32) SqNorm(i int) float64 {
	x := f.Values(i)
	return f32dot.Dot(x, x)
}

// Row writes row i as float64 values.
func (f *Float32) Row(dst []float64, i int) []float64 {
	dst = grow(dst, f.dim)
	for k, v := range f.Values(i) {
		dst[k] = float64(v)
	}
	return dst
}
