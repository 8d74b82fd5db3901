package svm_test

import (
	"context"
	"fmt"

	"mark1/learning"
	"mark1/learning/kernel"
	"mark1/learning/svm"
)

// A Predictor classifies rows that come a block at a time, as a file read
// in blocks does, keeping its working memory from one block to the next.
func ExampleKernelModel_Predictor() {
	d := &learning.Data{
		X:       [][]float64{{0, 0}, {0, 1}, {1, 0}, {5, 5}, {5, 6}, {6, 5}},
		Y:       []int{0, 0, 0, 1, 1, 1},
		Classes: 2,
	}
	res, err := svm.Kernel{Kernel: kernel.Gaussian{Sigma: 2}}.Fit(context.Background(), d, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	p := res.Model.(*svm.KernelModel).Predictor()
	for _, block := range [][][]float64{{{0.5, 0.5}, {6, 6}}, {{1, 1}, {5, 5.5}}} {
		classes, err := p.PredictRowsChecked(nil, learning.NewDense(block), 0)
		fmt.Println(classes, err)
	}
	// Output:
	// [0 1] <nil>
	// [0 1] <nil>
}
