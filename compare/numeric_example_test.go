package compare_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"mark1/compare"
)

// Numeric data, as a libsvm file: read, a quarter held out, scaled to
// [0,1] on the training part (ReadNumeric), then the perceptron and the
// linear SVM on the same rows (RunSets). The four features could be 2x2
// pictures, which the parts report.
func ExampleReadNumeric() {
	dir, err := os.MkdirTemp("", "numeric")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "points.libsvm")
	text := ""
	for i := range 40 {
		label, x := "+1", 3+i%5
		if i%2 == 1 {
			label, x = "-1", -3-i%5
		}
		text += fmt.Sprintf("%s 1:%d 2:%d 3:1 4:%d\n", label, x, i%7, -x)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		panic(err)
	}
	parts, err := compare.ReadNumeric(context.Background(), compare.NumericData{Path: path, TestSplit: 0.25, Seed: 1, Scale: "01"})
	if err != nil {
		panic(err)
	}
	fmt.Printf("train %d rows, test %d, %dx%d pictures: %v, grey as read: %v\n",
		len(parts.Train.Y), len(parts.Test.Y), parts.Side, parts.Side, parts.Side > 0, parts.Grey)
	spec := compare.Spec{Learners: []string{"perceptron", "linear-svm"}, Seed: 1, NoTheory: true}
	rep, err := compare.RunSets(context.Background(), path, parts.Train, parts.Test, spec, nil)
	if err != nil {
		panic(err)
	}
	for _, r := range rep.Rows {
		fmt.Printf("%s: P_r %.2f, P_g %.2f\n", r.Learner, r.Pr, *r.Pg)
	}
	// Output:
	// train 30 rows, test 10, 2x2 pictures: true, grey as read: false
	// perceptron: P_r 1.00, P_g 1.00
	// linear-svm: P_r 1.00, P_g 1.00
}
