package images

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
)

// maxLibSVMLine bounds the length of one libsvm line, in bytes.
const maxLibSVMLine = 64 << 20

// sparseRowOverhead is the memory of a sparse row besides its values: the
// row and its two slice headers, rounded up.
const sparseRowOverhead = 100

// sparseRow is one libsvm line: its label and its non-zero features with
// 1-based, strictly increasing indices.
type sparseRow struct {
	label float64
	index []int
	value []float64
	line  int // 1-based line number, for messages
}

// readSparse parses libsvm text into sparse rows and returns them with the
// dimension, the largest index seen. Blank lines and everything after a '#'
// are ignored; fields are separated by white space; a line ending in
// "\r\n" and a UTF-8 byte-order mark are accepted.
func readSparse(r io.Reader, name string, lim Limits) (rows []sparseRow, dim int, err error) {
	lim = lim.withDefaults()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLibSVMLine)
	line := 0
	var held int64
	for sc.Scan() {
		line++
		text := sc.Bytes()
		if line == 1 {
			text = bytes.TrimPrefix(text, []byte("\ufeff")) // a byte-order mark
		}
		if i := bytes.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		fields := bytes.Fields(text)
		if len(fields) == 0 {
			continue
		}
		if len(rows) == lim.MaxSamples {
			return nil, 0, errorf(ErrTooLarge, "%s:%d: more than %d samples (the MaxSamples limit)", name, line, lim.MaxSamples)
		}
		// The sparse rows take memory as they are read: about 100 bytes a
		// row and 16 a value.
		held += sparseRowOverhead + 16*int64(len(fields)-1)
		if held > lim.MaxBytes {
			return nil, 0, errorf(ErrTooLarge, "%s:%d: %d rows so far take about %d bytes of memory, over the limit of %d (raise it with --max-memory)", name, line, len(rows)+1, held, lim.MaxBytes)
		}
		row := sparseRow{line: line}
		row.label, err = parseNumber(fields[0])
		if err != nil {
			return nil, 0, errorf(ErrFormat, "%s:%d: label %q: %w", name, line, clip(fields[0]), err)
		}
		if len(fields) > 1 {
			row.index = make([]int, 0, len(fields)-1)
			row.value = make([]float64, 0, len(fields)-1)
		}
		last := 0
		for k, f := range fields[1:] {
			colon := bytes.IndexByte(f, ':')
			if colon < 0 {
				return nil, 0, errorf(ErrFormat, "%s:%d: feature %d %q is not index:value", name, line, k+1, clip(f))
			}
			idx, err := strconv.Atoi(string(f[:colon]))
			if err != nil {
				return nil, 0, errorf(ErrFormat, "%s:%d: feature %d %q: index is not an integer", name, line, k+1, clip(f))
			}
			if idx < 1 {
				return nil, 0, errorf(ErrFormat, "%s:%d: feature %d %q: index %d is below 1 (libsvm indices start at 1)", name, line, k+1, clip(f), idx)
			}
			if idx <= last {
				return nil, 0, errorf(ErrFormat, "%s:%d: feature %d %q: index %d does not increase (previous %d)", name, line, k+1, clip(f), idx, last)
			}
			if idx > lim.MaxPixels {
				return nil, 0, tooLarge(fmt.Sprintf("%s:%d", name, line), "feature index", idx, lim.MaxPixels)
			}
			v, err := parseNumber(f[colon+1:])
			if err != nil {
				return nil, 0, errorf(ErrFormat, "%s:%d: feature %d %q: value: %w", name, line, k+1, clip(f), err)
			}
			last = idx
			if v == 0 {
				continue
			}
			row.index = append(row.index, idx)
			row.value = append(row.value, v)
		}
		dim = max(dim, last)
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, 0, errorf(ErrTooLarge, "%s:%d: line longer than %d bytes", name, line+1, maxLibSVMLine)
		}
		return nil, 0, fmt.Errorf("%s: reading libsvm: %w", name, err)
	}
	if len(rows) == 0 {
		return nil, 0, errorf(ErrFormat, "%s: no samples (libsvm text needs lines of \"label index:value ...\")", name)
	}
	return rows, dim, nil
}

