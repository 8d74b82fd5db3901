package learning

import (
	"errors"
	"slices"

	"mark1/learning/internal/bytedot"
)

// ErrRounded is Collector.Rows's error when the rows were held rounded to
// float32 and their form needs them as read; gather them again with a
// Collector made exact.
var ErrRounded = errors.New("learning: the rows were held rounded to float32 and their form needs them exact")

// collectProbe is the number of rows a Collector holds as Sparse before
// it decides how to hold them.
const collectProbe = 256

// A Collector gathers rows one at a time, each as a parser gives it (its
// non-zero features, increasing, and their values), and gives them in the
// form Sparse.Compact32 gives the same rows (Rows), to the bit, without a
// sparse copy of them all first: a reader that keeps some rows of a large
// file (a task of a grid split by pair, dataset.ReadBlocks) holds 1 byte a
// feature of dense grey levels, 4 of other dense values. Its first rows
// decide: when they are dense and within float32's range the rows are held
// as bytes while every value is a grey level, as float32 values after;
// otherwise as Sparse. Rows held dense whose form turns out to need values
// that float32 rounded (sparse rows, or values beyond float32's range)
// make Rows return ErrRounded; a Collector made exact holds every row as
// Sparse.
type Collector struct {
	dim, want int
	exact     bool
	st        rowStats
	dense     bool
	sp        *Sparse   // the rows, until they are held dense, or for good
	b         []uint8   // dense grey levels
	f         []float32 // dense values, rounded
	inexact   bool      // a value held in f is not its float32
}

// NewCollector returns a Collector of rows of dim features; rows, when
// known, is how many will come (the arrays are made once at that size).
// An exact Collector holds the rows as Sparse.
func NewCollector(dim, rows int, exact bool) *Collector {
	return &Collector{dim: dim, want: rows, exact: exact, st: newRowStats(), sp: &Sparse{dim: dim, Start: []int{0}}}
}

// Len returns the number of rows gathered.
func (c *Collector) Len() int { return c.st.n }

// Add gathers the next row: its non-zero features idx (increasing, below
// the Collector's dim) and their values val.
func (c *Collector) Add(idx []int32, val []float64) {
	c.st.addRows(1, val)
	if !c.dense {
		c.sp.Index = append(c.sp.Index, idx...)
		c.sp.Value = append(c.sp.Value, val...)
		c.sp.Start = append(c.sp.Start, len(c.sp.Value))
		if !c.exact && c.st.n == collectProbe {
			c.decide()
		}
		return
	}
	c.put(idx, val)
}

// decide holds the rows dense from now on when they are dense and within
// float32's range.
func (c *Collector) decide() {
	if f := c.st.form32(c.dim); f != grey32 && f != float32Form {
		return
	}
	sp := c.sp
	c.dense, c.sp = true, &Sparse{dim: c.dim, Start: []int{0}}
	size := max(c.want, sp.Len()) * c.dim
	if c.st.grey {
		c.b = make([]uint8, 0, size)
	} else {
		c.f = make([]float32, 0, size)
	}
	for i := range sp.Len() {
		c.put(sp.NonZeros(i))
	}
}

// put appends a row to the dense rows, turning bytes into float32 values
// at the first value that is not a grey level.
func (c *Collector) put(idx []int32, val []float64) {
	if c.b != nil && !bytedot.FromGrey(nil, val) {
		c.f = make([]float32, len(c.b), max(cap(c.b), len(c.b)+c.dim))
		for k, v := range c.b {
			c.f[k] = float32(float64(v) / 255)
		}
		c.b = nil
	}
	if c.b != nil {
		c.b = slices.Grow(c.b, c.dim)
		row := c.b[len(c.b) : len(c.b)+c.dim]
		clear(row)
		for m, j := range idx {
			bytedot.FromGrey(row[j:j+1], val[m:m+1])
		}
		c.b = c.b[:len(c.b)+c.dim]
		return
	}
	c.f = slices.Grow(c.f, c.dim)
	row := c.f[len(c.f) : len(c.f)+c.dim]
	clear(row)
	for m, j := range idx {
		row[j] = float32(val[m])
		c.inexact = c.inexact || float64(row[j]) != val[m]
	}
	c.f = c.f[:len(c.f)+c.dim]
}

// Rows returns the rows gathered in the form Sparse.Compact32 gives them,
// or ErrRounded; the Collector holds none afterwards.
func (c *Collector) Rows() (Rows, error) {
	defer func() { *c = Collector{dim: c.dim, st: newRowStats(), sp: &Sparse{dim: c.dim, Start: []int{0}}} }()
	if !c.dense {
		return c.sp.Compact32(), nil
	}
	switch c.st.form32(c.dim) {
	case grey32:
		return &Grey{dim: c.dim, n: c.st.n, B: c.b}, nil
	case float32Form:
		return &Float32{dim: c.dim, n: c.st.n, V: c.f}, nil
	}
	if c.inexact {
		return nil, ErrRounded
	}
	// sparse rows, bits, or float64 values float32 holds exactly (below
	// its normal range): held dense as read, so made Sparse, then Compact32
	sp := &Sparse{dim: c.dim, Start: make([]int, 1, c.st.n+1), Index: make([]int32, 0, c.st.nnz), Value: make([]float64, 0, c.st.nnz)}
	for i := range c.st.n {
		for j := range c.dim {
			v := 0.0
			if c.b != nil {
				v = float64(c.b[i*c.dim+j]) / 255
			} else {
				v = float64(c.f[i*c.dim+j])
			}
			if v != 0 {
				sp.Index, sp.Value = append(sp.Index, int32(j)), append(sp.Value, v)
			}
		}
		sp.Start = append(sp.Start, len(sp.Value))
	}
	c.b, c.f = nil, nil
	return sp.Compact32(), nil
}

// RowCounts count rows, one at a time, by what Compact32 chooses their
// form by (Add), and then give each row's values as that form holds them
// (Values): a reader that cannot hold the rows reads them again to sum
// over them as over the rows Compact32 would have made
// (learners.VarianceOf).
type RowCounts struct {
	dim int
	st  rowStats
}

// NewRowCounts returns RowCounts of rows of dim features.
func NewRowCounts(dim int) *RowCounts { return &RowCounts{dim: dim, st: newRowStats()} }

// Add counts a row of non-zero values val.
func (c *RowCounts) Add(val []float64) { c.st.addRows(1, val) }

// Values returns, in dst (grown as needed), the row of non-zero features
// idx and values val as the Compact32 form of the rows counted reads it,
// as learners.Variance visits it: the values themselves when the rows are
// sparse, else every feature in order, zeros included, rounded to float32
// for Float32 rows.
func (c *RowCounts) Values(dst []float64, idx []int32, val []float64) []float64 {
	f := c.st.form32(c.dim)
	if f == sparse32 {
		return append(dst[:0], val...)
	}
	dst = grow(dst, c.dim)
	clear(dst)
	for m, j := range idx {
		dst[j] = val[m]
		if f == float32Form {
			dst[j] = float64(float32(val[m]))
		}
	}
	return dst
}
