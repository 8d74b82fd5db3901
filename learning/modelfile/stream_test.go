package modelfile

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"mark1/learning"
	"mark1/learning/kernel"
	"mark1/learning/svm"
)

// svmFile returns the model file of a kernel SVM fitted on float32 rows.
func svmFile(t *testing.T) *File {
	t.Helper()
	d := threeBlobs(5, 120)
	rows, err := learning.NewFloat32(d.X)
	if err != nil {
		t.Fatal(err)
	}
	res, err := svm.Kernel{Kernel: kernel.Gaussian{Sigma: 0.7}}.Fit(context.Background(), &learning.Data{Rows: rows, Y: d.Y, Classes: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := FromModel("svm", res.Model, []string{"a", "b", "c"}, 3, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// Write's streamed text is plain JSON: encoding/json reads it back to the
// same File, and Decode reads json.MarshalIndent's text (the files written
// before the streaming writer) to the same File too.
func TestWriteIsJSON(t *testing.T) {
	f := svmFile(t)
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	var std File
	if err := json.Unmarshal(buf.Bytes(), &std); err != nil {
		t.Fatalf("encoding/json cannot read Write's text: %v", err)
	}
	if !reflect.DeepEqual(&std, f) {
		t.Error("encoding/json reads Write's text to another File")
	}
	if n := strings.Count(buf.String(), "\n"); n < len(f.SV) {
		t.Errorf("%d lines for %d support vectors: not one a line", n, len(f.SV))
	}
	old, err := json.MarshalIndent(f, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode(bytes.NewReader(old), "old.json")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, f) {
		t.Error("Decode reads json.MarshalIndent's text to another File")
	}
}

// Decode refuses, naming the file, what the whole-text decoder refused:
// unknown fields at the top and inside a support vector, a second value,
// a list where an object is due, and lists of the wrong type.
func TestDecodeRefuses(t *testing.T) {
	f := svmFile(t)
	var buf bytes.Buffer
	f.Write(&buf)
	good := buf.String()
	for _, tc := range []struct{ name, text, want string }{
		{"top-level unknown field", strings.Replace(good, `"dim":`, `"dims": 3, "dim":`, 1), `unknown field "dims"`},
		{"unknown field in a vector", strings.Replace(good, `{"index":`, `{"indices":[],"index":`, 1), `unknown field "indices"`},
		{"two values", good + "{}", "more than one JSON value"},
		{"an array", "[" + good + "]", "not an object"},
		{"sv not a list", strings.Replace(good, `"sv": [`, `"sv": 3, "x": [`, 1), `field "sv"`},
		{"cut short", good[:len(good)/2], "unexpected EOF"},
	} {
		_, err := Decode(strings.NewReader(tc.text), "m.json")
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "m.json: ") {
			t.Errorf("%s: error %v; want one naming m.json and saying %q", tc.name, err, tc.want)
		}
	}
}

// The support vectors of a model fitted on float32 rows come back as
// float32 rows (not a sparse copy), and the rebuilt model predicts as the
// fitted one.
func TestModelFloat32SupportVectors(t *testing.T) {
	f := svmFile(t)
	m, err := f.Model(3)
	if err != nil {
		t.Fatal(err)
	}
	km := m.(*svm.KernelModel)
	if _, ok := km.SVRows.(*learning.Float32); !ok {
		t.Fatalf("support vectors as %T, want *learning.Float32", km.SVRows)
	}
	probe := threeBlobs(6, 100)
	rows, _ := learning.NewFloat32(probe.X)
	d := threeBlobs(5, 120)
	fr, _ := learning.NewFloat32(d.X)
	res, err := svm.Kernel{Kernel: kernel.Gaussian{Sigma: 0.7}}.Fit(context.Background(), &learning.Data{Rows: fr, Y: d.Y, Classes: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := res.Model.(*svm.KernelModel).PredictRows(nil, rows, 1)
	if got := km.PredictRows(nil, rows, 2); !reflect.DeepEqual(got, want) {
		t.Errorf("rebuilt model predicts %v, fitted %v", got, want)
	}
}

// TestSparseUnmarshal checks Sparse's hand-written decoder against
// encoding/json's own (the type without the method) on the form Write
// gives and on the forms it leaves to encoding/json: the same vector, or
// an error from both.
func TestSparseUnmarshal(t *testing.T) {
	type plain Sparse
	for _, in := range []string{
		`{"index":[0,5,399],"value":[0.0823529,1,-2.5e-7]}`,
		`{"index":[],"value":[]}`,
		` { "index" : [ 1 , 2 ] , "value" : [ 3 , 4e2 ] } `,
		`{"value":[1],"index":[3]}`,
		`{"Index":[1],"VALUE":[2]}`,
		`{"index":null,"value":[1]}`,
		`null`,
		`{"index":[1],"value":[1e400]}`,
		`{"index":[2147483648],"value":[1]}`,
		`{"index":[1.5],"value":[1]}`,
		`{"index":[-3],"value":[-0]}`,
		`{"index":[1],"value":[1],"extra":2}`,
		`{"index":[1],"value":["1"]}`,
		`{"index":[1],"index":[2],"value":[1]}`,
	} {
		var got Sparse
		errGot := json.Unmarshal([]byte(in), &got)
		var want plain
		dec := json.NewDecoder(strings.NewReader(in))
		dec.DisallowUnknownFields()
		errWant := dec.Decode(&want)
		if (errGot == nil) != (errWant == nil) {
			t.Errorf("%s: error %v, encoding/json's %v", in, errGot, errWant)
			continue
		}
		if errGot == nil && !reflect.DeepEqual(got, Sparse(want)) {
			t.Errorf("%s: %+v, encoding/json's %+v", in, got, want)
		}
	}
}
