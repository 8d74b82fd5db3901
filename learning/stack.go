package learning

import (
	"fmt"
	"iter"
	"math"
	"sort"

	"mark1/learning/internal/bytedot"
)

// Stack is sparse rows held in parts, one after another: a data file's
// rows as a reader hands them over, a block at a time
// (dataset.ReadFileBlocks). Row i of the stack is row i − first of the part
// that holds it. Make it with NewStack.
type Stack struct {
	parts []*Sparse
	first []int // first[p] is the stack's row of parts[p]'s row 0; first[len(parts)] = Len
	dim   int
}

// NewStack returns parts as one set of rows, without copying them. It
// returns an error if the parts differ in their number of features.
func NewStack(parts []*Sparse) (*Stack, error) {
	s := &Stack{parts: parts, first: make([]int, len(parts)+1)}
	for p, part := range parts {
		if p == 0 {
			s.dim = part.dim
		} else if part.dim != s.dim {
			return nil, fmt.Errorf("learning: stacked rows: part %d has %d features, part 0 has %d", p, part.dim, s.dim)
		}
		s.first[p+1] = s.first[p] + part.Len()
	}
	return s, nil
}

// Len returns the number of rows.
func (s *Stack) Len() int { return s.first[len(s.parts)] }

// Dim returns the number of features.
func (s *Stack) Dim() int { return s.dim }

// at returns the part that holds row i and i's row within it.
func (s *Stack) at(i int) (*Sparse, int) {
	if i < 0 || i >= s.Len() {
		panic(fmt.Sprintf("learning: Stack: row %d of %d", i, s.Len()))
	}
	p := sort.SearchInts(s.first, i+1) - 1
	return s.parts[p], i - s.first[p]
}

// NonZeros returns row i's feature indices and values.
func (s *Stack) NonZeros(i int) ([]int32, []float64) { p, j := s.at(i); return p.NonZeros(j) }

// Dot returns x_i·w; it panics if len(w) != Dim().
func (s *Stack) Dot(i int, w []float64) float64 { p, j := s.at(i); return p.Dot(j, w) }

// AddTo sets dst += a·x_i; it panics if len(dst) != Dim().
func (s *Stack) AddTo(dst []float64, a float64, i int) { p, j := s.at(i); p.AddTo(dst, a, j) }

// SqNorm returns ‖x_i‖².
func (s *Stack) SqNorm(i int) float64 { p, j := s.at(i); return p.SqNorm(j) }

// Row writes x_i into dst, grown to Dim() if needed, and returns it.
func (s *Stack) Row(dst []float64, i int) []float64 { p, j := s.at(i); return p.Row(dst, j) }

// Compact32Rows is Sparse.Compact32Rows of rows idx of the stack (rows of
// its parts taken one after another), in that order, copied once from
// where they lie; s keeps its rows.
func (s *Stack) Compact32Rows(idx []int) Rows {
	if idx == nil {
		idx = []int{}
	}
	return compactRows(s.parts, idx, s.dim, nil, true, nil)
}

// Compact32 returns the rows in the form Sparse.Compact32 gives them as
// one set of rows, with row k of the result row order[k] of the stack
// (every row in its place when order is nil; otherwise order must be a
// permutation of the rows). It consumes s: each part is let go once its
// rows are copied, and release, when not nil, is then called, so that a
// caller holding no other reference to the parts can give their memory
// back while the copy fills (mark1 fit passes debug.FreeOSMemory): the
// parts and their copy are never all resident at once. s holds no rows
// afterwards.
func (s *Stack) Compact32(order []int, release func()) Rows {
	if order != nil && len(order) != s.Len() {
		panic(fmt.Sprintf("learning: Stack.Compact32: order of %d rows for %d", len(order), s.Len()))
	}
	return compact(s.parts, s.dim, order, true, release)
}

// compact is the one copy of rows into their compact form (Compact's, or
// Compact32's when f32), the parts' rows taken one after another in order
// (see Stack.Compact32); parts[p] is set to nil once copied, and release
// called. A single part in its order whose form is sparse is returned
// itself.
func compact(parts []*Sparse, dim int, order []int, f32 bool, release func()) Rows {
	return compactRows(parts, nil, dim, order, f32, release)
}

// rowsOf returns the rows of parts that compactRows copies, in order,
// each as its part and its row in it: rows sel of the parts taken one
// after another, in sel's order, or, when sel is nil, every row of part q
// alone (the parts are copied a part at a time).
func rowsOf(parts []*Sparse, sel []int, q int) iter.Seq2[*Sparse, int] {
	return func(yield func(*Sparse, int) bool) {
		if sel == nil {
			for i := range parts[q].Len() {
				if !yield(parts[q], i) {
					return
				}
			}
			return
		}
		first := make([]int, len(parts)+1)
		for p, part := range parts {
			first[p+1] = first[p] + part.Len()
		}
		for _, i := range sel {
			if i < 0 || i >= first[len(parts)] {
				panic(fmt.Sprintf("learning: row %d of %d", i, first[len(parts)]))
			}
			p := sort.SearchInts(first, i+1) - 1
			if !yield(parts[p], i-first[p]) {
				return
			}
		}
	}
}

