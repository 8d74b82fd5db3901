package cli

import (
	"fmt"
	"mark1/internal/testtool"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// flowers returns n rows of three seeded Gaussian clusters in 4 features
// (iris-like) and their labels 0, 1, 2.
func flowers(n int) (X [][]float64, y []string) {
	rng := rand.New(rand.NewPCG(5, 8))
	centres := [][]float64{{5, 3.4, 1.5, 0.2}, {5.9, 2.8, 4.3, 1.3}, {6.6, 3, 5.5, 2}}
	for i := range n {
		c := i % 3
		x := make([]float64, 4)
		for j := range x {
			x[j] = centres[c][j] + 0.45*rng.NormFloat64()
		}
		X, y = append(X, x), append(y, fmt.Sprint(c))
	}
	return X, y
}

// table writes rows as text: the header (if any), then per row the chosen
// feature columns and, if withLabel, the label, joined by sep.
func table(header string, X [][]float64, y []string, cols []int, withLabel bool, sep string) []byte {
	var b strings.Builder
	if header != "" {
		b.WriteString(header + "\n")
	}
	for i, x := range X {
		var f []string
		for _, j := range cols {
			f = append(f, fmt.Sprint(x[j]))
		}
		if withLabel {
			f = append(f, y[i])
		}
		b.WriteString(strings.Join(f, sep) + "\n")
	}
	return []byte(b.String())
}

// TestApplyChecksInput reproduces issue 24's failures — rows exported
// without the label column had their last feature taken for the label
// (wrong predictions, "accuracy 0.00 %", exit 0); a 3-feature file with a
// label against a 4-feature model gave an accuracy and exit 0 — and checks
// what apply does now: the same predictions with or without the label
// column, no accuracy without labels, a refusal naming both feature counts
// and the file, unseen labels reported, old model files without a schema
// still read.
func TestApplyChecksInput(t *testing.T) {
	dir := t.TempDir()
	X, y := flowers(90)
	all := []int{0, 1, 2, 3}
	files := map[string][]byte{
		"train.csv":     table("a,b,c,d,target", X, y, all, true, ","),
		"new.csv":       table("a,b,c,d", X[:30], y, all, false, ","),
		"three.csv":     table("a,b,c,target", X[:30], y, []int{0, 1, 2}, true, ","),
		"renamed.csv":   table("w,x,y2,z", X[:30], y, all, false, ","),
		"reordered.csv": table("b,a,c,d,target", X[:30], y, []int{1, 0, 2, 3}, true, ","),
		"new.txt":       table("", X[:30], y, all, false, " "),
		"labelled.txt":  table("", X[:30], y, all, true, " "),
		"short.txt":     table("", X[:30], y, []int{0, 1, 2}, true, " "),
	}
	unseen := slices.Clone(y[:30])
	unseen[4], unseen[7] = "9", "9"
	files["unseen.csv"] = table("a,b,c,d,target", X[:30], unseen, all, true, ",")
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if code, _, errOut := run(t, dir, "fit", "--data", "train.csv", "--model", "m.json", "--scale", "std"); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, errOut)
	}
	// the reference: the same rows with their labels, predicted by fit
	if code, _, errOut := run(t, dir, "fit", "--data", "train.csv", "--test", "unseen.csv", "--model", "m2.json", "--scale", "std", "--predictions", "ref.pred"); code != 0 {
		t.Fatalf("fit --test: exit %d: %s", code, errOut)
	}
	ref, _ := os.ReadFile(filepath.Join(dir, "ref.pred"))
	if strings.Count(string(ref), "\n") != 30 {
		t.Fatalf("reference predictions: %q", ref)
	}
	// an old model file: no schema
	old, _ := os.ReadFile(filepath.Join(dir, "m.json"))
	old = regexp.MustCompile(`(?s) "schema": \{.*?\n \},\n`).ReplaceAll(old, nil)
	if strings.Contains(string(old), "schema") {
		t.Fatal("could not cut the schema out of the model file")
	}
	os.WriteFile(filepath.Join(dir, "old.json"), old, 0o644)

	tests := []struct {
		model, data string
		flags       []string
		code        int
		out         string // in standard output (0) or the error (1, 2)
	}{
		{"m.json", "new.csv", nil, 0, "30 rows predicted; the data have no labels, so no accuracy"},
		{"old.json", "new.csv", nil, 0, "30 rows predicted; the data have no labels"},
		{"m.json", "new.txt", []string{"--no-labels"}, 0, "30 rows predicted"},
		{"old.json", "new.txt", []string{"--no-labels"}, 0, "30 rows predicted"},
		{"m.json", "new.txt", nil, 1, "new.txt has 3 features and a label, but the model m.json was trained on 4 (a, b, c, d) (if its last column is a feature, the file has no labels: --no-labels)"},
		{"m.json", "labelled.txt", nil, 0, "accuracy"},
		{"m.json", "renamed.csv", []string{"--no-labels"}, 1, "renamed.csv's feature columns (w, x, y2, z) are not the model m.json's (a, b, c, d), in name or order"},
		{"old.json", "renamed.csv", nil, 0, "30 rows predicted"},
		{"m.json", "three.csv", nil, 1, `three.csv has 3 features (a, b, c) and the label column "target", but the model m.json was trained on 4 (a, b, c, d)`},
		{"old.json", "three.csv", nil, 1, `three.csv has 3 features (a, b, c) and the label column "target", but the model old.json was trained on 4`},
		{"m.json", "short.txt", nil, 1, "short.txt has 3 features and a label, but the model m.json was trained on 4"},
		{"m.json", "reordered.csv", nil, 1, "reordered.csv's feature columns (b, a, c, d) are not the model m.json's (a, b, c, d)"},
		{"m.json", "unseen.csv", nil, 0, `label "9" (2 rows) was not among the training data's classes`},
		{"m.json", "new.csv", []string{"--no-labels", "--label-column", "a"}, 2, "--no-labels and --label-column"},
	}
	for _, tt := range tests {
		t.Run(tt.model+" "+tt.data+" "+strings.Join(tt.flags, " "), func(t *testing.T) {
			os.Remove(filepath.Join(dir, "p.pred"))
			args := append([]string{"apply", "--model", tt.model, "--data", tt.data, "--predictions", "p.pred"}, tt.flags...)
			code, out, errOut := run(t, dir, args...)
			got := out
			if tt.code != 0 {
				got = errOut
			}
			if code != tt.code || !strings.Contains(got, tt.out) {
				t.Fatalf("exit %d, %q %q; want exit %d and %q", code, out, errOut, tt.code, tt.out)
			}
			pred, err := os.ReadFile(filepath.Join(dir, "p.pred"))
			if tt.code != 0 {
				if err == nil {
					t.Errorf("predictions written on error")
				}
				return
			}
			if tt.data != "renamed.csv" && string(pred) != string(ref) {
				t.Errorf("predictions differ from the labelled rows':\n%s\nwant\n%s", pred, ref)
			}
			if strings.Contains(out, "no labels") == strings.Contains(out, ": accuracy ") {
				t.Errorf("output %q: want an accuracy exactly when the data have labels", out)
			}
		})
	}
}

