package learning_test

import (
	"context"
	"fmt"

	"mark1/learning"
	"mark1/learning/kernel"
)

// The worked example of lecture notes 004: no bias, zero start, the data in
// their order.
func ExamplePerceptron() {
	d := &learning.Data{
		X:       [][]float64{{-1, 2}, {1, 0}, {1, 1}, {-1, 0}, {-1, -2}, {1, -1}},
		Y:       []int{0, 1, 1, 0, 0, 1},
		Classes: 2,
	}
	res, err := learning.Perceptron{NoBias: true, InOrder: true}.Fit(context.Background(), d, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	m := res.Model.(*learning.LinearModel)
	fmt.Println("w =", m.W[0])
	fmt.Println(res.Summary)
	fmt.Printf("margin %.3f\n", m.Margin())
	// Output:
	// w = [3 1]
	// converged: epoch 2 made no mistakes (3 updates in all)
	// margin 0.316
}

// The perceptron on XOR stops at the epoch limit and says why; the pocket
// keeps the best weights it met.
func ExamplePocket() {
	d := &learning.Data{Classes: 2}
	for range 5 { // each corner of XOR five times
		d.X = append(d.X, []float64{0, 0}, []float64{1, 1}, []float64{0, 1}, []float64{1, 0})
		d.Y = append(d.Y, 0, 0, 1, 1)
	}
	res, _ := learning.Pocket{MaxEpochs: 20, InitScale: 0.1, Seed: 1}.Fit(context.Background(), d, nil)
	fmt.Println(res.Status.Converged())
	fmt.Println(res.Summary)
	// Output:
	// false
	// no error-free epoch in 20 epochs (last epoch: 13 mistakes); the data may not be linearly separable; the pocket's weights make 5 training errors
}

// Batch gradient descent on the perceptron risk, with the risk after each
// step.
func ExampleBatchGD() {
	d := &learning.Data{
		X:       [][]float64{{2, 1}, {1, 3}, {0.5, -1}, {-1, -1}, {-2, 1}, {1, -3}, {-1, 4}},
		Y:       []int{1, 1, 1, 0, 0, 0, 0},
		Classes: 2,
	}
	res, _ := learning.BatchGD{LineSearch: true}.Fit(context.Background(), d, nil)
	for _, e := range res.Curve {
		fmt.Printf("step %d: %d mistakes, then R = %.3g\n", e.Epoch, e.Mistakes, e.Risk)
	}
	fmt.Println(res.Summary)
	// Output:
	// step 1: 7 mistakes, then R = 0.5
	// step 2: 1 mistakes, then R = 0
	// converged: no mistakes after 2 steps in 2 epochs
}

// A Gaussian kernel learns XOR; the stored mistakes are the support vectors.
func ExampleKernelPerceptron() {
	d := &learning.Data{X: [][]float64{{0, 0}, {1, 1}, {0, 1}, {1, 0}}, Y: []int{0, 0, 1, 1}, Classes: 2}
	res, _ := learning.KernelPerceptron{Kernel: kernel.Gaussian{Sigma: 0.5}, Seed: 1}.Fit(context.Background(), d, nil)
	sv, _ := res.Model.(learning.SupportVectored).SupportVectors()
	fmt.Println(res.Summary)
	fmt.Println("stored mistakes:", sv)
	for _, x := range d.X {
		fmt.Print(res.Model.Predict(x), " ")
	}
	fmt.Println()
	// Output:
	// converged: epoch 2 made no mistakes (4 updates in all, 4 examples stored)
	// stored mistakes: 4
	// 0 0 1 1
}

// The convergence theorem's bound for a separator of a small data set.
func ExampleMistakeBound() {
	d := &learning.Data{X: [][]float64{{2, 0}, {-1, 0}, {0, 3}}, Y: []int{1, 0, 0}, Classes: 2}
	r, gamma, bound := learning.MistakeBound(d, []float64{1, -1}, 0, false)
	fmt.Printf("R = %.3g, γ = %.3g, (R/γ)² = %.3g\n", r, gamma, bound)
	res, _ := learning.Perceptron{NoBias: true, Seed: 1}.Fit(context.Background(), d, nil)
	fmt.Println("mistakes:", res.Updates)
	// Output:
	// R = 3, γ = 0.707, (R/γ)² = 18
	// mistakes: 2
}

// ADALINE's α-LMS on two points: each step takes the presented row's error
// ε = d − w·x down by the factor 1 − α, so the outputs approach the
// targets ±1 and the signs answer the classes.
func ExampleAdaline() {
	d := &learning.Data{X: [][]float64{{2, 1}, {-1, -2}}, Y: []int{1, 0}, Classes: 2}
	res, err := learning.Adaline{Alpha: 0.5, MaxEpochs: 200, InOrder: true}.Fit(context.Background(), d, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	m := res.Model.(*learning.LinearModel)
	for i, x := range d.X {
		out := m.W[0][0]*x[0] + m.W[0][1]*x[1] + m.B[0]
		fmt.Printf("row %d: output %.4f, class %d\n", i, out, m.Predict(x))
	}
	fmt.Println(res.Status)
	// Output:
	// row 0: output 1.0000, class 1
	// row 1: output -1.0000, class 0
	// converged
}

// A Collector keeps rows given one at a time as Compact32 would store
// them: 300 rows of grey levels take a byte a feature.
func ExampleCollector() {
	c := learning.NewCollector(3, 300, false)
	for i := range 300 {
		c.Add([]int32{0, 2}, []float64{float64(i%255+1) / 255, 1})
	}
	rows, err := c.Rows()
	fmt.Printf("%T, %d rows of %d features, %v\n", rows, rows.Len(), rows.Dim(), err)
	// Output:
	// *learning.Grey, 300 rows of 3 features, <nil>
}

// A view of some rows of a Float32 block reads them where they lie: the
// rows of a fold of cross-validation, with nothing copied, are what a copy
// of them (Subset) holds, and a subset of a view is a view again.
func ExampleFloat32_View() {
	all, err := learning.Float32Of(2, []float32{1, 2, 3, 4, 5, 6, 7, 8})
	if err != nil {
		fmt.Println(err)
		return
	}
	fold := all.View([]int{3, 1})
	copied := learning.Subset(all, []int{3, 1})
	fmt.Println(fold.Len(), fold.Row(nil, 0), fold.Row(nil, 1), copied.Row(nil, 0), copied.Row(nil, 1))
	sv := learning.Subset(fold, []int{1})
	fmt.Printf("%v %v %v\n", sv.(*learning.Float32).IsView(), sv.Row(nil, 0), copied.(*learning.Float32).IsView())
	// Output:
	// 2 [7 8] [3 4] [7 8] [3 4]
	// true [3 4] false
}
