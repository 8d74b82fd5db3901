package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"mark1/dataset"
	"mark1/internal/testtool"
)

// blobs writes n rows of seeded, overlapping Gaussian clusters in dim
// dimensions as libsvm text, one cluster per label, labels in the order
// given (so class order is the labels' first appearance). About a third
// of the features are zero, so the file is sparse.
func blobs(seed uint64, n, dim int, labels []string) []byte {
	rng := rand.New(rand.NewPCG(seed, 7))
	centres := make([][]float64, len(labels))
	crng := rand.New(rand.NewPCG(99, 7)) // the same centres for train and test
	for c := range centres {
		centres[c] = make([]float64, dim)
		for j := range centres[c] {
			centres[c][j] = crng.NormFloat64()
		}
	}
	var b bytes.Buffer
	for i := range n {
		c := i % len(labels)
		if i >= len(labels) {
			c = rng.IntN(len(labels))
		}
		b.WriteString(labels[c])
		for j := range dim {
			if (j+i)%3 == 0 {
				continue
			}
			v := centres[c][j] + 0.9*rng.NormFloat64()
			fmt.Fprintf(&b, " %d:%s", j+1, strconv.FormatFloat(v, 'g', 10, 64))
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// objectives returns the "obj = X" numbers of svm-train's, liblinear-train's
// ("Objective value = X") or mark1 fit's output, in order.
func objectives(t *testing.T, out string) []float64 {
	t.Helper()
	var obj []float64
	for _, m := range regexp.MustCompile(`(?:obj =|Objective value =) (-?[0-9.e+-]+)`).FindAllStringSubmatch(out, -1) {
		v, err := strconv.ParseFloat(m[1], 64)
		if err != nil {
			t.Fatal(err)
		}
		obj = append(obj, v)
	}
	return obj
}

// sameObjectives checks that mark1 fit's output out prints the objectives
// svm-train printed in ref (n of them, when n > 0), each within 1e-6
// relative: svm-train prints six decimals.
func sameObjectives(t *testing.T, ref, out string, n int) {
	t.Helper()
	want, got := objectives(t, ref), objectives(t, out)
	if len(want) == 0 || (n > 0 && len(want) != n) || len(got) != len(want) {
		t.Fatalf("%d objectives; svm-train printed %d:\n%s\n%s", len(got), len(want), out, ref)
	}
	for m := range want {
		if d := math.Abs(got[m] - want[m]); d > max(1e-6*math.Abs(want[m]), 5e-7) {
			t.Errorf("machine %d: obj %.10g; svm-train %.6f", m, got[m], want[m])
		}
	}
}

func runTool(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// runOK runs mark1 in dir and returns its standard output, stopping the
// test when it fails.
func runOK(t *testing.T, dir string, args ...string) string {
	t.Helper()
	code, out, errs := run(t, dir, args...)
	if code != 0 {
		t.Fatalf("mark1 %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errs)
	}
	return out
}

// samePredictions checks that got holds want's predictions exactly.
func samePredictions(t *testing.T, what string, got, want []float64) {
	t.Helper()
	closePredictions(t, what, got, want, 0)
}

// fitLikeLIBSVM trains on dir's train.libsvm with svm-train (its flags
// libsvm) and mark1 fit (its flags mark1), and checks that they agree: the
// objectives (n of them when n > 0) and the predictions of test.libsvm,
// svm-predict's on mark1's exported model and apply's on its saved model.
func fitLikeLIBSVM(t *testing.T, dir string, libsvm, mark1 []string, n int) {
	t.Helper()
	ref := runTool(t, dir, "svm-train", append(libsvm, "-e", "0.001", "train.libsvm", "ref.model")...)
	runTool(t, dir, "svm-predict", "test.libsvm", "ref.model", "ref.pred")
	out := runOK(t, dir, append([]string{"fit", "--data", "train.libsvm", "--test", "test.libsvm",
		"--predictions", "mark1.pred", "--libsvm-model", "mark1.libsvm-model"}, mark1...)...)
	sameObjectives(t, ref, out, n)
	pred := testtool.Numbers(t, filepath.Join(dir, "mark1.pred"))
	samePredictions(t, "mark1 fit vs svm-train + svm-predict", pred, testtool.Numbers(t, filepath.Join(dir, "ref.pred")))
	runTool(t, dir, "svm-predict", "test.libsvm", "mark1.libsvm-model", "export.pred")
	samePredictions(t, "svm-predict on mark1's model vs mark1", testtool.Numbers(t, filepath.Join(dir, "export.pred")), pred)
	runOK(t, dir, "apply", "--model", "model.json", "--data", "test.libsvm", "--predictions", "apply.pred")
	samePredictions(t, "mark1 apply vs mark1 fit", testtool.Numbers(t, filepath.Join(dir, "apply.pred")), pred)
}

// TestFitAgainstLIBSVM trains the same C-SVMs with svm-train and mark1 fit:
// the same objective per binary machine (to 1e-6 relative, beyond svm-train's
// printed precision), the same predictions sample for sample, and svm-predict
// on mark1's exported model predicts what mark1 predicts.
func TestFitAgainstLIBSVM(t *testing.T) {
	testtool.Need(t, "svm-train", "libsvm-tools")
	tests := []struct {
		name   string
		labels []string
		dim    int
		libsvm []string // svm-train's options
		mark1  []string // fit's
	}{
		{"rbf, ±1 labels with -1 first", []string{"-1", "+1"}, 6, []string{"-t", "2", "-g", "0.2", "-c", "1"}, []string{"--kernel", "rbf", "--gamma", "0.2", "--C", "1"}},
		{"rbf, 4 classes in unsorted order", []string{"3", "1", "4", "2"}, 5, []string{"-t", "2", "-g", "0.3", "-c", "2"}, []string{"--kernel", "rbf", "--gamma", "0.3", "--C", "2"}},
		{"rbf, gamma auto is LIBSVM's default", []string{"2", "7", "5"}, 8, []string{"-t", "2", "-c", "0.5"}, []string{"--kernel", "rbf", "--gamma", "auto", "--C", "0.5"}},
		{"linear, 3 classes", []string{"5", "0", "9"}, 7, []string{"-t", "0", "-c", "0.1"}, []string{"--kernel", "linear", "--C", "0.1"}},
		{"poly, 3 classes", []string{"1", "2", "3"}, 4, []string{"-t", "1", "-d", "2", "-g", "0.25", "-r", "1", "-c", "1"}, []string{"--kernel", "poly", "--degree", "2", "--gamma", "0.25", "--coef0", "1", "--C", "1"}},
	}
	for k, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "train.libsvm"), blobs(uint64(2*k+1), 150, tt.dim, tt.labels), 0o644)
			os.WriteFile(filepath.Join(dir, "test.libsvm"), blobs(uint64(2*k+2), 120, tt.dim, tt.labels), 0o644)
			fitLikeLIBSVM(t, dir, tt.libsvm, tt.mark1, 0)
		})
	}
}

