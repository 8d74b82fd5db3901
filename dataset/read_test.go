package dataset

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mark1/internal/base/atomicfile"
	"mark1/internal/testtool"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestReadFormats(t *testing.T) {
	tests := []struct {
		file    string
		format  Format
		classes []string
		y       []int
		dim     int
		dense   [][]float64
	}{
		{"small.libsvm", LibSVM, []string{"2", "1", "3"}, []int{0, 1, 0, 2, 1}, 7, [][]float64{
			{0.5, 0, -1.25, 0, 0, 0, 0},
			{0, 3, 0, 1e-3, 0, 0, 0},
			{1, 0, 0, 0, 0, 0, 0},
			{0, 0, 0, -7, 0, 0, 2.5},
			{0.25, 0.5, 0.75, 0, 0, 0, 0},
		}},
		{"small.csv", CSV, []string{"setosa", "versicolor", "virginica"}, []int{0, 1, 2, 0}, 3, [][]float64{
			{5.1, 3.5, 1.4}, {7.0, 3.2, 4.7}, {6.3, 3.3, 6.0}, {4.9, 3.0, 1.4},
		}},
		{"small.txt", Text, []string{"1", "-1"}, []int{1, 0, 1}, 2, [][]float64{
			{0.5, 1.5}, {1, 0}, {-2, 3.25},
		}},
		// -1 first, then +1 written three ways: one class "1", put first as LIBSVM does.
		{"pm1.libsvm", LibSVM, []string{"1", "-1"}, []int{1, 0, 0, 1}, 2, [][]float64{
			{1, 2}, {-1, 0}, {0, 0.5}, {3, 0},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			s, err := ReadFile(filepath.Join("testdata", tt.file), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if s.Format != tt.format {
				t.Errorf("format %v; want %v", s.Format, tt.format)
			}
			if !reflect.DeepEqual(s.Classes, tt.classes) || !reflect.DeepEqual(s.Y, tt.y) {
				t.Errorf("classes %q, y %v; want %q, %v", s.Classes, s.Y, tt.classes, tt.y)
			}
			if s.Dim != tt.dim {
				t.Errorf("dim %d; want %d", s.Dim, tt.dim)
			}
			X, err := s.Dense(0)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(X, tt.dense) {
				t.Errorf("rows %v; want %v", X, tt.dense)
			}
		})
	}
}

func TestReadSniffAndOverride(t *testing.T) {
	tests := []struct {
		text string
		opt  Options
		want Format
	}{
		{"1 1:2 3:4\n", Options{}, LibSVM},
		{"# c\n\n-1 2:1\n", Options{}, LibSVM},
		{"a,b,label\n1,2,x\n", Options{}, CSV},
		{"1 2 x\n", Options{}, Text},
		{"1,2\n3,4\n", Options{Format: Text}, 0}, // "1,2" is one field: an error
	}
	for _, tt := range tests {
		s, err := Read(strings.NewReader(tt.text), "in", tt.opt)
		if tt.want == 0 {
			if err == nil {
				t.Errorf("%q as %v: no error", tt.text, tt.opt.Format)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tt.text, err)
			continue
		}
		if s.Format != tt.want {
			t.Errorf("%q read as %v; want %v", tt.text, s.Format, tt.want)
		}
	}
}

func TestReadCSVLabelColumn(t *testing.T) {
	const in = "a,b,c\n1,2,x\n3,4,y\n"
	tests := []struct {
		col      string
		classes  []string
		features []string
	}{
		{"", []string{"x", "y"}, []string{"a", "b"}},
		{"3", []string{"x", "y"}, []string{"a", "b"}},
		{"A", []string{"1", "3"}, []string{"b", "c"}},
		{"2", []string{"2", "4"}, []string{"a", "c"}},
	}
	for _, tt := range tests {
		s, err := Read(strings.NewReader(in), "in.csv", Options{Format: CSV, LabelColumn: tt.col})
		if tt.col == "A" || tt.col == "2" {
			// The remaining columns must be numbers; "c" is not.
			if err == nil || !strings.Contains(err.Error(), `column "c"`) {
				t.Errorf("label column %q: error %v; want one naming column c", tt.col, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("label column %q: %v", tt.col, err)
		}
		if !reflect.DeepEqual(s.Classes, tt.classes) || !reflect.DeepEqual(s.Features, tt.features) {
			t.Errorf("label column %q: classes %q features %q; want %q %q", tt.col, s.Classes, s.Features, tt.classes, tt.features)
		}
	}
	s, err := Read(strings.NewReader("x,class,z\n1,b,2\n3,a,0\n"), "in.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s.Classes, []string{"b", "a"}) || s.Dim != 2 {
		t.Errorf("default label column: classes %q dim %d; want the column named class", s.Classes, s.Dim)
	}
}

func TestReadErrors(t *testing.T) {
	tests := []struct {
		name   string
		text   string
		opt    Options
		line   int
		column int
		want   string
	}{
		{"ragged csv", "a,b,label\n1,2,x\n1,x\n", Options{}, 3, 0, "ragged CSV"},
		{"missing label column", "a,b,c\n1,2,3\n", Options{Format: CSV, LabelColumn: "species"}, 1, 0, `no column named "species"`},
		{"label position", "a,b,c\n1,2,3\n", Options{Format: CSV, LabelColumn: "4"}, 1, 0, "out of range"},
		{"non-numeric csv", "a,b,label\n1,2,x\n1,abc,y\n", Options{}, 3, 2, `column "b": "abc" is not a number`},
		{"NaN csv", "a,b,label\n1,NaN,x\n", Options{}, 2, 2, "not a finite number"},
		{"Inf libsvm", "1 1:Inf\n", Options{}, 1, 2, "not a finite number"},
		{"empty csv value", "a,b,label\n1,,x\n", Options{}, 2, 2, "empty value"},
		{"header only", "a,b,label\n", Options{}, 1, 0, "a header but no rows"},
		{"empty file", "", Options{Format: CSV}, 0, 0, "empty file"},
		{"no libsvm rows", "# nothing\n", Options{Format: LibSVM}, 0, 0, "no rows"},
		{"duplicate index", "1 1:2 3:1 3:4\n", Options{}, 1, 4, `index 3 after 3; indices must increase strictly along a line (LIBSVM's svm-train stops with "Wrong input format at line 1")`},
		{"unsorted index", "1 1:1\n2 5:1 2:1\n", Options{}, 2, 3, "index 2 after 5"},
		{"zero index, 1-based", "1 0:1\n", Options{Indices: OneBased}, 1, 2, "below 1"},
		{"negative index", "1 -1:1\n", Options{}, 1, 2, "index -1 is negative"},
		{"qid after features", "1 1:1 qid:3\n", Options{}, 1, 3, "a query id must come before the features"},
		{"qid not integer", "1 qid:x 1:1\n", Options{}, 1, 2, "the query id is not an integer"},
		{"no labels and label column", "a,b\n1,2\n", Options{NoLabels: true, LabelColumn: "a"}, -1, 0, "no labels asked for at once"},
		{"bad label", "one 1:1\n", Options{Format: LibSVM}, 1, 1, "libsvm labels are numbers"},
		{"not index:value", "1 1:1 7\n", Options{Format: LibSVM}, 1, 3, "is not index:value"},
		{"ragged text", "1 2 a\n1 2 3 b\n", Options{}, 2, 0, "4 columns; line 1 has 3"},
		{"text value", "1 x a\n", Options{Format: Text}, 1, 2, `"x" is not a number`},
		{"text one column", "a\n", Options{Format: Text}, 1, 0, "1 column"},
		{"label column for libsvm", "1 1:1\n", Options{LabelColumn: "2"}, -1, 0, "only for CSV"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tt.text), "data.in", tt.opt)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "data.in") {
				t.Errorf("error %q; want it to start with the file name and contain %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q is more than one line", err)
			}
			if tt.line < 0 {
				return
			}
			var pe *ParseError
			if !errors.As(err, &pe) || !errors.Is(err, ErrFormat) {
				t.Fatalf("error %T %v is not a *ParseError wrapping ErrFormat", err, err)
			}
			if pe.Line != tt.line || pe.Column != tt.column {
				t.Errorf("line %d field %d; want line %d field %d (%v)", pe.Line, pe.Column, tt.line, tt.column, err)
			}
		})
	}
}

