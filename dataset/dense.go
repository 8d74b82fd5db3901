package dataset

import (
	"context"
	"errors"
	"fmt"
	"math"
)

// Compact is a data file's rows held dense in their compact form, row i's
// feature k at i·Dim + k: as bytes when every value read is b/255 for a
// byte b (exactly float64(b)/255: IDX pictures, libsvm or CSV files of
// such grey levels), else rounded to float32. Exactly one of Grey and
// Float32 is set. It is what ReadFileCompact keeps instead of the parsed
// rows: 1 or 4 bytes a feature, where the parsed rows take 12 a non-zero,
// and the learners use it in place (learning.GreyOf, learning.Float32Of).
type Compact struct {
	Dim     int
	Grey    []uint8
	Float32 []float32
	// Exact reports that the rows hold every value as read: bytes, or
	// float32 values each equal to the float64 read (integers, halves).
	Exact bool
	// Variance is the variance of all Rows × Dim values as read (float64,
	// zeros included, as Set.Variance), which float32 rows that are not
	// Exact no longer hold: γ = scale's, summed 65,536 non-zero values
	// at a time in reading order and the sums combined (Chan, Golub and
	// LeVeque's pairwise update), so within about 1e-15 of
	// Set.Variance's, and the same whatever the rows read at a time.
	Variance float64
	// Fingerprint and Info describe the rows as read, when the read was
	// asked to (ReadFileDescribed; else "" and nil): Set.Fingerprint of
	// them, and each row's RowInfo — what float32 rows that are not Exact
	// no longer tell, and a reader of some of the rows (a fold of
	// cross-validation) may need of them.
	Fingerprint string
	Info        []RowInfo
}

// RowInfo is what the learners choose the form of rows by
// (learning.ChooseForm and Sparse.Compact32), of one row as read: its
// non-zero values, and whether every one is 1 (Ones) and every one a grey
// level b/255 (Grey; exactly as float64(b)/255 computes it).
type RowInfo struct {
	NonZeros   int32
	Ones, Grey bool
}

// Rows returns the number of rows.
func (c *Compact) Rows() int {
	if c.Dim == 0 {
		return 0
	}
	return max(len(c.Grey), len(c.Float32)) / c.Dim
}

// Bytes returns the memory the rows take, in bytes.
func (c *Compact) Bytes() int64 { return int64(len(c.Grey)) + 4*int64(len(c.Float32)) }

// errNotCompact stops a compact read whose rows turned out not to be what
// the learners keep dense (ReadFileCompact then reads the file again in
// blocks).
var errNotCompact = errors.New("dataset: the rows are not dense")

// ReadFileCompact reads the data file at path as ReadFileBlocks does, a
// block of rows rows at a time, but keeps dense rows in their compact form
// (Compact) rather than as parsed blocks: each block is turned into bytes
// or float32 values as it is read and dropped, so that the file's rows are
// never held twice over, nor at 12 bytes a value. The rows are dense when
// they would be stored dense by the learners (learning.ChooseForm): more
// than a third of the values non-zero, not all 0 or 1, every value within
// float32's normal range; the first block decides, and the whole file
// confirms. Otherwise blocks are ReadFileBlocks's and rows is nil. set
// describes the file (Classes, Dim, every label in Y) with no rows of its
// own.
//
// The budget, opt.MaxBytes, bounds the compact rows (1 or 4 bytes a
// feature of every row, 16 bytes more a row) and the block being read: a
// file of grey levels needs a twelfth of what ReadFileBlocks needs for it
// when half its values are non-zero. opt.MaxValues does not bound the
// values of compact rows. A plain file's rows are counted first (as
// ReadFile counts them) and their array allocated once; a gzipped file's
// grows by a quarter at a time, the old array beside the new while it is
// copied.
func ReadFileCompact(ctx context.Context, path string, opt Options, rows int) (set *Set, compact *Compact, blocks []*Set, err error) {
	if rows < 1 {
		panic("dataset: ReadFileCompact with rows < 1")
	}
	o := opt
	o.blockRows, o.compact = rows, true
	set, err = ReadFileContext(ctx, path, o)
	if errors.Is(err, errNotCompact) {
		set, blocks, err = ReadFileBlocks(ctx, path, opt, rows)
		return set, nil, blocks, err
	}
	if err != nil {
		return nil, nil, nil, err
	}
	compact, set.compact = set.compact, nil
	blocks, set.blocks = set.blocks, nil
	return set, compact, blocks, nil
}