// TestFitAgainstLIBLINEAR trains the linear SVM (hinge and squared hinge,
// bias feature 1) with liblinear-train and mark1 fit: objectives within 1e-6
// relative (both solvers converged to -e 1e-4), predictions that differ only on points the two
// solutions put on different sides within that tolerance, and
// liblinear-predict on mark1's exported model predicts exactly what mark1
// predicts.
func TestFitAgainstLIBLINEAR(t *testing.T) {
	testtool.Need(t, "liblinear-train", "liblinear-tools")
	tests := []struct {
		name   string
		labels []string
		s      string
		loss   string
	}{
		{"hinge, 2 classes", []string{"-1", "1"}, "3", "hinge"},
		{"hinge, 3 classes", []string{"2", "0", "1"}, "3", "hinge"},
		{"squared hinge, 4 classes", []string{"4", "3", "2", "1"}, "1", "squared-hinge"},
	}
	for k, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "train.libsvm"), blobs(uint64(10+2*k), 200, 6, tt.labels), 0o644)
			os.WriteFile(filepath.Join(dir, "test.libsvm"), blobs(uint64(11+2*k), 150, 6, tt.labels), 0o644)
			ref := runTool(t, dir, "liblinear-train", "-s", tt.s, "-c", "0.1", "-B", "1", "-e", "0.0001", "train.libsvm", "ref.model")
			runTool(t, dir, "liblinear-predict", "test.libsvm", "ref.model", "ref.pred")
			out := runOK(t, dir, "fit", "--learner", "linear-svm", "--loss", tt.loss, "--C", "0.1", "--bias", "1", "--tol", "0.0001",
				"--data", "train.libsvm", "--test", "test.libsvm", "--predictions", "mark1.pred", "--liblinear-model", "mark1.liblinear-model")
			want, got := objectives(t, ref), objectives(t, out)
			if len(want) == 0 || len(got) != len(want) {
				t.Fatalf("%d objectives; liblinear-train printed %d:\n%s\n%s", len(got), len(want), out, ref)
			}
			if strings.Contains(ref, "WARNING") || strings.Contains(out, "limit") {
				t.Fatalf("a solver stopped at its iteration limit; the objectives are not comparable:\n%s\n%s", out, ref)
			}
			for m := range want {
				// liblinear-train prints %lf: six decimals.
				if d := math.Abs(got[m] - want[m]); d > max(1e-6*math.Abs(want[m]), 5e-7) {
					t.Errorf("machine %d: objective %.10g; liblinear-train %.6f (relative difference %.2g)", m, got[m], want[m], d/math.Abs(want[m]))
				}
			}
			g, w := testtool.Numbers(t, filepath.Join(dir, "mark1.pred")), testtool.Numbers(t, filepath.Join(dir, "ref.pred"))
			differ := 0
			for i := range w {
				if g[i] != w[i] {
					differ++
				}
			}
			if differ > len(w)/100 {
				t.Errorf("%d of %d test predictions differ from liblinear's", differ, len(w))
			}
			runTool(t, dir, "liblinear-predict", "test.libsvm", "mark1.liblinear-model", "export.pred")
			samePredictions(t, "liblinear-predict on mark1's model vs mark1", testtool.Numbers(t, filepath.Join(dir, "export.pred")), g)
		})
	}
}

