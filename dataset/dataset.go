package dataset

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"mark1/internal/base/atomicfile"
)

// Format is a text format for numeric data.
type Format int

const (
	// Auto guesses the format from the file name and content.
	Auto Format = iota
	// LibSVM is "label index:value ..." text.
	LibSVM
	// CSV is comma-separated values with a header line.
	CSV
	// Text is whitespace-separated columns, the label last.
	Text
	// IDX is MNIST's binary format: a file of images (unsigned bytes,
	// count × rows × columns) and a file of their labels.
	IDX
)

var formatNames = [...]string{"auto", "libsvm", "csv", "text", "idx"}

// String returns "auto", "libsvm", "csv", "text" or "idx".
func (f Format) String() string {
	if f >= 0 && int(f) < len(formatNames) {
		return formatNames[f]
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// ParseFormat reads a Format by its String name.
func ParseFormat(s string) (Format, error) {
	for i, n := range formatNames {
		if strings.EqualFold(s, n) {
			return Format(i), nil
		}
	}
	return 0, fmt.Errorf("unknown data format %q (want %s)", s, strings.Join(formatNames[:], ", "))
}

// Indices says how the feature indices of libsvm text are numbered.
type Indices int

const (
	// AutoIndices decides per file as scikit-learn's
	// load_svmlight_file(zero_based="auto") does: the indices are 0-based
	// when the file has an index 0 (or no index at all), else 1-based.
	AutoIndices Indices = iota
	// OneBased is LIBSVM's numbering: the first feature is 1; an index 0
	// is an error.
	OneBased
	// ZeroBased numbers the first feature 0, as scikit-learn's
	// dump_svmlight_file writes by default.
	ZeroBased
)

// String returns "auto", "1-based" or "0-based".
func (x Indices) String() string {
	switch x {
	case AutoIndices:
		return "auto"
	case OneBased:
		return "1-based"
	case ZeroBased:
		return "0-based"
	}
	return fmt.Sprintf("Indices(%d)", int(x))
}

// Default budgets; see Options. DefaultMaxValues and DefaultMaxRows are
// what the default MaxBytes holds, and bound what other readers (model
// files) keep without a budget of their own; DefaultMaxDim bounds a model
// file's features.
const (
	DefaultMaxValues = DefaultMaxBytes / valueBytes
	DefaultMaxRows   = DefaultMaxBytes / rowBytes
	DefaultMaxDim    = 1 << 24
	DefaultMaxBytes  = 1 << 29 // 512 MiB, as mark1's --max-memory
)

// The budget's shares that are not rows: with no MaxDim given, a file may
// have as many features as MaxBytes holds weights (8 bytes a feature: a
// learner keeps at least one float64 a feature), and a line of libsvm or
// text data may be an eighth of MaxBytes, one of CSV a 32nd (encoding/csv
// holds a record whole with 16 bytes more a field); none less than
// minLine, and no feature index above maxIndex, the largest an int32 holds
// (how the rows store an index: a bound of the storage, which no budget
// raises).
const (
	dimBytes      = 8
	lineShare     = 8
	csvLineShare  = 32
	minLine       = 64 << 10
	minDerivedDim = 1 << 16
	maxIndex      = math.MaxInt32
)

// A Bound says what raises the limit that an error wrapping ErrTooLarge
// was over; BoundOf tells it.
type Bound int

const (
	// BoundGiven is a limit the caller set (a count in Options or
	// IDXLimits, a budget passed to Dense or Scale), or an error not of
	// this package: the caller knows what raises it.
	BoundGiven Bound = iota
	// BoundBudget is the memory budget, Options.MaxBytes, or a limit
	// derived from it when no count is given (rows, values, features, a
	// line's length): a larger budget raises it.
	BoundBudget
	// BoundFormat is a bound of the format or of how the rows are stored
	// (a feature index is an int32): nothing raises it.
	BoundFormat
)

// boundWords says in a message what raises a limit of bound: the memory
// budget, or nothing.
func boundWords(bound Bound) string {
	switch bound {
	case BoundBudget:
		return " (derived from the memory budget)"
	case BoundFormat:
		return " (a bound of the format)"
	}
	return ""
}

// BoundOf returns what raises the limit err was refused over: BoundGiven
// when err is not this package's refusal over a limit.
func BoundOf(err error) Bound {
	var k *kindError
	if errors.As(err, &k) && k.kind == ErrTooLarge {
		return k.bound
	}
	return BoundGiven
}

// Bytes a row and a non-zero value take in a Set: a row's start and label,
// a value's index and value.
const (
	rowBytes   = 16
	valueBytes = 12
)

// Options control reading. The zero value means: guess the format, the
// default label column, the default budgets.
type Options struct {
	// Format overrides the guess from the file name and content.
	Format Format
	// Indices says how libsvm feature indices are numbered; the zero
	// value, AutoIndices, is scikit-learn's load_svmlight_file
	// zero_based="auto".
	Indices Indices
	// NoLabels reads files without a label: every CSV or text column is a
	// feature, and a libsvm line is "index:value ..." alone. The Set is
	// then Unlabelled.
	NoLabels bool
	// LabelColumn picks the label column of a CSV file: a 1-based position
	// if it is a whole number, else a header name (compared without regard
	// to case). Empty means
	// the column named "label", "class", "target" or "y" (the first of
	// these present), else the last column. It is an error for other
	// formats.
	LabelColumn string
	// MaxValues bounds the non-zero values kept; zero means what MaxBytes
	// holds (12 bytes a value): the byte budget rules, with no fixed
	// count beside it.
	MaxValues int
	// MaxRows bounds the rows; zero means what MaxBytes holds (16 bytes a
	// row).
	MaxRows int
	// MaxDim bounds the number of features (the largest libsvm index);
	// zero means DefaultMaxDim. It cannot exceed 2³¹−1.
	MaxDim int
	// MaxBytes bounds the memory of the rows kept, 16 bytes a row and 12
	// a non-zero value, checked as they are read: a small compressed file
	// can hold millions of rows. Zero means DefaultMaxBytes.
	MaxBytes int64

	hintValues, hintRows int // expected sizes, from ReadFile's first pass
	// what raises MaxValues, MaxRows and MaxDim (withDefaults): the budget
	// when derived from it, else the caller, or the storage (maxIndex)
	valuesBound, rowsBound, dimBound Bound
	defaulted                        bool   // withDefaults has run
	firstLine                        int    // lines of the file before the text read (ReadBlocks)
	blockRows                        int    // rows kept in blocks of this many (ReadFileBlocks); 0: one Set
	compact                          bool   // with blockRows, dense rows kept compact (ReadFileCompact)
	describe, fingerprint            bool   // with compact, the compact rows described (ReadFileDescribed)
	keep                             []bool // with compact, the rows kept (ReadFileCompactVisit); nil: all
	keepNone                         bool   // with compact, no row kept (ReadFileCompactVisit with no keep)
	// visit, with compact, is given each block of rows as read, before
	// they are kept (ReadFileCompactVisit)
	visit func(Block) error
	// each, with blockRows, is given every block as it is sealed, which is
	// then dropped (ReadBlocks): the budgets bound a block.
	each func(block *Set, first int) error
}

func (o Options) withDefaults() Options {
	if o.defaulted {
		return o
	}
	o.defaulted = true
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	// Derived from the bytes, the counts sit one above what the bytes
	// hold, so that the byte budget (rows and values together) is the
	// check that speaks.
	if o.MaxValues <= 0 {
		o.MaxValues, o.valuesBound = int(min(o.MaxBytes/valueBytes+1, math.MaxInt32)), BoundBudget
	}
	if o.MaxRows <= 0 {
		o.MaxRows, o.rowsBound = int(min(o.MaxBytes/rowBytes+1, math.MaxInt32)), BoundBudget
	}
	if o.MaxDim <= 0 {
		o.MaxDim, o.dimBound = int(max(o.MaxBytes/dimBytes, minDerivedDim)), BoundBudget
	}
	if o.MaxDim >= maxIndex {
		o.MaxDim, o.dimBound = maxIndex, BoundFormat
	}
	return o
}

// lineLimit returns the longest line of libsvm or text data (csv false) or
// of CSV (csv true) that the budget lets a reader hold.
func (o Options) lineLimit(csv bool) int {
	share := int64(lineShare)
	if csv {
		share = csvLineShare
	}
	return int(min(max(o.MaxBytes/share, minLine), math.MaxInt32))
}

// dimError reports a feature count over MaxDim, saying what raises it.
func (o Options) dimError(format string, a ...any) error {
	msg := fmt.Sprintf(format, a...)
	switch o.dimBound {
	case BoundBudget:
		msg += fmt.Sprintf(" (derived from the memory budget of %d bytes: %d bytes a feature, at least %d features)", o.MaxBytes, dimBytes, minDerivedDim)
	case BoundFormat:
		msg += " (the largest feature index the rows store, an int32)"
	}
	return boundf(o.dimBound, "%s", msg)
}

// ErrFormat is wrapped by every *ParseError: the input is malformed.
var ErrFormat = errors.New("malformed data")

// ErrTooLarge is mark1's one "too large" error, exported here, at the
// bottom of the packages that read data: every error that refuses input,
// memory or output beyond a limit wraps it — this package's readers, the
// loaders of images, the machine's data and the dials' pictures alike.
var ErrTooLarge = atomicfile.ErrTooLarge

// ParseError says where and why input did not parse.
type ParseError struct {
	File   string // the file name given to the reader
	Line   int    // 1-based line number; 0 when the problem is the whole file
	Column int    // 1-based field on the line (the label is field 1 in libsvm text); 0 when none
	Err    error  // the problem
}

// Error returns "file:line: field N: problem".
func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		b.WriteString(":" + strconv.Itoa(e.Line))
	}
	if e.Column > 0 {
		b.WriteString(": field " + strconv.Itoa(e.Column))
	}
	b.WriteString(": " + e.Err.Error())
	return b.String()
}