func TestReadBudgets(t *testing.T) {
	tests := []struct {
		name string
		text string
		opt  Options
		want string
	}{
		{"values", "1 1:1 2:1\n2 1:1 2:1 3:1\n", Options{MaxValues: 4}, "more than 4 non-zero values"},
		{"rows", "1 2 a\n1 2 a\n1 2 a\n", Options{MaxRows: 2}, "more than 2 rows"},
		{"dim", "1 70000:1\n", Options{MaxDim: 65536}, "feature index 70000 is above the limit of 65536"},
		{"csv dim", "a,b,c,label\n1,2,3,x\n", Options{MaxDim: 2}, "3 features, above the limit of 2"},
		// 2 rows of 16 bytes and 5 values of 12: 92 bytes.
		{"bytes", "1 1:1 2:1\n2 1:1 2:1 3:1\n", Options{MaxBytes: 91}, "the 2 rows and 5 non-zero values read so far take 92 bytes, over the budget of 91"},
		{"bytes of rows", "1\n2\n3\n", Options{Format: LibSVM, MaxBytes: 47}, "the 3 rows and 0 non-zero values read so far take 48 bytes"},
	}
	for _, tt := range tests {
		_, err := Read(strings.NewReader(tt.text), "big", tt.opt)
		if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v; want ErrTooLarge with %q", tt.name, err, tt.want)
		}
	}
	if _, err := Read(strings.NewReader("1 1:1 2:1\n2 1:1 2:1 3:1\n"), "exact", Options{MaxBytes: 92}); err != nil {
		t.Errorf("rows at the byte budget: %v", err)
	}
	s, err := Read(strings.NewReader("1 1000:1\n2 1:1\n3 2:1\n"), "wide", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Dense(2999); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "3 rows × 1000 features is 3000 values") {
		t.Errorf("Dense over budget: %v", err)
	}
	if _, err := s.Dense(3000); err != nil {
		t.Errorf("Dense at budget: %v", err)
	}
}

