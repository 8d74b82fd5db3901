package learning

import (
	"fmt"
	"math"
	"math/bits"

	"gonum.org/v1/gonum/floats"

	"mark1/learning/internal/bytedot"
)

// Rows is a read-only table of feature vectors, stored once in the form
// that suits the data: Dense rows of float64, Bits for 0/1 features (64 to a
// machine word), or Sparse rows (CSR) for data with few non-zeros. Learners
// read features only through these methods, so the same learner runs on
// every form without copying; none of them densifies a sparse row except
// Row, which writes one row into a buffer the caller owns.
//
// The sums in Dot and SqNorm run over the stored entries, so a Sparse or
// Bits form of the same data can differ from the Dense form in the last
// bits of a result; a given form gives the same results every time.
type Rows interface {
	// Len is the number of rows.
	Len() int
	// Dim is the number of features of every row.
	Dim() int
	// Dot returns x_i·w; it panics if len(w) != Dim().
	Dot(i int, w []float64) float64
	// AddTo sets dst += a·x_i; it panics if len(dst) != Dim().
	AddTo(dst []float64, a float64, i int)
	// SqNorm returns ‖x_i‖².
	SqNorm(i int) float64
	// Row writes x_i into dst, grown to Dim() if needed, and returns it.
	Row(dst []float64, i int) []float64
}

// Dense is Rows over a slice of float64 rows of equal length, used in place
// (not copied).
type Dense struct {
	X   [][]float64
	dim int
}

// NewDense returns X as Rows without copying it. It panics if the rows
// differ in length.
func NewDense(X [][]float64) *Dense {
	d := &Dense{X: X}
	if len(X) > 0 {
		d.dim = len(X[0])
	}
	for i, x := range X {
		if len(x) != d.dim {
			panic(fmt.Sprintf("learning: NewDense: row %d has %d features, row 0 has %d", i, len(x), d.dim))
		}
	}
	return d
}

// Len returns len(X).
func (d *Dense) Len() int { return len(d.X) }

// Dim returns the length of the rows.
func (d *Dense) Dim() int { return d.dim }

// Dot returns x_i·w (gonum's assembly kernel).
func (d *Dense) Dot(i int, w []float64) float64 { return floats.Dot(d.X[i], w) }

// AddTo sets dst += a·x_i.
func (d *Dense) AddTo(dst []float64, a float64, i int) { floats.AddScaled(dst, a, d.X[i]) }

// SqNorm returns ‖x_i‖².
func (d *Dense) SqNorm(i int) float64 { return floats.Dot(d.X[i], d.X[i]) }

// Row copies x_i into dst.
func (d *Dense) Row(dst []float64, i int) []float64 {
	dst = grow(dst, d.dim)
	copy(dst, d.X[i])
	return dst
}

// Bits is Rows of 0/1 features, row i's feature k being bit k%64 of word
// W[i*Words+k/64]. A dot product with a dense vector sums the vector at the
// set bits; x·z of two rows is a popcount of their AND. Make it with
// NewBits (or Compact), or BitsOf from words already laid out so.
type Bits struct {
	// Words is the number of 64-bit words per row, ⌈Dim/64⌉.
	Words int
	// W holds the rows, Words words each; bits past Dim are zero.
	W   []uint64
	dim int
	n   int
}

// NewBits stores 0/1 rows as bits. It returns an error naming the row and
// feature if a value is neither 0 nor 1 or the rows differ in length.
func NewBits(X [][]float64) (*Bits, error) {
	b := &Bits{n: len(X)}
	if len(X) > 0 {
		b.dim = len(X[0])
	}
	b.Words = (b.dim + 63) / 64
	b.W = make([]uint64, len(X)*b.Words)
	for i, x := range X {
		if len(x) != b.dim {
			return nil, fmt.Errorf("learning: row %d has %d features, row 0 has %d", i, len(x), b.dim)
		}
		r := b.W[i*b.Words : (i+1)*b.Words]
		for k, v := range x {
			switch v {
			case 0:
			case 1:
				r[k>>6] |= 1 << (uint(k) & 63)
			default:
				return nil, fmt.Errorf("learning: row %d, feature %d: %v is not 0 or 1", i, k, v)
			}
		}
	}
	return b, nil
}

