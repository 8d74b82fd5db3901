package modelfile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"
	"unsafe"
)

// A model file's support vectors are most of it (a 17,500-vector model of
// 400 features is some 70 MB of JSON as a list, 37 MB as a float32 block).
// Write and Decode therefore handle them apart: Write encodes a block a
// row at a time, or each vector of a list (and each machine) alone, into a
// buffered writer, and Decode reads the top-level object token by token,
// decoding a block's fields or one listed vector at a time, so that
// neither holds the whole text, nor a tree of it, in memory. The format is
// encoding/json's: any JSON reader reads the files, and Decode reads what
// json.Marshal writes.

// jsonField is a field of File as encoding/json names it.
type jsonField struct {
	name      string
	index     int
	omitEmpty bool
}

// fileFields lists File's fields in order, by their JSON names.
func fileFields() []jsonField {
	t := reflect.TypeFor[File]()
	var out []jsonField
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if !sf.IsExported() || tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = sf.Name
		}
		out = append(out, jsonField{name: name, index: i, omitEmpty: strings.Contains(","+opts+",", ",omitempty,")})
	}
	return out
}

// empty reports whether encoding/json's omitempty leaves v out.
func empty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Slice, reflect.Map, reflect.String, reflect.Array:
		return v.Len() == 0
	}
	return v.IsZero()
}

// Write writes f as JSON, indented as json.MarshalIndent(f, "", " ") but
// for the lists (the support vectors, the machines): one element a line,
// each encoded alone (memory: one vector's text at a time).
func (f *File) Write(w io.Writer) error {
	f = f.full()
	bw := bufio.NewWriterSize(w, 1<<16)
	v := reflect.ValueOf(f).Elem()
	bw.WriteString("{")
	sep := "\n"
	for _, fd := range fileFields() {
		fv := v.Field(fd.index)
		if fd.omitEmpty && empty(fv) {
			continue
		}
		fmt.Fprintf(bw, "%s %q: ", sep, fd.name)
		sep = ",\n"
		if sv, ok := fv.Interface().(SupportVectors); ok && sv != nil {
			if err := sv.write(bw); err != nil {
				return err
			}
			continue
		}
		if fv.Kind() == reflect.Slice && !fv.IsNil() && fv.Type().Elem().Kind() == reflect.Struct {
			if err := writeList(bw, fv); err != nil {
				return err
			}
			continue
		}
		b, err := json.MarshalIndent(fv.Interface(), " ", " ")
		if err != nil {
			return err
		}
		bw.Write(b)
	}
	bw.WriteString("\n}\n")
	return bw.Flush()
}

// writeList writes a slice of structs one element a line.
func writeList(bw *bufio.Writer, list reflect.Value) error {
	bw.WriteString("[")
	for k := range list.Len() {
		if k > 0 {
			bw.WriteString(",")
		}
		bw.WriteString("\n  ")
		b, err := json.Marshal(list.Index(k).Interface())
		if err != nil {
			return err
		}
		bw.Write(b)
	}
	if list.Len() > 0 {
		bw.WriteString("\n ")
	}
	bw.WriteString("]")
	return nil
}

// decodeFile decodes one JSON object into f from dec (which refuses
// unknown fields in the values it decodes), as encoding/json would (keys
// matched exactly, else without regard to case; null leaves a field as it
// is), with list fields (the support vectors, the machines) decoded one
// element at a time.
//
// With c not nil, a float32 or grey8 block of support vectors is kept as f.dense
// (ReadCompact).
func decodeFile(dec *json.Decoder, f *File, c *compact) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != json.Delim('{') {
		return fmt.Errorf("the file is a JSON %s, not an object", kind(tok))
	}
	fields := fileFields()
	v := reflect.ValueOf(f).Elem()
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		fd, ok := lookup(fields, key)
		if !ok {
			return fmt.Errorf("json: unknown field %q", key)
		}
		fv := v.Field(fd.index)
		if fv.Kind() == reflect.Slice && fv.Type().Elem().Kind() == reflect.Struct {
			var sv *compact
			if fv.Type() == reflect.TypeFor[SupportVectors]() {
				sv = c
			}
			err = decodeList(dec, fv, key, sv)
			if sv != nil {
				f.dense = sv.rows
			}
		} else {
			err = dec.Decode(fv.Addr().Interface())
		}
		if err != nil {
			return err
		}
	}
	_, err = dec.Token() // the closing brace
	return err
}

// lookup finds the field named key, exactly or else regardless of case.
func lookup(fields []jsonField, key string) (jsonField, bool) {
	for _, fd := range fields {
		if fd.name == key {
			return fd, true
		}
	}
	for _, fd := range fields {
		if strings.EqualFold(fd.name, key) {
			return fd, true
		}
	}
	return jsonField{}, false
}