func TestReadFileGzip(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "small.csv"))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(raw)
	zw.Close()
	path := filepath.Join(t.TempDir(), "small.csv.gz")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := ReadFile(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Format != CSV || s.Rows() != 4 || s.Dim != 3 {
		t.Errorf("gzipped CSV: format %v, %d rows, dim %d; want csv, 4, 3", s.Format, s.Rows(), s.Dim)
	}
}

func TestVariance(t *testing.T) {
	s, err := Read(strings.NewReader("1 1:1 2:2\n2 2:4\n1 3:-3\n"), "v", Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Entries 1 2 0 / 0 4 0 / 0 0 -3: mean 4/9, Σx² 30, var 30/9 − 16/81.
	if got, want := s.Variance(), 30.0/9-16.0/81; math.Abs(got-want) > 1e-15 {
		t.Errorf("Variance %v; want %v", got, want)
	}
}

func TestSplitAndRelabel(t *testing.T) {
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, "%d %d:1\n", i%3, 1+i%5)
	}
	s, err := Read(strings.NewReader(b.String()), "s", Options{})
	if err != nil {
		t.Fatal(err)
	}
	tr, te := s.Split(0.25, 7)
	if tr.Rows()+te.Rows() != 40 {
		t.Fatalf("%d + %d rows; want 40", tr.Rows(), te.Rows())
	}
	count := func(x *Set) []int {
		n := make([]int, len(x.Classes))
		for _, c := range x.Y {
			n[c]++
		}
		return n
	}
	// Classes of 14, 13, 13 rows: a quarter of each, rounded, held out.
	if got := count(te); !reflect.DeepEqual(got, []int{4, 3, 3}) {
		t.Errorf("held out per class %v; want [4 3 3]", got)
	}
	tr2, _ := s.Split(0.25, 7)
	if !reflect.DeepEqual(tr.Y, tr2.Y) || !reflect.DeepEqual(tr.Value, tr2.Value) {
		t.Error("the same seed gave a different split")
	}
	checkSet(t, tr)
	checkSet(t, te)
	before := []string{}
	for i := range te.Rows() {
		before = append(before, te.Label(i))
	}
	if err := te.Relabel([]string{"2", "1", "0"}); err != nil {
		t.Fatal(err)
	}
	for i := range te.Rows() {
		if te.Label(i) != before[i] {
			t.Fatalf("row %d: label %q after Relabel; was %q", i, te.Label(i), before[i])
		}
	}
	if err := te.Relabel([]string{"0", "1"}); err == nil || !strings.Contains(err.Error(), `label "2" is not one of the training data's classes`) {
		t.Errorf("Relabel onto fewer classes: %v", err)
	}
}

