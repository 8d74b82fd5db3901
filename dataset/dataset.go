package dataset

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
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
)

var formatNames = [...]string{"auto", "libsvm", "csv", "text"}

// String returns "auto", "libsvm", "csv" or "text".
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

// Default budgets; see Options.
const (
	DefaultMaxValues = 50_000_000
	DefaultMaxRows   = 10_000_000
	DefaultMaxDim    = 1 << 24
)

// Options control reading. The zero value means: guess the format, the
// default label column, the default budgets.
type Options struct {
	// Format overrides the guess from the file name and content.
	Format Format
	// LabelColumn picks the label column of a CSV file: a 1-based position
	// if it is a whole number, else a header name (compared without regard
	// to case). Empty means
	// the column named "label", "class", "target" or "y" (the first of
	// these present), else the last column. It is an error for other
	// formats.
	LabelColumn string
	// MaxValues bounds the non-zero values kept; zero means
	// DefaultMaxValues.
	MaxValues int
	// MaxRows bounds the rows; zero means DefaultMaxRows.
	MaxRows int
	// MaxDim bounds the number of features (the largest libsvm index);
	// zero means DefaultMaxDim. It cannot exceed 2³¹−1.
	MaxDim int
}

func (o Options) withDefaults() Options {
	if o.MaxValues <= 0 {
		o.MaxValues = DefaultMaxValues
	}
	if o.MaxRows <= 0 {
		o.MaxRows = DefaultMaxRows
	}
	if o.MaxDim <= 0 {
		o.MaxDim = DefaultMaxDim
	}
	o.MaxDim = min(o.MaxDim, math.MaxInt32)
	return o
}

// ErrFormat is wrapped by every *ParseError: the input is malformed.
var ErrFormat = errors.New("malformed data")

// ErrTooLarge is wrapped by errors that refuse input beyond a budget.
var ErrTooLarge = errors.New("exceeds limit")

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

// Label returns row i's label.
func (s *Set) Label(i int) string { return s.Classes[s.Y[i]] }

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
		return nil, fmt.Errorf("%s: a dense copy of %d rows × %d features is %d values, over the budget of %d (%.0f MB): %w",
			s.Name, n, s.Dim, uint64(n)*uint64(s.Dim), maxValues, float64(maxValues)*8/1e6, ErrTooLarge)
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

// builder accumulates rows under the budgets.
type builder struct {
	set   *Set
	opt   Options
	class map[string]int
}

func newBuilder(name string, f Format, opt Options) *builder {
	return &builder{set: &Set{Name: name, Format: f, RowStart: []int{0}}, opt: opt, class: map[string]int{}}
}

// add appends a non-zero value to the current row.
func (b *builder) add(j int, v float64, line int) error {
	if v == 0 {
		return nil
	}
	if len(b.set.Value) >= b.opt.MaxValues {
		return fmt.Errorf("%s:%d: more than %d non-zero values (the budget, about %.0f MB): %w",
			b.set.Name, line, b.opt.MaxValues, float64(b.opt.MaxValues)*12/1e6, ErrTooLarge)
	}
	b.set.Index = append(b.set.Index, int32(j))
	b.set.Value = append(b.set.Value, v)
	return nil
}

// startRow checks the row budget before a row is read.
func (b *builder) startRow(line int) error {
	if len(b.set.Y) >= b.opt.MaxRows {
		return fmt.Errorf("%s:%d: more than %d rows (the budget): %w", b.set.Name, line, b.opt.MaxRows, ErrTooLarge)
	}
	return nil
}

// endRow closes the current row with its label.
func (b *builder) endRow(label string) {
	label = normLabel(label)
	c, ok := b.class[label]
	if !ok {
		c = len(b.set.Classes)
		b.class[label] = c
		b.set.Classes = append(b.set.Classes, label)
	}
	b.set.Y = append(b.set.Y, c)
	b.set.RowStart = append(b.set.RowStart, len(b.set.Value))
}

// finish applies LIBSVM's two-class ±1 order and returns the set.
func (b *builder) finish() *Set {
	s := b.set
	if len(s.Classes) == 2 && s.Classes[0] == "-1" && s.Classes[1] == "1" {
		s.Classes[0], s.Classes[1] = "1", "-1"
		for i, c := range s.Y {
			s.Y[i] = 1 - c
		}
	}
	return s
}
