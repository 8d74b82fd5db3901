package modelfile_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mark1/dataset"
	"mark1/learning"
	"mark1/learning/kernel"
	"mark1/learning/learners"
	"mark1/learning/modelfile"
	"mark1/learning/svm"
)

// A linear SVM on four points, saved in LIBSVM's model format. Class 0 is
// the label 1, as LIBSVM orders a ±1 problem. svm-train -t 0 on the same
// points ("-1 1:0 2:0", "-1 2:1", "1 1:2", "1 1:2 2:1") writes the same
// model, up to the order of the two support vectors' lines.
func ExampleWriteLIBSVM() {
	d := &learning.Data{X: [][]float64{{0, 0}, {0, 1}, {2, 0}, {2, 1}}, Y: []int{1, 1, 0, 0}, Classes: 2}
	res, err := svm.Kernel{Kernel: kernel.Linear{}}.Fit(context.Background(), d, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	f, err := modelfile.FromModel("svm", res.Model, []string{"1", "-1"}, 2, nil, nil, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	var b strings.Builder
	if err := modelfile.WriteLIBSVM(&b, f); err != nil {
		fmt.Println(err)
	}
	// LIBSVM ends each support vector's line with a space; trimmed here.
	fmt.Print(strings.ReplaceAll(b.String(), " \n", "\n"))
	// Output:
	// svm_type c_svc
	// kernel_type linear
	// nr_class 2
	// total_sv 2
	// rho 1
	// label 1 -1
	// nr_sv 1 1
	// SV
	// 0.5 1:2 2:1
	// -0.5 2:1
}

// A model file that svm-train wrote (a C-SVC with the rbf kernel and two
// support vectors) read as svm-predict reads it: the class of each point
// is the side of Σ coef·k(sv, x) − ρ.
func ExampleDecodeLIBSVM() {
	const model = `svm_type c_svc
kernel_type rbf
gamma 0.5
nr_class 2
total_sv 2
rho 0
label 1 -1
nr_sv 1 1
SV
1 1:1 2:1
-1 1:-1 2:-1
`
	f, err := modelfile.DecodeLIBSVM(strings.NewReader(model), "rbf.model")
	if err != nil {
		fmt.Println(err)
		return
	}
	m, err := f.Model(f.Dim)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(f.Learner, f.Classes, *f.Kernel)
	for _, x := range [][]float64{{2, 1}, {-1, -2}} {
		fmt.Println(x, "→", f.Classes[m.Predict(x)])
	}
	// Output:
	// svm [1 -1] gaussian:sigma=1
	// [2 1] → 1
	// [-1 -2] → -1
}

// A model applied to a data file a block of rows at a time, as apply and
// fit --test do: the predictions are written one a line, and the rows of a
// label the model never saw (3) count as wrong.
func ExampleApplyFile() {
	d := &learning.Data{X: [][]float64{{0, 0}, {0, 1}, {2, 0}, {2, 1}}, Y: []int{1, 1, 0, 0}, Classes: 2}
	res, err := svm.Kernel{Kernel: kernel.Linear{}}.Fit(context.Background(), d, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	f, _ := modelfile.FromModel("svm", res.Model, []string{"1", "-1"}, 2, nil, nil, nil)
	dir, _ := os.MkdirTemp("", "apply")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "test.libsvm")
	os.WriteFile(path, []byte("1 1:3\n-1 2:1\n1 1:0.2\n3 1:2 2:2\n"), 0o644)
	var preds strings.Builder
	a, err := modelfile.ApplyFile(context.Background(), f, path, modelfile.ApplyOptions{Name: "model", BlockRows: 2}, &preds)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(preds.String())
	fmt.Printf("%d of %d right; unseen %v\n", *a.Right, a.Rows, a.Unseen)
	// Output:
	// 1
	// -1
	// -1
	// 1
	// 2 of 4 right; unseen [{3 1}]
}

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

// A fit's report as fit prints it without --json: the learner and its
// settings, the data, each binary machine in LIBSVM's words, the status
// and the training accuracy.
func ExampleFitReport_WriteText() {
	obj, rho, nSV, nBSV := -1.5, 0.25, 3, 1
	pos, neg := "cat", "dog"
	r := &modelfile.FitReport{Learner: "svm", Options: map[string]string{"C": "1", "kernel": "linear"}, Kernel: "linear",
		Data: modelfile.DataInfo{File: "pets.csv", Rows: 10, Features: 2}, Classes: []string{"cat", "dog"},
		Machines: []modelfile.MachineReport{{Pos: &pos, Neg: &neg, Obj: &obj, Rho: &rho, NSV: &nSV, NBSV: &nBSV, Iterations: 7}},
		Status:   "optimal to eps 0.001 after 7 iterations", Training: modelfile.AccuracyMetrics("", 9, 10)}
	if err := r.WriteText(os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output:
	// svm (kernel linear, C 1) on pets.csv: 10 rows, 2 features, 2 classes (cat dog)
	// machine cat vs dog: obj = -1.5, rho = 0.25, nSV = 3, nBSV = 1, 7 iterations
	// optimal to eps 0.001 after 7 iterations
	// training accuracy 90.00% (9/10)
}

// A regression's cross-validation as svm-train -v prints it.
func ExampleCVReport_WriteText() {
	r := &modelfile.CVReport{Folds: 5, Learner: "epsilon-svr", File: "reg.csv", Rows: 40, Features: 3,
		Regression: &learning.Regression{MSE: 0.046, SquaredCorrelation: 0.89, R2: 0.88}}
	if err := r.WriteText(os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output:
	// 5-fold cross-validation of epsilon-svr on reg.csv: 40 rows, 3 features (plain folds: the targets are numbers)
	// Cross Validation Mean squared error = 0.046
	// Cross Validation Squared correlation coefficient = 0.89
	// Cross Validation R² (coefficient of determination) = 0.88
}

// The axes of a grid search of the kernel SVM, as grid.py's -log2c and a
// list of γ values, each checked as fit checks its C and γ.
func ExampleSetup_Grid() {
	spec, err := learners.Lookup("svm")
	if err != nil {
		fmt.Println(err)
		return
	}
	l := modelfile.Setup{Spec: spec, Options: learners.Defaults(), Scale: "none"}
	g, err := l.Grid(modelfile.GridText{Log2C: "-1,3,2", Gamma: "0.5,scale"})
	fmt.Println(g.C, g.Log2C, g.Gamma, err)
	_, err = l.Grid(modelfile.GridText{C: "1,-1"})
	fmt.Println(err)
	// Output:
	// [0.5 2 8] [-1 1 3] [0.5 scale] <nil>
	// C "1,-1": "-1" is not a finite number > 0
}

// A grid search read as its folds take the data (ReadFolds): the file's
// rows held once, dense and compact (bytes here: every value is a grey
// level), each fold's rows a view of them, with the results of the data
// read whole; the plan records the fingerprint of the rows as read.
func ExampleSetup_PlanFolds() {
	dir, err := os.MkdirTemp("", "folds")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	var b strings.Builder
	for i := range 30 {
		x := float64(i%10+1) / 255
		if i%2 == 1 {
			x = float64(250-i%10) / 255
		}
		fmt.Fprintf(&b, "%d 1:%.17g 2:%.17g\n", i%2, x, 1-x)
	}
	path := filepath.Join(dir, "grey.libsvm")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		fmt.Println(err)
		return
	}
	spec, err := learners.Lookup("svm")
	if err != nil {
		fmt.Println(err)
		return
	}
	l := modelfile.Setup{Spec: spec, Options: learners.Defaults(), Scale: "none"}
	g, err := l.Grid(modelfile.GridText{Log2C: "0,2,2", Gamma: "scale"})
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	p, d, err := l.PlanFolds(ctx, path, g, modelfile.GridOptions{Folds: 3, Seed: 1, Warm: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	t, err := l.CrossValidateFolds(ctx, p, d, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	whole, err := dataset.ReadFile(path, dataset.Options{})
	fmt.Println(d.Set.Rows(), "rows, the fingerprint of the rows as read:", err == nil && p.Data.Fingerprint == whole.Fingerprint())
	fmt.Println("right:", t.Right)
	// Output:
	// 30 rows, the fingerprint of the rows as read: true
	// right: [[30] [30]]
}
