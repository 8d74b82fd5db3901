package modelfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"mark1/dataset"
	"mark1/internal/testtool"
)

func runTool(t *testing.T, name string, args ...string) {
	t.Helper()
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

// writeData writes n rows of dim features in LIBSVM's format: a quarter of
// the values zero, labels from labelOf(x).
func writeData(t *testing.T, path string, seed uint64, n, dim int, labelOf func(x []float64) string) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 11))
	var b bytes.Buffer
	for range n {
		x := make([]float64, dim)
		for j := range x {
			if rng.IntN(4) > 0 {
				x[j] = math.Round((2*rng.Float64()-1)*1e4) / 1e4
			}
		}
		b.WriteString(labelOf(x))
		for j, v := range x {
			if v != 0 {
				fmt.Fprintf(&b, " %d:%g", j+1, v)
			}
		}
		b.WriteString("\n")
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// threeClasses labels by the larger of two sums, as 1, 2 or -3.
func threeClasses(x []float64) string {
	a, b := x[0]+x[1], x[2]-x[3]
	switch {
	case a > 0.3 && a > b:
		return "1"
	case b > 0:
		return "2"
	}
	return "-3"
}

func twoClasses(x []float64) string {
	if x[0]-0.5*x[1]+0.2*x[2] > 0.1 {
		return "+1"
	}
	return "-1"
}

func target(x []float64) string {
	return strconv.FormatFloat(math.Round((math.Sin(2*x[0])+x[1]*x[2]-0.5*x[3])*1e4)/1e4, 'g', -1, 64)
}

// predictFile predicts every row of the data file with f as apply does:
// a class label, or a value.
func predictFile(t *testing.T, f *File, data string) []float64 {
	t.Helper()
	set, err := dataset.ReadFile(data, dataset.Options{Format: dataset.LibSVM})
	if err != nil {
		t.Fatal(err)
	}
	dim := max(f.Dim, set.Dim)
	x := make([]float64, dim)
	var out []float64
	for i := range set.Rows() {
		clear(x)
		idx, val := set.Row(i)
		for k, j := range idx {
			x[j] = val[k]
		}
		if f.Values() {
			m, err := f.ValueModel(dim)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, m.Label(x))
			continue
		}
		m, err := f.Model(dim)
		if err != nil {
			t.Fatal(err)
		}
		v, err := strconv.ParseFloat(f.Classes[m.Predict(x)], 64)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

// samePredictions compares ours with the tool's: classes exactly, values
// to 1e-9 (the kernel sums are added in another order).
func samePredictions(t *testing.T, what string, values bool, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d predictions; the tool made %d", what, len(got), len(want))
	}
	bad := 0
	for i := range got {
		ok := got[i] == want[i]
		if values {
			ok = math.Abs(got[i]-want[i]) <= 1e-9*math.Max(1, math.Abs(want[i]))
		}
		if !ok {
			if bad++; bad <= 5 {
				t.Errorf("%s: row %d: %v; the tool predicts %v", what, i+1, got[i], want[i])
			}
		}
	}
	if bad > 0 {
		t.Errorf("%s: %d of %d predictions differ", what, bad, len(got))
	}
}

// dataShape is writeData's seed, number of rows and of features.
type dataShape struct {
	seed   uint64
	n, dim int
}

// writeDataSets writes a training and a test file, of the shapes given, in
// dir for each of the three data sets (three classes, two, a regression
// target) and returns their paths by name.
func writeDataSets(t *testing.T, dir string, shapes [2]dataShape) map[string][2]string {
	t.Helper()
	data := map[string][2]string{}
	for _, d := range []struct {
		name    string
		labelOf func([]float64) string
	}{{"three", threeClasses}, {"two", twoClasses}, {"reg", target}} {
		files := [2]string{filepath.Join(dir, d.name+".train"), filepath.Join(dir, d.name+".test")}
		for k, sh := range shapes {
			writeData(t, files[k], sh.seed, sh.n, sh.dim, d.labelOf)
		}
		data[d.name] = files
	}
	return data
}

// TestReadLIBSVMModels trains every svm_type with every kernel with
// Debian's svm-train, reads the model, and checks that every prediction on
// new data equals svm-predict's.
func TestReadLIBSVMModels(t *testing.T) {
	testtool.Need(t, "svm-train", "libsvm-tools")
	testtool.Need(t, "svm-predict", "libsvm-tools")
	dir := t.TempDir()
	// the test files have features more than the models know
	data := writeDataSets(t, dir, [2]dataShape{{1, 150, 6}, {2, 300, 7}})
	kernels := map[string][]string{
		"linear":  {"-t", "0"},
		"poly":    {"-t", "1", "-d", "2", "-g", "0.5", "-r", "1"},
		"rbf":     {"-t", "2", "-g", "0.7"},
		"sigmoid": {"-t", "3", "-g", "0.1", "-r", "-0.2"},
	}
	for _, typ := range []struct {
		s, data string
		extra   []string
	}{
		{"0", "three", []string{"-c", "4"}},
		{"0", "two", []string{"-w1", "3"}},
		{"1", "three", []string{"-n", "0.4"}},
		{"2", "three", []string{"-n", "0.2"}},
		{"3", "reg", []string{"-p", "0.05", "-c", "3"}},
		{"4", "reg", []string{"-n", "0.3"}},
	} {
		for _, kn := range []string{"linear", "poly", "rbf", "sigmoid"} {
			name := fmt.Sprintf("s%s-%s-%s", typ.s, typ.data, kn)
			t.Run(name, func(t *testing.T) {
				model, pred := filepath.Join(dir, name+".model"), filepath.Join(dir, name+".pred")
				args := append(append([]string{"-q", "-s", typ.s}, typ.extra...), kernels[kn]...)
				runTool(t, "svm-train", append(args, data[typ.data][0], model)...)
				runTool(t, "svm-predict", "-q", data[typ.data][1], model, pred)
				f, format, err := ReadFormat(model)
				if err != nil {
					t.Fatal(err)
				}
				if format != LIBSVM {
					t.Errorf("format %v; want libsvm", format)
				}
				values := typ.s == "2" || typ.s == "3" || typ.s == "4"
				if f.Values() != values {
					t.Errorf("Values() = %v for svm-train -s %s", f.Values(), typ.s)
				}
				samePredictions(t, name, values && typ.s != "2", predictFile(t, f, data[typ.data][1]), testtool.Numbers(t, pred))
				// Written back in LIBSVM's format, svm-predict still
				// predicts the same.
				again := filepath.Join(dir, name+".again")
				var b bytes.Buffer
				if err := WriteLIBSVM(&b, f); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(again, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				pred2 := filepath.Join(dir, name+".pred2")
				runTool(t, "svm-predict", "-q", data[typ.data][1], again, pred2)
				samePredictions(t, name+" rewritten", values && typ.s != "2", testtool.Numbers(t, pred2), testtool.Numbers(t, pred))
			})
		}
	}
}

// TestReadLIBLINEARModels trains every LIBLINEAR solver with and without a
// bias with Debian's liblinear-train and checks that every prediction on
// new data equals liblinear-predict's.
func TestReadLIBLINEARModels(t *testing.T) {
	testtool.Need(t, "liblinear-train", "liblinear-tools")
	testtool.Need(t, "liblinear-predict", "liblinear-tools")
	dir := t.TempDir()
	data := writeDataSets(t, dir, [2]dataShape{{3, 200, 6}, {4, 300, 8}})
	for _, s := range []string{"0", "1", "2", "3", "4", "5", "6", "7", "11", "12", "13"} {
		sets := []string{"three", "two"}
		if len(s) == 2 {
			sets = []string{"reg"}
		}
		for _, set := range sets {
			for _, bias := range []string{"-1", "1", "2.5"} {
				name := fmt.Sprintf("s%s-%s-B%s", s, set, bias)
				t.Run(name, func(t *testing.T) {
					model, pred := filepath.Join(dir, name+".model"), filepath.Join(dir, name+".pred")
					runTool(t, "liblinear-train", "-q", "-s", s, "-B", bias, data[set][0], model)
					runTool(t, "liblinear-predict", "-q", data[set][1], model, pred)
					f, format, err := ReadFormat(model)
					if err != nil {
						t.Fatal(err)
					}
					if format != LIBLINEAR {
						t.Errorf("format %v; want liblinear", format)
					}
					samePredictions(t, name, set == "reg", predictFile(t, f, data[set][1]), testtool.Numbers(t, pred))
					var b bytes.Buffer
					if err := WriteLIBLINEAR(&b, f, false); err != nil {
						t.Fatal(err)
					}
					again := filepath.Join(dir, name+".again")
					if err := os.WriteFile(again, b.Bytes(), 0o644); err != nil {
						t.Fatal(err)
					}
					pred2 := filepath.Join(dir, name+".pred2")
					runTool(t, "liblinear-predict", "-q", data[set][1], again, pred2)
					samePredictions(t, name+" rewritten", set == "reg", testtool.Numbers(t, pred2), testtool.Numbers(t, pred))
				})
			}
		}
	}
}

// TestForeignModelErrors: each bad file is refused with a *ParseError that
// names the file and the line.
func TestForeignModelErrors(t *testing.T) {
	const good = "svm_type c_svc\nkernel_type rbf\ngamma 0.5\nnr_class 2\ntotal_sv 2\nrho 0.1\nlabel 1 -1\nnr_sv 1 1\nSV\n1 1:0.5 3:1\n-1 2:1\n"
	tests := []struct {
		name, text string
		line       int
		want       string
	}{
		{"type", strings.Replace(good, "c_svc", "d_svc", 1), 1, `unknown svm_type "d_svc"`},
		{"kernel", strings.Replace(good, "kernel_type rbf", "kernel_type precomputed", 1), 2, "precomputed"},
		{"gamma", strings.Replace(good, "gamma 0.5", "gamma x", 1), 3, `gamma: "x" is not a finite number`},
		{"nr_sv", strings.Replace(good, "nr_sv 1 1", "nr_sv 1 2", 1), 8, "nr_sv adds up to 3; total_sv is 2"},
		{"label", strings.Replace(good, "label 1 -1", "label 1 1", 1), 7, "label 1 appears twice"},
		{"short", strings.TrimSuffix(good, "-1 2:1\n"), 10, "1 support vectors after the SV line (line 9); total_sv is 2"},
		{"long", good + "1 1:1\n", 12, "more lines than total_sv"},
		{"index", strings.Replace(good, "3:1", "0:1", 1), 10, "feature index \"0\""},
		{"order", strings.Replace(good, "1:0.5 3:1", "3:0.5 1:1", 1), 10, "does not increase"},
		{"value", strings.Replace(good, "3:1", "3:nan", 1), 10, "not a finite number"},
		{"unknown", strings.Replace(good, "nr_class 2", "nr_classes 2", 1), 4, `unknown header line "nr_classes"`},
		{"no SV", "svm_type c_svc\nkernel_type linear\n", 2, `ends before the "SV" line`},
		{"liblinear solver", "solver_type L3R\nnr_class 2\nlabel 1 2\nnr_feature 1\nbias -1\nw\n1\n", 1, `unknown solver_type "L3R"`},
		{"liblinear weights", "solver_type L2R_LR\nnr_class 2\nlabel 1 2\nnr_feature 2\nbias 1\nw\n1\n2\n", 8, "2 weight lines; want 3"},
		{"liblinear width", "solver_type MCSVM_CS\nnr_class 3\nlabel 1 2 3\nnr_feature 1\nbias -1\nw\n1 2\n", 7, "weight line 1 has 2 values; want 3"},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "_"))
		if err := os.WriteFile(path, []byte(tt.text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Read(path)
		var pe *ParseError
		if !errors.As(err, &pe) || pe.File != path || pe.Line != tt.line || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, ErrFormat) {
			t.Errorf("%s: %v; want a ParseError at %s:%d containing %q", tt.name, err, path, tt.line, tt.want)
		}
	}
	// The good file reads, and predicts by its two support vectors.
	path := filepath.Join(dir, "good")
	if err := os.WriteFile(path, []byte(good), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if f.Learner != "svm" || f.Dim != 3 || len(f.SV) != 2 || strings.Join(f.Classes, " ") != "1 -1" {
		t.Errorf("read %+v", f)
	}
	if _, err := Read(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
	if err := os.WriteFile(path, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(path); err == nil || !strings.Contains(err.Error(), path+": not a model file") {
		t.Errorf("a text file: %v", err)
	}
}

// fuzzSeeds adds the model files in testdata with the given prefix.
func fuzzSeeds(f *testing.F, prefix string) {
	files, _ := filepath.Glob(filepath.Join("testdata", prefix+"*"))
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

// probes returns a few vectors of dim features to compare models on.
func probes(dim int) [][]float64 {
	rng := rand.New(rand.NewPCG(5, 5))
	out := make([][]float64, 8)
	for i := range out {
		out[i] = make([]float64, dim)
		for j := range out[i] {
			out[i][j] = 2*rng.Float64() - 1
		}
	}
	return out
}

// sameModels checks that a and b predict alike on probes.
func sameModels(t *testing.T, a, b *File) {
	t.Helper()
	if a.Values() != b.Values() || len(a.Classes) != len(b.Classes) || a.Dim != b.Dim {
		t.Fatalf("read back as %s with %d classes, dim %d; was %s with %d, dim %d", b.Learner, len(b.Classes), b.Dim, a.Learner, len(a.Classes), a.Dim)
	}
	if a.Dim > 64 {
		return
	}
	for _, x := range probes(a.Dim) {
		if a.Values() {
			ma, err1 := a.ValueModel(a.Dim)
			mb, err2 := b.ValueModel(b.Dim)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if va, vb := ma.Label(x), mb.Label(x); va != vb && !(math.IsNaN(va) && math.IsNaN(vb)) {
				t.Fatalf("value %v read back as %v", va, vb)
			}
			continue
		}
		ma, err1 := a.Model(a.Dim)
		mb, err2 := b.Model(b.Dim)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if ca, cb := a.Classes[ma.Predict(x)], b.Classes[mb.Predict(x)]; ca != cb {
			t.Fatalf("class %s read back as %s", ca, cb)
		}
	}
}

// FuzzDecodeLIBSVM: no input panics; a model that reads is written back
// (when LIBSVM's format can hold it) and reads back to a model that
// predicts the same, and whose second writing is byte for byte the first.
func FuzzDecodeLIBSVM(f *testing.F) {
	fuzzSeeds(f, "libsvm-")
	f.Fuzz(func(t *testing.T, b []byte) {
		// A model the format cannot hold is refused by the writer.
		fuzzRoundTrip(t, b, DecodeLIBSVM, WriteLIBSVM, false)
	})
}

// FuzzDecodeLIBLINEAR is FuzzDecodeLIBSVM for LIBLINEAR's model files;
// every model it reads writes.
func FuzzDecodeLIBLINEAR(f *testing.F) {
	fuzzSeeds(f, "liblinear-")
	f.Fuzz(func(t *testing.T, b []byte) {
		write := func(w io.Writer, m *File) error { return WriteLIBLINEAR(w, m, false) }
		fuzzRoundTrip(t, b, DecodeLIBLINEAR, write, true)
	})
}

// fuzzRoundTrip is the check of the decoder fuzzers: decode fails with a
// ParseError naming the file, or the model written (mustWrite: the writer
// may not refuse it) reads back to the same model and writes again to the
// same bytes.
func fuzzRoundTrip(t *testing.T, b []byte, decode func(io.Reader, string) (*File, error), write func(io.Writer, *File) error, mustWrite bool) {
	t.Helper()
	m, err := decode(bytes.NewReader(b), "fuzz")
	if err != nil {
		var pe *ParseError
		if !errors.As(err, &pe) || pe.File != "fuzz" {
			t.Fatalf("error %v is not a ParseError naming the file", err)
		}
		return
	}
	var w1 bytes.Buffer
	if err := write(&w1, m); err != nil {
		if mustWrite {
			t.Fatalf("a read model does not write: %v", err)
		}
		return
	}
	back, err := decode(bytes.NewReader(w1.Bytes()), "again")
	if err != nil {
		t.Fatalf("written model does not read: %v\n%s", err, w1.Bytes())
	}
	sameModels(t, m, back)
	var w2 bytes.Buffer
	if err := write(&w2, back); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(w1.Bytes(), w2.Bytes()) {
		t.Fatalf("second writing differs:\n%s\n---\n%s", w1.Bytes(), w2.Bytes())
	}
}