// BitsOf returns rows of dim 0/1 features held in w as Bits lays them out,
// ⌈dim/64⌉ words a row, used in place (not copied). It returns an error if
// len(w) is not a whole number of rows or a bit past dim is set.
func BitsOf(dim int, w []uint64) (*Bits, error) {
	if dim <= 0 {
		return nil, fmt.Errorf("learning: bit rows of %d features", dim)
	}
	b := &Bits{Words: (dim + 63) / 64, W: w, dim: dim}
	if len(w)%b.Words != 0 {
		return nil, fmt.Errorf("learning: %d words are not whole rows of %d words", len(w), b.Words)
	}
	b.n = len(w) / b.Words
	if tail := dim % 64; tail != 0 {
		for i := range b.n {
			if b.words(i)[b.Words-1]>>tail != 0 {
				return nil, fmt.Errorf("learning: row %d has a bit set past feature %d", i, dim)
			}
		}
	}
	return b, nil
}

// Len returns the number of rows.
func (b *Bits) Len() int { return b.n }

// Dim returns the number of features.
func (b *Bits) Dim() int { return b.dim }

// Words returns row i's words.
func (b *Bits) words(i int) []uint64 { return b.W[i*b.Words : (i+1)*b.Words : (i+1)*b.Words] }

// Dot returns Σ w_k over the set bits k of row i.
func (b *Bits) Dot(i int, w []float64) float64 {
	if len(w) != b.dim {
		panic("learning: Bits.Dot: vector of wrong length")
	}
	var s float64
	for j, word := range b.words(i) {
		for word != 0 {
			s += w[j<<6+bits.TrailingZeros64(word)]
			word &= word - 1
		}
	}
	return s
}

// AddTo adds a to dst at the set bits of row i.
func (b *Bits) AddTo(dst []float64, a float64, i int) {
	if len(dst) != b.dim {
		panic("learning: Bits.AddTo: vector of wrong length")
	}
	for j, word := range b.words(i) {
		for word != 0 {
			dst[j<<6+bits.TrailingZeros64(word)] += a
			word &= word - 1
		}
	}
}

// SqNorm returns the number of set bits of row i.
func (b *Bits) SqNorm(i int) float64 {
	n := 0
	for _, word := range b.words(i) {
		n += bits.OnesCount64(word)
	}
	return float64(n)
}

// Row writes row i as 0s and 1s.
func (b *Bits) Row(dst []float64, i int) []float64 {
	dst = grow(dst, b.dim)
	clear(dst)
	b.AddTo(dst, 1, i)
	return dst
}

// Sparse is Rows in compressed sparse row form: row i's non-zeros are
// Value[Start[i]:Start[i+1]] at features Index[Start[i]:Start[i+1]], the
// indices increasing within a row. Memory is 12 bytes per non-zero plus 8
// per row, whatever the number of features. Make it with NewSparse.
type Sparse struct {
	Start []int
	Index []int32
	Value []float64
	dim   int
}

// NewSparse checks and wraps CSR arrays (used in place, not copied): Start
// has one entry per row plus one, starting at 0 and never decreasing, up to
// len(Index) == len(Value); indices increase within a row and lie in
// [0, dim); values are finite. The error names the first bad row.
func NewSparse(dim int, start []int, index []int32, value []float64) (*Sparse, error) {
	if dim < 0 || int64(dim) > math.MaxInt32+1 {
		return nil, fmt.Errorf("learning: sparse rows: %d features", dim)
	}
	if len(start) == 0 || start[0] != 0 || start[len(start)-1] != len(index) || len(index) != len(value) {
		return nil, fmt.Errorf("learning: sparse rows: row starts %d…, %d indices and %d values do not fit together", len(start), len(index), len(value))
	}
	for i := 0; i+1 < len(start); i++ {
		a, b := start[i], start[i+1]
		if b < a {
			return nil, fmt.Errorf("learning: sparse rows: row %d starts at %d but ends at %d", i, a, b)
		}
		for k := a; k < b; k++ {
			if j := index[k]; j < 0 || int(j) >= dim || (k > a && j <= index[k-1]) {
				return nil, fmt.Errorf("learning: sparse rows: row %d: feature index %d out of order or outside [0, %d)", i, j, dim)
			}
			if v := value[k]; math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("learning: sparse rows: row %d, feature %d: %v is not a finite number", i, index[k], v)
			}
		}
	}
	return &Sparse{Start: start, Index: index, Value: value, dim: dim}, nil
}

// Len returns the number of rows.
func (s *Sparse) Len() int { return len(s.Start) - 1 }

