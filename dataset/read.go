package dataset

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
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
	"unicode/utf8"

	"mark1/internal/base/atomicfile"
)

// ReadFile reads the data file at path; see Read. A gzip-compressed file is
// decompressed on the fly. Errors name path.
func ReadFile(path string, opt Options) (*Set, error) {
	return ReadFileContext(context.Background(), path, opt)
}

// ReadFileContext is ReadFile stopped by ctx: it looks at ctx before every
// block it reads (at most a mebibyte of the file, or of the text a gzipped
// file decompresses to), so a cancelled read of a large file ends within
// milliseconds, with an error that wraps ctx.Err() and names path.
func ReadFileContext(ctx context.Context, path string, opt Options) (*Set, error) {
	if opt.Format == Auto {
		var err error
		if opt.Format, err = idxFormat(path); err != nil {
			return nil, err
		}
	}
	if opt.Format == IDX {
		s, err := readIDXSet(ctx, path, opt)
		if err != nil && atomicfile.Done(ctx) && !errors.Is(err, ctx.Err()) {
			return nil, fmt.Errorf("%s: reading stopped: %w", path, ctx.Err())
		}
		return s, err
	}
	f, err := atomicfile.Open(path) // a regular file: a named pipe must not block
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	r, done, err := gunzipped(br, path)
	if err != nil {
		return nil, err
	}
	defer done()
	name := path
	if r != br {
		name = strings.TrimSuffix(path, ".gz")
	}
	if opt.Format == Auto {
		opt.Format = formatFromName(name)
	}
	if r == br {
		// A plain file can be read twice: count the colons (an upper bound
		// on libsvm's non-zeros) and lines first, so that the rows are
		// stored in arrays of their final size instead of grown by copying.
		if opt.hintValues, opt.hintRows, err = countFile(ctx, f); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		br.Reset(f)
	}
	s, err := ReadContext(ctx, r, path, opt)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// gunzipped returns the text br reads: br itself, or its decompression when
// it starts with gzip's magic bytes (an error names path), with the
// function that closes the decompressor.
func gunzipped(br *bufio.Reader, path string) (io.Reader, func(), error) {
	if magic, _ := br.Peek(2); len(magic) != 2 || magic[0] != 0x1f || magic[1] != 0x8b {
		return br, func() {}, nil
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: gzip: %w", path, err)
	}
	return zr, func() { zr.Close() }, nil
}

// Head is what the start of a data file tells before it is read: its
// format and, for CSV, its header; for text, its number of columns.
type Head struct {
	Format Format
	// Header holds a CSV file's column names; nil for other formats.
	Header []string
	// Columns is the number of columns of a CSV or text file's first line
	// (0 for libsvm text).
	Columns int
}

// ReadHead reads the format and the first line of the data file at path
// (format: Auto to guess as ReadFile does), so that a caller can decide
// how to read it — which column is the label, whether there is one.
func ReadHead(path string, format Format) (Head, error) {
	if format == Auto {
		var err error
		if format, err = idxFormat(path); err != nil {
			return Head{}, err
		}
	}
	if format == IDX {
		return Head{Format: IDX}, nil
	}
	f, err := atomicfile.Open(path)
	if err != nil {
		return Head{}, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	r, done, err := gunzipped(br, path)
	if err != nil {
		return Head{}, err
	}
	defer done()
	name := path
	if r != br {
		name = strings.TrimSuffix(path, ".gz")
	}
	if format == Auto {
		format = formatFromName(name)
	}
	br2 := bufio.NewReaderSize(r, 64<<10)
	if bom, _ := br2.Peek(3); bytes.Equal(bom, []byte("\ufeff")) {
		br2.Discard(3)
	}
	if format == Auto {
		format = sniff(br2)
	}
	h := Head{Format: format}
	switch format {
	case CSV:
		cr := csv.NewReader(br2)
		cr.TrimLeadingSpace = true
		rec, err := cr.Read()
		if err == io.EOF {
			return h, parseErr(path, 0, 0, "empty file (CSV data need a header line and rows)")
		}
		if err != nil {
			return h, parseErr(path, 1, 0, "header: %v", err)
		}
		h.Header, h.Columns = rec, len(rec)
	case Text:
		errStop := errors.New("stop")
		err := lines(br2, path, Options{}.withDefaults().lineLimit(false), func(fields [][]byte, _ int) error {
			h.Columns = len(fields)
			return errStop
		})
		if err != nil && err != errStop {
			return h, err
		}
	}
	return h, nil
}

// countFile counts the ':' and '\n' bytes of f and rewinds it, looking at
// ctx before every block.
func countFile(ctx context.Context, f *os.File) (colons, lines int, err error) {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return 0, 0, err
	}
	buf := make([]byte, atomicfile.ReadBlock)
	for {
		if atomicfile.Done(ctx) {
			return 0, 0, ctx.Err()
		}
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
	return ReadContext(context.Background(), r, name, opt)
}

// ReadContext is Read stopped by ctx: it looks at ctx before every block
// of at most a mebibyte it reads from r, and returns an error wrapping
// ctx.Err(), naming name, once ctx is done.
func ReadContext(ctx context.Context, r io.Reader, name string, opt Options) (*Set, error) {
	s, err := read(atomicfile.ContextReader(ctx, r), name, opt)
	if err != nil && atomicfile.Done(ctx) {
		return nil, fmt.Errorf("%s: reading stopped: %w", name, ctx.Err())
	}
	return s, err
}

func read(r io.Reader, name string, opt Options) (*Set, error) {
	opt = opt.withDefaults()
	br := bufio.NewReaderSize(r, 64<<10)
	if bom, _ := br.Peek(3); bytes.Equal(bom, []byte("\ufeff")) {
		br.Discard(3)
	}
	f := opt.Format
	if f == Auto {
		f = sniff(br)
	}
	if opt.LabelColumn != "" && opt.NoLabels {
		return nil, fmt.Errorf("%s: a label column (%q) and no labels asked for at once", name, opt.LabelColumn)
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
	case IDX:
		return nil, fmt.Errorf("%s: IDX data are read from their files (ReadFile), as the labels are a file of their own", name)
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
	if v, ok := decimal(b); ok {
		return v, nil
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

// pow10 holds the powers of ten a float64 holds exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// decimal parses the plain decimals data files are mostly made of, an
// optional sign, digits and at most one point (0.0823529, -12.5, 3), to
// the value strconv.ParseFloat gives, without its generality: when the
// digits make an integer below 2⁵³ and at most 22 follow the point, that
// integer divided by the exact power of ten is the correctly rounded value
// (Clinger's fast path, the one strconv takes first). ok is false for
// anything else, which number leaves to strconv.
func decimal(b []byte) (v float64, ok bool) {
	neg := false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg, b = b[0] == '-', b[1:]
	}
	var mant uint64
	point, seen := -1, false
	for i, c := range b {
		if d := c - '0'; d <= 9 {
			seen = true
			// mant only grows: once it reaches 2⁵³ the value is not
			// exact (refused below), and stopping there keeps it from
			// overflowing
			if mant = 10*mant + uint64(d); mant >= 1<<53 {
				return 0, false
			}
			continue
		}
		if c != '.' || point >= 0 {
			return 0, false
		}
		point = i
	}
	frac := 0
	if point >= 0 {
		frac = len(b) - point - 1
	}
	if !seen || mant >= 1<<53 || frac >= len(pow10) {
		return 0, false
	}
	v = float64(mant) / pow10[frac]
	if neg {
		v = -v
	}
	return v, true
}

// splitFields appends the white-space separated fields of b to dst, as
// bytes.Fields does but into a reused slice (a line of a sparse file can
// have thousands of fields).
func splitFields(dst [][]byte, b []byte) [][]byte {
	n := len(dst)
	i := 0
	for {
		for i < len(b) && byteKind[b[i]] == kindSpace {
			i++
		}
		if i == len(b) {
			return dst
		}
		start := i
		for i < len(b) && byteKind[b[i]] == kindText {
			i++
		}
		if i < len(b) && byteKind[b[i]] == kindHigh { // Unicode white space: leave it to bytes.Fields
			return append(dst[:n], bytes.Fields(b)...)
		}
		dst = append(dst, b[start:i:i])
	}
}

// byteKind sorts bytes for splitFields: ASCII white space, other ASCII,
// and bytes of non-ASCII characters.
var byteKind = func() (k [256]uint8) {
	for c := range k {
		switch {
		case c >= 0x80:
			k[c] = kindHigh
		case asciiSpace(byte(c)):
			k[c] = kindSpace
		}
	}
	return k
}()

const (
	kindText = iota
	kindSpace
	kindHigh
)

func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// noPlainLines leaves every line to readLibSVM's general reading (the
// tests compare the two).
var noPlainLines bool

// plainLine reads a plain libsvm line in one pass: ASCII, white space
// between fields, a label, then index:value fields whose index is at most
// 18 decimal digits and whose value decimal reads. It returns the label and
// sets *idx and *val to the features (in the line's order), or reports a
// blank line, or ok false for any other line.
func plainLine(text []byte, idx *[]int, val *[]float64) (label []byte, blank, ok bool) {
	*idx, *val = (*idx)[:0], (*val)[:0]
	i, n := 0, len(text)
	for i < n && byteKind[text[i]] == kindSpace {
		i++
	}
	if i == n {
		return nil, true, false
	}
	st := i
	for i < n && byteKind[text[i]] == kindText {
		i++
	}
	label = text[st:i]
	for {
		if i < n && byteKind[text[i]] == kindHigh {
			return nil, false, false
		}
		for i < n && byteKind[text[i]] == kindSpace {
			i++
		}
		if i == n {
			return label, false, true
		}
		x, d0 := 0, i
		for i < n && text[i]-'0' <= 9 && i-d0 < 18 {
			x = 10*x + int(text[i]-'0')
			i++
		}
		if i == d0 || i == n || text[i] != ':' {
			return nil, false, false
		}
		i++
		vs := i
		for i < n && byteKind[text[i]] == kindText {
			i++
		}
		v, ok := decimal(text[vs:i])
		if !ok {
			return nil, false, false
		}
		*idx, *val = append(*idx, x), append(*val, v)
	}
}

// plainIndices reports whether the indices of a plain line pass
// readLibSVM's checks: in range, increasing strictly.
func plainIndices(idx []int, opt Options) bool {
	last := -1
	for _, x := range idx {
		if opt.Indices == OneBased && x < 1 || x <= last || x > opt.MaxDim || opt.Indices == ZeroBased && x >= opt.MaxDim {
			return false
		}
		last = x
	}
	return true
}

// hasFields reports whether splitFields finds a field in b, mostly from its
// first bytes.
func hasFields(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return len(bytes.Fields(b)) > 0
		}
		if !asciiSpace(c) {
			return true
		}
	}
	return false
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
// blank lines skipped) and its 1-based number; a line may be at most
// maxLine bytes (Options.lineLimit).
func lines(r io.Reader, name string, maxLine int, fn func(fields [][]byte, line int) error) error {
	var fields [][]byte
	return linesRaw(r, name, maxLine, func(text []byte, line int) error {
		fields = splitFields(fields[:0], text)
		if len(fields) == 0 {
			return nil
		}
		return fn(fields, line)
	})
}

// linesRaw calls fn with the text of every line of r (its comment, from
// '#', cut off) and its 1-based number, blank lines included; a line may
// be at most maxLine bytes.
func linesRaw(r io.Reader, name string, maxLine int, fn func(text []byte, line int) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, min(64<<10, maxLine)), maxLine)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Bytes()
		if i := bytes.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		if err := fn(text, line); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return longLine(name, line+1, maxLine, false)
		}
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

func readLibSVM(r io.Reader, name string, opt Options) (*Set, error) {
	b := newBuilder(name, LibSVM, opt)
	lowest, highest := math.MaxInt, -1 // every index read, zero values included
	general := func(fields [][]byte, line int) error {
		line += opt.firstLine
		if err := b.startRow(line); err != nil {
			return err
		}
		feats, col0 := fields, 1
		if !opt.NoLabels {
			if _, err := number(fields[0]); err != nil {
				return parseErr(name, line, 1, "label: %v (libsvm labels are numbers)", err)
			}
			feats, col0 = fields[1:], 2
		}
		last := -1
		for k, f := range feats {
			col := k + col0
			colon := bytes.IndexByte(f, ':')
			if colon < 0 {
				return parseErr(name, line, col, "%q is not index:value", clip(f))
			}
			if string(f[:colon]) == "qid" {
				if k != 0 {
					return parseErr(name, line, col, "%q: a query id must come before the features (svmlight's \"label qid:N index:value ...\")", clip(f))
				}
				if _, ok := atoi(f[colon+1:]); !ok {
					return parseErr(name, line, col, "%q: the query id is not an integer", clip(f))
				}
				b.set.QueryIDs++
				continue
			}
			idx, ok := atoi(f[:colon])
			if !ok {
				return parseErr(name, line, col, "%q: the index is not an integer", clip(f))
			}
			switch {
			case opt.Indices == OneBased && idx < 1:
				return parseErr(name, line, col, "%q: index %d is below 1 (the file is read with LIBSVM's 1-based indices)", clip(f), idx)
			case idx < 0:
				return parseErr(name, line, col, "%q: index %d is negative", clip(f), idx)
			}
			if idx <= last {
				return parseErr(name, line, col, "%q: index %d after %d; indices must increase strictly along a line (LIBSVM's svm-train stops with \"Wrong input format at line %d\")", clip(f), idx, last, line)
			}
			if idx > maxIndex || (idx == maxIndex && opt.Indices == ZeroBased) {
				return boundf(BoundFormat, "%s:%d: field %d: feature index %d is above %d, the largest index the rows store (an int32)", name, line, col, idx, maxIndex)
			}
			if idx > opt.MaxDim || (opt.Indices == ZeroBased && idx >= opt.MaxDim) {
				return opt.dimError("%s:%d: field %d: feature index %d is above the limit of %d features", name, line, col, idx, opt.MaxDim)
			}
			v, err := number(f[colon+1:])
			if err != nil {
				return parseErr(name, line, col, "value of feature %d: %v", idx, err)
			}
			last = idx
			lowest, highest = min(lowest, idx), max(highest, idx)
			if err := b.add(idx, v, line); err != nil {
				return err
			}
		}
		return b.endRow(string(fields[0]))
	}
	// plain lines (a label, then index:value with unsigned indices and
	// plain decimals, in ASCII) are read in one pass by plainLine and,
	// if their indices pass general's checks, stored as general would;
	// any other line, and a line whose indices do not, goes to general,
	// which reads it again and names what is wrong
	var fields [][]byte
	var pidx []int
	var pval []float64
	err := linesRaw(r, name, opt.lineLimit(false), func(text []byte, line int) error {
		if !opt.NoLabels && !noPlainLines {
			label, blank, ok := plainLine(text, &pidx, &pval)
			if blank {
				return nil
			}
			if ok {
				if _, err := number(label); err == nil && plainIndices(pidx, opt) {
					at := line + opt.firstLine
					if err := b.startRow(at); err != nil {
						return err
					}
					for k, idx := range pidx {
						lowest, highest = min(lowest, idx), max(highest, idx)
						if err := b.add(idx, pval[k], at); err != nil {
							return err
						}
					}
					return b.endRow(string(label))
				}
			}
		}
		if fields = splitFields(fields[:0], text); len(fields) == 0 {
			return nil
		}
		return general(fields, line)
	})
	if err != nil {
		return nil, err
	}
	if b.read() == 0 {
		return nil, parseErr(name, 0, 0, "no rows (libsvm text needs lines of \"label index:value ...\")")
	}
	// scikit-learn's rule (sklearn/datasets/_svmlight_format_io.py): with
	// zero_based="auto" the indices are shifted down by one when the file
	// has indices and none of them is 0.
	b.set.ZeroBased = opt.Indices == ZeroBased || (opt.Indices == AutoIndices && !(highest >= 0 && lowest > 0))
	if b.set.ZeroBased {
		b.set.Dim = highest + 1
		if b.set.Dim > opt.MaxDim {
			return nil, opt.dimError("%s: 0-based feature index %d makes %d features, above the limit of %d", name, highest, highest+1, opt.MaxDim)
		}
	} else {
		b.set.Dim = max(highest, 0)
		b.eachIndex(func(idx []int32) {
			for k := range idx {
				idx[k]--
			}
		})
	}
	return b.finish()
}

func readText(r io.Reader, name string, opt Options) (*Set, error) {
	b := newBuilder(name, Text, opt)
	cols, first := 0, 0
	nf := 1 // label fields a line ends with
	if opt.NoLabels {
		nf = 0
	}
	err := lines(r, name, opt.lineLimit(false), func(fields [][]byte, line int) error {
		if err := b.startRow(line); err != nil {
			return err
		}
		if cols == 0 {
			if len(fields) < 1+nf {
				return parseErr(name, line, 0, "1 column; text data need features and a label last (\"x1 x2 ... label\")")
			}
			if len(fields)-nf > opt.MaxDim {
				return opt.dimError("%s:%d: %d features, above the limit of %d", name, line, len(fields)-nf, opt.MaxDim)
			}
			cols, first = len(fields), line
			b.set.Dim = cols - nf
		}
		if len(fields) != cols {
			return parseErr(name, line, 0, "%d columns; line %d has %d (every line needs the same number)", len(fields), first, cols)
		}
		for j, f := range fields[:cols-nf] {
			v, err := number(f)
			if err != nil {
				return parseErr(name, line, j+1, "%v", err)
			}
			if err := b.add(j, v, line); err != nil {
				return err
			}
		}
		label := ""
		if nf == 1 {
			if bytes.ContainsFunc(fields[cols-1], unicode.IsControl) {
				return parseErr(name, line, cols, "label %q has a control character", clip(fields[cols-1]))
			}
			if !utf8.Valid(fields[cols-1]) {
				return parseErr(name, line, cols, "label %q is not valid UTF-8 text (class names are saved as text; convert the file to UTF-8)", clip(fields[cols-1]))
			}
			label = string(fields[cols-1])
		}
		return b.endRow(label)
	})
	if err != nil {
		return nil, err
	}
	if b.read() == 0 {
		return nil, parseErr(name, 0, 0, "no rows (text data need lines of \"x1 x2 ... label\")")
	}
	return b.finish()
}

// labelNames are the header names taken as the label column by default.
var labelNames = [...]string{"label", "class", "target", "y"}

// HasLabelName reports whether a CSV header has a column named label,
// class, target or y (compared without regard to case), which is taken as
// the label column by default.
func HasLabelName(header []string) bool {
	for _, h := range header {
		for _, n := range labelNames {
			if strings.EqualFold(strings.TrimSpace(h), n) {
				return true
			}
		}
	}
	return false
}

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

// longLine reports a line over the budget's share for a line
// (Options.lineLimit).
func longLine(name string, line, max int, csv bool) error {
	share := lineShare
	if csv {
		share = csvLineShare
	}
	return boundf(BoundBudget, "%s:%d: line longer than %d bytes (the longest line the memory budget lets a reader hold: 1/%d of it, at least %d bytes)", name, line, max, share, minLine)
}

// lineLimit is r, with an error once a line runs past max bytes: the
// budget's share for a line of CSV (Options.lineLimit), as encoding/csv
// holds a whole record in memory, however long, with 16 bytes more a
// field.
type lineLimit struct {
	r          io.Reader
	name       string
	line, long int // the line under way (1-based) and its bytes so far
	max        int
}

func (l *lineLimit) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	for b := p[:n]; len(b) > 0; {
		k := bytes.IndexByte(b, '\n')
		if k < 0 {
			l.long += len(b)
			break
		}
		if l.long += k; l.long > l.max {
			break
		}
		l.line, l.long, b = l.line+1, 0, b[k+1:]
	}
	if l.long > l.max {
		return 0, longLine(l.name, l.line, l.max, true)
	}
	return n, err
}

