package modelfile

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
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

// spread returns f with its support vectors' features spread over 4×dim
// (feature j becomes 4j): a model of sparse rows, whose vectors a file
// lists rather than writes as a block.
func spread(f *File) *File {
	g := *f
	g.Dim *= 4
	g.SV = make(SupportVectors, len(f.SV))
	for s, v := range f.SV {
		g.SV[s] = Sparse{Index: make([]int32, len(v.Index)), Value: v.Value}
		for k, j := range v.Index {
			g.SV[s].Index[k] = 4 * j
		}
	}
	return &g
}

// Write's streamed text is plain JSON: encoding/json reads it back to the
// same File, and Decode reads json.MarshalIndent's text (the files written
// before the streaming writer) to the same File too, for support vectors
// in a block and in a list.
func TestWriteIsJSON(t *testing.T) {
	for name, f := range map[string]*File{"block": svmFile(t), "list": spread(svmFile(t))} {
		var buf bytes.Buffer
		if err := f.Write(&buf); err != nil {
			t.Fatal(err)
		}
		var std File
		if err := json.Unmarshal(buf.Bytes(), &std); err != nil {
			t.Fatalf("%s: encoding/json cannot read Write's text: %v", name, err)
		}
		if !reflect.DeepEqual(&std, f) {
			t.Errorf("%s: encoding/json reads Write's text to another File", name)
		}
		lines := strings.Count(buf.String(), "\n")
		if block := strings.Contains(buf.String(), `"sv": {"encoding": "float32"`); block != (name == "block") {
			t.Errorf("%s: support vectors written as a block: %v", name, block)
		}
		if lines < len(f.SV) {
			t.Errorf("%d lines for %d support vectors: not one a line", lines, len(f.SV))
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
			t.Errorf("%s: Decode reads json.MarshalIndent's text to another File", name)
		}
	}
}

// A block holds its vectors exactly in the narrowest encoding, and reads
// back to the same vectors, bit for bit; what a block cannot hold exactly
// (a stored zero, indices out of order) or holds in more bytes than a list
// (mostly zeros) is listed.
func TestBlockRoundTrip(t *testing.T) {
	third := float64(float32(1.0 / 3))
	for _, tc := range []struct {
		name string
		sv   SupportVectors
		want string // the block's encoding, "" for a list
	}{
		{"grey levels", SupportVectors{{Index: []int32{0, 1, 2}, Value: []float64{1.0 / 255, 1, 128.0 / 255}}, {Index: []int32{1}, Value: []float64{7.0 / 255}}}, "grey8"},
		{"float32 values", SupportVectors{{Index: []int32{0, 2}, Value: []float64{third, -2.5}}, {Index: []int32{1, 2}, Value: []float64{float64(float32(1e-30)), 3}}}, "float32"},
		{"float64 values", SupportVectors{{Index: []int32{0, 1}, Value: []float64{1.0 / 3, math.SmallestNonzeroFloat64}}, {Index: []int32{2}, Value: []float64{-1e300}}}, "float64"},
		{"an empty row", SupportVectors{{Index: []int32{0, 1, 2}, Value: []float64{1, 2.0 / 255, 3.0 / 255}}, {}}, "grey8"},
		{"a stored zero", SupportVectors{{Index: []int32{0, 1}, Value: []float64{0, 2}}}, ""},
		{"indices out of order", SupportVectors{{Index: []int32{1, 0}, Value: []float64{1, 2}}}, ""},
		{"mostly zeros", SupportVectors{{Index: []int32{9}, Value: []float64{1}}, {Index: []int32{3}, Value: []float64{0.5}}}, ""},
	} {
		if got, _ := tc.sv.blockForm(); got != tc.want {
			t.Errorf("%s: encoding %q, want %q", tc.name, got, tc.want)
		}
		b, err := json.Marshal(tc.sv)
		if err != nil {
			t.Fatal(err)
		}
		var back SupportVectors
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%s: %s does not read back: %v", tc.name, b, err)
		}
		if !reflect.DeepEqual(back, tc.sv) {
			t.Errorf("%s: %s reads back as %v, want %v", tc.name, b, back, tc.sv)
		}
	}
}