// Dim returns the number of features.
func (s *Sparse) Dim() int { return s.dim }

// NonZeros returns row i's feature indices and values.
func (s *Sparse) NonZeros(i int) ([]int32, []float64) {
	a, b := s.Start[i], s.Start[i+1]
	return s.Index[a:b:b], s.Value[a:b:b]
}

// Dot returns Σ_k w[idx_k]·val_k over row i's non-zeros.
func (s *Sparse) Dot(i int, w []float64) float64 {
	if len(w) != s.dim {
		panic("learning: Sparse.Dot: vector of wrong length")
	}
	idx, val := s.NonZeros(i)
	var s0, s1 float64
	n := len(idx) &^ 1
	for k := 0; k < n; k += 2 {
		s0 += w[idx[k]] * val[k]
		s1 += w[idx[k+1]] * val[k+1]
	}
	if n < len(idx) {
		s0 += w[idx[n]] * val[n]
	}
	return s0 + s1
}

// AddTo sets dst += a·x_i at row i's non-zeros.
func (s *Sparse) AddTo(dst []float64, a float64, i int) {
	if len(dst) != s.dim {
		panic("learning: Sparse.AddTo: vector of wrong length")
	}
	idx, val := s.NonZeros(i)
	for k, j := range idx {
		dst[j] += a * val[k]
	}
}

// SqNorm returns the sum of the squares of row i's values.
func (s *Sparse) SqNorm(i int) float64 {
	_, val := s.NonZeros(i)
	var q float64
	for _, v := range val {
		q += v * v
	}
	return q
}

// Row writes row i densely into dst.
func (s *Sparse) Row(dst []float64, i int) []float64 {
	dst = grow(dst, s.dim)
	clear(dst)
	idx, val := s.NonZeros(i)
	for k, j := range idx {
		dst[j] = val[k]
	}
	return dst
}

// Grey is Rows of grey levels stored as bytes: row i's feature k is
// B[i*Dim+k]/255, exactly as float64(b)/255 computes it (pictures read as
// pixel/255), or, for a view (View), that of row idx[i] of B's rows. A row takes Dim bytes, an eighth of float64 rows. Make it
// with NewGrey (or Compact, Sparse.Compact).
type Grey struct {
	B   []uint8
	dim int
	n   int
	at  []int // a view's rows of B (View); nil: row i is B's row i
}

// NewGrey stores rows whose values are all b/255 for bytes b; ok is false
// (and the result nil) if one is not, or if the rows differ in length.
func NewGrey(X [][]float64) (g *Grey, ok bool) {
	g = &Grey{n: len(X), dim: denseDim(X)}
	g.B = make([]uint8, g.n*g.dim)
	for i, x := range X {
		if len(x) != g.dim || !bytedot.FromGrey(g.B[i*g.dim:(i+1)*g.dim], x) {
			return nil, false
		}
	}
	return g, true
}

// GreyOf returns n rows of dim grey levels held in b (len(b) = n·dim),
// row i's feature k being b[i*dim+k]/255, used in place (not copied).
func GreyOf(dim int, b []uint8) (*Grey, error) {
	if dim <= 0 || len(b)%dim != 0 {
		return nil, fmt.Errorf("learning: %d bytes are not whole rows of %d features", len(b), dim)
	}
	return &Grey{B: b, dim: dim, n: len(b) / dim}, nil
}

// Len returns the number of rows.
func (g *Grey) Len() int { return g.n }

// Dim returns the number of features.
func (g *Grey) Dim() int { return g.dim }

// Bytes returns row i's bytes.
func (g *Grey) Bytes(i int) []uint8 {
	if g.at != nil {
		i = g.at[i]
	}
	return g.B[i*g.dim : (i+1)*g.dim : (i+1)*g.dim]
}

// View returns rows idx of g, in that order, as Grey rows that read g's
// bytes where they lie, as Float32.View does.
func (g *Grey) View(idx []int) *Grey {
	at := viewRows(g.at, idx, g.n)
	return &Grey{B: g.B, dim: g.dim, n: len(at), at: at}
}

// viewRows returns the rows of the stored block that rows idx of a view
// (rows at of the block; nil for all n of them) are: idx itself, or
// composed with at.
func viewRows(at, idx []int, n int) []int {
	if idx == nil {
		idx = []int{}
	}
	for _, i := range idx {
		if i < 0 || i >= n {
			panic(fmt.Sprintf("learning: View: row %d of %d", i, n))
		}
	}
	if at == nil {
		return idx
	}
	out := make([]int, len(idx))
	for k, i := range idx {
		out[k] = at[i]
	}
	return out
}

