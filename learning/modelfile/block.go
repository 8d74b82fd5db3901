package modelfile

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"

	"mark1/dataset"
	"mark1/learning"
	"mark1/learning/internal/bytedot"
	"mark1/learning/internal/f32dot"
)

// SupportVectors are a model's support vectors (svm) or stored examples
// (kernel-perceptron), sparse, with 0-based feature indices.
//
// In a model file they are a JSON list of Sparse vectors or, when at
// least a third of the values of their rows are non-zero, none is a
// stored zero and their indices increase (as every model mark1 trains
// stores them), a dense block, one row a line:
//
//	{"encoding": "float32", "cols": 400, "rows": [
//	  "…",
//	  …]}
//
// A row is its cols values in standard base64 of their little-endian
// bytes: "grey8" one byte b a value, the value float64(b)/255 (pictures
// read as grey levels); "float32" IEEE 754 binary32 (the float32 rows fit
// reads numbers into); "float64" binary64. The encoding is the narrowest
// that holds every value exactly, so a block reads back to the same
// vectors, bit for bit; cols is one past the largest index. A block is a
// third of the list's text or less and reads without parsing a number.
type SupportVectors []Sparse

// Block encodings and the bytes of one value in each.
var blockWidth = map[string]int{"grey8": 1, "float32": 4, "float64": 8}

// blockForm returns the encoding and the columns of the dense block that
// holds sv exactly, or "" when sv is written as a list.
func (sv SupportVectors) blockForm() (encoding string, cols int) {
	nnz, grey, f32 := 0, true, true
	for _, v := range sv {
		if len(v.Index) != len(v.Value) {
			return "", 0
		}
		for k, j := range v.Index {
			if j < 0 || (k > 0 && j <= v.Index[k-1]) || v.Value[k] == 0 {
				return "", 0 // not increasing, or a stored zero: the list keeps it
			}
			cols = max(cols, int(j)+1)
		}
		nnz += len(v.Index)
		grey = grey && bytedot.FromGrey(nil, v.Value)
		f32 = f32 && f32dot.Exact(v.Value)
	}
	if len(sv) == 0 || learning.ChooseForm(false, nnz, len(sv), cols) != learning.FormDense {
		return "", 0
	}
	switch {
	case grey:
		return "grey8", cols
	case f32:
		return "float32", cols
	}
	return "float64", cols
}

// writeBlock writes sv as the block {encoding, cols, rows}, a row a line.
func (sv SupportVectors) writeBlock(bw *bufio.Writer, encoding string, cols int) error {
	fmt.Fprintf(bw, `{"encoding": %q, "cols": %d, "rows": [`, encoding, cols)
	w := blockWidth[encoding]
	row := make([]byte, cols*w)
	text := make([]byte, base64.StdEncoding.EncodedLen(len(row)))
	for s, v := range sv {
		clear(row)
		for k, j := range v.Index {
			x := v.Value[k]
			switch w {
			case 1:
				row[j] = uint8(math.Round(x * 255))
			case 4:
				binary.LittleEndian.PutUint32(row[4*int(j):], math.Float32bits(float32(x)))
			default:
				binary.LittleEndian.PutUint64(row[8*int(j):], math.Float64bits(x))
			}
		}
		if s > 0 {
			bw.WriteString(",")
		}
		bw.WriteString("\n  \"")
		base64.StdEncoding.Encode(text, row)
		bw.Write(text)
		bw.WriteString(`"`)
	}
	_, err := bw.WriteString("\n ]}")
	return err
}

// write writes sv as a block when blockForm finds one, else as a list
// (File.Write and MarshalJSON).
func (sv SupportVectors) write(bw *bufio.Writer) error {
	if encoding, cols := sv.blockForm(); encoding != "" {
		return sv.writeBlock(bw, encoding, cols)
	}
	return writeList(bw, reflect.ValueOf([]Sparse(sv)))
}

