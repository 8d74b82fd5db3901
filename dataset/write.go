package dataset

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
)

// WriteLibSVM writes s as libsvm text: one row a line, the label, then the
// non-zero features as 1-based index:value, numbers in the shortest form
// that reads back to the same float64. So that the dimension survives a
// round trip, the first line ends with an explicit "Dim:0" when no row has
// the last feature. Every class name must be a number (libsvm labels are);
// the error names the first that is not.
func WriteLibSVM(w io.Writer, s *Set) error {
	for _, c := range s.Classes {
		if _, err := number([]byte(c)); err != nil {
			return fmt.Errorf("%s: class %q cannot be a libsvm label: %v", s.Name, c, err)
		}
	}
	lastUsed := false
	for _, j := range s.Index {
		if int(j) == s.Dim-1 {
			lastUsed = true
			break
		}
	}
	bw := bufio.NewWriter(w)
	var buf []byte
	for i := range s.Rows() {
		buf = append(buf[:0], s.Label(i)...)
		idx, val := s.Row(i)
		for k, j := range idx {
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, int64(j)+1, 10)
			buf = append(buf, ':')
			buf = strconv.AppendFloat(buf, val[k], 'g', -1, 64)
		}
		if i == 0 && s.Dim > 0 && !lastUsed {
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, int64(s.Dim), 10)
			buf = append(buf, ":0"...)
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// WriteCSV writes s as CSV: a header (the feature names of a set read from
// CSV, else x1 … xDim, then "label"), then one line per row with every
// feature, zeros included, and the label last.
func WriteCSV(w io.Writer, s *Set) error {
	cw := csv.NewWriter(w)
	rec := make([]string, s.Dim+1)
	for j := range s.Dim {
		if j < len(s.Features) {
			rec[j] = s.Features[j]
		} else {
			rec[j] = "x" + strconv.Itoa(j+1)
		}
	}
	rec[s.Dim] = "label"
	if err := cw.Write(rec); err != nil {
		return err
	}
	var x []float64
	for i := range s.Rows() {
		x = s.DenseRow(x, i)
		for j, v := range x {
			rec[j] = strconv.FormatFloat(v, 'g', -1, 64)
		}
		rec[s.Dim] = s.Label(i)
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// FromDense returns the rows of X, with their numeric labels, as a Set
// named name, for writing (WriteLibSVM, WriteCSV) or for the learners: the
// classes are the labels in shortest form, in the readers' order (first
// appearance, "1" before "-1"), and only non-zero values are kept. Rows
// must all have one length, and labels and values must be finite; an error
// names the row (0-based) and the feature (1-based) otherwise. It panics
// if len(X) != len(labels).
func FromDense(name string, X [][]float64, labels []float64) (*Set, error) {
	if len(X) != len(labels) {
		panic(fmt.Sprintf("dataset: FromDense with %d rows and %d labels", len(X), len(labels)))
	}
	b := &builder{set: &Set{Name: name, Format: LibSVM, RowStart: make([]int, 1, len(X)+1), Y: make([]int, 0, len(X))}, class: map[string]int{}}
	if len(X) > 0 {
		b.set.Dim = len(X[0])
	}
	for i, x := range X {
		if len(x) != b.set.Dim {
			return nil, fmt.Errorf("%s: row %d has %d features; row 0 has %d", name, i, len(x), b.set.Dim)
		}
		if math.IsNaN(labels[i]) || math.IsInf(labels[i], 0) {
			return nil, fmt.Errorf("%s: row %d: label %v is not finite", name, i, labels[i])
		}
		for j, v := range x {
			switch {
			case math.IsNaN(v) || math.IsInf(v, 0):
				return nil, fmt.Errorf("%s: row %d, feature %d: value %v is not finite", name, i, j+1, v)
			case v != 0:
				b.set.Index = append(b.set.Index, int32(j))
				b.set.Value = append(b.set.Value, v)
			}
		}
		b.endRow(strconv.FormatFloat(labels[i], 'g', -1, 64)) // no blocks: no error
	}
	return b.finish()
}