// Dot returns Σ_k w_k b_k / 255.
func (g *Grey) Dot(i int, w []float64) float64 {
	if len(w) != g.dim {
		panic("learning: Grey.Dot: vector of wrong length")
	}
	return bytedot.Floats(w, g.Bytes(i)) / 255
}

// AddTo sets dst += a·x_i.
func (g *Grey) AddTo(dst []float64, a float64, i int) {
	if len(dst) != g.dim {
		panic("learning: Grey.AddTo: vector of wrong length")
	}
	for k, b := range g.Bytes(i) {
		if b != 0 {
			dst[k] += a * (float64(b) / 255)
		}
	}
}

// SqNorm returns ‖x_i‖², from the exact integer Σ b_k².
func (g *Grey) SqNorm(i int) float64 {
	b := g.Bytes(i)
	return float64(bytedot.Dot(b, b)) / bytedot.Scale
}

// Row writes row i as float64 values b/255.
func (g *Grey) Row(dst []float64, i int) []float64 {
	dst = grow(dst, g.dim)
	for k, b := range g.Bytes(i) {
		dst[k] = float64(b) / 255
	}
	return dst
}

// Subset returns rows idx of r, copied into a new table of the same form
// (a Dense subset shares the rows, and a subset of a view of Grey or
// Float32 rows is another view of them: a model's support vectors among
// the rows of a fold of cross-validation read them where the fold does).
func Subset(r Rows, idx []int) Rows {
	switch r := r.(type) {
	case *Grey:
		if r.at != nil {
			return r.View(idx)
		}
	case *Float32:
		if r.at != nil {
			return r.View(idx)
		}
	}
	switch r := r.(type) {
	case *Dense:
		X := make([][]float64, len(idx))
		for k, i := range idx {
			X[k] = r.X[i]
		}
		return &Dense{X: X, dim: r.dim}
	case *Bits:
		b := &Bits{Words: r.Words, dim: r.dim, n: len(idx), W: make([]uint64, 0, len(idx)*r.Words)}
		for _, i := range idx {
			b.W = append(b.W, r.words(i)...)
		}
		return b
	case *Grey:
		g := &Grey{dim: r.dim, n: len(idx), B: make([]uint8, 0, len(idx)*r.dim)}
		for _, i := range idx {
			g.B = append(g.B, r.Bytes(i)...)
		}
		return g
	case *Float32:
		f := &Float32{dim: r.dim, n: len(idx), V: make([]float32, 0, len(idx)*r.dim)}
		for _, i := range idx {
			f.V = append(f.V, r.Values(i)...)
		}
		return f
	case *Sparse:
		nnz := 0
		for _, i := range idx {
			nnz += r.Start[i+1] - r.Start[i]
		}
		s := &Sparse{dim: r.dim, Start: make([]int, 1, len(idx)+1), Index: make([]int32, 0, nnz), Value: make([]float64, 0, nnz)}
		for _, i := range idx {
			ix, v := r.NonZeros(i)
			s.Index = append(s.Index, ix...)
			s.Value = append(s.Value, v...)
			s.Start = append(s.Start, len(s.Index))
		}
		return s
	}
	X := make([][]float64, len(idx))
	for k, i := range idx {
		X[k] = r.Row(nil, i)
	}
	return &Dense{X: X, dim: r.Dim()}
}

// Compact stores X in its most compact exact form: Bits when every value is
// 0 or 1 and the rows are not very sparse, Sparse when at most a third of
// the values are non-zero, and X itself (Dense, not copied) otherwise. It
// panics if the rows differ in length.
func Compact(X [][]float64) Rows {
	d := NewDense(X)
	nnz, binary := NonZeros(X)
	switch ChooseForm(binary, nnz, len(X), d.dim) {
	case FormBits:
		b, _ := NewBits(X)
		return b
	case FormSparse:
		s := &Sparse{dim: d.dim, Start: make([]int, 1, len(X)+1), Index: make([]int32, 0, nnz), Value: make([]float64, 0, nnz)}
		for _, x := range X {
			for k, v := range x {
				if v != 0 {
					s.Index = append(s.Index, int32(k))
					s.Value = append(s.Value, v)
				}
			}
			s.Start = append(s.Start, len(s.Index))
		}
		return s
	}
	return d
}