// MarshalJSON writes sv as Write does.
func (sv SupportVectors) MarshalJSON() ([]byte, error) {
	if sv == nil {
		return []byte("null"), nil
	}
	var b bytes.Buffer
	bw := bufio.NewWriter(&b)
	if err := sv.write(bw); err != nil {
		return nil, err
	}
	if err := bw.Flush(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// UnmarshalJSON reads a list of Sparse vectors or, as Decode does, a
// block.
func (sv *SupportVectors) UnmarshalJSON(b []byte) error {
	if t := bytes.TrimLeft(b, " \t\r\n"); len(t) > 0 && t[0] == '{' {
		dec := json.NewDecoder(bytes.NewReader(t))
		if _, err := dec.Token(); err != nil { // the opening brace
			return err
		}
		v, err := decodeBlock(dec, nil)
		if err == nil {
			*sv = v
		}
		return err
	}
	var list []Sparse
	if err := json.Unmarshal(b, &list); err != nil {
		return err
	}
	if list != nil {
		*sv = list
	}
	return nil
}

// denseRows are a float32 or grey8 block's support vectors as the file
// holds them (ReadCompact): n rows of cols values, row-major, in v (4
// bytes a value) or b (1 byte b a value b/255), where Sparse vectors take
// 12 bytes a non-zero.
type denseRows struct {
	n, cols int
	v       []float32 // a float32 block's
	b       []uint8   // a grey8 block's
}

// row returns row s of a float32 block.
func (d *denseRows) row(s int) []float32 { return d.v[s*d.cols : (s+1)*d.cols : (s+1)*d.cols] }

// bytes returns row s of a grey8 block.
func (d *denseRows) bytes(s int) []uint8 { return d.b[s*d.cols : (s+1)*d.cols : (s+1)*d.cols] }

// zeroFrom reports whether every row is zero from column j on, and if
// not, the first row that is not.
func (d *denseRows) zeroFrom(j int) (s int, ok bool) {
	for s := range d.n {
		if d.b != nil {
			if slices.ContainsFunc(d.bytes(s)[min(j, d.cols):], func(x uint8) bool { return x != 0 }) {
				return s, false
			}
		} else if slices.ContainsFunc(d.row(s)[min(j, d.cols):], func(x float32) bool { return x != 0 }) {
			return s, false
		}
	}
	return 0, true
}

// rows returns the rows as the support vectors of a model for inputs of
// dim features, in the form File.Model gives those of their Sparse
// vectors — float32 rows (float32Form), or grey bytes when the rows are
// dense enough (learning.ChooseForm, as Sparse.Compact decides) — or nil
// when that form is another.
func (d *denseRows) rows(dim int) learning.Rows {
	if d.b != nil {
		if g := d.grey(dim); g != nil {
			return g
		}
		return nil
	}
	if f := d.float32(dim); f != nil {
		return f
	}
	return nil
}

// grey returns a grey8 block's rows as bytes of dim features when
// Sparse.Compact would store their Sparse vectors so, else nil: the bytes
// in place when dim is cols, copied otherwise.
func (d *denseRows) grey(dim int) *learning.Grey {
	nnz, binary := 0, true
	for _, x := range d.b {
		if x != 0 {
			nnz++
			binary = binary && x == 255
		}
	}
	if dim <= 0 || learning.ChooseForm(binary, nnz, d.n, dim) != learning.FormDense {
		return nil
	}
	g, err := learning.GreyOf(dim, resize(d.b, d.n, d.cols, dim))
	if err != nil {
		return nil
	}
	return g
}

// resize returns v's n rows of cols values as rows of dim values: v itself
// when dim is cols, else a copy with zeros after each row's values, or
// without its columns past dim (which hold zeros: File.Check).
func resize[T uint8 | float32](v []T, n, cols, dim int) []T {
	if dim == cols {
		return v
	}
	w := make([]T, n*dim)
	for s := range n {
		copy(w[s*dim:(s+1)*dim], v[s*cols:(s+1)*cols])
	}
	return w
}

// float32 returns a float32 block's rows as float32 rows of dim features
// when File.float32SV would make such rows of their Sparse vectors
// (float32Form), else nil: the values in place when dim is cols, copied
// otherwise (with zeros after them, or without the zero columns past dim).
func (d *denseRows) float32(dim int) *learning.Float32 {
	nnz, grey := 0, true
	buf := make([]float64, d.cols)
	for s := range d.n {
		for k, x := range d.row(s) {
			buf[k] = float64(x)
			if x != 0 {
				nnz++
			}
		}
		grey = grey && bytedot.FromGrey(nil, buf)
	}
	if !float32Form(grey, nnz, d.n, dim) {
		return nil
	}
	rows, err := learning.Float32Of(dim, resize(d.v, d.n, d.cols, dim))
	if err != nil {
		return nil
	}
	return rows
}

// sparse returns the rows as the Sparse vectors decodeBlock would have
// made of them.
func (d *denseRows) sparse() SupportVectors {
	sv := make(SupportVectors, d.n)
	row := make([]float64, d.cols)
	for s := range sv {
		if d.b != nil {
			for k, x := range d.bytes(s) {
				row[k] = float64(x) / 255
			}
		} else {
			for k, x := range d.row(s) {
				row[k] = float64(x)
			}
		}
		sv[s] = sparse(row)
	}
	return sv
}

// compact asks decodeBlock to keep a float32 or grey8 block's rows dense
// (ReadCompact); size, the file's bytes when known (else 0), bounds their
// number, so that their values are allocated once.
type compact struct {
	rows *denseRows
	size int64
}

// decodeBlock reads a block whose opening brace dec has just read, a
// field at a time (keys as encoding/json matches them) and the rows one at
// a time, up to and with its closing brace. With c not nil, a float32
// block's rows are kept as c.rows and the vectors returned are nil.
func decodeBlock(dec *json.Decoder, c *compact) (SupportVectors, error) {
	var encoding string
	var cols int
	var sv SupportVectors
	rows, width := false, -1
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		switch {
		case strings.EqualFold(key, "encoding"):
			err = dec.Decode(&encoding)
		case strings.EqualFold(key, "cols"):
			err = dec.Decode(&cols)
		case strings.EqualFold(key, "rows"):
			if _, ok := blockWidth[encoding]; !ok {
				return nil, fmt.Errorf("%w: encoding %q before the rows; want grey8, float32 or float64", errBlock, encoding)
			}
			rows = true
			if c != nil && (encoding == "float32" || encoding == "grey8") {
				if c.rows, err = decodeDense(dec, encoding, c.size); err == nil && c.rows.n > 0 {
					width = c.rows.cols
				}
			} else {
				sv, width, err = decodeRows(dec, encoding)
			}
		default:
			return nil, fmt.Errorf("json: unknown field %q in the support vectors' block", key)
		}
		if err != nil {
			return nil, err
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, err
	}
	switch {
	case !rows:
		return nil, fmt.Errorf("%w: no rows", errBlock)
	case cols < 0 || cols > math.MaxInt32 || (width >= 0 && width != cols):
		return nil, fmt.Errorf("%w: rows of %d values in a block of %d columns", errBlock, width, cols)
	}
	return sv, nil
}

// eachRow reads the list of a block's rows one row at a time, checks that
// each holds a whole number of encoding's values, as many as the rows
// before it, and calls fn with row s and its number of values; width is
// the values of every row (−1 for no rows).
func eachRow(dec *json.Decoder, encoding string, fn func(row []byte, s, cols int) error) (width int, err error) {
	tok, err := dec.Token()
	if err != nil {
		return 0, err
	}
	if tok != json.Delim('[') {
		return 0, fmt.Errorf("%w: rows are a %s, not a list", errBlock, kind(tok))
	}
	w := blockWidth[encoding]
	width = -1
	var row []byte
	for s := 0; dec.More(); s++ {
		if err := dec.Decode(&row); err != nil {
			return 0, err
		}
		cols := len(row) / w
		switch {
		case len(row)%w != 0 || cols > math.MaxInt32:
			return 0, fmt.Errorf("%w: row %d has %d bytes, not a whole number of %s values", errBlock, s, len(row), encoding)
		case width >= 0 && cols != width:
			return 0, fmt.Errorf("%w: row %d has %d values, the rows before it %d", errBlock, s, cols, width)
		}
		if err := fn(row, s, cols); err != nil {
			return 0, err
		}
		width = cols
	}
	_, err = dec.Token() // the closing bracket
	return width, err
}

// decodeRows reads a block's rows as sparse vectors.
func decodeRows(dec *json.Decoder, encoding string) (sv SupportVectors, width int, err error) {
	sv, values := SupportVectors{}, 0
	width, err = eachRow(dec, encoding, func(row []byte, _, cols int) error {
		v := rowVector(row, blockWidth[encoding], cols)
		if values += len(v.Index); values > dataset.DefaultMaxValues {
			return fmt.Errorf("%w: more than %d non-zero values", errBlock, dataset.DefaultMaxValues)
		}
		sv = append(sv, v)
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	return sv, width, nil
}

// decodeDense is decodeRows for a float32 or grey8 block kept dense: the
// rows' values, which must be finite, in one slice, allocated once for the
// most rows of their length a file of size bytes holds (when size > 0).
func decodeDense(dec *json.Decoder, encoding string, size int64) (*denseRows, error) {
	d := &denseRows{}
	w := blockWidth[encoding]
	values := 0
	width, err := eachRow(dec, encoding, func(row []byte, s, cols int) error {
		switch {
		case values+cols > dataset.DefaultMaxValues:
			return fmt.Errorf("%w: more than %d values", errBlock, dataset.DefaultMaxValues)
		case s == 0 && size > 0 && cols > 0:
			text := int64(base64.StdEncoding.EncodedLen(w*cols)) + 2 // a row's text, quoted
			n := min(size/text+1, int64(dataset.DefaultMaxValues/cols)) * int64(cols)
			if w == 1 {
				d.b = make([]uint8, 0, n)
			} else {
				d.v = make([]float32, 0, n)
			}
		}
		values += cols
		if w == 1 {
			d.b = append(d.b, row...)
			if d.b == nil { // a grey8 block's rows, even of no values
				d.b = []uint8{}
			}
		} else {
			for p := range cols {
				x := math.Float32frombits(binary.LittleEndian.Uint32(row[4*p:]))
				if !finite(float64(x)) {
					return bad("sv %d: values not finite", s)
				}
				d.v = append(d.v, x)
			}
		}
		d.n++
		return nil
	})
	if err != nil {
		return nil, err
	}
	d.cols = max(width, 0)
	return d, nil
}

var errBlock = errors.New("bad support vector block")

// rowVector returns a block's row of cols values of w bytes each as a
// sparse vector: its non-zero values, nil for none.
func rowVector(row []byte, w, cols int) Sparse {
	value := func(p int) float64 {
		switch w {
		case 1:
			return float64(row[p]) / 255
		case 4:
			return float64(math.Float32frombits(binary.LittleEndian.Uint32(row[4*p:])))
		}
		return math.Float64frombits(binary.LittleEndian.Uint64(row[8*p:]))
	}
	nnz := 0
	for j := range cols {
		if value(j) != 0 {
			nnz++
		}
	}
	if nnz == 0 { // an empty row stays nil, as sparse leaves it
		return Sparse{}
	}
	v := Sparse{Index: make([]int32, 0, nnz), Value: make([]float64, 0, nnz)}
	for j := range cols {
		if x := value(j); x != 0 {
			v.Index, v.Value = append(v.Index, int32(j)), append(v.Value, x)
		}
	}
	return v
}
