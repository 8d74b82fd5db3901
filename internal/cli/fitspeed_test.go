package cli

import (
	"bytes"
	"fmt"
	"mark1/internal/testtool"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"mark1/learning/modelfile"
)

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
	ref := runTool(t, dir, "svm-train", "-t", "2", "-g", "0.02", "-c", "10", "-e", "0.001", "train.libsvm", "ref.model")
	runTool(t, dir, "svm-predict", "test.libsvm", "ref.model", "ref.pred")
	code, out, errOut := run(t, dir, "fit", "--data", "train.libsvm", "--test", "test.libsvm", "--gamma", "0.02", "--C", "10",
		"--predictions", "mark1.pred", "--libsvm-model", "mark1.libsvm-model")
	if code != 0 {
		t.Fatalf("fit: exit %d: %s", code, errOut)
	}
	sameObjectives(t, ref, out, 3)
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
	samePredictions(t, "mark1 fit vs svm-train + svm-predict", testtool.Numbers(t, filepath.Join(dir, "mark1.pred")), testtool.Numbers(t, filepath.Join(dir, "ref.pred")))
	runTool(t, dir, "svm-predict", "test.libsvm", "mark1.libsvm-model", "export.pred")
	samePredictions(t, "svm-predict on mark1's model vs mark1", testtool.Numbers(t, filepath.Join(dir, "export.pred")), testtool.Numbers(t, filepath.Join(dir, "mark1.pred")))
	if code, _, errOut = run(t, dir, "apply", "--model", "model.json", "--data", "test.libsvm", "--predictions", "apply.pred"); code != 0 {
		t.Fatalf("apply: exit %d: %s", code, errOut)
	}
	samePredictions(t, "mark1 apply vs mark1 fit", testtool.Numbers(t, filepath.Join(dir, "apply.pred")), testtool.Numbers(t, filepath.Join(dir, "mark1.pred")))
}

// fit prints the training accuracy only with --train-accuracy, and then the
// share of training rows that apply, on the saved model, predicts right.
func TestFitTrainAccuracyOptIn(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "train.libsvm"), greyPictures(3, 240, 40), 0o644)
	for _, learner := range []string{"svm", "linear-svm", "perceptron"} {
		code, out, errOut := run(t, dir, "fit", "--learner", learner, "--data", "train.libsvm", "--quiet")
		if code != 0 {
			t.Fatalf("%s: fit: exit %d: %s", learner, code, errOut)
		}
		if strings.Contains(out, "training accuracy") {
			t.Errorf("%s: fit printed the training accuracy without --train-accuracy:\n%s", learner, out)
		}
		code, out, errOut = run(t, dir, "fit", "--learner", learner, "--data", "train.libsvm", "--quiet", "--train-accuracy")
		if code != 0 {
			t.Fatalf("%s: fit --train-accuracy: exit %d: %s", learner, code, errOut)
		}
		m := regexp.MustCompile(`training accuracy [0-9.]+% \((\d+)/240\)`).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("%s: no training accuracy line in:\n%s", learner, out)
		}
		if code, _, errOut = run(t, dir, "apply", "--model", "model.json", "--data", "train.libsvm", "--predictions", "p"); code != 0 {
			t.Fatalf("%s: apply: exit %d: %s", learner, code, errOut)
		}
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

// labelsFromFile returns the first field of every line of a libsvm file.
func labelsFromFile(t *testing.T, path string) []float64 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []float64
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		v, err := strconv.ParseFloat(strings.Fields(line)[0], 64)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}