// ReadFileDescribed is ReadFileCompact that also describes rows it keeps
// compact as they were read: each row's RowInfo (Compact.Info) and, when
// fingerprint is true, their fingerprint (Compact.Fingerprint), for which
// float32 rows that round a value keep, while the file is read, what brings
// it back (4 bytes a non-zero value), let go once the rows are described. A
// reader that holds a file's rows once and hands subsets of them to the
// learners (cross-validation's folds) reads so, in blocks of a few hundred
// rows, so that the parsed rows of a block stay small beside the compact
// ones.
func ReadFileDescribed(ctx context.Context, path string, opt Options, rows int, fingerprint bool) (set *Set, compact *Compact, blocks []*Set, err error) {
	opt.describe, opt.fingerprint = true, fingerprint
	return ReadFileCompact(ctx, path, opt, rows)
}

// Block is a block of rows as read, handed to ReadFileCompactVisit's
// visitor before the rows are kept or let go: row First+k of the file
// (0-based) has the values Value[RowStart[k]:RowStart[k+1]] (its non-zero
// values, in the order read) of the features Index[…] − Base, 0-based.
// The slices are the reader's, reused for the next block.
type Block struct {
	First    int
	RowStart []int
	Index    []int32
	Value    []float64
	Base     int32
}

// Rows returns the number of rows in the block.
func (b Block) Rows() int { return len(b.RowStart) - 1 }

// ReadFileCompactVisit is ReadFileCompact keeping only the rows keep marks
// (keep[r] for the file's row r, 0-based; the file has len(keep) rows):
// compact holds them alone, in file order, in the form ReadFileCompact
// gives the whole file — bytes or float32 as every row's values decide,
// Exact and Variance of all the rows — so that they are the rows the whole
// file's Compact holds, to the bit, and the budget bounds them, not the
// file. set describes the whole file as ReadFileCompact's does (every
// label in Y). Rows that are not held dense (ReadFileCompact would give
// blocks) give a nil compact: the reading stops as soon as that is known,
// holding no block. visit, if not nil, is given each block of rows as
// read, in file order, before they are kept or let go; an error of visit
// ends the reading and is returned as it is. With a nil keep no row is
// kept: set describes the file (every label in Y) and
// compact has the whole file's form, Exact and Variance with no rows
// (Grey or Float32 empty, not nil). A libsvm file's
// visitor sees 0-based features only when opt.Indices says the file's
// numbering (ZeroBased or OneBased, as a first read's Set.ZeroBased
// tells), since AutoIndices is decided at the file's end. A reader that
// must hash or sum every row of a large file while it keeps a few
// (a final model's binary problem) so reads it once.
func ReadFileCompactVisit(ctx context.Context, path string, opt Options, rows int, keep []bool, visit func(Block) error) (set *Set, compact *Compact, err error) {
	if rows < 1 {
		panic("dataset: ReadFileCompactVisit with rows < 1")
	}
	o := opt
	o.blockRows, o.compact, o.keep, o.keepNone, o.visit = rows, true, keep, keep == nil, visit
	set, err = ReadFileContext(ctx, path, o)
	if errors.Is(err, errNotCompact) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	if keep != nil && len(set.Y) != len(keep) {
		return nil, nil, fmt.Errorf("%s: %d rows, not the %d of the rows to keep: the file changed", path, len(set.Y), len(keep))
	}
	compact, set.compact = set.compact, nil
	return set, compact, nil
}

