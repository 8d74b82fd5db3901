package modelfile

import (
	"bufio"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
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
// stores them), one dense block:
//
//	{"encoding": "float32", "rows": 3904, "cols": 400, "data": "…"}
//
// data is the rows×cols values, row after row, in standard base64 of
// their little-endian bytes: "grey8" one byte b a value, the value
// float64(b)/255 (pictures read as grey levels); "float32" IEEE 754
// binary32 (the float32 rows fit reads numbers into); "float64" binary64.
// The encoding is the narrowest that holds every value exactly, so a block
// reads back to the same vectors, bit for bit; cols is one past the
// largest index. A block is a fifth of the list's text and reads without
// parsing a number.
type SupportVectors []Sparse

// Block encodings and the bytes of one value in each.
var blockWidth = map[string]int{"grey8": 1, "float32": 4, "float64": 8}

// svBlock is the dense form of SupportVectors in a file.
type svBlock struct {
	Encoding string `json:"encoding"`
	Rows     int    `json:"rows"`
	Cols     int    `json:"cols"`
	Data     []byte `json:"data"`
}

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

// writeBlock writes sv as the block {encoding, rows, cols, data}, the data
// encoded a row at a time.
func (sv SupportVectors) writeBlock(bw *bufio.Writer, encoding string, cols int) error {
	fmt.Fprintf(bw, `{"encoding": %q, "rows": %d, "cols": %d, "data": "`, encoding, len(sv), cols)
	enc := base64.NewEncoder(base64.StdEncoding, bw)
	w := blockWidth[encoding]
	row := make([]byte, cols*w)
	for _, v := range sv {
		clear(row)
		for k, j := range v.Index {
			x := v.Value[k]
			switch encoding {
			case "grey8":
				row[j] = uint8(math.Round(x * 255))
			case "float32":
				binary.LittleEndian.PutUint32(row[4*int(j):], math.Float32bits(float32(x)))
			default:
				binary.LittleEndian.PutUint64(row[8*int(j):], math.Float64bits(x))
			}
		}
		if _, err := enc.Write(row); err != nil {
			return err
		}
	}
	if err := enc.Close(); err != nil {
		return err
	}
	_, err := bw.WriteString(`"}`)
	return err
}

// MarshalJSON writes sv as Write does: a block when blockForm finds one,
// else the list.
func (sv SupportVectors) MarshalJSON() ([]byte, error) {
	if sv == nil {
		return []byte("null"), nil
	}
	var b strings.Builder
	bw := bufio.NewWriter(&b)
	if encoding, cols := sv.blockForm(); encoding != "" {
		if err := sv.writeBlock(bw, encoding, cols); err != nil {
			return nil, err
		}
	} else {
		if err := writeList(bw, reflect.ValueOf([]Sparse(sv))); err != nil {
			return nil, err
		}
	}
	if err := bw.Flush(); err != nil {
		return nil, err
	}
	return []byte(b.String()), nil
}

// UnmarshalJSON reads a list of Sparse vectors or a block.
func (sv *SupportVectors) UnmarshalJSON(b []byte) error {
	s := strings.TrimLeft(string(b), " \t\r\n")
	if strings.HasPrefix(s, "{") {
		var blk svBlock
		dec := json.NewDecoder(strings.NewReader(s))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&blk); err != nil {
			return err
		}
		v, err := blk.vectors()
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

// decodeBlock reads a block whose opening brace dec has just read, a
// field at a time (keys as encoding/json matches them), up to and with
// its closing brace.
func decodeBlock(dec *json.Decoder) (SupportVectors, error) {
	var blk svBlock
	fields := map[string]any{"encoding": &blk.Encoding, "rows": &blk.Rows, "cols": &blk.Cols, "data": &blk.Data}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		dst, ok := fields[key]
		for name, d := range fields {
			if !ok && strings.EqualFold(name, key) {
				dst, ok = d, true
			}
		}
		if !ok {
			return nil, fmt.Errorf("json: unknown field %q in the support vectors' block", key)
		}
		if err := dec.Decode(dst); err != nil {
			return nil, err
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, err
	}
	return blk.vectors()
}

var errBlock = errors.New("bad support vector block")

// vectors checks the block and returns its rows as sparse vectors (the
// non-zero values), their indices and values carved from two arrays.
func (blk *svBlock) vectors() (SupportVectors, error) {
	w, ok := blockWidth[blk.Encoding]
	switch {
	case !ok:
		return nil, fmt.Errorf("%w: encoding %q; want grey8, float32 or float64", errBlock, blk.Encoding)
	case blk.Rows < 0 || blk.Cols < 0 || blk.Cols > math.MaxInt32:
		return nil, fmt.Errorf("%w: %d rows of %d columns", errBlock, blk.Rows, blk.Cols)
	case blk.Cols > 0 && blk.Rows > dataset.DefaultMaxValues/blk.Cols:
		return nil, fmt.Errorf("%w: %d rows of %d columns is over the budget of %d values", errBlock, blk.Rows, blk.Cols, dataset.DefaultMaxValues)
	case len(blk.Data) != blk.Rows*blk.Cols*w:
		return nil, fmt.Errorf("%w: %d bytes of data for %d rows of %d %s values (%d bytes)", errBlock, len(blk.Data), blk.Rows, blk.Cols, blk.Encoding, blk.Rows*blk.Cols*w)
	}
	value := func(p int) float64 {
		switch w {
		case 1:
			return float64(blk.Data[p]) / 255
		case 4:
			return float64(math.Float32frombits(binary.LittleEndian.Uint32(blk.Data[4*p:])))
		}
		return math.Float64frombits(binary.LittleEndian.Uint64(blk.Data[8*p:]))
	}
	nnz := 0
	for p := range blk.Rows * blk.Cols {
		if value(p) != 0 {
			nnz++
		}
	}
	index, val := make([]int32, nnz), make([]float64, nnz)
	sv := make(SupportVectors, blk.Rows)
	at := 0
	for s := range sv {
		start := at
		for j := range blk.Cols {
			if x := value(s*blk.Cols + j); x != 0 {
				index[at], val[at] = int32(j), x
				at++
			}
		}
		if at > start { // an empty row stays nil, as sparse leaves it
			sv[s] = Sparse{Index: index[start:at:at], Value: val[start:at:at]}
		}
	}
	return sv, nil
}