func readCSV(r io.Reader, name string, opt Options) (*Set, error) {
	cr := csv.NewReader(&lineLimit{r: r, name: name, line: 1, max: opt.lineLimit(true)})
	cr.ReuseRecord = true
	cr.TrimLeadingSpace = true
	csvErr := func(err error) error {
		if errors.Is(err, ErrTooLarge) { // lineLimit's, naming the file
			return err
		}
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
	nf := 1 // label columns
	if opt.NoLabels {
		nf = 0
	}
	if len(header) < 1+nf {
		return nil, parseErr(name, 1, 0, "the header has 1 column; CSV data need features and a label")
	}
	if len(header)-nf > opt.MaxDim {
		return nil, opt.dimError("%s:1: %d features, above the limit of %d", name, len(header)-nf, opt.MaxDim)
	}
	lab := -1
	if !opt.NoLabels {
		var err error
		if lab, err = labelColumn(header, opt.LabelColumn, name); err != nil {
			return nil, err
		}
	}
	b := newBuilder(name, CSV, opt)
	b.set.Dim = len(header) - nf
	for j, h := range header {
		if j != lab {
			b.set.Features = append(b.set.Features, h)
		} else {
			b.set.LabelName = h
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
		if lab < 0 {
			if err := b.endRow(""); err != nil {
				return nil, err
			}
			continue
		}
		label := strings.TrimSpace(rec[lab])
		if label == "" || strings.ContainsFunc(label, unicode.IsControl) {
			l, _ := cr.FieldPos(lab)
			return nil, parseErr(name, l, lab+1, "label %q in column %q: empty or with a control character", clip([]byte(label)), header[lab])
		}
		if !utf8.ValidString(label) {
			l, _ := cr.FieldPos(lab)
			return nil, parseErr(name, l, lab+1, "label %q in column %q is not valid UTF-8 text (class names are saved as text; convert the file to UTF-8)", clip([]byte(label)), header[lab])
		}
		if err := b.endRow(label); err != nil {
			return nil, err
		}
	}
	if b.read() == 0 {
		return nil, parseErr(name, 1, 0, "a header but no rows")
	}
	return b.finish()
}
