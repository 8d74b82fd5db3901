package svm_test

import (
	"context"
	"fmt"

	"mark1/learning"
	"mark1/learning/kernel"
	"mark1/learning/svm"
)

// ExampleSVR fits ε-SVR (LIBSVM's -s 3) to z = 2x + 1 with a linear
// kernel: inside the tube of half-width 0.1 every error is free, so the
// line found predicts within 0.1 of every target (svm-train -s 3 -t 0 -c 10
// -p 0.1 and svm-predict on the same points give 2.075 and 5.975).
func ExampleSVR() {
	X := [][]float64{{0}, {1}, {2}, {3}, {4}}
	z := []float64{1, 3, 5, 7, 9}
	m, err := svm.SVR{Kernel: kernel.Linear{}, Epsilon: 0.1, Settings: svm.Settings{C: 10}}.Fit(context.Background(), learning.NewDense(X), z, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, x := range []float64{0.5, 2.5} {
		f := m.Value([]float64{x})
		fmt.Printf("f(%g) = %.2f, within the tube of 2x+1: %v\n", x, f, f > 2*x+1-0.1 && f < 2*x+1+0.1)
	}
	fmt.Println(m.Status)
	// Output:
	// f(0.5) = 2.08, within the tube of 2x+1: true
	// f(2.5) = 5.97, within the tube of 2x+1: true
	// Optimal
}

// ExampleOneClassSVM estimates where four points lie (LIBSVM's -s 2): a
// point among them is inside (+1), a far one outside (−1).
func ExampleOneClassSVM() {
	X := [][]float64{{0, 0}, {0.1, 0}, {0, 0.1}, {0.1, 0.1}}
	m, err := svm.OneClassSVM{Kernel: kernel.Gaussian{Sigma: 0.5}, Settings: svm.Settings{Nu: 0.5}}.Fit(context.Background(), learning.NewDense(X), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.Label([]float64{0.05, 0.05}), m.Label([]float64{3, 3}))
	// Output:
	// 1 -1
}