// denseState is where a compact read stands: undecided until its first
// block, then dense (rows kept compact) or sparse (blocks kept as
// ReadFileBlocks keeps them).
type denseState int

const (
	undecided denseState = iota
	dense
	sparse
)

// denseStore holds the rows of a compact read.
type denseStore struct {
	state denseState
	grey  bool // bytes, else float32
	b     []uint8
	f     []float32
	n     int // rows stored
	all   int // rows read (n, unless keep)
	// keep, if not nil, marks the rows stored (ReadFileCompactVisit); the
	// others are read, counted and let go
	keep     []bool
	keepNone bool // no row is stored (ReadFileCompactVisit with no keep)
	kept     int  // the rows keep marks
	stride   int  // the columns of a row while reading (libsvm: the largest index + 1 so far)
	raw      bool // libsvm indices left 1-based (eachIndex): column j is feature j − 1
	nnz      int
	// the mean and the sum of squared deviations of the statN values
	// folded in (addValues), and those read since (carry, fewer than
	// statsChunk)
	mean, m2 float64
	statN    int
	carry    []float64
	inexact  bool // a value is not its float32 rounding
	// describe keeps each row's RowInfo (ReadFileDescribed), and
	// fingerprint what Compact.Fingerprint needs: once the rows are
	// float32, every non-zero value's bits less its float32's (delta).
	describe, fingerprint bool
	info                  []RowInfo
	delta                 []int32
}

// deltaOf returns the bits of a value of float32's normal range less those
// of its float32 rounding: within ±2²⁸ (half a float32 step, in float64
// steps), and the value is Float64frombits(bits(float32) + delta).
func deltaOf(v float64) int32 {
	return int32(int64(math.Float64bits(v)) - int64(math.Float64bits(float64(float32(v)))))
}

// undelta returns the value whose float32 rounding is f and delta d.
func undelta(f float32, d int32) float64 {
	return math.Float64frombits(uint64(int64(math.Float64bits(float64(f))) + int64(d)))
}

// describeRows notes the RowInfo of a block's rows and, for float32 rows,
// the deltas of their values.
func (d *denseStore) describeRows(s *Set, hint int) {
	for i := range len(s.RowStart) - 1 {
		val := s.Value[s.RowStart[i]:s.RowStart[i+1]]
		r := RowInfo{NonZeros: int32(len(val)), Ones: true, Grey: true}
		for _, v := range val {
			r.Ones = r.Ones && v == 1
			r.Grey = r.Grey && isGrey(v)
		}
		d.info = append(d.info, r)
	}
	if d.grey || !d.fingerprint {
		return // bytes hold the values as read
	}
	if d.delta == nil {
		d.delta = make([]int32, 0, max(hint, len(s.Value)))
	}
	for _, v := range s.Value {
		d.delta = append(d.delta, deltaOf(v))
	}
}

// statsChunk is the number of non-zero values the store's mean and sum
// of squared deviations take in at a time, in reading order, whatever
// the number of rows the reader parses at a time: so the variance does
// not depend on the reader's block size (fit's, a fold's, a sweep
// task's).
const statsChunk = 1 << 16

// addValues adds the non-zero values of a block, in order, to the store's
// statistics: statsChunk values at a time (addStats), those left over
// carried to the next block.
func (d *denseStore) addValues(val []float64) {
	for len(val) > 0 {
		if len(d.carry) == 0 && len(val) >= statsChunk {
			d.mean, d.m2 = addStats(d.mean, d.m2, d.statN, val[:statsChunk])
			d.statN += statsChunk
			val = val[statsChunk:]
			continue
		}
		if d.carry == nil {
			d.carry = make([]float64, 0, statsChunk)
		}
		k := min(statsChunk-len(d.carry), len(val))
		d.carry, val = append(d.carry, val[:k]...), val[k:]
		if len(d.carry) == statsChunk {
			d.mean, d.m2 = addStats(d.mean, d.m2, d.statN, d.carry)
			d.statN += statsChunk
			d.carry = d.carry[:0]
		}
	}
}

