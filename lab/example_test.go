package lab_test

import (
	"context"
	"fmt"

	"mark1/lab"
)

// The notes' worked example (004): the perceptron from w₁ = 0, no bias,
// ε = 1, in the notes' order.
func ExampleTracePerceptron() {
	e, _ := lab.Find("notes-004")
	tr, _ := lab.TracePerceptron(context.Background(), e, lab.PerceptronOptions{})
	for u := 2; ; u++ {
		w, ok := tr.Weights(u)
		if !ok {
			break
		}
		fmt.Printf("w%s = %s\n", lab.Sub(u), lab.Vec(w))
	}
	fmt.Println(tr.Status)
	// Output:
	// w₂ = (1, −2)
	// w₃ = (2, −1)
	// w₄ = (3, 1)
	// converged: epoch 2 made no mistakes (3 updates in all)
}

// The notes' loop (001) on needs-bias with the bias trick: V, R(w) and the
// new w at each step.
func ExampleTraceBatchGD() {
	e, _ := lab.Find("needs-bias")
	tr, _ := lab.TraceBatchGD(context.Background(), e, lab.GDOptions{Bias: true, Eps: 0.5})
	for _, s := range tr.Steps[:3] {
		fmt.Printf("step %d: |V| = %d, R = %s → w = %s\n", s.Step, len(s.V), lab.Num(s.Risk), lab.Vec(s.Next))
	}
	// Output:
	// step 1: |V| = 10, R = 0 → w = (4.75, 3.25, 0)
	// step 2: |V| = 5, R = 32 → w = (2.75, 1.25, −2.5)
	// step 3: |V| = 4, R = 4.75 → w = (0.75, −0.25, −4.5)
}

// The feasible region of the pizza-001 example's dual chart: the
// intersection of the half-planes y·x·w ≥ 0 within a box.
func ExampleFeasibleRegion() {
	e, _ := lab.Find("pizza-001")
	poly, _ := lab.FeasibleRegion(e, lab.Box{X0: -3, X1: 3, Y0: -3, Y1: 3})
	for _, p := range poly {
		fmt.Printf("(%s, %s)\n", lab.Num(p.X), lab.Num(p.Y))
	}
	// Output:
	// (0, 0)
	// (−0.5, −3)
	// (2, −3)
}

// A run drives a learner and writes it down; here the kernel perceptron
// with (x·z)² on xor.
func ExampleStart() {
	e, _ := lab.Find("xor")
	r, _ := lab.Start(context.Background(), e, lab.Setup{Learner: "kernel-perceptron", Kernel: "poly:d=2,gamma=1"})
	for _, s := range r.Kernel.Stored {
		fmt.Printf("sample %d %s: a = %d\n", s.Sample, lab.Vec(s.X), s.Coef)
	}
	// Output:
	// sample 1 (1, 1): a = 1
	// sample 3 (1, −1): a = -1
}

// The raster A-layer on xor: the plane as an 8×8 retina over the data's
// range, one unit wired to 5 excitatory and 5 inhibitory cells; the map
// shows the cells where a point makes it fire, top row first.
func ExampleRandomRaster() {
	e, _ := lab.Find("xor")
	r := lab.NewRetina(e)
	u := lab.RandomRaster(r, 1, 3)[0]
	fires := u.FireMap(r)
	for row := r.Side - 1; row >= 0; row-- {
		fmt.Println(fires[row*r.Side : (row+1)*r.Side])
	}
	fmt.Println("a at (1, 1):", lab.RasterVector(r, []lab.RasterUnit{u}, []float64{1, 1}))
	fmt.Println("a at (−1, 1):", lab.RasterVector(r, []lab.RasterUnit{u}, []float64{-1, 1}))
	// Output:
	// 00000000
	// 01110000
	// 01100000
	// 01100000
	// 00000000
	// 01000000
	// 00000000
	// 00000000
	// a at (1, 1): [0]
	// a at (−1, 1): [1]
}
