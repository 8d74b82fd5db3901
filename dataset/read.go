package dataset

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

	"mark1/internal/atomicfile"
)

// maxLine bounds one line of libsvm or text data, in bytes.
const maxLine = 64 << 20

// ReadFile reads the data file at path; see Read. A gzip-compressed file is
// decompressed on the fly. Errors name path.
func ReadFile(path string, opt Options) (*Set, error) {
	f, err := atomicfile.Open(path) // a regular file: a named pipe must not block
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	var r io.Reader = br
	name := path
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%s: gzip: %w", path, err)
		}
		defer zr.Close()
		r = zr
		name = strings.TrimSuffix(path, ".gz")
	}
	if opt.Format == Auto {
		opt.Format = formatFromName(name)
	}
	if r == br {
		// A plain file can be read twice: count the colons (an upper bound
		// on libsvm's non-zeros) and lines first, so that the rows are
		// stored in arrays of their final size instead of grown by copying.
		if opt.hintValues, opt.hintRows, err = countFile(f); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		br.Reset(f)
	}
	s, err := Read(r, path, opt)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// countFile counts the ':' and '\n' bytes of f and rewinds it.
func countFile(f *os.File) (colons, lines int, err error) {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return 0, 0, err
	}
	buf := make([]byte, 1<<20)
	for {
		n, err := f.Read(buf)
		colons += bytes.Count(buf[:n], []byte{':'})
		lines += bytes.Count(buf[:n], []byte{'\n'})
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, 0, err
		}
	}
	_, err = f.Seek(0, io.SeekStart)
	return colons, lines + 1, err
}

// formatFromName guesses a format from a file's extension; Auto when the
// name does not tell.
func formatFromName(name string) Format {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".csv":
		return CSV
	case ".libsvm", ".svm", ".svmlight", ".scale", ".t":
		return LibSVM
	}
	return Auto
}

// Read reads data in opt.Format (Auto: guessed from the first line that is
// neither blank nor a comment) from r; name names the source in errors and
// becomes Set.Name. See the package documentation for the formats, the
// class order and the budgets.
func Read(r io.Reader, name string, opt Options) (*Set, error) {
	opt = opt.withDefaults()
	br := bufio.NewReaderSize(r, 64<<10)
	if bom, _ := br.Peek(3); bytes.Equal(bom, []byte("\ufeff")) {
		br.Discard(3)
	}
	f := opt.Format
	if f == Auto {
		f = sniff(br)
	}
	if opt.LabelColumn != "" && f != CSV {
		return nil, fmt.Errorf("%s: a label column (%q) is only for CSV files; this is %s data", name, opt.LabelColumn, f)
	}
	switch f {
	case LibSVM:
		return readLibSVM(br, name, opt)
	case CSV:
		return readCSV(br, name, opt)
	case Text:
		return readText(br, name, opt)
	}
	panic(fmt.Sprintf("dataset: Read with %v", f))
}

// sniff guesses the format from the first data line within the first 64 KiB.
func sniff(br *bufio.Reader) Format {
	buf, _ := br.Peek(64 << 10)
	for len(buf) > 0 {
		line := buf
		if i := bytes.IndexByte(buf, '\n'); i >= 0 {
			line, buf = buf[:i], buf[i+1:]
		} else {
			buf = nil
		}
		if i := bytes.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		fields := bytes.Fields(line)
		switch {
		case len(fields) == 0:
			continue
		case len(fields) > 1 && bytes.IndexByte(fields[1], ':') > 0:
			return LibSVM
		case bytes.IndexByte(line, ',') >= 0:
			return CSV
		}
		return Text
	}
	return Text
}

// number parses a finite number, or says in words why b is not one.
func number(b []byte) (float64, error) {
	if len(b) == 0 {
		return 0, errors.New("empty value (missing values are not supported)")
	}
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) {
			return 0, fmt.Errorf("%q is out of the range of a float64", clip(b))
		}
		return 0, fmt.Errorf("%q is not a number", clip(b))
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not a finite number (NaN and Inf are refused)", clip(b))
	}
	return v, nil
}

// splitFields appends the white-space separated fields of b to dst, as
// bytes.Fields does but into a reused slice (a line of a sparse file can
// have thousands of fields).
func splitFields(dst [][]byte, b []byte) [][]byte {
	for _, c := range b {
		if c >= 0x80 { // Unicode white space: leave it to bytes.Fields
			return append(dst, bytes.Fields(b)...)
		}
	}
	start := -1
	for i, c := range b {
		space := c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
		switch {
		case space && start >= 0:
			dst = append(dst, b[start:i:i])
			start = -1
		case !space && start < 0:
			start = i
		}
	}
	if start >= 0 {
		dst = append(dst, b[start:len(b):len(b)])
	}
	return dst
}