// addStats returns the mean and the sum of squared deviations of na values
// (mean, m2) and those of val together: val's own by two passes, then the
// pairwise update (Chan, Golub and LeVeque).
func addStats(mean, m2 float64, na int, val []float64) (float64, float64) {
	if len(val) == 0 {
		return mean, m2
	}
	var sum float64
	for _, v := range val {
		sum += v
	}
	nb := float64(len(val))
	mb := sum / nb
	var m2b float64
	for _, v := range val {
		e := v - mb
		m2b += e * e
	}
	a := float64(na)
	n := a + nb
	delta := mb - mean
	return mean + delta*nb/n, m2 + m2b + delta*delta*a*nb/n
}

// variance returns the variance of the rows' n·dim values, zeros
// included: the values read joined with the zeros by the same update.
func (d *denseStore) variance(dim int) float64 {
	n := float64(d.all) * float64(dim)
	if n == 0 {
		return 0
	}
	mean, m2 := addStats(d.mean, d.m2, d.statN, d.carry)
	zeros := n - float64(d.nnz)
	m2 += mean * mean * float64(d.nnz) * zeros / n
	return m2 / n
}

// bytes returns the memory the rows take.
func (d *denseStore) bytes() int64 {
	if d == nil {
		return 0
	}
	return int64(len(d.b)) + 4*int64(len(d.f))
}

// isGrey reports whether v is b/255 for a byte b, exactly as float64(b)/255
// computes it (learning's rule for grey rows).
func isGrey(v float64) bool {
	b := math.Round(v * 255)
	return b >= 0 && b <= 255 && b/255 == v
}

// in32 reports whether a non-zero v is a normal float32 (learning's rule
// for float32 rows).
func in32(v float64) bool {
	a := math.Abs(v)
	return a >= 0x1p-126 && a <= math.MaxFloat32
}

// sealDense turns the rows under way into compact rows; the first block
// decides whether the file is read so (else it is kept as a block, and
// every later one).
func (b *builder) sealDense(end bool) error {
	s, d := b.set, b.dense
	n := len(s.RowStart) - 1
	if b.opt.visit != nil {
		base := int32(0)
		if s.Format == LibSVM && b.opt.Indices == OneBased && !b.shifted {
			base = 1
		}
		if err := b.opt.visit(Block{First: d.all, RowStart: s.RowStart, Index: s.Index, Value: s.Value, Base: base}); err != nil {
			return err
		}
	}
	maxCol, binary, grey, ok32 := -1, true, true, true
	for k, j := range s.Index {
		maxCol = max(maxCol, int(j))
		v := s.Value[k]
		binary = binary && v == 1
		grey = grey && isGrey(v)
		ok32 = ok32 && in32(v)
	}
	nnz := len(s.Value)
	if d.state == undecided {
		dim := max(s.Dim, maxCol+1)
		words := n * ((dim + 63) / 64)
		if !ok32 || (binary && words <= 2*nnz) || 3*nnz <= n*dim {
			d.state = sparse
			if d.keep != nil {
				return errNotCompact // the blocks would hold every row
			}
			return b.seal(end)
		}
		d.state, d.grey, d.stride = dense, grey, dim
	}
	if !ok32 {
		return errNotCompact
	}
	line := b.read() // the row count so far, for messages
	if maxCol >= d.stride {
		stride := maxCol + 1
		if d.n > 4*b.opt.blockRows {
			stride = max(stride, d.stride+d.stride/8) // few restrides, whatever the file
		}
		if err := d.reserve(b, line, d.n, stride); err != nil {
			return err
		}
		d.restride(stride, 0)
	}
	if d.grey && !grey { // the first value that is not a grey level: float32 from now on
		if err := b.checkDense(line, int64(len(d.b))*4); err != nil {
			return err
		}
		d.f = make([]float32, len(d.b), min(cap(d.b), int(b.opt.MaxBytes/4)))
		if d.fingerprint {
			d.delta = make([]int32, 0, max(b.opt.hintValues, d.nnz+nnz))
		}
		for k, v := range d.b {
			if v != 0 {
				d.f[k] = float32(float64(v) / 255)
				if d.fingerprint {
					d.delta = append(d.delta, deltaOf(float64(v)/255))
				}
			}
		}
		d.grey, d.b = false, nil
	}
	stored := n
	if d.keepNone {
		stored = 0
	} else if d.keep != nil {
		if d.all+n > len(d.keep) {
			return fmt.Errorf("%s:%d: more than the %d rows to keep: the file changed", s.Name, line, len(d.keep))
		}
		stored = 0
		for _, k := range d.keep[d.all : d.all+n] {
			stored += btoi(k)
		}
	}
	if err := d.reserve(b, line, d.n+stored, d.stride); err != nil {
		return err
	}
	at := d.n
	for i := range n {
		if d.keepNone || d.keep != nil && !d.keep[d.all+i] {
			continue
		}
		base := at * d.stride
		at++
		for k := s.RowStart[i]; k < s.RowStart[i+1]; k++ {
			if d.grey {
				d.b[base+int(s.Index[k])] = uint8(math.Round(s.Value[k] * 255))
			} else {
				d.f[base+int(s.Index[k])] = float32(s.Value[k])
			}
		}
	}
	d.addValues(s.Value)
	if d.describe {
		d.describeRows(s, b.opt.hintValues)
	}
	if !d.grey && !d.inexact {
		for _, v := range s.Value {
			if float64(float32(v)) != v {
				d.inexact = true
				break
			}
		}
	}
	d.n += stored
	d.all += n
	d.nnz += nnz
	s.RowStart, s.Index, s.Value = s.RowStart[:1], s.Index[:0], s.Value[:0]
	return nil
}