// Decode refuses, naming the file, what the whole-text decoder refused:
// unknown fields at the top and inside a support vector, a second value,
// a list where an object is due, and lists of the wrong type.
func TestDecodeRefuses(t *testing.T) {
	f := svmFile(t)
	var buf bytes.Buffer
	spread(f).Write(&buf)
	good := buf.String()
	buf.Reset()
	f.Write(&buf)
	block := buf.String()
	row := strings.Index(block, `"rows": [`) + len("\"rows\": [\n  \"") // the first row's text
	for _, tc := range []struct{ name, text, want string }{
		{"top-level unknown field", strings.Replace(good, `"dim":`, `"dims": 3, "dim":`, 1), `unknown field "dims"`},
		{"unknown field in a vector", strings.Replace(good, `{"index":`, `{"indices":[],"index":`, 1), `unknown field "indices"`},
		{"two values", good + "{}", "more than one JSON value"},
		{"an array", "[" + good + "]", "not an object"},
		{"sv not a list", strings.Replace(good, `"sv": [`, `"sv": 3, "x": [`, 1), `field "sv"`},
		{"cut short", good[:len(good)/2], "unexpected EOF"},
		{"unknown field in a block", strings.Replace(block, `"cols":`, `"colour": 1, "cols":`, 1), `unknown field "colour"`},
		{"unknown encoding", strings.Replace(block, `"float32"`, `"float16"`, 1), `encoding "float16"`},
		{"rows not a list", strings.Replace(block, `"rows": [`, `"rows": 3, "x": [`, 1), "rows are a number"},
		{"a row a value short", block[:row] + "AAAAAAAAAAA=" + block[row+16:], "row 1 has 3 values, the rows before it 2"},
		{"a broken value", block[:row] + "AAAAAAAAAAAAAAAAAAAA" + block[row+16:], "row 0 has 15 bytes, not a whole number of float32 values"},
		{"columns", strings.Replace(block, `"cols": 3`, `"cols": 4`, 1), "rows of 3 values in a block of 4 columns"},
		{"not base64", block[:row] + "*" + block[row+1:], "illegal base64"},
		{"a NaN", block[:row] + "AADAfwAA" + block[row+8:], "not finite"}, // the first value's bytes 00 00 c0 7f
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

// Files of version 1, whose support vectors are always a list, read as
// before; a version after this package's is refused by name.
func TestReadsVersion1(t *testing.T) {
	f := spread(svmFile(t))
	f.Version = 1
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := Decode(bytes.NewReader(buf.Bytes()), "v1.json")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, f) {
		t.Error("a version 1 file reads to another File")
	}
	future := strings.Replace(buf.String(), `"version": 1`, `"version": 3`, 1)
	if _, err := Decode(strings.NewReader(future), "v3.json"); err == nil || !strings.Contains(err.Error(), "version 3") {
		t.Errorf("version 3: error %v", err)
	}
}

// ReadCompact keeps a float32 block's support vectors as float32 rows and
// builds the model on them in place; the model predicts as the one
// ReadFormat's File builds, for inputs of the model's dim and wider, and
// the File writes the same JSON and LIBSVM text. A block whose columns
// pass dim reads as the list form does: refused with a non-zero value
// there, read with zeros.
func TestReadCompact(t *testing.T) {
	f := svmFile(t)
	dir := t.TempDir()
	write := func(name string, f *File) string {
		var buf bytes.Buffer
		if err := f.Write(&buf); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	path := write("m.json", f)
	full, _, err := ReadFormat(path)
	if err != nil {
		t.Fatal(err)
	}
	compact, format, err := ReadCompact(path)
	if err != nil || format != Mark1 {
		t.Fatalf("ReadCompact: %v, format %v", err, format)
	}
	if compact.SV != nil || compact.dense == nil || compact.numSV() != len(full.SV) {
		t.Fatalf("compact file: SV %v, dense %v; want the %d vectors dense", compact.SV != nil, compact.dense != nil, len(full.SV))
	}
	probe := threeBlobs(6, 100)
	for _, dim := range []int{3, 5} {
		X := make([][]float64, len(probe.X))
		for i, x := range probe.X {
			X[i] = append(slices.Clone(x), make([]float64, dim-3)...)
		}
		rows, _ := learning.NewFloat32(X)
		predict := func(f *File) []int {
			m, err := f.Model(dim)
			if err != nil {
				t.Fatal(err)
			}
			km := m.(*svm.KernelModel)
			if _, ok := km.SVRows.(*learning.Float32); !ok {
				t.Fatalf("support vectors as %T, want *learning.Float32", km.SVRows)
			}
			return km.PredictRows(nil, rows, 1)
		}
		if got, want := predict(compact), predict(full); !reflect.DeepEqual(got, want) {
			t.Errorf("dim %d: the compact file's model predicts %v, the full one's %v", dim, got, want)
		}
	}
	text := func(f *File) (string, string) {
		var j, l bytes.Buffer
		if err := f.Write(&j); err != nil {
			t.Fatal(err)
		}
		g := *f
		g.Classes = []string{"1", "2", "3"}
		if err := WriteLIBSVM(&l, &g); err != nil {
			t.Fatal(err)
		}
		return j.String(), l.String()
	}
	cj, cl := text(compact)
	fj, fl := text(full)
	if cj != fj || cl != fl {
		t.Errorf("the compact file writes other text than the full one")
	}

	// A block one column wider than dim: zeros there read as the list of
	// the same vectors does; a non-zero is refused by both readers.
	for _, zero := range []bool{true, false} {
		sv := slices.Clone(f.SV)
		if !zero {
			last := len(sv) - 1
			sv[last] = Sparse{Index: append(slices.Clone(sv[last].Index), 3), Value: append(slices.Clone(sv[last].Value), 0.5)}
		}
		var block bytes.Buffer
		bw := bufio.NewWriter(&block)
		if err := sv.writeBlock(bw, "float32", 4); err != nil {
			t.Fatal(err)
		}
		bw.Flush()
		js, _ := text(f)
		start := strings.Index(js, `"sv": `) + len(`"sv": `)
		end := strings.Index(js, `,
 "machines"`)
		path := filepath.Join(dir, "wide.json")
		if err := os.WriteFile(path, []byte(js[:start]+block.String()+js[end:]), 0o644); err != nil {
			t.Fatal(err)
		}
		ff, _, errFull := ReadFormat(path)
		fc, _, errCompact := ReadCompact(path)
		if (errFull == nil) != zero || (errCompact == nil) != zero {
			t.Fatalf("a block wider than dim, zeros there %v: ReadFormat %v, ReadCompact %v", zero, errFull, errCompact)
		}
		if zero {
			a, b := text(ff)
			if c, d := text(fc); a != c || b != d {
				t.Errorf("a block wider than dim: the compact file writes other text than the full one")
			}
			rows, _ := learning.NewFloat32(probe.X)
			mf, _ := ff.Model(3)
			mc, err := fc.Model(3)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := mc.(*svm.KernelModel).PredictRows(nil, rows, 1), mf.(*svm.KernelModel).PredictRows(nil, rows, 1); !reflect.DeepEqual(got, want) {
				t.Errorf("a block wider than dim: the compact file's model predicts %v, the full one's %v", got, want)
			}
		}
	}
}

// A grey8 block reads compact as bytes in place, and its model is the full
// reading's: the same form of support vectors (bytes; bit sets for 0/255
// pictures; sparse rows for sparse ones, as Sparse.Compact chooses), the
// same predictions on grey and float32 rows, and the same text written.
func TestReadCompactGrey(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name   string
		levels func(rng *rand.Rand, c, k int) uint8 // pixel k of a class-c picture
		wide   int                                  // the features the model is asked for
		form   string
	}{
		{"grey", func(rng *rand.Rand, c, k int) uint8 {
			if rng.IntN(4) == 0 {
				return 0
			}
			return uint8(40*c + k + rng.IntN(120))
		}, 26, "*learning.Grey"},
		{"black and white", func(rng *rand.Rand, c, k int) uint8 {
			if (k+c)%3 == 0 || rng.IntN(5) == 0 {
				return 255
			}
			return 0
		}, 26, "*learning.Bits"},
		// 40% of the pixels lit: a block of 24 columns, sparse rows among
		// 72 features (data with more features than the model's).
		{"sparse among more features", func(rng *rand.Rand, c, k int) uint8 {
			if (k+c)%5 >= 2 {
				return 0
			}
			return uint8(100 + rng.IntN(156))
		}, 72, "*learning.Sparse"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const n, dim = 90, 24
			rng := rand.New(rand.NewPCG(3, 4))
			X := make([][]float64, n)
			y := make([]int, n)
			for i := range X {
				y[i] = i % 3
				X[i] = make([]float64, dim)
				for k := range X[i] {
					X[i][k] = float64(tc.levels(rng, y[i], k)) / 255
				}
			}
			rows, ok := learning.NewGrey(X)
			if !ok {
				t.Fatal("not grey")
			}
			res, err := svm.Kernel{Kernel: kernel.Gaussian{Sigma: 1.5}, Settings: svm.Settings{C: 5}}.Fit(context.Background(), &learning.Data{Rows: rows, Y: y, Classes: 3}, nil)
			if err != nil {
				t.Fatal(err)
			}
			f, err := FromModel("svm", res.Model, []string{"a", "b", "c"}, dim, nil, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := f.Write(&buf); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(buf.String(), `"encoding": "grey8"`) {
				t.Fatal("the model's support vectors are not a grey8 block")
			}
			path := filepath.Join(dir, tc.name+".json")
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			full, _, err := ReadFormat(path)
			if err != nil {
				t.Fatal(err)
			}
			compact, _, err := ReadCompact(path)
			if err != nil {
				t.Fatal(err)
			}
			if compact.SV != nil || compact.dense == nil || compact.dense.b == nil || compact.numSV() != len(full.SV) {
				t.Fatalf("compact file: SV %v, dense %v; want the %d vectors as bytes", compact.SV != nil, compact.dense != nil, len(full.SV))
			}
			probe := make([][]float64, 40)
			for i := range probe {
				probe[i] = make([]float64, tc.wide)
				for k := range dim {
					probe[i][k] = float64(tc.levels(rng, i%3, k)) / 255
				}
			}
			grey, _ := learning.NewGrey(probe)
			f32, _ := learning.NewFloat32(probe)
			for _, q := range []learning.Rows{grey, f32} {
				predict := func(f *File) []int {
					m, err := f.Model(tc.wide)
					if err != nil {
						t.Fatal(err)
					}
					km := m.(*svm.KernelModel)
					if got := fmt.Sprintf("%T", km.SVRows); got != tc.form {
						t.Fatalf("support vectors as %s, want %s", got, tc.form)
					}
					return km.PredictRows(nil, q, 1)
				}
				if got, want := predict(compact), predict(full); !reflect.DeepEqual(got, want) {
					t.Errorf("%T rows: the compact file's model predicts %v, the full one's %v", q, got, want)
				}
			}
			var a, b bytes.Buffer
			if err := compact.Write(&a); err != nil {
				t.Fatal(err)
			}
			if err := full.Write(&b); err != nil {
				t.Fatal(err)
			}
			if a.String() != b.String() {
				t.Errorf("the compact file writes other text than the full one")
			}
		})
	}
}
