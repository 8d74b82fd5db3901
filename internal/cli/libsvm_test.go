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
	"mark1/learning/modelfile"
)

// libsvmData writes n rows of 4 features in LIBSVM's format with labels
// from label, the values rounded so the files are exact.
func libsvmData(t *testing.T, path string, seed uint64, n int, label func(x []float64) string) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 21))
	var b strings.Builder
	for range n {
		x := make([]float64, 4)
		for j := range x {
			x[j] = math.Round((2*rng.Float64()-1)*1e3) / 1e3
		}
		b.WriteString(label(x))
		for j, v := range x {
			if v != 0 {
				fmt.Fprintf(&b, " %d:%g", j+1, v)
			}
		}
		b.WriteString("\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// libsvmSets writes c.train and c.test (three classes), r.train and r.test
// (targets) into dir: train rows in each training file, 200 in each test
// file, from the seeds seed to seed+3.
func libsvmSets(t *testing.T, dir string, seed uint64, train int) {
	t.Helper()
	for k, f := range []struct {
		name  string
		rows  int
		label func([]float64) string
	}{{"c.train", train, classLabel}, {"c.test", 200, classLabel}, {"r.train", train, targetLabel}, {"r.test", 200, targetLabel}} {
		libsvmData(t, filepath.Join(dir, f.name), seed+uint64(k), f.rows, f.label)
	}
}

// closePredictions checks that got holds want's predictions, each within
// rel relative (of at least 1).
func closePredictions(t *testing.T, what string, got, want []float64, rel float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d predictions; want %d", what, len(got), len(want))
	}
	for i := range got {
		if math.Abs(got[i]-want[i]) > rel*math.Max(1, math.Abs(want[i])) {
			t.Errorf("%s: row %d: %v; want %v", what, i+1, got[i], want[i])
		}
	}
}

func classLabel(x []float64) string {
	switch {
	case x[0]+x[1] > 0.4:
		return "1"
	case x[2]-x[3] > 0:
		return "2"
	}
	return "3"
}

func targetLabel(x []float64) string {
	return strconv.FormatFloat(math.Round((math.Sin(2*x[0])+x[1]*x[2]-x[3]/2)*1e4)/1e4, 'g', -1, 64)
}

var (
	reMSE = regexp.MustCompile(`Mean squared error = (\S+)`)
	reSCC = regexp.MustCompile(`Squared correlation coefficient = (\S+)`)
	reAcc = regexp.MustCompile(`Accuracy = (\S+)% \((\d+)/(\d+)\)`)
)

// TestFitLIBSVMTypes trains every new learner with fit, exports it with
// --libsvm-model, and checks that svm-predict on that file predicts what
// fit --predictions wrote, and (regressions) that fit's and apply's mean
// squared error and squared correlation are svm-predict's.
func TestFitLIBSVMTypes(t *testing.T) {
	testtool.Need(t, "svm-predict", "libsvm-tools")
	dir := t.TempDir()
	libsvmSets(t, dir, 1, 120)
	for _, tt := range []struct {
		learner, data string
		args          []string
	}{
		{"nu-svc", "c", []string{"--nu", "0.4"}},
		{"svm", "c", []string{"--class-weight", "1=5,3=0.5", "--C", "2"}},
		{"svm", "c", []string{"--class-weight", "balanced"}},
		{"one-class", "c", []string{"--nu", "0.2"}},
		{"epsilon-svr", "r", []string{"--epsilon", "0.05", "--C", "4"}},
		{"nu-svr", "r", []string{"--nu", "0.3"}},
	} {
		for _, kern := range []string{"linear", "rbf", "sigmoid:gamma=0.2,coef0=0"} {
			name := tt.learner + strings.Join(tt.args, "") + "/" + kern
			t.Run(name, func(t *testing.T) {
				args := append([]string{"fit", "--learner", tt.learner, "--kernel", kern, "--data", tt.data + ".train", "--test", tt.data + ".test",
					"--model", "m.json", "--libsvm-model", "m.libsvm", "--predictions", "p.txt", "--quiet"}, tt.args...)
				out := runOK(t, dir, args...)
				sp, err := exec.Command("svm-predict", filepath.Join(dir, tt.data+".test"), filepath.Join(dir, "m.libsvm"), filepath.Join(dir, "sp.txt")).CombinedOutput()
				if err != nil {
					t.Fatalf("svm-predict: %v\n%s", err, sp)
				}
				want := testtool.Numbers(t, filepath.Join(dir, "sp.txt"))
				// fit stores the data as float32: their kernel sums are float32
				closePredictions(t, "fit vs svm-predict", testtool.Numbers(t, filepath.Join(dir, "p.txt")), want, 1e-6)
				aout := runOK(t, dir, "apply", "--model", "m.libsvm", "--data", tt.data+".test", "--predictions", "a.txt")
				// float32 support vectors are summed in float32
				closePredictions(t, "apply vs svm-predict", testtool.Numbers(t, filepath.Join(dir, "a.txt")), want, 1e-6)
				if tt.data == "r" {
					mse, scc := reMSE.FindStringSubmatch(string(sp)), reSCC.FindStringSubmatch(string(sp))
					if mse == nil || scc == nil {
						t.Fatalf("svm-predict printed no regression scores:\n%s", sp)
					}
					line := fmt.Sprintf("mean squared error %s, R²", mse[1])
					if !strings.Contains(out, "test on "+tt.data+".test: "+line) || !strings.Contains(aout, line) {
						t.Errorf("want %q in fit's and apply's output:\n%s\n%s", line, out, aout)
					}
					if want := "squared correlation " + scc[1]; !strings.Contains(out, want) || !strings.Contains(aout, want) {
						t.Errorf("want %q in fit's and apply's output:\n%s\n%s", want, out, aout)
					}
				} else if acc := reAcc.FindStringSubmatch(string(sp)); acc == nil || !strings.Contains(aout, "("+acc[2]+"/"+acc[3]+")") {
					t.Errorf("svm-predict: %s; apply: %s", sp, aout)
				}
			})
		}
	}
}

// TestApplyForeignModels: apply reads models that svm-train and
// liblinear-train wrote, and its predictions are svm-predict's and
// liblinear-predict's.
func TestApplyForeignModels(t *testing.T) {
	testtool.Need(t, "svm-train", "libsvm-tools")
	testtool.Need(t, "svm-predict", "libsvm-tools")
	testtool.Need(t, "liblinear-train", "liblinear-tools")
	testtool.Need(t, "liblinear-predict", "liblinear-tools")
	dir := t.TempDir()
	libsvmSets(t, dir, 5, 150)
	for _, tt := range []struct {
		train, predict, data string
		args                 []string
	}{
		{"svm-train", "svm-predict", "c", []string{"-s", "0", "-t", "2"}},
		{"svm-train", "svm-predict", "c", []string{"-s", "1", "-t", "1", "-d", "2"}},
		{"svm-train", "svm-predict", "c", []string{"-s", "2", "-t", "3", "-g", "0.2"}},
		{"svm-train", "svm-predict", "r", []string{"-s", "3", "-t", "0"}},
		{"svm-train", "svm-predict", "r", []string{"-s", "4", "-t", "2"}},
		{"liblinear-train", "liblinear-predict", "c", []string{"-s", "0", "-B", "1"}},
		{"liblinear-train", "liblinear-predict", "c", []string{"-s", "4"}},
		{"liblinear-train", "liblinear-predict", "r", []string{"-s", "11", "-B", "1"}},
	} {
		name := tt.train + strings.Join(tt.args, "")
		t.Run(name, func(t *testing.T) {
			model := filepath.Join(dir, "model")
			if out, err := exec.Command(tt.train, append(append([]string{"-q"}, tt.args...), filepath.Join(dir, tt.data+".train"), model)...).CombinedOutput(); err != nil {
				t.Fatalf("%s: %v\n%s", tt.train, err, out)
			}
			if out, err := exec.Command(tt.predict, filepath.Join(dir, tt.data+".test"), model, filepath.Join(dir, "want.txt")).CombinedOutput(); err != nil {
				t.Fatalf("%s: %v\n%s", tt.predict, err, out)
			}
			out := runOK(t, dir, "apply", "--model", "model", "--data", tt.data+".test", "--predictions", "got.txt", "--json")
			closePredictions(t, "apply vs "+tt.predict, testtool.Numbers(t, filepath.Join(dir, "got.txt")), testtool.Numbers(t, filepath.Join(dir, "want.txt")), 1e-9)
			var a modelfile.ApplyReport
			if err := json.Unmarshal([]byte(out), &a); err != nil {
				t.Fatalf("apply --json: %v\n%s", err, out)
			}
			format := map[string]string{"svm-train": "libsvm", "liblinear-train": "liblinear"}[tt.train]
			if a.Command != "apply" || a.Format != format || a.Data.Rows != 200 || a.Metrics.Rows != 200 || a.Predictions != "got.txt" {
				t.Errorf("apply --json: %+v", a)
			}
			if tt.data == "r" && (a.Metrics.MSE == nil || a.Metrics.R2 == nil || a.Classes != nil) {
				t.Errorf("apply --json on a regression: %+v", a.Metrics)
			}
			if tt.data == "c" && a.Metrics.Accuracy == nil {
				t.Errorf("apply --json on labelled data: no accuracy: %s", out)
			}
		})
	}
}

// TestFitJSON: fit --json prints one object whose numbers are the text
// output's, for a classifier and a regression.
func TestFitJSON(t *testing.T) {
	dir := t.TempDir()
	libsvmData(t, filepath.Join(dir, "c.train"), 9, 90, classLabel)
	libsvmData(t, filepath.Join(dir, "r.train"), 10, 90, targetLabel)
	for _, tt := range []struct {
		args []string
		data string
	}{
		{[]string{"--learner", "svm", "--kernel", "rbf", "--C", "3", "--class-weight", "2=4"}, "c"},
		{[]string{"--learner", "nu-svr", "--kernel", "linear", "--nu", "0.4"}, "r"},
		{[]string{"--learner", "linear-svm"}, "c"},
	} {
		base := append([]string{"fit", "--data", tt.data + ".train", "--test", tt.data + ".train", "--model", "m.json", "--quiet", "--train-accuracy"}, tt.args...)
		text := runOK(t, dir, base...)
		out := runOK(t, dir, append(base, "--json")...)
		var f modelfile.FitReport
		if err := json.Unmarshal([]byte(out), &f); err != nil {
			t.Fatalf("%v --json: %v\n%s", tt.args, err, out)
		}
		if f.Command != "fit" || f.Learner != tt.args[1] || f.Data.Rows != 90 || f.Data.Features != 4 || f.Model != "m.json" || len(f.Machines) == 0 || f.Training == nil || f.Test == nil {
			t.Fatalf("%v --json: %s", tt.args, out)
		}
		for _, mc := range f.Machines {
			if mc.Obj == nil || !strings.Contains(text, fmt.Sprintf("obj = %.10g", *mc.Obj)) {
				t.Errorf("%v: machine %+v: its obj is not in the text output:\n%s", tt.args, mc, text)
			}
		}
		if tt.data == "c" {
			want := fmt.Sprintf("training accuracy %.2f%% (%d/90)", 100**f.Training.Accuracy, *f.Training.Correct)
			if !strings.Contains(text, want) {
				t.Errorf("%v: %q not in the text output:\n%s", tt.args, want, text)
			}
			if len(f.Classes) != 3 {
				t.Errorf("classes %v", f.Classes)
			}
		} else {
			want := fmt.Sprintf("mean squared error %.6g, R² %.6g", *f.Training.MSE, *f.Training.R2)
			if !strings.Contains(text, want) || f.Classes != nil || f.Options["nu"] != "0.4" || f.Epsilon == nil || f.Kernel != "linear" {
				t.Errorf("%v: %q not in the text output, or classes/options wrong:\n%s\n%s", tt.args, want, text, out)
			}
		}
		if tt.args[1] == "svm" && (f.Options["class-weight"] != "2=4" || f.Options["C"] != "3" || f.Gamma == nil || !strings.HasPrefix(f.Kernel, "gaussian:sigma=")) {
			t.Errorf("options %v, kernel %q, gamma %v", f.Options, f.Kernel, f.Gamma)
		}
	}
}

// TestLIBSVMFlags: the new flags refuse values out of range before any
// data are read, each naming the flag (exit 2), and the data-dependent
// mistakes name the file (exit 1).
func TestLIBSVMFlags(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"d.libsvm": "0 1:1 2:0\n1 1:0 2:1\n0 1:1 2:1\n1 1:0 2:0\n",
		"a.csv":    "x,y,target\n1,2,a\n2,1,a\n0,0,a\n1,1,b\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fit := func(args ...string) []string {
		return append([]string{"fit", "--data", "d.libsvm", "--model", "m.json", "--quiet"}, args...)
	}
	tests := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"nu 0", fit("--learner", "nu-svc", "--nu", "0"), 2, []string{"--nu 0 out of range: want a number in (0, 1]"}},
		{"nu 1.5", fit("--nu", "1.5"), 2, []string{"--nu 1.5 out of range: want a number in (0, 1]"}},
		{"epsilon -1", fit("--learner", "epsilon-svr", "--epsilon", "-1"), 2, []string{"--epsilon -1 out of range", "≥ 0"}},
		{"epsilon NaN", fit("--epsilon", "NaN"), 2, []string{"--epsilon NaN out of range"}},
		{"weight linear-svm", fit("--learner", "linear-svm", "--class-weight", "1=2"), 2, []string{"--class-weight 1=2 out of range", "none for linear-svm"}},
		{"weight syntax", fit("--class-weight", "1:2"), 2, []string{"--class-weight 1:2 out of range", "LABEL=WEIGHT"}},
		{"weight zero", fit("--class-weight", "1=0"), 2, []string{"--class-weight 1=0 out of range", "> 0"}},
		{"weight twice", fit("--class-weight", "1=2,1=3"), 2, []string{"each label once"}},
		{"weight unknown", fit("--class-weight", "7=2"), 1, []string{"d.libsvm: --class-weight 7=2 out of range", "(0 1); 7 is none of them"}},
		{"nu infeasible", fit("--learner", "nu-svc", "--nu", "1", "--kernel", "linear", "--data", "a.csv"), 1, []string{"a.csv", "ν = 1 is infeasible"}},
		{"svr labels", fit("--learner", "epsilon-svr", "--data", "a.csv"), 1, []string{"a.csv: row 1: the label \"a\" is not a finite number"}},
		{"weights work", fit("--class-weight", "1=2"), 0, nil},
		{"one-class one label", fit("--learner", "one-class", "--data", "d.libsvm"), 0, nil},
	}
	for _, tt := range tests {
		code, out, errs := run(t, dir, tt.args...)
		if code != tt.code {
			t.Errorf("%s: exit %d; want %d\n%s%s", tt.name, code, tt.code, out, errs)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(errs, w) {
				t.Errorf("%s: %q; want it to contain %q", tt.name, errs, w)
			}
		}
		if tt.code != 0 && strings.Count(errs, "\n") != 1 {
			t.Errorf("%s: %q is not one line", tt.name, errs)
		}
	}
}