// decodeList decodes a JSON array (or null) into the slice list, one
// element at a time; a block of support vectors goes to decodeBlock (with
// c).
func decodeList(dec *json.Decoder, list reflect.Value, key string, c *compact) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok == nil {
		return nil // null: the field stays as it is
	}
	if tok == json.Delim('{') && list.Type() == reflect.TypeFor[SupportVectors]() {
		sv, err := decodeBlock(dec, c)
		if err == nil {
			list.Set(reflect.ValueOf(sv))
		}
		return err
	}
	if tok != json.Delim('[') {
		return fmt.Errorf("json: cannot unmarshal %s into field %q, a list", kind(tok), key)
	}
	out := reflect.MakeSlice(list.Type(), 0, 0)
	for dec.More() {
		e := reflect.New(list.Type().Elem())
		if err := dec.Decode(e.Interface()); err != nil {
			return err
		}
		out = reflect.Append(out, e.Elem())
	}
	if _, err := dec.Token(); err != nil { // the closing bracket
		return err
	}
	list.Set(out)
	return nil
}

// kind names the JSON kind of a token.
func kind(tok json.Token) string {
	switch tok.(type) {
	case json.Delim:
		if tok == json.Delim('[') {
			return "array"
		}
		return "object"
	case string:
		return "string"
	case float64, json.Number:
		return "number"
	case bool:
		return "boolean"
	}
	return "null"
}

// UnmarshalJSON decodes a support vector as encoding/json would, reading
// the form Write gives it ({"index":[…],"value":[…]}, the bulk of a model
// file) by hand: through reflection every number cost as much as the
// prediction it serves. Any other form (other spacing inside the lists
// aside: keys in another case or order, null, a number out of range, an
// unknown key) is decoded by encoding/json itself, with its errors.
func (s *Sparse) UnmarshalJSON(b []byte) error {
	if index, value, ok := parseSparse(b); ok {
		s.Index, s.Value = index, value
		return nil
	}
	type plain Sparse // without this method
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode((*plain)(s))
}

// parseSparse reads b as exactly {"index":[ints],"value":[numbers]}; ok is
// false for anything else. b is one JSON value, checked by the decoder's
// scanner, so its numbers follow JSON's grammar and strconv reads them as
// encoding/json does.
func parseSparse(b []byte) (index []int32, value []float64, ok bool) {
	p := 0
	skip := func() {
		for p < len(b) && (b[p] == ' ' || b[p] == '\t' || b[p] == '\n' || b[p] == '\r') {
			p++
		}
	}
	lit := func(s string) bool {
		skip()
		if !bytes.HasPrefix(b[p:], []byte(s)) {
			return false
		}
		p += len(s)
		return true
	}
	// list calls fn on each number of a JSON array of numbers.
	list := func(fn func(tok []byte) bool) bool {
		if !lit("[") {
			return false
		}
		if lit("]") {
			return true
		}
		for {
			skip()
			q := p
			for p < len(b) && b[p] != ',' && b[p] != ']' && b[p] != ' ' && b[p] != '\n' && b[p] != '\t' && b[p] != '\r' {
				p++
			}
			if q == p || !fn(b[q:p]) {
				return false
			}
			if lit("]") {
				return true
			}
			if !lit(",") {
				return false
			}
		}
	}
	// Write's form has as many values as indices: len(index)−1 and
	// len(value)−1 commas within the lists and one between them.
	k := (bytes.Count(b, []byte(",")) + 1) / 2
	index, value = make([]int32, 0, k), make([]float64, 0, k)
	ok = lit("{") && lit(`"index"`) && lit(":") && list(func(tok []byte) bool {
		v := 0
		for _, c := range tok { // JSON's integers without a sign: digits
			if c < '0' || c > '9' || v > math.MaxInt32/10 {
				return false // a sign, a fraction or an exponent, or large
			}
			v = 10*v + int(c-'0')
		}
		index = append(index, int32(v))
		return v <= math.MaxInt32
	}) && lit(",") && lit(`"value"`) && lit(":") && list(func(tok []byte) bool {
		// A string over tok's bytes, not a copy (the copy cost 4/5 of the
		// call): ParseFloat keeps nothing of it, and tok is not changed.
		v, err := strconv.ParseFloat(unsafe.String(&tok[0], len(tok)), 64)
		value = append(value, v)
		return err == nil
	}) && lit("}")
	skip()
	return index, value, ok && p == len(b)
}