// checkDense refuses compact rows of bytes (with the labels and the block
// being read) over the budget.
func (b *builder) checkDense(line int, bytes int64) error {
	need := bytes + int64(len(b.set.Y))*rowBytes + int64(len(b.set.Value))*valueBytes
	if need > b.opt.MaxBytes {
		return b.denseOver(line, len(b.set.Y), need)
	}
	return nil
}

// denseOver reports rows rows held dense that need need bytes.
func (b *builder) denseOver(line, rows int, need int64) error {
	return boundf(BoundBudget, "%s:%d: the %d rows read so far take %d bytes held dense (%d columns of %d bytes a row, %d bytes more a row, %d a value of the block being read), over the budget of %d bytes (the memory budget)",
		b.set.Name, line, rows, need, b.dense.stride, b.dense.size(), rowBytes, valueBytes, b.opt.MaxBytes)
}

// size returns the bytes of a value.
func (d *denseStore) size() int {
	if d.grey {
		return 1
	}
	return 4
}

// reserve makes room for rows rows of stride columns, within the budget:
// at once for the rows ReadFile's first pass counted, else growing.
func (d *denseStore) reserve(b *builder, line, rows, stride int) error {
	size := d.size()
	need := rows * stride
	if need <= max(cap(d.b), cap(d.f)) {
		if d.grey {
			d.b = d.b[:need]
		} else {
			d.f = d.f[:need]
		}
		return nil
	}
	if err := b.checkDense(line, int64(need)*int64(size)); err != nil {
		return err
	}
	hint := b.opt.hintRows
	if d.keep != nil {
		hint = d.kept
	}
	want := max(rows, hint) * stride
	if hint < rows {
		want = max(need, max(cap(d.b), cap(d.f))*5/4)
	}
	want = int(min(int64(want), b.opt.MaxBytes/int64(size)))
	want = max(want, need)
	if d.grey {
		nb := make([]uint8, need, want)
		copy(nb, d.b)
		d.b = nb
	} else {
		nf := make([]float32, need, want)
		copy(nf, d.f)
		d.f = nf
	}
	return nil
}

