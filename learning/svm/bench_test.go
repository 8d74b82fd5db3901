package svm

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"mark1/learning"
	"mark1/learning/kernel"
)

// retina returns n 0/1 vectors of 400 features, two classes of noisy
// templates: the kind of data the Mark I's photocells give.
func retina(n int, seed uint64) ([][]float64, []float64) {
	return binaryData(rand.New(rand.NewPCG(seed, 400)), n, 400, 0.25)
}

func BenchmarkSMO(b *testing.B) {
	for _, n := range []int{500, 2000, 5000} {
		for _, c := range []struct {
			name string
			k    kernel.Kernel
			s    Settings
		}{
			{"gaussian", kernel.Gaussian{Sigma: 6}, Settings{}},
			{"linear", kernel.Linear{}, Settings{C: 0.01}},
		} {
			X, y := retina(n, 1)
			b.Run(fmt.Sprintf("%s/n=%d", c.name, n), func(b *testing.B) {
				for b.Loop() {
					if _, err := Solve(X, y, c.k, c.s); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkSMODense(b *testing.B) {
	for _, n := range []int{500, 2000} {
		X, y := gaussians(rand.New(rand.NewPCG(1, 2)), n, 50, 0.5)
		b.Run(fmt.Sprintf("gaussian/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := Solve(X, y, kernel.Gaussian{Sigma: 5}, Settings{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkLinear(b *testing.B) {
	for _, n := range []int{2000, 10000, 50000} {
		X, y := retina(n, 2)
		for _, loss := range []Loss{Hinge, SquaredHinge} {
			b.Run(fmt.Sprintf("%v/n=%d", loss, n), func(b *testing.B) {
				for b.Loop() {
					if _, err := SolveLinear(X, y, LinearSettings{Loss: loss, C: 0.1}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkKernelRow(b *testing.B) {
	const n = 5000
	Xb, _ := retina(n, 3)
	Xd, _ := gaussians(rand.New(rand.NewPCG(1, 2)), n, 400, 0.5)
	for _, c := range []struct {
		name   string
		X      [][]float64
		layout layout
	}{
		{"bits", Xb, layoutBits},
		{"sparse01", Xb, layoutSparse},
		{"dense01", Xb, layoutDense},
		{"dense", Xd, layoutDense},
		{"sparse", Xd, layoutSparse},
	} {
		g := newGram(learning.NewDense(c.X), nil, kernel.Gaussian{Sigma: 6})
		g.v = newVectors(learning.NewDense(c.X), nil, c.layout, c.layout != layoutDense && isBinary(c.X[0]), nil)
		y := make([]int8, n)
		row := make([]float32, n)
		b.Run(c.name, func(b *testing.B) {
			i := 0
			for b.Loop() {
				g.row(row, y, i%n, 0)
				i++
			}
		})
	}
}

// BenchmarkW2Sparse is ‖w‖² of a machine of 300 support vectors in sparse
// rows of 400 features, a quarter of them non-zero (20x20 digits).
func BenchmarkW2Sparse(b *testing.B) {
	_, _, sp := groupedSparse(300, 400, 2, 5)
	benchW2(b, sp)
}

// BenchmarkW2Grey is ‖w‖² of a machine of 3,000 support vectors in grey
// rows of 400 features (bytes), each a support vector.
func BenchmarkW2Grey(b *testing.B) {
	_, _, forms := groupedRows(3000, 400, 2, 5)
	benchW2(b, forms["grey"])
}

// benchW2 times ‖w‖² of a machine whose every row of r is a support
// vector, α 0.5, the labels alternating.
func benchW2(b *testing.B, r learning.Rows) {
	y := make([]int8, r.Len())
	for i := range y {
		y[i] = int8(1 - 2*(i%2))
	}
	p := newProblem(r, nil, nil, y, kernel.Gaussian{Sigma: 4}, Settings{C: 1, CacheMB: 1, rowThreads: 1})
	for i := range p.alpha {
		p.alpha[i] = 0.5
	}
	for b.Loop() {
		p.w2(context.Background())
	}
}

// BenchmarkOneVsOneSparse is a one-vs-one fit of 10 classes of 2,000 sparse
// rows of 400 features, a quarter of them non-zero, on one thread, with
// the classes' rows shared (classRows) and without.
func BenchmarkOneVsOneSparse(b *testing.B) {
	_, y, sp := groupedSparse(2000, 400, 10, 6)
	defer func() { noClassRows = false }()
	for _, off := range []bool{false, true} {
		b.Run(fmt.Sprintf("shared=%v", !off), func(b *testing.B) {
			noClassRows = off
			l := Kernel{Kernel: kernel.Gaussian{Sigma: 4}, Settings: Settings{C: 10, Threads: 1, CacheMB: 100}}
			for b.Loop() {
				if _, err := l.Fit(context.Background(), &learning.Data{Rows: sp, Y: y, Classes: 10}, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkWarmPath is a two-class fit along three values of C, each
// warm-started from the one below (Kernel.FitPath): the start's gradient
// (a kernel row for each α ≠ 0) and the gradient rebuilt when the shrunk
// variables come back are a large part of it, as at 144,000 rows.
func BenchmarkWarmPath(b *testing.B) {
	X, y := retina(3000, 3)
	yi := make([]int, len(y))
	for i, v := range y {
		yi[i] = int(1-v) / 2
	}
	d := &learning.Data{X: X, Y: yi, Classes: 2}
	l := Kernel{Kernel: kernel.Gaussian{Sigma: 6}, Settings: Settings{Threads: 1, CacheMB: 10}}
	for b.Loop() {
		if err := l.FitPath(context.Background(), d, []float64{1, 4, 16}, func(int, *learning.Result) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}