// TestFitApplyEveryLearner trains each learner on CSV data with text labels
// and checks that apply, reading the saved model (and its scaling) and the
// data a block at a time (600 rows: three blocks), predicts exactly what
// fit predicted, and at least as well as chance.
func TestFitApplyEveryLearner(t *testing.T) {
	dir := t.TempDir()
	toCSV := func(lib []byte) []byte {
		var b strings.Builder
		b.WriteString("f1,f2,f3,f4,species\n")
		names := map[string]string{"1": "setosa", "2": "versicolor", "3": "virginica"}
		for _, line := range strings.Split(strings.TrimSpace(string(lib)), "\n") {
			f := strings.Fields(line)
			x := make([]string, 4)
			for j := range x {
				x[j] = "0"
			}
			for _, kv := range f[1:] {
				k, v, _ := strings.Cut(kv, ":")
				j, _ := strconv.Atoi(k)
				x[j-1] = v
			}
			b.WriteString(strings.Join(x, ",") + "," + names[f[0]] + "\n")
		}
		return []byte(b.String())
	}
	os.WriteFile(filepath.Join(dir, "train.csv"), toCSV(blobs(31, 120, 4, []string{"2", "1", "3"})), 0o644)
	os.WriteFile(filepath.Join(dir, "test.csv"), toCSV(blobs(32, 600, 4, []string{"2", "1", "3"})), 0o644)
	for _, tt := range []struct{ learner, scale string }{
		{"svm", "std"}, {"linear-svm", "pm1"}, {"perceptron", "01"}, {"averaged", "none"},
		{"pocket", "std"}, {"batch-gd", "01"}, {"kernel-perceptron", "pm1"},
	} {
		t.Run(tt.learner, func(t *testing.T) {
			out := runOK(t, dir, "fit", "--learner", tt.learner, "--scale", tt.scale, "--label-column", "species",
				"--data", "train.csv", "--test", "test.csv", "--predictions", tt.learner+".fit", "--model", tt.learner+".json")
			out2 := runOK(t, dir, "apply", "--model", tt.learner+".json", "--data", "test.csv", "--predictions", tt.learner+".apply")
			a, _ := os.ReadFile(filepath.Join(dir, tt.learner+".fit"))
			b, _ := os.ReadFile(filepath.Join(dir, tt.learner+".apply"))
			if !bytes.Equal(a, b) || len(strings.Fields(string(a))) != 600 {
				t.Errorf("apply's %d predictions differ from fit's %d", len(strings.Fields(string(b))), len(strings.Fields(string(a))))
			}
			m := regexp.MustCompile(`test accuracy ([0-9.]+)%`).FindStringSubmatch(out)
			if m == nil || !strings.Contains(out2, "accuracy "+m[1]+"%") {
				t.Fatalf("fit said %q, apply %q", out, out2)
			}
			if acc, _ := strconv.ParseFloat(m[1], 64); acc < 50 {
				t.Errorf("test accuracy %v%%: not learning (3 classes)", acc)
			}
		})
	}
}