// atoi parses a decimal integer of at most 18 digits, with an optional
// sign, without allocating.
func atoi(b []byte) (int, bool) {
	neg := false
	if len(b) > 0 && (b[0] == '+' || b[0] == '-') {
		neg, b = b[0] == '-', b[1:]
	}
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// clip shortens b for quoting in a message.
func clip(b []byte) string {
	const n = 40
	if len(b) > n {
		return string(b[:n]) + "..."
	}
	return string(b)
}

// lines calls fn with every line's fields (comments after '#' removed,
// blank lines skipped) and its 1-based number.
func lines(r io.Reader, name string, fn func(fields [][]byte, line int) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	line := 0
	var fields [][]byte
	for sc.Scan() {
		line++
		text := sc.Bytes()
		if i := bytes.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		fields = splitFields(fields[:0], text)
		if len(fields) == 0 {
			continue
		}
		if err := fn(fields, line); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return fmt.Errorf("%s:%d: line longer than %d bytes: %w", name, line+1, maxLine, ErrTooLarge)
		}
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

func readLibSVM(r io.Reader, name string, opt Options) (*Set, error) {
	b := newBuilder(name, LibSVM, opt)
	err := lines(r, name, func(fields [][]byte, line int) error {
		if err := b.startRow(line); err != nil {
			return err
		}
		if _, err := number(fields[0]); err != nil {
			return parseErr(name, line, 1, "label: %v (libsvm labels are numbers)", err)
		}
		last := 0
		for k, f := range fields[1:] {
			col := k + 2
			colon := bytes.IndexByte(f, ':')
			if colon < 0 {
				return parseErr(name, line, col, "%q is not index:value", clip(f))
			}
			if bytes.Equal(f[:colon], []byte("qid")) {
				return parseErr(name, line, col, "%q: svmlight query ids are not supported", clip(f))
			}
			idx, ok := atoi(f[:colon])
			if !ok {
				return parseErr(name, line, col, "%q: the index is not an integer", clip(f))
			}
			if idx < 1 {
				return parseErr(name, line, col, "%q: index %d is below 1 (libsvm indices start at 1)", clip(f), idx)
			}
			if idx <= last {
				return parseErr(name, line, col, "%q: index %d after %d; indices must increase strictly along a line (LIBSVM's svm-train stops with \"Wrong input format at line %d\")", clip(f), idx, last, line)
			}
			if idx > opt.MaxDim {
				return fmt.Errorf("%s:%d: field %d: feature index %d is above the limit of %d features: %w", name, line, col, idx, opt.MaxDim, ErrTooLarge)
			}
			v, err := number(f[colon+1:])
			if err != nil {
				return parseErr(name, line, col, "value of feature %d: %v", idx, err)
			}
			last = idx
			if err := b.add(idx-1, v, line); err != nil {
				return err
			}
		}
		b.set.Dim = max(b.set.Dim, last)
		b.endRow(string(fields[0]))
		return nil
	})
	if err != nil {
		return nil, err
	}
	if b.set.Rows() == 0 {
		return nil, parseErr(name, 0, 0, "no rows (libsvm text needs lines of \"label index:value ...\")")
	}
	return b.finish(), nil
}

func readText(r io.Reader, name string, opt Options) (*Set, error) {
	b := newBuilder(name, Text, opt)
	cols, first := 0, 0
	err := lines(r, name, func(fields [][]byte, line int) error {
		if err := b.startRow(line); err != nil {
			return err
		}
		if cols == 0 {
			if len(fields) < 2 {
				return parseErr(name, line, 0, "1 column; text data need features and a label last (\"x1 x2 ... label\")")
			}
			if len(fields)-1 > opt.MaxDim {
				return fmt.Errorf("%s:%d: %d features, above the limit of %d: %w", name, line, len(fields)-1, opt.MaxDim, ErrTooLarge)
			}
			cols, first = len(fields), line
			b.set.Dim = cols - 1
		}
		if len(fields) != cols {
			return parseErr(name, line, 0, "%d columns; line %d has %d (every line needs the same number, the label last)", len(fields), first, cols)
		}
		for j, f := range fields[:cols-1] {
			v, err := number(f)
			if err != nil {
				return parseErr(name, line, j+1, "%v", err)
			}
			if err := b.add(j, v, line); err != nil {
				return err
			}
		}
		if bytes.ContainsFunc(fields[cols-1], unicode.IsControl) {
			return parseErr(name, line, cols, "label %q has a control character", clip(fields[cols-1]))
		}
		b.endRow(string(fields[cols-1]))
		return nil
	})
	if err != nil {
		return nil, err
	}
	if b.set.Rows() == 0 {
		return nil, parseErr(name, 0, 0, "no rows (text data need lines of \"x1 x2 ... label\")")
	}
	return b.finish(), nil
}

// labelNames are the header names taken as the label column by default.
var labelNames = [...]string{"label", "class", "target", "y"}

// labelColumn finds the label column of a CSV header.
func labelColumn(header []string, want, name string) (int, error) {
	if want == "" {
		for _, n := range labelNames {
			for j, h := range header {
				if strings.EqualFold(strings.TrimSpace(h), n) {
					return j, nil
				}
			}
		}
		return len(header) - 1, nil
	}
	if p, err := strconv.Atoi(want); err == nil {
		if p < 1 || p > len(header) {
			return 0, parseErr(name, 1, 0, "label column %d is out of range: the header has %d columns", p, len(header))
		}
		return p - 1, nil
	}
	for j, h := range header {
		if strings.EqualFold(strings.TrimSpace(h), want) {
			return j, nil
		}
	}
	return 0, parseErr(name, 1, 0, "no column named %q for the label; the header has %s", want, quoteList(header))
}

func quoteList(h []string) string {
	const n = 8
	q := make([]string, 0, min(len(h), n))
	for _, s := range h[:min(len(h), n)] {
		q = append(q, strconv.Quote(s))
	}
	s := strings.Join(q, ", ")
	if len(h) > n {
		s += fmt.Sprintf(" and %d more", len(h)-n)
	}
	return s
}

func readCSV(r io.Reader, name string, opt Options) (*Set, error) {
	cr := csv.NewReader(r)
	cr.ReuseRecord = true
	cr.TrimLeadingSpace = true
	csvErr := func(err error) error {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			if errors.Is(pe.Err, csv.ErrFieldCount) {
				return parseErr(name, pe.StartLine, 0, "a different number of fields from the header (ragged CSV)")
			}
			return parseErr(name, pe.Line, pe.Column, "%v", pe.Err)
		}
		return fmt.Errorf("%s: %w", name, err)
	}
	header, err := cr.Read()
	if err == io.EOF {
		return nil, parseErr(name, 0, 0, "empty file (CSV data need a header line and rows)")
	}
	if err != nil {
		return nil, csvErr(err)
	}
	header = append([]string(nil), header...)
	if len(header) < 2 {
		return nil, parseErr(name, 1, 0, "the header has 1 column; CSV data need features and a label")
	}
	if len(header)-1 > opt.MaxDim {
		return nil, fmt.Errorf("%s:1: %d features, above the limit of %d: %w", name, len(header)-1, opt.MaxDim, ErrTooLarge)
	}
	lab, err := labelColumn(header, opt.LabelColumn, name)
	if err != nil {
		return nil, err
	}
	b := newBuilder(name, CSV, opt)
	b.set.Dim = len(header) - 1
	for j, h := range header {
		if j != lab {
			b.set.Features = append(b.set.Features, h)
		}
	}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvErr(err)
		}
		line, _ := cr.FieldPos(0)
		if err := b.startRow(line); err != nil {
			return nil, err
		}
		j := 0
		for k, f := range rec {
			if k == lab {
				continue
			}
			v, err := number([]byte(strings.TrimSpace(f)))
			if err != nil {
				l, _ := cr.FieldPos(k)
				return nil, parseErr(name, l, k+1, "column %q: %v", header[k], err)
			}
			if err := b.add(j, v, line); err != nil {
				return nil, err
			}
			j++
		}
		label := strings.TrimSpace(rec[lab])
		if label == "" || strings.ContainsFunc(label, unicode.IsControl) {
			l, _ := cr.FieldPos(lab)
			return nil, parseErr(name, l, lab+1, "label %q in column %q: empty or with a control character", clip([]byte(label)), header[lab])
		}
		b.endRow(label)
	}
	if b.set.Rows() == 0 {
		return nil, parseErr(name, 1, 0, "a header but no rows")
	}
	return b.finish(), nil
}
