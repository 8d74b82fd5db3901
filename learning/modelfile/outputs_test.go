package modelfile_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"mark1/learning"
	"mark1/learning/kernel"
	"mark1/learning/modelfile"
	"mark1/learning/svm"
)

// TestOutputsWrite: a model whose labels LIBSVM's format cannot hold is an
// *ExportError naming the format, and nothing is written; without that
// export the model file and the LIBLINEAR export are written.
func TestOutputsWrite(t *testing.T) {
	d := &learning.Data{X: [][]float64{{0, 0}, {0, 1}, {2, 0}, {2, 1}}, Y: []int{1, 1, 0, 0}, Classes: 2}
	res, err := svm.Kernel{Kernel: kernel.Linear{}}.Fit(context.Background(), d, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := modelfile.FromModel("svm", res.Model, []string{"cat", "dog"}, 2, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	o := modelfile.Outputs{Model: filepath.Join(dir, "m.json"), LIBSVM: filepath.Join(dir, "m.libsvm")}
	var ee *modelfile.ExportError
	if err := o.Write(context.Background(), f); !errors.As(err, &ee) || ee.Format != "libsvm" {
		t.Fatalf("labels cat and dog in LIBSVM's format: %v; want an *ExportError of libsvm", err)
	}
	if names, _ := os.ReadDir(dir); len(names) != 0 {
		t.Errorf("a refused export wrote %v", names)
	}
	o.LIBSVM = ""
	if err := o.Write(context.Background(), f); err != nil {
		t.Fatal(err)
	}
	if _, err := modelfile.Read(o.Model); err != nil {
		t.Errorf("the model file written does not read back: %v", err)
	}
}