// restride lays the rows out stride columns apart, column off of each row
// becoming column 0 (off > 0 only for a narrower stride): in place, the
// rows moved from the last when they widen and from the first when they
// narrow, so that none is overwritten before it is moved.
func (d *denseStore) restride(stride, off int) {
	old := d.stride
	w := min(stride, old-off)
	if stride > old && off != 0 {
		panic("dataset: restride widening with an offset")
	}
	move := func(i int) {
		if d.grey {
			copy(d.b[i*stride:i*stride+w], d.b[i*old+off:i*old+off+w])
			clear(d.b[i*stride+w : (i+1)*stride])
		} else {
			copy(d.f[i*stride:i*stride+w], d.f[i*old+off:i*old+off+w])
			clear(d.f[i*stride+w : (i+1)*stride])
		}
	}
	if stride > old {
		if d.grey {
			d.b = d.b[:d.n*stride]
		} else {
			d.f = d.f[:d.n*stride]
		}
		for i := d.n - 1; i >= 0; i-- {
			move(i)
		}
	} else {
		for i := range d.n {
			move(i)
		}
		if d.grey {
			d.b = d.b[:d.n*stride]
		} else {
			d.f = d.f[:d.n*stride]
		}
	}
	d.stride = stride
}

// finishDense lays the compact rows out Dim columns apart and checks that
// the whole file is dense as the learners count it; errNotCompact if not.
func (b *builder) finishDense() (*Compact, error) {
	d, s := b.dense, b.set
	off := 0
	if d.raw {
		off = 1
	}
	if s.Dim+off > d.stride { // features never set (a CSV's last columns, a libsvm file's last index, all zero)
		if err := d.reserve(b, b.read(), d.n, s.Dim+off); err != nil {
			return nil, err
		}
		d.restride(s.Dim+off, 0)
	}
	if s.Dim != d.stride || off != 0 {
		d.restride(s.Dim, off)
	}
	if 3*d.nnz <= d.all*s.Dim {
		return nil, errNotCompact
	}
	c := &Compact{Dim: s.Dim, Grey: d.b, Exact: true, Variance: d.variance(s.Dim)}
	if !d.grey {
		c = &Compact{Dim: s.Dim, Float32: d.f, Exact: !d.inexact, Variance: d.variance(s.Dim)}
	}
	// no rows kept still says their form
	if d.grey && c.Grey == nil {
		c.Grey = []uint8{}
	} else if !d.grey && c.Float32 == nil {
		c.Float32 = []float32{}
	}
	if d.describe {
		c.Info = d.info
	}
	if d.fingerprint {
		c.Fingerprint = d.fingerprintOf(s)
		d.delta = nil
	}
	return c, nil
}

// fingerprintOf returns Set.Fingerprint of the rows as read, of s's classes
// and labels: their values are the bytes' b/255, or float32 values and
// their deltas.
func (d *denseStore) fingerprintOf(s *Set) string {
	f := NewFingerprinter(s.Dim, s.Classes, d.n)
	idx := make([]int32, 0, s.Dim)
	val := make([]float64, 0, s.Dim)
	k := 0
	for i := range d.n {
		idx, val = idx[:0], val[:0]
		if d.grey {
			for j, b := range d.b[i*s.Dim : (i+1)*s.Dim] {
				if b != 0 {
					idx, val = append(idx, int32(j)), append(val, float64(b)/255)
				}
			}
		} else {
			for j, x := range d.f[i*s.Dim : (i+1)*s.Dim] {
				if x != 0 {
					idx, val = append(idx, int32(j)), append(val, undelta(x, d.delta[k]))
					k++
				}
			}
		}
		f.Add(s.Y[i], idx, val)
	}
	return f.Sum()
}

// btoi is 1 for true, 0 for false.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// String describes the rows: "720000 rows × 400 float32".
func (c *Compact) String() string {
	kind := "float32"
	if c.Grey != nil {
		kind = "bytes"
	}
	return fmt.Sprintf("%d rows × %d %s", c.Rows(), c.Dim, kind)
}