// TestIndicesLikeScikitLearn reads libsvm text written with 0-based and
// 1-based indices (and svmlight query ids) and compares every value with
// what scikit-learn's load_svmlight_file(zero_based="auto") reads from the
// same bytes, and with Options.Indices forced either way.
func TestIndicesLikeScikitLearn(t *testing.T) {
	files := []struct {
		name, text string
		zero       bool // scikit-learn's auto rule: some index is 0
	}{
		{"zero-based", "1 0:1.5 3:2\n-1 1:0.25\n1 2:-1 3:4\n", true},
		{"one-based", "1 1:1.5 4:2\n-1 2:0.25\n1 3:-1 4:4\n", false},
		{"zero only as an explicit zero", "2 0:0 2:1\n3 1:7\n", true},
		{"qid", "3 qid:1 1:0.5 2:1\n1 qid:1 2:2\n2 qid:2 1:1\n", false},
		{"qid zero-based", "3 qid:1 0:0.5 2:1\n1 qid:2 1:2\n", true},
	}
	dir := t.TempDir()
	var script strings.Builder
	script.WriteString("import sys, json\nfrom sklearn.datasets import load_svmlight_file\nout = []\n")
	for k, f := range files {
		p := filepath.Join(dir, fmt.Sprintf("f%d.svm", k))
		if err := os.WriteFile(p, []byte(f.text), 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&script, "X, y = load_svmlight_file(%q, zero_based='auto')[:2]\nout.append({'X': X.toarray().tolist(), 'y': y.tolist()})\n", p)
	}
	script.WriteString("json.dump(out, sys.stdout)\n")
	sk := sklearnJSON(t, script.String())
	var want []struct {
		X [][]float64
		Y []float64
	}
	if err := json.Unmarshal(sk, &want); err != nil {
		t.Fatal(err)
	}
	for k, f := range files {
		t.Run(f.name, func(t *testing.T) {
			s, err := Read(strings.NewReader(f.text), f.name, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if s.ZeroBased != f.zero {
				t.Errorf("ZeroBased %v; want %v", s.ZeroBased, f.zero)
			}
			X, _ := s.Dense(0)
			if len(X) != len(want[k].X) || s.Dim != len(want[k].X[0]) {
				t.Fatalf("%d rows × %d features; scikit-learn %d × %d", len(X), s.Dim, len(want[k].X), len(want[k].X[0]))
			}
			for i := range X {
				if !reflect.DeepEqual(X[i], want[k].X[i]) {
					t.Errorf("row %d: %v; scikit-learn %v", i, X[i], want[k].X[i])
				}
				if y, _ := strconv.ParseFloat(s.Label(i), 64); y != want[k].Y[i] {
					t.Errorf("row %d: label %s; scikit-learn %v", i, s.Label(i), want[k].Y[i])
				}
			}
			if q := strings.Count(f.text, "qid:"); s.QueryIDs != q {
				t.Errorf("%d query ids counted; the file has %d", s.QueryIDs, q)
			}
			forced := OneBased
			if f.zero {
				forced = ZeroBased
			}
			s2, err := Read(strings.NewReader(f.text), f.name, Options{Indices: forced})
			if err != nil {
				t.Fatal(err)
			}
			sameValues(t, "forced "+forced.String(), s, s2)
		})
	}
}

// sklearnJSON runs a Python script with scikit-learn and returns its
// standard output; it fails (CI) or skips (elsewhere) without scikit-learn.
func sklearnJSON(t *testing.T, script string) []byte {
	t.Helper()
	testtool.NeedSklearn(t)
	out, err := exec.Command("/usr/bin/python3", "-c", script).Output()
	if err != nil {
		t.Fatalf("python: %v", err)
	}
	return out
}

// TestNoLabels reads each format without labels: every column a feature.
func TestNoLabels(t *testing.T) {
	tests := []struct {
		name, text string
		format     Format
		dim        int
		features   []string
	}{
		{"csv", "a,b,c\n1,2,3\n4,5,6\n", CSV, 3, []string{"a", "b", "c"}},
		{"text", "1 2 3\n4 5 6\n", Text, 3, nil},
		{"libsvm", "1:1 2:2 3:3\n1:4 2:5 3:6\n", LibSVM, 3, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Read(strings.NewReader(tt.text), tt.name, Options{Format: tt.format, NoLabels: true})
			if err != nil {
				t.Fatal(err)
			}
			X, _ := s.Dense(0)
			if !s.Unlabelled || s.Rows() != 2 || s.Dim != tt.dim || !reflect.DeepEqual(X, [][]float64{{1, 2, 3}, {4, 5, 6}}) || !reflect.DeepEqual(s.Features, tt.features) || len(s.Classes) != 0 || s.Label(1) != "" {
				t.Errorf("unlabelled %v, %d rows, dim %d, %v, features %q, classes %q", s.Unlabelled, s.Rows(), s.Dim, X, s.Features, s.Classes)
			}
		})
	}
}