// greyPictures writes n rows of dim grey levels b/255 with 6 significant
// digits ("%.6g", as most tools write them), about half of them zero, in
// libsvm format: three classes whose pictures differ in where they are
// bright.
func greyPictures(seed uint64, n, dim int) []byte {
	rng := rand.New(rand.NewPCG(seed, 11))
	var b bytes.Buffer
	for i := range n {
		c := i % 3
		fmt.Fprintf(&b, "%d", c+1)
		for k := range dim {
			level := rng.IntN(256)
			if (k+c)%3 == 0 {
				level /= 4
			}
			if rng.IntN(2) == 0 || level == 0 {
				continue
			}
			fmt.Fprintf(&b, " %d:%s", k+1, strconv.FormatFloat(float64(level)/255, 'g', 6, 64))
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// On grey pictures written with 6 digits, the values that take fit's
// float32 path, mark1 fit finds LIBSVM's machines: the same objectives (to
// svm-train's printed precision), the same number of support vectors, the
// same test predictions; apply on the saved model (its support vectors
// read back as float32 rows) predicts as fit did, and svm-predict on the
// exported model as well.
func TestFitSixDigitsAgainstLIBSVM(t *testing.T) {
	testtool.Need(t, "svm-train", "libsvm-tools")
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "train.libsvm"), greyPictures(1, 450, 120), 0o644)
	os.WriteFile(filepath.Join(dir, "test.libsvm"), greyPictures(2, 300, 120), 0o644)
	fitLikeLIBSVM(t, dir, []string{"-t", "2", "-g", "0.02", "-c", "10"}, []string{"--gamma", "0.02", "--C", "10"}, 3)
	f, err := modelfile.Read(filepath.Join(dir, "model.json"))
	if err != nil {
		t.Fatal(err)
	}
	refModel, err := os.ReadFile(filepath.Join(dir, "ref.model"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`total_sv (\d+)`).FindSubmatch(refModel)
	if m == nil || string(m[1]) != strconv.Itoa(len(f.SV)) {
		t.Errorf("%d support vectors; svm-train: %s", len(f.SV), m)
	}
}

// fit prints the training accuracy only with --train-accuracy, and then the
// share of training rows that apply, on the saved model, predicts right.
func TestFitTrainAccuracyOptIn(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "train.libsvm"), greyPictures(3, 240, 40), 0o644)
	for _, learner := range []string{"svm", "linear-svm", "perceptron"} {
		out := runOK(t, dir, "fit", "--learner", learner, "--data", "train.libsvm", "--quiet")
		if strings.Contains(out, "training accuracy") {
			t.Errorf("%s: fit printed the training accuracy without --train-accuracy:\n%s", learner, out)
		}
		out = runOK(t, dir, "fit", "--learner", learner, "--data", "train.libsvm", "--quiet", "--train-accuracy")
		m := regexp.MustCompile(`training accuracy [0-9.]+% \((\d+)/240\)`).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("%s: no training accuracy line in:\n%s", learner, out)
		}
		runOK(t, dir, "apply", "--model", "model.json", "--data", "train.libsvm", "--predictions", "p")
		pred, truth := testtool.Numbers(t, filepath.Join(dir, "p")), labelsFromFile(t, filepath.Join(dir, "train.libsvm"))
		right := 0
		for i := range pred {
			if pred[i] == truth[i] {
				right++
			}
		}
		if m[1] != strconv.Itoa(right) {
			t.Errorf("%s: fit says %s right, apply predicts %d of 240 right", learner, m[1], right)
		}
	}
}

// labelsFromFile returns the label of every row of a libsvm file.
func labelsFromFile(t *testing.T, path string) []float64 {
	t.Helper()
	s, err := dataset.ReadFile(path, dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, s.Rows())
	for i := range out {
		if out[i], err = strconv.ParseFloat(s.Label(i), 64); err != nil {
			t.Fatal(err)
		}
	}
	return out
}
