package selection_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"mark1/dataset"
	"mark1/learning/selection"
)

// The grid of grid.py's default -log2g, and how a plan numbers its tasks.
func ExampleParseLog2Range() {
	_, exps, err := selection.ParseLog2Range("gamma", "3,-15,-2")
	if err != nil {
		panic(err)
	}
	fmt.Println(exps)
	_, _, err = selection.ParseLog2Range("C", "5,1,2")
	fmt.Println(err)
	// Output:
	// [3 1 -1 -3 -5 -7 -9 -11 -13 -15]
	// C "5,1,2": the step must be non-zero and lead from begin to end (an empty grid otherwise)
}

// Stratified folds: each class's rows dealt over the folds.
func ExampleFolds() {
	labels := []int{0, 0, 0, 0, 1, 1, 1, 1, 1, 1}
	f, err := selection.Folds(labels, 2, 2, 1)
	if err != nil {
		panic(err)
	}
	count := [2][2]int{}
	for i, k := range f {
		count[k][labels[i]]++
	}
	fmt.Println("fold 0:", count[0], "fold 1:", count[1])
	_, err = selection.Folds(labels, 2, 5, 1)
	fmt.Println(err)
	// Output:
	// fold 0: [2 3] fold 1: [2 3]
	// folds 5: class 0 has 4 rows; stratified cross-validation needs at least one row of every class in every fold
}

// The task a job array gave this process, found in its environment
// (os.LookupEnv; a map here).
func ExamplePlan_ArrayTask() {
	p := &selection.Plan{Tasks: 10}
	env := map[string]string{"PBS_ARRAY_INDEX": "7"}
	task, ok, err := p.ArrayTask(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	fmt.Println(task, ok, err)
	env["SLURM_ARRAY_TASK_ID"] = "12"
	_, _, err = p.ArrayTask(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	fmt.Println(err)
	// Output:
	// 7 true <nil>
	// $SLURM_ARRAY_TASK_ID 12 out of the plan's range [0, 10)
}

// The plan of a final model's fit: one C and one γ on all rows, a task
// per binary problem of the one-vs-one SVM.
func ExampleNewFinalPlan() {
	d := selection.Data{Path: "train.libsvm", Format: "libsvm", Indices: "1-based", Fingerprint: strings.Repeat("0", 64), Rows: 600, Dim: 784, Classes: 4}
	p, err := selection.NewFinalPlan(d, "svm", map[string]string{"kernel": "rbf", "scale": "none"}, 8, "0.0625")
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Tasks, "tasks")
	for i := range p.Tasks {
		c := p.Column(i)
		fmt.Printf("task %d: classes %d and %d\n", i, c.A, c.B)
	}
	p.Folds = 5
	fmt.Println(p.Check())
	// Output:
	// 6 tasks
	// task 0: classes 0 and 1
	// task 1: classes 0 and 2
	// task 2: classes 0 and 3
	// task 3: classes 1 and 2
	// task 4: classes 1 and 3
	// task 5: classes 2 and 3
	// a final plan with folds, a fold seed, warm starts or log2 axes: it trains once on all rows
}

// The data a plan file names, read leniently: what a sweep reads beside
// its plan.
func ExamplePlanData() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	plan := filepath.Join(dir, "plan.json")
	os.WriteFile(plan, []byte(`{"format": "a future one", "data": {"path": "digits.libsvm"}}`), 0o644)
	fmt.Printf("%q\n", selection.PlanData(plan))
	fmt.Printf("%q\n", selection.PlanData(filepath.Join(dir, "none.json")))
	// Output:
	// "digits.libsvm"
	// ""
}

// A grid run on data whose rows the fit function holds itself: the set
// given to RunAllOn describes the data (their classes and labels) and
// holds no rows, and the fingerprint is that of the rows as read. This fit
// function predicts every test row's class from its own table of values,
// right where a value is above 0.5 for class 1.
func ExampleRunAllOn() {
	values := []float64{0.1, 0.9, 0.2, 0.8, 0.3, 0.7, 0.4, 0.6}
	labels := &dataset.Set{Name: "held", Classes: []string{"a", "b"}, Y: []int{0, 1, 0, 1, 0, 1, 0, 1}, Dim: 1, RowStart: []int{0}}
	const fingerprint = "3f1a0c9e4d6b2a8f7e5c1d0b9a8f7e6d5c4b3a29180f7e6d5c4b3a2918f0e1d2"
	p, err := selection.NewPlan(labels, selection.Data{Path: "held", Fingerprint: fingerprint}, "threshold", nil, []float64{1}, []string{""}, 2, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fit := func(_ context.Context, s *dataset.Set, _, test []int, cs []float64, _ string, _ bool) ([]selection.Fit, error) {
		pred := make([]int, len(test))
		for k, i := range test {
			if values[i] > 0.5 {
				pred[k] = 1
			}
		}
		return []selection.Fit{{Pred: pred}}, nil
	}
	res, err := selection.RunAllOn(context.Background(), p, labels, fingerprint, 1, fit, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	t := selection.Merge(p, res)
	fmt.Println(t.Right, "of", p.Data.Rows)
	_, err = selection.RunAllOn(context.Background(), p, labels, strings.Repeat("0", 64), 1, fit, nil)
	fmt.Println(errors.Is(err, selection.ErrData))
	// Output:
	// [[8]] of 8
	// true
}
