package modelfile

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// A model file's support vectors are most of it (a 17,500-vector model of
// 400 features is some 70 MB of JSON). Write and Decode therefore handle
// them one at a time: Write encodes each vector (and each machine) alone
// into a buffered writer, and Decode reads the top-level object token by
// token, decoding one vector at a time, so that neither holds the whole
// text, nor a tree of it, in memory. The format is encoding/json's: any
// JSON reader reads the files, and Decode reads what json.Marshal writes.

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
func decodeFile(dec *json.Decoder, f *File) error {
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
			err = decodeList(dec, fv, key)
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
// element at a time.
func decodeList(dec *json.Decoder, list reflect.Value, key string) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok == nil {
		return nil // null: the field stays as it is
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
