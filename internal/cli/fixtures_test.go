package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFixturesSaveAndLoad trains on every data fixture in the repository
// and loads what it saved: a saved file always loads (issue 26: Latin-1
// class names were saved as one name twice, and the file never loaded
// again). Numeric data are fitted and the model applied; pictures, IDX and
// square libsvm files train a machine that eval then reads.
func TestFixturesSaveAndLoad(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	numeric := []string{
		"dataset/testdata/small.libsvm", "dataset/testdata/small.csv", "dataset/testdata/small.txt", "dataset/testdata/pm1.libsvm",
		"learning/svm/testdata/gauss2.libsvm", "learning/svm/testdata/gauss3.libsvm", "learning/svm/testdata/retina2.libsvm",
		"images/testdata/small.libsvm",
	}
	pictures := []string{"images/testdata/folder", "images/testdata/mnist/t10k-images-idx3-ubyte", "images/testdata/small.libsvm", "learning/svm/testdata/retina2.libsvm"}
	// Every data fixture is in one list or the other (a new one must be
	// added here).
	listed := map[string]bool{}
	for _, p := range append(numeric, pictures...) {
		listed[p] = true
	}
	for _, glob := range []string{"dataset/testdata/*.*", "learning/svm/testdata/*.libsvm", "images/testdata/*.libsvm"} {
		ms, _ := filepath.Glob(filepath.Join(root, glob))
		for _, m := range ms {
			rel, _ := filepath.Rel(root, m)
			if !listed[rel] && !strings.HasSuffix(rel, ".json") {
				t.Errorf("data fixture %s is not saved and reloaded here", rel)
			}
		}
	}
	dir := t.TempDir()
	for _, p := range numeric {
		t.Run("fit "+p, func(t *testing.T) {
			data := filepath.Join(root, p)
			if code, _, errs := run(t, dir, "fit", "--data", data, "--learner", "perceptron", "--epochs", "5", "--quiet", "--model", "m.json"); code != 0 {
				t.Fatalf("fit: %s", errs)
			}
			if code, out, errs := run(t, dir, "apply", "--model", "m.json", "--data", data); code != 0 || !strings.Contains(out, "accuracy") {
				t.Fatalf("the saved model does not load: exit %d %s", code, errs)
			}
		})
	}
	for _, p := range pictures {
		t.Run("train "+p, func(t *testing.T) {
			data := filepath.Join(root, p)
			if code, _, errs := run(t, dir, "train", "--data", data, "--epochs", "2", "--test-split", "0", "--quiet", "--out", "m.json"); code != 0 {
				t.Fatalf("train: %s", errs)
			}
			if code, _, errs := run(t, dir, "eval", "--machine", "m.json", "--data", data); code != 0 {
				t.Fatalf("the saved machine does not load: exit %d %s", code, errs)
			}
		})
	}
	os.Remove(filepath.Join(dir, "m.json"))
}