func TestReadHead(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		name, text string
		want       Head
	}{
		{"a.csv", "x,y,target\n1,2,3\n", Head{Format: CSV, Header: []string{"x", "y", "target"}, Columns: 3}},
		{"a.txt", "# comment\n\n1 2 3 4\n", Head{Format: Text, Columns: 4}},
		{"a.data", "1 1:2\n", Head{Format: LibSVM}},
	} {
		p := filepath.Join(dir, tt.name)
		os.WriteFile(p, []byte(tt.text), 0o644)
		h, err := ReadHead(p, Auto)
		if err != nil || !reflect.DeepEqual(h, tt.want) {
			t.Errorf("%s: %+v, %v; want %+v", tt.name, h, err, tt.want)
		}
	}
}

// endless repeats line for ever and cancels a context once it has given
// after bytes; it counts the bytes it gives.
type endless struct {
	line   []byte
	after  int
	cancel func()
	given  int
	off    int
}

func (e *endless) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		k := copy(p[n:], e.line[e.off:])
		n += k
		e.off = (e.off + k) % len(e.line)
	}
	e.given += n
	if e.given >= e.after && e.cancel != nil {
		e.cancel()
		e.cancel = nil
	}
	return n, nil
}

// TestReadContextStops reads endless files of each format and cancels the
// read after 8 MB: the reader must stop within a block (it read whole files
// before looking, issue 26) with an error that wraps context.Canceled and
// names the file.
func TestReadContextStops(t *testing.T) {
	for _, tt := range []struct {
		format Format
		head   string
		line   string
	}{
		{LibSVM, "", "1 1:0.5 3:0.25 7:1\n"},
		{CSV, "a,b,label\n", "0.5,0.25,x\n"},
		{Text, "", "0.5 0.25 x\n"},
	} {
		t.Run(tt.format.String(), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			const after = 8 << 20
			src := &endless{line: []byte(tt.line), after: after, cancel: cancel}
			r := io.MultiReader(strings.NewReader(tt.head), src)
			_, err := ReadContext(ctx, r, "endless."+tt.format.String(), Options{Format: tt.format, MaxRows: math.MaxInt, MaxValues: math.MaxInt, MaxBytes: math.MaxInt64})
			if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "endless.") {
				t.Fatalf("err = %v; want one naming the file and wrapping context.Canceled", err)
			}
			if over := src.given - after; over > atomicfile.ReadBlock {
				t.Errorf("read %d bytes after the cancel; want at most %d", over, atomicfile.ReadBlock)
			}
		})
	}
}

// TestReadFileContextCancelled: a file, plain or gzipped, is not read
// under a context already done.
func TestReadFileContextCancelled(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "d.libsvm")
	os.WriteFile(plain, []byte("1 1:1\n0 1:0\n"), 0o644)
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write([]byte("1 1:1\n0 1:0\n"))
	zw.Close()
	gz := filepath.Join(dir, "d.libsvm.gz")
	os.WriteFile(gz, z.Bytes(), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, p := range []string{plain, gz} {
		if _, err := ReadFileContext(ctx, p, Options{}); !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: err = %v; want context.Canceled naming the file", p, err)
		}
		if _, err := ReadFileContext(context.Background(), p, Options{}); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}

// TestBudgetRules: with no count given, the counts of rows and values are
// what the byte budget holds, so a larger --max-memory reads a larger file
// (a 720,000-row file of 400 features stopped at 50,000,000 values
// whatever the budget, with advice to raise it).
func TestBudgetRules(t *testing.T) {
	o := Options{MaxBytes: 8e9}.withDefaults()
	if o.MaxValues != int(8e9)/valueBytes+1 || o.MaxRows != int(8e9)/rowBytes+1 {
		t.Errorf("8 GB: %d values, %d rows; want what 8 GB holds", o.MaxValues, o.MaxRows)
	}
	if d := (Options{}).withDefaults(); d.MaxValues != DefaultMaxValues+1 || d.MaxBytes != DefaultMaxBytes {
		t.Errorf("defaults: %+v", d)
	}
	_, err := Read(strings.NewReader("1 1:1 2:1 3:1\n"), "small", Options{MaxBytes: 40})
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "over the budget of 40") {
		t.Errorf("over a 40-byte budget: %v; want the byte budget's ErrTooLarge", err)
	}
}
