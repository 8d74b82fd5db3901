package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"mark1/lab"
	"mark1/learning/kernel"
	"mark1/learning/learners"
	"mark1/learning/modelfile"
)

// TestSameWords holds the rule of one vocabulary: the same data and the
// same words give the same model and the same accuracy from fit, compare
// and lab, for every learner two of them share. Each learner runs with no
// words (every default) and with words that change each option it reads;
// fit's test accuracy must equal compare's P_g on the same files, and
// lab's final model (traced step by step) must be fit's: the perceptron's
// and batch GD's weights bit for bit, the kernel perceptron's stored
// examples and their coefficients, and the SVM's predictions on the test
// file (lab's SMO runs to a tighter tolerance).
func TestSameWords(t *testing.T) {
	dir := t.TempDir()
	// Two noisy classes in the plane, every value a non-zero multiple of
	// 1/4, so that sums are exact whatever the storage.
	rng := rand.New(rand.NewPCG(21, 1))
	write := func(name string, n int) {
		var b strings.Builder
		for i := range n {
			label, cx := "1", 1.0
			if i%2 == 0 {
				label, cx = "-1", -1.0
			}
			q := func(v float64) float64 {
				v = math.Round(v*4) / 4
				if v == 0 {
					v = 0.25
				}
				return v
			}
			fmt.Fprintf(&b, "%s 1:%g 2:%g\n", label, q(cx+1.1*rng.NormFloat64()), q(0.5*cx+rng.NormFloat64()))
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("train.libsvm", 40)
	write("test.libsvm", 30)

	words := map[string][]string{
		"perceptron":        {"--epochs", "7", "--seed", "3", "--eps", "0.5"},
		"averaged":          {"--epochs", "5", "--seed", "2", "--order", "given"},
		"voted":             {"--epochs", "5", "--seed", "4"},
		"pocket":            {"--epochs", "9", "--seed", "5"},
		"batch-gd":          {"--epochs", "20", "--line-search=false", "--eps", "0.25"},
		"kernel-perceptron": {"--kernel", "poly", "--degree", "2", "--gamma", "0.5", "--coef0", "1", "--epochs", "6", "--seed", "7"},
		"svm":               {"--kernel", "rbf", "--gamma", "auto", "--C", "2"},
		"linear-svm":        {"--C", "0.5", "--loss", "squared-hinge", "--tol", "0.01"},
		"nu-svc":            {"--kernel", "linear", "--nu", "0.6", "--tol", "0.0001"},
	}
	shared := 0
	for _, spec := range learners.All() {
		// The one-class SVM and the SVRs predict values: fit alone runs
		// them (their agreement with LIBSVM is libsvm_test.go's).
		inFit := spec.Form != learners.NoFile && !spec.Needs.Values
		inLab := slices.Contains(lab.Learners(), spec.Name)
		if (!inFit && !inLab) || spec.LabOnly { // one command alone: no second to agree with
			continue
		}
		shared++
		for _, w := range [][]string{nil, words[spec.Name]} {
			name := spec.Name + " " + strings.Join(w, " ")
			t.Run(name, func(t *testing.T) {
				var fitRight, n int
				if inFit {
					fitRight, n = fitAccuracy(t, dir, spec.Name, w)
					cRight, cn := compareAccuracy(t, dir, spec.Name, w)
					if cRight != fitRight || cn != n {
						t.Errorf("fit: %d/%d right on the test file; compare: %d/%d", fitRight, n, cRight, cn)
					}
				}
				if inLab {
					labAgrees(t, dir, spec.Name, w)
				}
			})
		}
	}
	if shared < 7 {
		t.Errorf("%d learners shared by two commands; want every learner of fit", shared)
	}
}

var reTestAccuracy = regexp.MustCompile(`test accuracy [0-9.]+% \((\d+)/(\d+)\)`)

// fitAccuracy runs fit on the train and test files and returns its test
// accuracy as right/n; the model is left in model-<learner>.json.
func fitAccuracy(t *testing.T, dir, learner string, words []string) (int, int) {
	t.Helper()
	args := append([]string{"fit", "--data", "train.libsvm", "--test", "test.libsvm", "--learner", learner, "--quiet",
		"--model", "model-" + learner + ".json", "--predictions", "pred-" + learner + ".txt"}, words...)
	code, out, errs := run(t, dir, args...)
	m := reTestAccuracy.FindStringSubmatch(out)
	if code != 0 || m == nil {
		t.Fatalf("%v: exit %d, %s%s", args, code, out, errs)
	}
	right, _ := strconv.Atoi(m[1])
	n, _ := strconv.Atoi(m[2])
	return right, n
}

// compareAccuracy runs compare's one learner on the same files and returns
// its P_g as right/n.
func compareAccuracy(t *testing.T, dir, learner string, words []string) (int, int) {
	t.Helper()
	args := append([]string{"compare", "--data", "train.libsvm", "--test", "test.libsvm", "--learners", learner, "--no-theory", "--json"}, words...)
	code, out, errs := run(t, dir, args...)
	var rep struct {
		Test int `json:"test"`
		Rows []struct {
			Pg *float64 `json:"p_g"`
		} `json:"rows"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || len(rep.Rows) != 1 || rep.Rows[0].Pg == nil {
		t.Fatalf("%v: exit %d, %.300s%s", args, code, out, errs)
	}
	return int(math.Round(*rep.Rows[0].Pg * float64(rep.Test))), rep.Test
}

// labAgrees runs lab on the training file with the same words and checks
// its final model against fit's model file.
func labAgrees(t *testing.T, dir, learner string, words []string) {
	t.Helper()
	args := append([]string{"lab", "--data", "train.libsvm", "--learner", learner, "--json"}, words...)
	code, out, errs := run(t, dir, args...)
	if code != 0 {
		t.Fatalf("%v: exit %d, %s", args, code, errs)
	}
	f, err := modelfile.Read(filepath.Join(dir, "model-"+learner+".json"))
	if err != nil {
		t.Fatal(err)
	}
	// fit's binary machine says + for its second class; lab's + is the
	// larger label, 1. Where they differ, fit's model is lab's negated
	// (the learners treat the two classes alike).
	sign := 1.0
	if f.Classes[1] != "1" {
		sign = -1
	}
	var trace struct {
		Steps []struct {
			W    []float64 `json:"w"`
			Next []float64 `json:"next"`
		} `json:"steps"`
		Final  []float64 `json:"final"`
		Stored []struct {
			X    []float64 `json:"x"`
			Coef int       `json:"coef"`
		} `json:"stored"`
		Alpha   []float64 `json:"alpha"`
		B       float64   `json:"b"`
		Options struct {
			Bias bool `json:"bias"`
		} `json:"options"`
	}
	if err := json.Unmarshal([]byte(out), &trace); err != nil {
		t.Fatalf("lab --json: %v", err)
	}
	mc := f.Machines[0]
	switch learner {
	case "perceptron", "batch-gd":
		w := trace.Final
		if learner == "perceptron" {
			w = trace.Steps[len(trace.Steps)-1].W
		}
		fw := append(append([]float64{}, mc.W...), *mc.B)
		for j := range fw {
			fw[j] *= sign
		}
		if !trace.Options.Bias {
			w = append(w, 0)
		}
		if !slices.Equal(w, fw) { // bit for bit (−0 = 0)
			t.Errorf("lab's final (w, b) = %v; fit's %v", w, fw)
		}
	case "kernel-perceptron":
		// fit stores every training row with its coefficient (0 for rows
		// never mistaken); lab lists the stored ones.
		train := readLibsvm(t, filepath.Join(dir, "train.libsvm"))
		got := map[string]float64{}
		for s, sv := range f.SV {
			if c := mc.Coef[s]; c != 0 {
				got[fmt.Sprint(dense(sv, 2))] += sign * c
			}
		}
		want := map[string]float64{}
		for _, s := range trace.Stored {
			want[fmt.Sprint(s.X)] += float64(s.Coef)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("stored examples and coefficients: fit %v, lab %v (of %d rows)", got, want, len(train))
		}
	case "svm":
		k, err := kernel.ParseKernel(*f.Kernel)
		if err != nil {
			t.Fatal(err)
		}
		train := readLibsvm(t, filepath.Join(dir, "train.libsvm"))
		test := readLibsvm(t, filepath.Join(dir, "test.libsvm"))
		preds, err := os.ReadFile(filepath.Join(dir, "pred-svm.txt"))
		if err != nil {
			t.Fatal(err)
		}
		fitPred := strings.Fields(string(preds))
		for i, r := range test {
			v := trace.B
			for j, a := range trace.Alpha {
				v += a * train[j].y * k.Eval(train[j].x, r.x)
			}
			lab := "-1"
			if v > 0 {
				lab = "1"
			}
			if lab != fitPred[i] && math.Abs(v) > 1e-3 {
				t.Errorf("test row %d: lab's SVM says %s (f = %.6g), fit's %s", i+1, lab, v, fitPred[i])
			}
		}
	default:
		t.Fatalf("no check of lab's %s", learner)
	}
}

type row struct {
	x []float64
	y float64
}

// readLibsvm reads the two-feature files written above.
func readLibsvm(t *testing.T, path string) []row {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rows []row
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Fields(line)
		y, _ := strconv.ParseFloat(f[0], 64)
		r := row{x: make([]float64, 2), y: y}
		for _, kv := range f[1:] {
			k, v, _ := strings.Cut(kv, ":")
			j, _ := strconv.Atoi(k)
			r.x[j-1], _ = strconv.ParseFloat(v, 64)
		}
		rows = append(rows, r)
	}
	return rows
}

func dense(s modelfile.Sparse, dim int) []float64 {
	x := make([]float64, dim)
	for k, j := range s.Index {
		x[j] = s.Value[k]
	}
	return x
}