// parseNumber parses a finite decimal number.
func parseNumber(b []byte) (float64, error) {
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) {
			return 0, errors.New("out of range")
		}
		return 0, errors.New("not a number")
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, errors.New("not a finite number")
	}
	return v, nil
}

// clip shortens b for quoting in a message.
func clip(b []byte) string {
	const n = 40
	if len(b) > n {
		return string(b[:n]) + "..."
	}
	return string(b)
}

// ReadLibSVM reads libsvm (svmlight) text: one sample a line, "label
// index:value index:value ...", indices 1-based and strictly increasing,
// absent features zero. Blank lines and '#' comments are ignored. It returns
// dense rows whose length is the largest index seen in the file, and the
// labels. Labels and values must be finite numbers.
//
// The largest index is checked against lim.MaxPixels, the line count against
// lim.MaxSamples, and rows × dimension against lim.MaxValues before the dense
// rows are allocated. Errors name the file (name), the line and the problem.
func ReadLibSVM(r io.Reader, name string, lim Limits) (X [][]float64, labels []float64, err error) {
	lim = lim.withDefaults()
	rows, dim, err := readSparse(r, name, lim)
	if err != nil {
		return nil, nil, err
	}
	if _, ok := mulLimit(len(rows), dim, lim.MaxValues); !ok {
		return nil, nil, tooLarge(name, fmt.Sprintf("dense size (%d rows × %d features)", len(rows), dim), saturatingProduct([]int{len(rows), dim}), lim.MaxValues)
	}
	X = make([][]float64, len(rows))
	labels = make([]float64, len(rows))
	flat := make([]float64, len(rows)*dim)
	for i, row := range rows {
		x := flat[i*dim : (i+1)*dim : (i+1)*dim]
		for k, j := range row.index {
			x[j-1] = row.value[k]
		}
		X[i] = x
		labels[i] = row.label
	}
	return X, labels, nil
}

// WriteLibSVM writes X and labels as libsvm text, one row a line, with only
// the non-zero features, numbers in the shortest form that reads back to the
// same float64 (strconv 'g', precision -1). So that the dimension survives a
// round trip through ReadLibSVM, the first line ends with an explicit
// "d:0" when no row has a non-zero last feature. Rows must all have the same
// length; values and labels must be finite (an error names the row and
// column otherwise). It panics if len(X) != len(labels).
func WriteLibSVM(w io.Writer, X [][]float64, labels []float64) error {
	if len(X) != len(labels) {
		panic(fmt.Sprintf("images: WriteLibSVM with %d rows and %d labels", len(X), len(labels)))
	}
	dim := 0
	if len(X) > 0 {
		dim = len(X[0])
	}
	lastUsed := false
	for i, x := range X {
		if len(x) != dim {
			return fmt.Errorf("images: libsvm row %d has %d features; row 0 has %d", i, len(x), dim)
		}
		if math.IsNaN(labels[i]) || math.IsInf(labels[i], 0) {
			return fmt.Errorf("images: libsvm row %d: label %v is not finite", i, labels[i])
		}
		for j, v := range x {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("images: libsvm row %d, feature %d: value %v is not finite", i, j+1, v)
			}
		}
		if dim > 0 && x[dim-1] != 0 {
			lastUsed = true
		}
	}
	bw := bufio.NewWriter(w)
	var buf []byte
	for i, x := range X {
		buf = strconv.AppendFloat(buf[:0], labels[i], 'g', -1, 64)
		for j, v := range x {
			if v == 0 {
				continue
			}
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, int64(j+1), 10)
			buf = append(buf, ':')
			buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
		}
		if i == 0 && dim > 0 && !lastUsed {
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, int64(dim), 10)
			buf = append(buf, ":0"...)
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}