// compactRows is compact of rows sel of the parts taken one after
// another (all the parts' rows when sel is nil), read where they lie: the
// form is chosen on those rows alone, as if they had been copied into a
// part of their own first, and they are copied once. With sel, the parts
// are not let go.
func compactRows(parts []*Sparse, sel []int, dim int, order []int, f32 bool, release func()) Rows {
	// the passes over the rows: every part's in turn, or sel's at once
	passes := len(parts)
	if sel != nil {
		passes = 1
	}
	st := newRowStats()
	for q := range passes {
		if sel == nil {
			st.addRows(parts[q].Len(), parts[q].Value)
			continue
		}
		for p, i := range rowsOf(parts, sel, q) {
			_, v := p.NonZeros(i)
			st.addRows(1, v)
		}
	}
	n, nnz, grey, in32 := st.n, st.nnz, st.grey, st.in32
	form := ChooseForm(st.binary, nnz, n, dim)
	if form == FormSparse && len(parts) == 1 && order == nil && sel == nil {
		return parts[0]
	}
	to := make([]int, n) // to[i] is the result's row of row i
	for i := range to {
		to[i] = i
	}
	for k, i := range order {
		to[i] = k
	}
	var out Rows
	var put func(k int, idx []int32, val []float64)
	switch {
	case form == FormBits:
		b := &Bits{dim: dim, n: n, Words: (dim + 63) / 64}
		b.W = make([]uint64, n*b.Words)
		out, put = b, func(k int, idx []int32, _ []float64) {
			r := b.W[k*b.Words:]
			for _, j := range idx {
				r[j>>6] |= 1 << (uint(j) & 63)
			}
		}
	case form == FormSparse:
		sp := &Sparse{dim: dim, Start: make([]int, n+1), Index: make([]int32, nnz), Value: make([]float64, nnz)}
		g := 0 // each row's length at its place, then the starts
		for q := range passes {
			for p, i := range rowsOf(parts, sel, q) {
				sp.Start[to[g]+1] = p.Start[i+1] - p.Start[i]
				g++
			}
		}
		for k := range n {
			sp.Start[k+1] += sp.Start[k]
		}
		out, put = sp, func(k int, idx []int32, val []float64) {
			copy(sp.Index[sp.Start[k]:], idx)
			copy(sp.Value[sp.Start[k]:], val)
		}
	case grey:
		g := &Grey{dim: dim, n: n, B: make([]uint8, n*dim)}
		out, put = g, func(k int, idx []int32, val []float64) {
			r := g.Bytes(k)
			for m, j := range idx {
				bytedot.FromGrey(r[j:j+1], val[m:m+1])
			}
		}
	case f32 && in32:
		f := &Float32{dim: dim, n: n, V: make([]float32, n*dim)}
		out, put = f, func(k int, idx []int32, val []float64) {
			row := f.Values(k)
			for m, j := range idx {
				row[j] = float32(val[m])
			}
		}
	default:
		block := make([]float64, n*dim)
		X := make([][]float64, n)
		for k := range X {
			X[k] = block[k*dim : (k+1)*dim : (k+1)*dim]
		}
		out, put = &Dense{X: X, dim: dim}, func(k int, idx []int32, val []float64) {
			for m, j := range idx {
				X[k][j] = val[m]
			}
		}
	}
	g := 0
	for q := range passes {
		for p, i := range rowsOf(parts, sel, q) {
			idx, val := p.NonZeros(i)
			put(to[g], idx, val)
			g++
		}
		if sel == nil {
			parts[q] = nil
		}
		if release != nil {
			release()
		}
	}
	return out
}

// rowStats are what Compact32 chooses the form of rows by: their number,
// their non-zeros, and whether every value is 1 (binary), a grey level
// b/255 (grey), within float32's normal range (in32).
type rowStats struct {
	n, nnz             int
	binary, grey, in32 bool
}

func newRowStats() rowStats { return rowStats{binary: true, grey: true, in32: true} }

// addRows counts n rows more whose non-zero values are v.
func (s *rowStats) addRows(n int, v []float64) {
	s.n += n
	s.nnz += len(v)
	s.binary, s.in32 = flags(v, s.binary, s.in32)
	s.grey = s.grey && bytedot.FromGrey(nil, v)
}

// form32 is the form Compact32 gives rows of dim features so counted:
// ChooseForm's, and for dense rows Grey, Float32 or Dense (float64).
func (s rowStats) form32(dim int) form32 {
	switch ChooseForm(s.binary, s.nnz, s.n, dim) {
	case FormBits:
		return bits32
	case FormSparse:
		return sparse32
	}
	switch {
	case s.grey:
		return grey32
	case s.in32:
		return float32Form
	}
	return dense64
}

// form32 names the forms Compact32 stores rows in.
type form32 int

const (
	bits32 form32 = iota
	sparse32
	grey32
	float32Form
	dense64
)

// flags returns binary and in32 cleared when a value of v is not 1, or
// lies outside float32's normal range.
func flags(v []float64, binary, in32 bool) (bool, bool) {
	for _, x := range v {
		if x != 1 {
			binary = false
		}
		if a := math.Abs(x); a < 0x1p-126 || a > math.MaxFloat32 {
			in32 = false
		}
	}
	return binary, in32
}
