package svm_test

import (
	"context"
	"fmt"

	"mark1/learning"
	"mark1/learning/kernel"
	"mark1/learning/svm"
)

// Two points, one of each class: the separator is the perpendicular
// bisector, both points are support vectors with α = ½, and the margin is
// half their distance.
func ExampleSolve() {
	X := [][]float64{{1, 0}, {-1, 0}}
	y := []float64{1, -1}
	b, err := svm.Solve(X, y, kernel.Linear{}, svm.Settings{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("α = %.2f, ρ = %.2f, margin = %.2f, obj = %.2f, %v\n",
		b.Alpha, b.Rho, b.Margin(), b.Obj, b.Status)
	fmt.Printf("f(0.5, 3) = %.2f\n", b.Decision([]float64{0.5, 3}))
	// Output:
	// α = [0.50 0.50], ρ = 0.00, margin = 1.00, obj = -0.50, Optimal
	// f(0.5, 3) = 0.50
}

// XOR on the corners of a square has no linear separator, but the
// polynomial kernel (x·z + 1)² separates it with margin √2.
func ExampleSettings_hard() {
	X := [][]float64{{1, 1}, {-1, -1}, {1, -1}, {-1, 1}}
	y := []float64{1, 1, -1, -1}
	for _, k := range []kernel.Kernel{kernel.Linear{}, kernel.Polynomial{Degree: 2, Coef0: 1}} {
		b, err := svm.Solve(X, y, k, svm.Settings{Hard: true})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s: %v, margin %.4f\n", k, b.Status, b.Margin())
	}
	// Output:
	// linear: NotSeparable, margin +Inf
	// poly:d=2,gamma=1,c=1: Separable, margin 1.4142
}

// The kernel SVM as a learner on three classes, one-vs-one.
func ExampleKernel() {
	d := &learning.Data{
		X: [][]float64{
			{0, 0}, {0, 1}, {1, 0}, // class 0 near the origin
			{5, 5}, {5, 6}, {6, 5}, // class 1
			{0, 9}, {1, 9}, {0, 8}, // class 2
		},
		Y:       []int{0, 0, 0, 1, 1, 1, 2, 2, 2},
		Classes: 3,
	}
	l := svm.Kernel{Kernel: kernel.Gaussian{Sigma: 2}, Settings: svm.Settings{C: 10}}
	res, err := l.Fit(context.Background(), d, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	m := res.Model
	fmt.Println(m.Predict([]float64{0.5, 0.5}), m.Predict([]float64{6, 6}), m.Predict([]float64{0.5, 10}))
	fmt.Println("votes:", m.(learning.Scorer).Scores(nil, []float64{6, 6}))
	fmt.Println("converged:", res.Status.Converged(), "machines:", len(m.(*svm.KernelModel).Machines))
	// Output:
	// 0 1 2
	// votes: [0 2 1]
	// converged: true machines: 3
}

// The linear SVM by dual coordinate descent on a separable problem.
func ExampleSolveLinear() {
	X := [][]float64{{2, 0}, {3, 1}, {-2, 0}, {-3, -1}}
	y := []float64{1, 1, -1, -1}
	m, err := svm.SolveLinear(X, y, svm.LinearSettings{C: 10, Eps: 1e-6})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("w = %.3f, margin %.3f, %v\n", m.W, m.Margin(), m.Status)
	fmt.Printf("f(1, 0) = %.3f\n", m.Decision([]float64{1, 0}))
	// Output:
	// w = [0.500 0.000], margin 2.000, Optimal
	// f(1, 0) = 0.500
}

// PredictRows classifies a whole table at once, on all cores, with the
// same answers as Predict row by row.
func ExampleKernelModel_PredictRows() {
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
	km := res.Model.(*svm.KernelModel)
	test := learning.NewDense([][]float64{{0.5, 0.5}, {6, 6}, {1, 1}})
	fmt.Println(km.PredictRows(nil, test, 0))
	// Output: [0 1 0]
}

// A warm start along C: the solution for C = 1 starts the solve for
// C = 4 (its α are feasible there), which ends at the same optimum as a
// solve from α = 0.
func ExampleSolveRowsFrom() {
	X := [][]float64{{0, 0}, {1, 1}, {0, 1}, {2, 2}, {1, 0}, {2, 1}, {0.5, 0.2}, {1.8, 1.6}}
	y := []float64{-1, 1, -1, 1, -1, 1, 1, -1}
	rows := learning.NewDense(X)
	k := kernel.Gaussian{Sigma: 1}
	ctx := context.Background()
	c1, err := svm.SolveRowsContext(ctx, rows, y, k, svm.Settings{C: 1, Eps: 1e-6})
	if err != nil {
		panic(err)
	}
	cold, err := svm.SolveRowsContext(ctx, rows, y, k, svm.Settings{C: 4, Eps: 1e-6})
	if err != nil {
		panic(err)
	}
	warm, err := svm.SolveRowsFrom(ctx, rows, y, k, svm.Settings{C: 4, Eps: 1e-6}, c1.StartAt(4))
	if err != nil {
		panic(err)
	}
	fmt.Printf("C = 4 from α = 0: objective %.5f, ρ %.4f\n", cold.Obj, cold.Rho)
	fmt.Printf("C = 4 from C = 1: objective %.5f, ρ %.4f\n", warm.Obj, warm.Rho)
	// Output:
	// C = 4 from α = 0: objective -21.01912, ρ 0.3331
	// C = 4 from C = 1: objective -21.01912, ρ 0.3331
}