// Unwrap returns ErrFormat and the underlying problem.
func (e *ParseError) Unwrap() []error { return []error{ErrFormat, e.Err} }

func parseErr(file string, line, col int, format string, a ...any) error {
	return &ParseError{File: file, Line: line, Column: col, Err: fmt.Errorf(format, a...)}
}

// Set is a labelled data set in compressed sparse rows. Row i's non-zero
// features are Index[RowStart[i]:RowStart[i+1]] (0-based feature numbers,
// strictly increasing) with values Value[RowStart[i]:RowStart[i+1]]; its
// class is Y[i], an index into Classes. Every feature number is below Dim.
// Stored values are non-zero and finite.
type Set struct {
	// Name names the source, for messages (a file name).
	Name string
	// Format is the format the set was read from.
	Format   Format
	RowStart []int
	Index    []int32
	Value    []float64
	Y        []int
	// Classes holds the label of each class, in the order of first
	// appearance (see the package documentation).
	Classes []string
	// Dim is the number of features.
	Dim int
	// Features names the features of a CSV file (its header without the
	// label column); nil for other formats.
	Features []string
	// LabelName is the header name of a CSV file's label column; "" for
	// other formats and without labels.
	LabelName string
	// ZeroBased reports that libsvm text was read with 0-based indices
	// (Options.Indices, or found by AutoIndices).
	ZeroBased bool
	// QueryIDs counts the svmlight "qid:N" fields that were read and
	// ignored (they group rows for ranking, which no learner here does).
	QueryIDs int
	// Unlabelled reports a file read without labels (Options.NoLabels):
	// Classes is empty, every Y is 0 and Label returns "".
	Unlabelled bool

	blocks  []*Set   // the rows, for ReadFileBlocks
	compact *Compact // the rows, for ReadFileCompact
}

