package dataset

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
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