// Compact returns the rows in Compact's form: s itself when they are
// sparse, otherwise a copy as Bits, as Grey bytes when every value is b/255,
// or as Dense rows in one block.
func (s *Sparse) Compact() Rows { return compact([]*Sparse{s}, s.dim, nil, false, nil) }

// Compact32 is Compact with float32 in place of float64 for dense rows
// that are not bytes: dense data whose values are not all b/255 are stored
// as Float32 (half the memory, rounded to float32's 7 significant digits),
// unless a value lies outside float32's normal range, which keeps them
// float64. Bit sets, grey bytes and sparse rows are Compact's, exact.
// mark1's commands store the data files they read so (Stack.Compact32).
func (s *Sparse) Compact32() Rows { return compact([]*Sparse{s}, s.dim, nil, true, nil) }

// Compact32Rows is Compact32 of rows idx of s, in that order — the form
// chosen on those rows alone, as Subset(s, idx).Compact32() chooses it —
// copied once from where they lie: a fold of cross-validation takes its
// rows from the data set without a sparse copy of them first.
func (s *Sparse) Compact32Rows(idx []int) Rows {
	if idx == nil {
		idx = []int{}
	}
	return compactRows([]*Sparse{s}, idx, s.dim, nil, true, nil)
}

// Form is a way of storing rows: Dense, Bits or Sparse.
type Form int

// The forms of rows, as ChooseForm names them.
const (
	FormDense Form = iota
	FormBits
	FormSparse
)

// NonZeros counts the non-zero values of X and reports whether they are
// all 1 (the rows are 0/1): ChooseForm's binary and nnz.
func NonZeros(X [][]float64) (nnz int, binary bool) {
	binary = true
	for _, x := range X {
		for _, v := range x {
			if v != 0 {
				nnz++
				if v != 1 {
					binary = false
				}
			}
		}
	}
	return nnz, binary
}

// ChooseForm is the one rule for the most compact exact form of n rows of
// dim features with nnz non-zeros in all (Compact's, and the SVM's for its
// kernel rows): bit sets when the values are 0/1 and a row's words are at
// most twice its ones, sparse rows when at most a third of the values are
// non-zero (12 bytes a non-zero against 8 a value), dense otherwise.
func ChooseForm(binary bool, nnz, n, dim int) Form {
	words := n * ((dim + 63) / 64)
	switch {
	case n == 0:
		return FormDense
	case binary && words <= 2*nnz:
		return FormBits
	case 3*nnz <= n*dim:
		return FormSparse
	}
	return FormDense
}

// Features returns the rows of d: d.Rows when set, otherwise d.X seen as
// Dense rows (not copied).
func (d *Data) Features() Rows {
	if d.Rows != nil {
		return d.Rows
	}
	return &Dense{X: d.X, dim: denseDim(d.X)}
}

// Len returns the number of examples.
func (d *Data) Len() int {
	if d.Rows != nil {
		return d.Rows.Len()
	}
	return len(d.X)
}

func denseDim(X [][]float64) int {
	if len(X) == 0 {
		return 0
	}
	return len(X[0])
}

// finiteRows reports the first non-finite value of r, checking the stored
// values of each form.
func finiteRows(r Rows) error {
	bad := func(i, j int, v float64) error {
		return fmt.Errorf("learning: row %d, feature %d: %v is not a finite number", i, j, v)
	}
	switch r := r.(type) {
	case *Bits, *Grey:
		return nil
	case *Float32:
		for i := range r.Len() {
			for j, v := range r.Values(i) {
				if v-v != 0 {
					return bad(i, j, float64(v))
				}
			}
		}
		return nil
	case *Sparse:
		for i := range r.Len() {
			idx, val := r.NonZeros(i)
			for k, v := range val {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return bad(i, int(idx[k]), v)
				}
			}
		}
		return nil
	case *Dense:
		for i, x := range r.X {
			if len(x) != r.dim {
				return fmt.Errorf("learning: row %d has %d features; row 0 has %d", i, len(x), r.dim)
			}
			for j, v := range x {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return bad(i, j, v)
				}
			}
		}
		return nil
	}
	var buf []float64
	for i := range r.Len() {
		buf = r.Row(buf, i)
		for j, v := range buf {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return bad(i, j, v)
			}
		}
	}
	return nil
}
