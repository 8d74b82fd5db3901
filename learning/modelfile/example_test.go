package modelfile_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"mark1/learning"
	"mark1/learning/kernel"
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