// Rows returns the number of rows.
func (s *Set) Rows() int { return len(s.Y) }

// NonZeros returns the number of stored values.
func (s *Set) NonZeros() int { return len(s.Value) }

// Row returns row i's feature numbers and values (views into the Set; do
// not modify them). It panics if i is out of range.
func (s *Set) Row(i int) (index []int32, value []float64) {
	a, b := s.RowStart[i], s.RowStart[i+1]
	return s.Index[a:b:b], s.Value[a:b:b]
}

// Label returns row i's label; "" when the set is Unlabelled.
func (s *Set) Label(i int) string {
	if s.Unlabelled {
		return ""
	}
	return s.Classes[s.Y[i]]
}

// DenseRow writes row i into dst, grown or cut to Dim, zeros included, and
// returns it.
func (s *Set) DenseRow(dst []float64, i int) []float64 {
	if cap(dst) < s.Dim {
		dst = make([]float64, s.Dim)
	}
	dst = dst[:s.Dim]
	clear(dst)
	idx, val := s.Row(i)
	for k, j := range idx {
		dst[j] = val[k]
	}
	return dst
}

// Dense returns every row as a dense slice of length Dim (one allocation).
// It refuses, with an error wrapping ErrTooLarge, when Rows × Dim exceeds
// maxValues (so that a sparse file with many features is not blown up by
// accident); maxValues ≤ 0 means DefaultMaxValues.
func (s *Set) Dense(maxValues int) ([][]float64, error) {
	if maxValues <= 0 {
		maxValues = DefaultMaxValues
	}
	n := s.Rows()
	if s.Dim > 0 && n > maxValues/s.Dim {
		return nil, tooLargef("%s: a dense copy of %d rows × %d features is %d values, over the budget of %d (%.0f MB)",
			s.Name, n, s.Dim, uint64(n)*uint64(s.Dim), maxValues, float64(maxValues)*8/1e6)
	}
	flat := make([]float64, n*s.Dim)
	X := make([][]float64, n)
	for i := range X {
		X[i] = s.DenseRow(flat[i*s.Dim:(i+1)*s.Dim:(i+1)*s.Dim], i)
	}
	return X, nil
}

