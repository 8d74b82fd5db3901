package modelfile_test

import (
	"fmt"
	"os"

	"mark1/learning"
	"mark1/learning/learners"
	"mark1/learning/modelfile"
)

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