func TestFitBadInput(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"ragged.csv":  "a,b,label\n1,2,x\n3,y\n",
		"nan.libsvm":  "1 1:0.5\n2 1:nan\n",
		"one.libsvm":  "1 1:0.5\n1 2:1\n",
		"ok.csv":      "a,b,label\n1,2,x\n3,4,y\n",
		"ok.libsvm":   "1 1:1\n2 2:1\n",
		"model.json":  `{"format":"mark1-model","version":1,"learner":"svm","classes":["a"]}`,
		"notjson.bin": "\x00\x01",
	}
	for name, text := range files {
		os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644)
	}
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"fit", "--data", "ragged.csv"}, 1, "ragged.csv:3: a different number of fields from the header (ragged CSV)"},
		{[]string{"fit", "--data", "nan.libsvm"}, 1, `nan.libsvm:2: field 2: value of feature 1: "nan" is not a finite number`},
		{[]string{"fit", "--data", "one.libsvm"}, 1, "one.libsvm: every row has the label \"1\""},
		{[]string{"fit", "--data", "missing.csv"}, 1, "missing.csv: no such file"},
		{[]string{"fit", "--data", "ok.csv", "--label-column", "species"}, 1, `ok.csv:1: no column named "species"`},
		{[]string{"fit", "--data", "ok.csv", "--gamma", "big"}, 2, `--gamma big out of range: want scale, auto or a finite number > 0`},
		{[]string{"fit", "--data", "ok.csv", "--learner", "tree"}, 2, `--learner "tree"`},
		{[]string{"fit", "--data", "ok.csv", "--scale", "minmax"}, 2, `unknown scaling "minmax"`},
		{[]string{"fit", "--data", "ok.csv", "--libsvm-model", "x.model"}, 2, `class "x" is not an integer`},
		{[]string{"fit", "--data", "ok.libsvm", "--learner", "perceptron", "--libsvm-model", "x.model"}, 2, "nu-svr only"},
		{[]string{"fit", "--data", "ok.libsvm", "--scale", "01", "--libsvm-model", "x.model"}, 2, "svm-predict does not do"},
		{[]string{"apply", "--model", "model.json", "--data", "ok.libsvm"}, 1, "model.json: bad model: 1 classes"},
		{[]string{"apply", "--model", "notjson.bin", "--data", "ok.libsvm"}, 1, "notjson.bin: not a model file"},
		{[]string{"apply", "--model", "none.json", "--data", "ok.libsvm"}, 1, "train one with: mark1 fit"},
	}
	for _, tt := range tests {
		before := listing(t, dir)
		code, _, errOut := run(t, dir, tt.args...)
		if code != tt.code || !strings.Contains(errOut, tt.want) || strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
			t.Errorf("%v: exit %d, %q; want exit %d and one line with %q", tt.args, code, errOut, tt.code, tt.want)
		}
		if after := listing(t, dir); strings.Join(after, " ") != strings.Join(before, " ") {
			t.Errorf("%v: files changed from %v to %v", tt.args, before, after)
		}
	}
}