// ClassIndex returns the class number of label, after the same
// normalization as the readers (numbers in shortest form), and whether it
// is one of the Set's classes.
func (s *Set) ClassIndex(label string) (int, bool) {
	label = normLabel(label)
	for c, n := range s.Classes {
		if n == label {
			return c, true
		}
	}
	return -1, false
}

// normLabel writes a numeric label in shortest form and leaves other text as
// it is.
func normLabel(s string) string {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return s
	}
	if v == 0 {
		v = 0 // −0 is the class "0"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// builder accumulates rows under the budgets. With opt.blockRows, the
// rows (RowStart, Index, Value) are sealed into a new block every
// blockRows rows, while set.Y gathers every label.
type builder struct {
	set   *Set
	opt   Options
	class map[string]int

	blocks []*Set      // sealed blocks (opt.blockRows > 0)
	dense  *denseStore // the rows kept compact (opt.compact)
	sealed int         // the non-zeros of the sealed blocks
	given  int         // the rows of the blocks given to opt.each (and gone from set.Y)
	// shifted: the rows under way have their libsvm indices shifted
	// (eachIndex), no longer as read
	shifted bool
}

// read returns the number of rows read so far.
func (b *builder) read() int { return b.given + len(b.set.Y) }

func newBuilder(name string, f Format, opt Options) *builder {
	b := &builder{set: &Set{Name: name, Format: f}, opt: opt, class: map[string]int{}}
	if opt.compact && opt.blockRows > 0 && opt.each == nil {
		b.dense = &denseStore{describe: opt.describe, fingerprint: opt.fingerprint, keep: opt.keep, keepNone: opt.keepNone}
		for _, k := range opt.keep {
			b.dense.kept += btoi(k)
		}
	}
	rows := min(opt.hintRows, opt.MaxRows, int(opt.MaxBytes/rowBytes))
	if opt.each != nil { // set.Y holds a block's labels
		rows = min(rows, opt.blockRows)
	}
	if rows > 0 {
		b.set.Y = make([]int, 0, rows)
	}
	b.rows()
	return b
}

// rows starts the arrays of the rows to come: the whole file's, or the
// next block's, sized from ReadFile's first pass when there was one.
func (b *builder) rows() {
	o := b.opt
	rows := min(o.hintRows, o.MaxRows, int(o.MaxBytes/rowBytes))
	values := min(o.hintValues, o.MaxValues, int(o.MaxBytes/valueBytes))
	if o.blockRows > 0 && rows > 0 {
		values = int(int64(values) * int64(min(o.blockRows, rows)) / int64(rows))
		rows = min(o.blockRows, rows)
	}
	b.set.RowStart = make([]int, 1, rows+1)
	b.set.Index, b.set.Value = nil, nil
	if values > 0 {
		b.set.Index = make([]int32, 0, values)
		b.set.Value = make([]float64, 0, values)
	}
}

// values returns the number of non-zeros read so far.
func (b *builder) values() int { return b.sealed + len(b.set.Value) }

// add appends a non-zero value to the current row.
func (b *builder) add(j int, v float64, line int) error {
	if v == 0 {
		return nil
	}
	if b.values() >= b.opt.MaxValues {
		return boundf(b.opt.valuesBound, "%s:%d: more than %d non-zero values (the limit on values)",
			b.set.Name, line, b.opt.MaxValues)
	}
	if err := b.checkBytes(line, 1, 1); err != nil { // the row under way is not in Y yet
		return err
	}
	b.set.Index = append(b.set.Index, int32(j))
	b.set.Value = append(b.set.Value, v)
	return nil
}

// startRow checks the row budget before a row is read.
func (b *builder) startRow(line int) error {
	if len(b.set.Y) >= b.opt.MaxRows {
		return boundf(b.opt.rowsBound, "%s:%d: more than %d rows (the limit on rows)", b.set.Name, line, b.opt.MaxRows)
	}
	return b.checkBytes(line, 1, 0)
}

// checkBytes reports an error if the rows read so far and rows more rows
// and values more values would take more than the byte budget.
func (b *builder) checkBytes(line, rows, values int) error {
	need := int64(len(b.set.Y)+rows)*rowBytes + int64(b.values()+values)*valueBytes + b.dense.bytes()
	if need > b.opt.MaxBytes && b.dense.bytes() > 0 {
		return b.denseOver(line, len(b.set.Y)+rows, need)
	}
	if need > b.opt.MaxBytes {
		return boundf(BoundBudget, "%s:%d: the %d rows and %d non-zero values read so far take %d bytes, over the budget of %d bytes (the memory budget; %d bytes a row, %d a value)",
			b.set.Name, line, len(b.set.Y)+rows, b.values()+values, need, b.opt.MaxBytes, rowBytes, valueBytes)
	}
	return nil
}

// endRow closes the current row with its label (ignored for a set read
// without labels); the error is opt.each's.
func (b *builder) endRow(label string) error {
	if b.opt.NoLabels {
		b.set.Unlabelled = true
		b.set.Y = append(b.set.Y, 0)
		b.set.RowStart = append(b.set.RowStart, len(b.set.Value))
		return b.seal(false)
	}
	label = normLabel(label)
	c, ok := b.class[label]
	if !ok {
		c = len(b.set.Classes)
		b.class[label] = c
		b.set.Classes = append(b.set.Classes, label)
	}
	b.set.Y = append(b.set.Y, c)
	b.set.RowStart = append(b.set.RowStart, len(b.set.Value))
	return b.seal(false)
}

// seal moves the rows under way into a block of their own when they fill
// one (or, at the end, when there are any): kept, or given to opt.each
// with the set's description so far and its share of Y, and dropped.
func (b *builder) seal(end bool) error {
	n := len(b.set.RowStart) - 1
	if b.opt.blockRows == 0 || n == 0 || (n < b.opt.blockRows && !end) {
		return nil
	}
	if b.dense != nil && b.dense.state != sparse {
		return b.sealDense(end)
	}
	blk := &Set{RowStart: b.set.RowStart, Index: b.set.Index, Value: b.set.Value}
	if b.opt.each == nil {
		b.blocks = append(b.blocks, blk)
		b.sealed += len(b.set.Value)
	} else {
		s := b.set
		blk.Name, blk.Format, blk.Dim, blk.Features, blk.LabelName, blk.Unlabelled = s.Name, s.Format, s.Dim, s.Features, s.LabelName, s.Unlabelled
		// copies: finish may swap the classes ±1 in place, and set.Y is
		// reused for the next block's labels
		blk.Classes, blk.Y = slices.Clone(s.Classes), slices.Clone(s.Y)
		first := b.given
		b.given += n
		s.Y = s.Y[:0]
		if err := b.opt.each(blk, first); err != nil {
			return err
		}
	}
	if !end {
		b.rows()
	}
	return nil
}

// eachIndex calls fn with the feature indices of every row read, block by
// block (readLibSVM's shift of 1-based indices); rows already kept compact
// only note that their columns are the indices read (denseStore.raw).
func (b *builder) eachIndex(fn func([]int32)) {
	if b.dense != nil && b.dense.state == dense {
		b.dense.raw = true // the compact rows' columns stay the indices read
		return
	}
	for _, blk := range b.blocks {
		fn(blk.Index)
	}
	fn(b.set.Index)
	b.shifted = true
}

// plusOneFirst applies LIBSVM's two-class order to classes in order of
// first appearance and the labels y numbered by them, in place: when the
// classes are "-1" then "1", "1" becomes class 0 (the package
// documentation).
func plusOneFirst(classes []string, y []int) {
	if len(classes) == 2 && classes[0] == "-1" && classes[1] == "1" {
		classes[0], classes[1] = "1", "-1"
		for i, c := range y {
			y[i] = 1 - c
		}
	}
}

// finish applies LIBSVM's two-class ±1 order and returns the set. With
// blocks, the set's rows are empty and each block gets the set's
// description and its share of Y; given to opt.each, the last block is
// given now, and the error is opt.each's.
func (b *builder) finish() (*Set, error) {
	s := b.set
	if b.opt.each != nil {
		if err := b.seal(true); err != nil {
			return nil, err
		}
		s.RowStart, s.Index, s.Value = []int{0}, nil, nil
	}
	plusOneFirst(s.Classes, s.Y)
	if b.opt.blockRows > 0 && b.opt.each == nil {
		if err := b.seal(true); err != nil {
			return nil, err
		}
		s.RowStart, s.Index, s.Value = []int{0}, nil, nil
		if b.dense != nil && b.dense.state == dense {
			c, err := b.finishDense()
			if err != nil {
				return nil, err
			}
			s.compact = c
			return s, nil
		}
		first := 0
		for _, blk := range b.blocks {
			rows, idx, val := blk.RowStart, blk.Index, blk.Value
			*blk = *s
			blk.RowStart, blk.Index, blk.Value = rows, idx, val
			blk.Y = s.Y[first : first+len(rows)-1 : first+len(rows)-1]
			first += len(rows) - 1
		}
		s.blocks = b.blocks
	}
	return s, nil
}

// Variance returns the variance of all Rows × Dim entries of the data,
// zeros included — numpy's X.var(), which scikit-learn's gamma="scale"
// divides by. It is 0 for an empty set.
func (s *Set) Variance() float64 {
	n := float64(s.Rows()) * float64(s.Dim)
	if n == 0 {
		return 0
	}
	var sum float64
	for _, v := range s.Value {
		sum += v
	}
	mean := sum / n
	var ss float64
	for _, v := range s.Value {
		d := v - mean
		ss += d * d
	}
	ss += (n - float64(len(s.Value))) * mean * mean
	return ss / n
}

// Subset returns the given rows of s, in that order, as a new Set with the
// same classes (values copied into arrays of their exact size: a fold of
// cross-validation holds no spare capacity and makes no garbage).
func (s *Set) Subset(rows []int) *Set {
	nnz := 0
	for _, i := range rows {
		nnz += s.RowStart[i+1] - s.RowStart[i]
	}
	out := &Set{Name: s.Name, Format: s.Format, Classes: s.Classes, Dim: s.Dim, Features: s.Features,
		LabelName: s.LabelName, ZeroBased: s.ZeroBased, Unlabelled: s.Unlabelled,
		RowStart: make([]int, 1, len(rows)+1), Y: make([]int, 0, len(rows)),
		Index: make([]int32, 0, nnz), Value: make([]float64, 0, nnz)}
	for _, i := range rows {
		idx, val := s.Row(i)
		out.Index = append(out.Index, idx...)
		out.Value = append(out.Value, val...)
		out.RowStart = append(out.RowStart, len(out.Value))
		out.Y = append(out.Y, s.Y[i])
	}
	return out
}

// Split divides s into a training part and a held-out part as Holdout
// chooses (about frac of each class, drawn with seed). Both parts keep s's
// row order. It panics if frac is not in [0, 1).
func (s *Set) Split(frac float64, seed uint64) (train, test *Set) {
	var tr, te []int
	for i, h := range Holdout(s.Y, len(s.Classes), frac, seed) {
		if h {
			te = append(te, i)
		} else {
			tr = append(tr, i)
		}
	}
	return s.Subset(tr), s.Subset(te)
}

// Holdout chooses the rows to hold out for testing, stratified: about frac
// of each class's rows (labels[i] is row i's class, in [0, classes)), in
// an order drawn from seed; each class with at least two rows keeps at least
// one on each side. The same seed gives the same choice. It panics if frac
// is not in [0, 1) or a label is out of range. The image loaders split
// pictures with it too.
func Holdout(labels []int, classes int, frac float64, seed uint64) []bool {
	if !(frac >= 0 && frac < 1) {
		panic("dataset: split fraction out of [0, 1)")
	}
	rng := rand.New(rand.NewPCG(seed, 0x5eed5b1177))
	byClass := make([][]int, classes)
	for i, c := range labels {
		if c < 0 || c >= classes {
			panic(fmt.Sprintf("dataset: Holdout: row %d: label %d out of range [0, %d)", i, c, classes))
		}
		byClass[c] = append(byClass[c], i)
	}
	held := make([]bool, len(labels))
	for _, idx := range byClass {
		rng.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
		k := int(frac*float64(len(idx)) + 0.5)
		if frac > 0 && k == 0 && len(idx) >= 2 {
			k = 1
		}
		if k == len(idx) && k > 0 {
			k--
		}
		for _, i := range idx[:k] {
			held[i] = true
		}
	}
	return held
}

// Relabel renumbers s's rows onto the given classes (a training set's), by
// label. It returns an error naming the first label that is not among
// them, and leaves s unchanged then.
func (s *Set) Relabel(classes []string) error {
	pos := make(map[string]int, len(classes))
	for c, n := range classes {
		pos[n] = c
	}
	to := make([]int, len(s.Classes))
	for c, n := range s.Classes {
		k, ok := pos[n]
		if !ok {
			return fmt.Errorf("%s: label %q is not one of the training data's classes (%s)", s.Name, n, strings.Join(classes, " "))
		}
		to[c] = k
	}
	y := make([]int, len(s.Y))
	for i, c := range s.Y {
		y[i] = to[c]
	}
	s.Y, s.Classes = y, classes
	return nil
}

// kindError is an error of a kind (ErrTooLarge, ErrUnsupported,
// ErrNoLabelsFile) that errors.Is tells, whose message gives the numbers
// and names without repeating the kind's words.
type kindError struct {
	kind  error
	msg   string
	bound Bound // for ErrTooLarge: what raises the limit
}

func (e *kindError) Error() string { return e.msg }
func (e *kindError) Unwrap() error { return e.kind }

// kindf returns a kindError of kind with the message fmt.Sprintf(format, a...).
func kindf(kind error, format string, a ...any) error {
	return &kindError{kind: kind, msg: fmt.Sprintf(format, a...)}
}

// tooLargef returns an error over a limit the caller gave, wrapping
// ErrTooLarge.
func tooLargef(format string, a ...any) error { return kindf(ErrTooLarge, format, a...) }

// boundf returns an error over a limit that bound raises, wrapping
// ErrTooLarge.
func boundf(bound Bound, format string, a ...any) error {
	return &kindError{kind: ErrTooLarge, msg: fmt.Sprintf(format, a...), bound: bound}
}

// Fingerprint returns the SHA-256 of the set's content in hexadecimal: its
// dimension, class labels, and every row's label, indices and values
// (their bits). Two reads of the same data — whatever the file's format,
// compression or number spelling — have the same fingerprint; any changed
// value, label or row order changes it.
func (s *Set) Fingerprint() string {
	f := NewFingerprinter(s.Dim, s.Classes, s.Rows())
	for i := range s.Rows() {
		idx, val := s.Row(i)
		f.Add(s.Y[i], idx, val)
	}
	return f.Sum()
}

// A Fingerprinter computes Set.Fingerprint of rows given one at a time, in
// order, by a reader that does not hold them all (ReadBlocks): made with
// the set's dimension, classes and number of rows, which the hash begins
// with, it is given every row (Add) and then says the fingerprint (Sum).
type Fingerprinter struct {
	h   hash.Hash
	buf []byte // what is not hashed yet: written to the hash a few kilobytes at a time
}

// fingerprintBuffer is the bytes a Fingerprinter writes to its hash at a
// time: a Write of every number alone took half the time of a fingerprint.
const fingerprintBuffer = 8 << 10

// NewFingerprinter begins the fingerprint of a set of rows rows of dim
// features whose classes are classes (Set.Classes, in their order).
func NewFingerprinter(dim int, classes []string, rows int) *Fingerprinter {
	f := &Fingerprinter{h: sha256.New(), buf: make([]byte, 0, fingerprintBuffer)}
	f.put(uint64(dim))
	f.put(uint64(len(classes)))
	for _, c := range classes {
		f.put(uint64(len(c)))
		f.flush()
		f.h.Write([]byte(c))
	}
	f.put(uint64(rows))
	return f
}

// flush hashes the buffered bytes.
func (f *Fingerprinter) flush() {
	f.h.Write(f.buf)
	f.buf = f.buf[:0]
}

func (f *Fingerprinter) put(v uint64) {
	if len(f.buf)+8 > cap(f.buf) {
		f.flush()
	}
	f.buf = binary.LittleEndian.AppendUint64(f.buf, v)
}

// Add hashes the next row: its class y (an index into the classes) and its
// non-zero features idx with their values val (Set.Row).
func (f *Fingerprinter) Add(y int, idx []int32, val []float64) {
	f.put(uint64(y))
	f.put(uint64(len(idx)))
	for k, j := range idx {
		f.put(uint64(j))
		f.put(math.Float64bits(val[k]))
	}
}

// Sum returns the fingerprint of the rows added, in hexadecimal.
func (f *Fingerprinter) Sum() string {
	f.flush()
	return hex.EncodeToString(f.h.Sum(nil))
}

// Describe returns s without its rows: its name, format, dimension,
// indices, whether it has labels and its query IDs, as a report describes
// a file read a block at a time.
func (s *Set) Describe() *Set {
	return &Set{Name: s.Name, Format: s.Format, Dim: s.Dim, ZeroBased: s.ZeroBased, Unlabelled: s.Unlabelled}
}