// TestZeroBasedLikeSVMTrain fits a file written by scikit-learn's
// dump_svmlight_file (0-based indices, its default) and compares with
// svm-train on the same bytes (LIBSVM takes index 0 as one more feature):
// the same objectives and predictions. A test file without an index 0 is
// read 0-based for the 0-based model; 0-based data for a 1-based model are
// refused; query ids are ignored with a note.
func TestZeroBasedLikeSVMTrain(t *testing.T) {
	testtool.Need(t, "svm-train", "libsvm-tools")
	dir := t.TempDir()
	X, y := flowers(120)
	os.WriteFile(filepath.Join(dir, "all.txt"), table("", X, y, []int{0, 1, 2, 3}, true, " "), 0o644)
	sklearnRun(t, dir, `
import numpy as np
from sklearn.datasets import dump_svmlight_file
d = np.loadtxt("all.txt")
X, y = d[:, :4], d[:, 4]
dump_svmlight_file(X[:90], y[:90], "train0.svm")
X2 = X[90:].copy(); X2[:, 0] = 0   # no index 0 in the test file
dump_svmlight_file(X2, y[90:], "test0.svm")
dump_svmlight_file(X[:90], y[:90], "train1.svm", zero_based=False)
dump_svmlight_file(X2, y[90:], "qid.svm", query_id=np.arange(30) // 10)
`)
	ref := runTool(t, dir, "svm-train", "-t", "2", "-g", "0.25", "-c", "1", "-e", "0.001", "train0.svm", "ref.model")
	runTool(t, dir, "svm-predict", "test0.svm", "ref.model", "ref.pred")
	code, out, errOut := run(t, dir, "fit", "--data", "train0.svm", "--test", "test0.svm", "--gamma", "0.25", "--predictions", "p.pred", "--model", "m0.json")
	if code != 0 {
		t.Fatalf("fit: exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "train0.svm: libsvm indices read as 0-based") {
		t.Errorf("no note of the 0-based indices: %q", errOut)
	}
	want, got := objectives(t, ref), objectives(t, out)
	if len(got) != 3 || len(want) != 3 {
		t.Fatalf("objectives %v; svm-train %v", got, want)
	}
	for m := range want {
		// fit keeps dense values as float32 (7 digits): the objectives agree
		// to 1e-6 relative, as in TestFitAgainstLIBSVM.
		if d := math.Abs(got[m] - want[m]); d > max(1e-6*math.Abs(want[m]), 5e-7) {
			t.Errorf("machine %d: obj %.10g; svm-train %.6f", m, got[m], want[m])
		}
	}
	samePredictions(t, "fit on 0-based data vs svm-train", testtool.Numbers(t, filepath.Join(dir, "p.pred")), testtool.Numbers(t, filepath.Join(dir, "ref.pred")))
	// apply reads the test file (no index 0) as 0-based, as the model's data were
	code, _, errOut = run(t, dir, "apply", "--model", "m0.json", "--data", "test0.svm", "--predictions", "a.pred")
	if code != 0 {
		t.Fatalf("apply: exit %d: %s", code, errOut)
	}
	samePredictions(t, "apply vs svm-predict", testtool.Numbers(t, filepath.Join(dir, "a.pred")), testtool.Numbers(t, filepath.Join(dir, "ref.pred")))
	code, out, errOut = run(t, dir, "apply", "--model", "m0.json", "--data", "qid.svm", "--predictions", "q.pred")
	if code != 0 || !strings.Contains(errOut, "qid.svm: 30 svmlight query ids (qid:N) ignored") {
		t.Fatalf("apply with qid: exit %d: %s %s", code, out, errOut)
	}
	samePredictions(t, "apply with qid vs svm-predict", testtool.Numbers(t, filepath.Join(dir, "q.pred")), testtool.Numbers(t, filepath.Join(dir, "ref.pred")))
	// a 1-based model refuses 0-based data
	if code, _, errOut := run(t, dir, "fit", "--data", "train1.svm", "--model", "m1.json"); code != 0 {
		t.Fatalf("fit 1-based: %s", errOut)
	}
	code, _, errOut = run(t, dir, "apply", "--model", "m1.json", "--data", "train0.svm")
	if code != 1 || !strings.Contains(errOut, "train0.svm has 0-based libsvm indices, but the model m1.json's training data had 1-based ones") {
		t.Errorf("0-based data for a 1-based model: exit %d, %q", code, errOut)
	}
	code, _, errOut = run(t, dir, "fit", "--data", "train0.svm", "--zero-based=false")
	if code != 1 || !strings.Contains(errOut, "train0.svm:1: field 2: \"0:") || !strings.Contains(errOut, "below 1") {
		t.Errorf("--zero-based=false on 0-based data: exit %d, %q", code, errOut)
	}
}

// sklearnRun runs a Python script with scikit-learn in dir; it fails (CI)
// or skips (elsewhere) without scikit-learn.
func sklearnRun(t *testing.T, dir, script string) string {
	t.Helper()
	testtool.NeedSklearn(t)
	cmd := exec.Command("/usr/bin/python3", "-c", script)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("python: %v\n%s", err, out)
	}
	return string(out)
}
