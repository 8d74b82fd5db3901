package learning

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// lsData is a small two-class set with the bias trick's least-squares
// solution computed independently by gonum (normal equations).
func lsData() (*Data, []float64) {
	X := [][]float64{{0.2, 1.1}, {1.3, -0.4}, {-0.7, 0.5}, {2.1, 1.7}, {-1.4, -0.9}, {0.5, 0.3}, {1.8, -1.2}, {-0.3, 2.2}}
	y := []int{1, 1, 0, 1, 0, 0, 1, 0}
	a := mat.NewDense(len(X), 3, nil)
	d := mat.NewVecDense(len(X), nil)
	for i, x := range X {
		a.Set(i, 0, x[0])
		a.Set(i, 1, x[1])
		a.Set(i, 2, 1)
		d.SetVec(i, float64(2*y[i]-1))
	}
	var ata mat.Dense
	ata.Mul(a.T(), a)
	var atd mat.VecDense
	atd.MulVec(a.T(), d)
	var w mat.VecDense
	if err := w.SolveVec(&ata, &atd); err != nil {
		panic(err)
	}
	return &Data{X: X, Y: y, Classes: 2}, []float64{w.AtVec(0), w.AtVec(1), w.AtVec(2)}
}

// TestAdalineAlphaStep: one α-LMS step takes the presented row's error
// down by exactly the factor 1 − α.
func TestAdalineAlphaStep(t *testing.T) {
	d := &Data{X: [][]float64{{0.6, -1.3}}, Y: []int{1}, Classes: 2}
	for _, alpha := range []float64{0.1, 0.5, 1, 1.9} {
		res, err := Adaline{Alpha: alpha, MaxEpochs: 1, InOrder: true}.Fit(context.Background(), d, nil)
		if err != nil {
			t.Fatal(err)
		}
		m := res.Model.(*LinearModel)
		out := m.W[0][0]*0.6 + m.W[0][1]*-1.3 + m.B[0]
		// From w = 0 the error is 1 − 0 = 1; after the step it is 1 − out.
		if got, want := 1-out, 1-alpha; math.Abs(got-want) > 1e-12 {
			t.Errorf("α %v: error after the step %v; want %v", alpha, got, want)
		}
	}
}

// TestAdalineAlphaStability: α = 1.9 converges, α = 2.1 diverges on the
// same data, reported as a status with no NaN in the model.
func TestAdalineAlphaStability(t *testing.T) {
	d, _ := lsData()
	ok, err := Adaline{Alpha: 1.9, MaxEpochs: 20000, InOrder: true}.Fit(context.Background(), d, nil)
	if err != nil || ok.Status == Diverged {
		t.Fatalf("α 1.9: %v, %v", ok.Status, err)
	}
	bad, err := Adaline{Alpha: 2.1, MaxEpochs: 20000, InOrder: true}.Fit(context.Background(), d, nil)
	if err != nil || bad.Status != Diverged {
		t.Fatalf("α 2.1: status %v, %v; want diverged", bad.Status, err)
	}
	for _, w := range bad.Model.(*LinearModel).W[0] {
		if math.IsNaN(w) || math.IsInf(w, 0) {
			t.Errorf("a diverged model holds %v", w)
		}
	}
}

// TestAdalineWiener: μ-LMS with a decaying step reaches the least-squares
// (Wiener) solution (XᵀX)⁻¹Xᵀd within 1e-6, relative.
func TestAdalineWiener(t *testing.T) {
	d, want := lsData()
	res, err := Adaline{Mu: 0.05, Decay: 0.3, MaxEpochs: 1000000, InOrder: true, Tol: 1e-18}.Fit(context.Background(), d, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := res.Model.(*LinearModel)
	got := []float64{m.W[0][0], m.W[0][1], m.B[0]}
	var diff, norm float64
	for i := range got {
		diff += (got[i] - want[i]) * (got[i] - want[i])
		norm += want[i] * want[i]
	}
	if rel := math.Sqrt(diff / norm); rel > 1e-6 {
		t.Errorf("w %v against the Wiener solution %v: relative distance %.3g after %d epochs (%v)", got, want, rel, res.Epochs, res.Status)
	}
}

// TestAdalineXOR: on XOR with the bias trick the least-squares solution
// is exactly w = (0, 0, 0) (gonum's normal equations, to rounding):
// ADALINE's answer beside the perceptron's cycle. μ-LMS with a decaying
// step heads there, slowly: the rows' errors stay ±1 at the solution, so a
// presentation order leaves w a distance of the order of the step; the
// distance falls as the run grows.
func TestAdalineXOR(t *testing.T) {
	X := [][]float64{{0, 0}, {0, 1}, {1, 0}, {1, 1}}
	d := &Data{X: X, Y: []int{0, 1, 1, 0}, Classes: 2}
	a := mat.NewDense(4, 3, []float64{0, 0, 1, 0, 1, 1, 1, 0, 1, 1, 1, 1})
	var ata mat.Dense
	ata.Mul(a.T(), a)
	var atd, ls mat.VecDense
	atd.MulVec(a.T(), mat.NewVecDense(4, []float64{-1, 1, 1, -1}))
	if err := ls.SolveVec(&ata, &atd); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if math.Abs(ls.AtVec(i)) > 1e-12 {
			t.Fatalf("least squares on XOR: %v; want (0, 0, 0)", mat.Formatted(&ls))
		}
	}
	size := func(epochs int) float64 {
		res, err := Adaline{Mu: 0.05, Decay: 0.3, MaxEpochs: epochs, InOrder: true, Tol: 1e-18}.Fit(context.Background(), d, nil)
		if err != nil {
			t.Fatal(err)
		}
		m := res.Model.(*LinearModel)
		return math.Sqrt(m.W[0][0]*m.W[0][0] + m.W[0][1]*m.W[0][1] + m.B[0]*m.B[0])
	}
	short, long := size(10000), size(1000000)
	if !(long < short && long < 0.01) {
		t.Errorf("‖w‖ after 10,000 epochs %.3g, after 1,000,000 %.3g; want it falling toward 0, under 0.01", short, long)
	}
	t.Logf("‖w‖ after 10,000 epochs %.3g, after 1,000,000 %.3g", short, long)
}