// TestCompareRaw: numeric data go to the software learners as they are,
// the hardware says in one line why it is left out, and square rows get the
// --as-pictures hint.
func TestCompareRaw(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "five.libsvm"), blobs(41, 80, 5, []string{"1", "2"}), 0o644)
	os.WriteFile(filepath.Join(dir, "four.libsvm"), blobs(42, 60, 4, []string{"3", "1", "2"}), 0o644)
	out := runOK(t, dir, "compare", "--data", "five.libsvm", "--json", "--learners", "hardware,perceptron,svm,linear-svm")
	var rep struct {
		Preset *string           `json:"preset"`
		Notes  []string          `json:"notes"`
		Rows   []json.RawMessage `json:"rows"`
		Train  int               `json:"train"`
		Test   int               `json:"test"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Preset != nil || len(rep.Rows) != 3 || rep.Train+rep.Test != 80 || rep.Test == 0 {
		t.Errorf("preset %v, %d rows, %d+%d samples; want null, 3 software rows, 80 split", rep.Preset, len(rep.Rows), rep.Train, rep.Test)
	}
	if len(rep.Notes) != 1 || !strings.Contains(rep.Notes[0], "hardware: left out") || strings.Contains(rep.Notes[0], "as-pictures") {
		t.Errorf("notes %q; want one saying the hardware is left out, no picture hint for 5 features", rep.Notes)
	}
	for _, r := range rep.Rows {
		var row struct {
			Learner  string   `json:"learner"`
			Features string   `json:"features"`
			Pg       *float64 `json:"p_g"`
		}
		json.Unmarshal(r, &row)
		if row.Features != "raw" || row.Pg == nil || *row.Pg < 0.8 {
			t.Errorf("%s: features %q, P_g %v; want raw and ≥ 0.8 on well separated blobs", row.Learner, row.Features, row.Pg)
		}
	}
	out = runOK(t, dir, "compare", "--data", "four.libsvm", "--learners", "hardware,ideal,svm")
	if !strings.Contains(out, "Note: hardware and ideal: left out") || !strings.Contains(out, "could be 2x2 pictures: compare them on the machine with --as-pictures --scale 01 (to make") {
		t.Errorf("square data:\n%s", out)
	}
	code, _, errOut := run(t, dir, "compare", "--data", "four.libsvm", "--features", "pixels")
	if code != 2 || !strings.Contains(errOut, "holds numeric data, not pictures") {
		t.Errorf("--features pixels on numeric data: exit %d, %q", code, errOut)
	}
}

// compare on numeric data keeps sparse rows sparse: 60 rows whose
// feature indices reach 5 million (a dense copy: 300 million values, over
// the 50-million-value budget a dense copy had) run, with the same P_g as
// the same rows with the indices packed down, where the features differ
// only in their numbering.
func TestCompareRawStaysSparse(t *testing.T) {
	dir := t.TempDir()
	var wide, narrow strings.Builder
	for i := range 60 {
		c := i % 2
		for _, b := range []*strings.Builder{&wide, &narrow} {
			fmt.Fprintf(b, "%d", c)
		}
		for k := range 3 {
			j := 1 + 2*k + c // class 0 on the odd features, class 1 on the even
			fmt.Fprintf(&wide, " %d:%g", j*1_000_000-i, 1+float64(k))
			fmt.Fprintf(&narrow, " %d:%g", j*100-i, 1+float64(k))
		}
		wide.WriteByte('\n')
		narrow.WriteByte('\n')
	}
	os.WriteFile(filepath.Join(dir, "wide.libsvm"), []byte(wide.String()), 0o644)
	os.WriteFile(filepath.Join(dir, "narrow.libsvm"), []byte(narrow.String()), 0o644)
	pg := map[string]string{}
	for _, f := range []string{"wide.libsvm", "narrow.libsvm"} {
		out := runOK(t, dir, "compare", "--data", f, "--learners", "perceptron,linear-svm", "--csv")
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) != 3 {
			t.Fatalf("%s: %q", f, out)
		}
		for _, l := range lines[1:] {
			c := strings.Split(l, ",")
			pg[f+" "+c[0]] = c[3]
		}
	}
	for _, l := range []string{"perceptron", "linear-svm"} {
		if a, b := pg["wide.libsvm "+l], pg["narrow.libsvm "+l]; a != b || a == "" {
			t.Errorf("%s: P_g %q on the wide file, %q on the narrow one", l, a, b)
		}
	}
}

// TestGammaLikeScikitLearn checks --gamma scale and auto against
// scikit-learn's SVC (Debian python3-sklearn), on a libsvm file it reads
// itself: the same γ, and the same test predictions (SVC runs LIBSVM).
func TestGammaLikeScikitLearn(t *testing.T) {
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import sklearn").Run(); err != nil {
		t.Skip("scikit-learn not installed for /usr/bin/python3 (Debian package python3-sklearn): skipping the gamma comparison")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "train.libsvm"), blobs(51, 120, 7, []string{"1", "2", "3"}), 0o644)
	os.WriteFile(filepath.Join(dir, "test.libsvm"), blobs(52, 80, 7, []string{"1", "2", "3"}), 0o644)
	for _, g := range []string{"scale", "auto"} {
		script := fmt.Sprintf(`
from sklearn.datasets import load_svmlight_file
from sklearn.svm import SVC
X, y = load_svmlight_file("train.libsvm")
Xt, yt = load_svmlight_file("test.libsvm", n_features=X.shape[1])
m = SVC(gamma=%q, C=1.0, tol=1e-3).fit(X, y)
print(repr(m._gamma))
for p in m.predict(Xt): print(int(p))
`, g)
		cmd := exec.Command(py, "-c", script)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("scikit-learn: %v\n%s", err, out)
		}
		lines := strings.Fields(string(out))
		want, _ := strconv.ParseFloat(lines[0], 64)
		runOK(t, dir, "fit", "--data", "train.libsvm", "--test", "test.libsvm", "--gamma", g, "--predictions", "p.txt", "--model", "m.json")
		var mf struct{ Gamma float64 }
		b, _ := os.ReadFile(filepath.Join(dir, "m.json"))
		json.Unmarshal(b, &mf)
		if math.Abs(mf.Gamma-want) > 1e-12*want {
			t.Errorf("gamma %s: %v; scikit-learn %v", g, mf.Gamma, want)
		}
		var sk []float64
		for _, l := range lines[1:] {
			v, _ := strconv.ParseFloat(l, 64)
			sk = append(sk, v)
		}
		samePredictions(t, "mark1 vs scikit-learn SVC, gamma "+g, testtool.Numbers(t, filepath.Join(dir, "p.txt")), sk)
	}
}

// TestPerceptronAsLIBLINEAR exports the perceptrons' linear models in
// LIBLINEAR's format: liblinear-predict predicts what mark1 predicts.
func TestPerceptronAsLIBLINEAR(t *testing.T) {
	testtool.Need(t, "liblinear-predict", "liblinear-tools")
	dir := t.TempDir()
	for k, labels := range [][]string{{"-1", "1"}, {"7", "3", "5"}} {
		os.WriteFile(filepath.Join(dir, "train.libsvm"), blobs(uint64(60+k), 150, 5, labels), 0o644)
		os.WriteFile(filepath.Join(dir, "test.libsvm"), blobs(uint64(70+k), 100, 5, labels), 0o644)
		for _, l := range []string{"perceptron", "averaged", "batch-gd"} {
			runOK(t, dir, "fit", "--learner", l, "--data", "train.libsvm", "--test", "test.libsvm",
				"--predictions", "mark1.pred", "--liblinear-model", "ll.model", "--model", "m.json")
			runTool(t, dir, "liblinear-predict", "test.libsvm", "ll.model", "ll.pred")
			samePredictions(t, fmt.Sprintf("%s, %d classes: liblinear-predict on mark1's model vs mark1", l, len(labels)),
				testtool.Numbers(t, filepath.Join(dir, "ll.pred")), testtool.Numbers(t, filepath.Join(dir, "mark1.pred")))
		}
	}
}

// idxPictures returns n seeded side×side grey pictures of three classes
// (labels 4, 1, 7: a bar in one of three places, noise beside it) as an
// IDX images file, its labels file, and the same pictures as libsvm text
// with pixel b as b/255 written to 17 digits.
func idxPictures(t *testing.T, seed uint64, n, side int) (images, labels, text []byte) {
	rng := rand.New(rand.NewPCG(seed, 11))
	im := &dataset.IDXFile{Dims: []int{n, side, side}, Data: make([]byte, n*side*side)}
	lb := &dataset.IDXFile{Dims: []int{n}, Data: make([]byte, n)}
	var b bytes.Buffer
	for i := range n {
		c := rng.IntN(3)
		lb.Data[i] = []byte{4, 1, 7}[c]
		pix := im.Data[i*side*side : (i+1)*side*side]
		for r := range side {
			for k := range side {
				v := 0
				if rng.IntN(3) == 0 {
					v = rng.IntN(120)
				}
				if k >= 2*c && k < 2*c+2 && rng.IntN(4) != 0 {
					v = 140 + rng.IntN(116)
				}
				pix[r*side+k] = byte(v)
			}
		}
		fmt.Fprintf(&b, "%d", lb.Data[i])
		for j, v := range pix {
			if v != 0 {
				fmt.Fprintf(&b, " %d:%.17g", j+1, float64(v)/255)
			}
		}
		b.WriteByte('\n')
	}
	var ib, lbb bytes.Buffer
	if err := dataset.WriteIDX(&ib, im); err != nil {
		t.Fatal(err)
	}
	if err := dataset.WriteIDX(&lbb, lb); err != nil {
		t.Fatal(err)
	}
	return ib.Bytes(), lbb.Bytes(), b.Bytes()
}

// fit and apply read MNIST's IDX files as the same pictures written as
// libsvm text: svm-train on the text and mark1 fit on the IDX pair reach
// the same objectives, and svm-predict and mark1 apply predict alike on
// the test pictures, given with their labels beside them, as
// IMAGES,LABELS, and without labels.
func TestFitIDXAgainstLIBSVM(t *testing.T) {
	testtool.Need(t, "svm-train", "libsvm-tools")
	dir := t.TempDir()
	write := func(name string, b []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	im, lb, text := idxPictures(t, 1, 240, 6)
	write("train-images-idx3-ubyte", im)
	write("train-labels-idx1-ubyte", lb)
	write("train.libsvm", text)
	im, lb, text = idxPictures(t, 2, 150, 6)
	write("t10k-images-idx3-ubyte", im)
	write("labels.idx", lb)
	write("test.libsvm", text)
	ref := runTool(t, dir, "svm-train", "-t", "2", "-g", "0.05", "-c", "2", "-e", "0.001", "train.libsvm", "ref.model")
	runTool(t, dir, "svm-predict", "test.libsvm", "ref.model", "ref.pred")
	out := runOK(t, dir, "fit", "--data", "train-images-idx3-ubyte", "--kernel", "rbf", "--gamma", "0.05", "--C", "2")
	if !strings.Contains(out, "on train-images-idx3-ubyte: 240 rows, 36 features, 3 classes") {
		t.Errorf("fit says:\n%s", out)
	}
	sameObjectives(t, ref, out, 3)
	wantPred := testtool.Numbers(t, filepath.Join(dir, "ref.pred"))
	for _, args := range [][]string{
		{"--data", "t10k-images-idx3-ubyte,labels.idx"},
		{"--data", "t10k-images-idx3-ubyte", "--no-labels"},
	} {
		out := runOK(t, dir, append([]string{"apply", "--model", "model.json", "--predictions", "apply.pred"}, args...)...)
		samePredictions(t, fmt.Sprintf("mark1 apply %q vs svm-predict", args), testtool.Numbers(t, filepath.Join(dir, "apply.pred")), wantPred)
		if len(args) == 2 && !strings.Contains(out, "accuracy") {
			t.Errorf("apply %q says no accuracy:\n%s", args, out)
		}
	}
	// Images without their labels file: the error says how to go on.
	if code, _, errOut := run(t, dir, "apply", "--model", "model.json", "--data", "t10k-images-idx3-ubyte"); code != 1 ||
		!strings.Contains(errOut, "IDX labels file not found") || !strings.Contains(errOut, "--no-labels") {
		t.Errorf("apply of images without labels: exit %d, %q; want 1 and a hint of --no-labels", code, errOut)
	}
}
