package svm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"mark1/learning"
	"mark1/learning/kernel"
)

// sixDigits returns n rows of dim grey-ish values written with 6
// significant digits and read back, as a data file gives them, a third of
// them zero, with labels of three classes whose means differ.
func sixDigits(n, dim int, seed uint64) ([][]float64, []int) {
	rng := rand.New(rand.NewPCG(seed, 5))
	X := make([][]float64, n)
	y := make([]int, n)
	for i := range X {
		y[i] = i % 3
		X[i] = make([]float64, dim)
		for k := range X[i] {
			if rng.IntN(3) == 0 {
				continue
			}
			v := rng.Float64()*0.8 + 0.1*float64(y[i]) + 0.1*float64((k+y[i])%4)/3
			X[i][k], _ = strconv.ParseFloat(strconv.FormatFloat(v, 'g', 6, 64), 64)
		}
	}
	return X, y
}

// On float32 rows the float32 layout is chosen, and the kernel SVM trained
// on them has the support vectors, the predictions and (to float32
// rounding) the objectives of the one trained on the same values as
// float64 rows (gonum's float64 dot): the layout changes the speed, not
// the answer. PredictRows, which computes the kernel values of blocks of
// rows, answers as Predict does row by row, on float32 and on float64
// rows, whatever the number of threads.
func TestFloat32LayoutMatchesDense(t *testing.T) {
	X, y := sixDigits(600, 100, 1)
	f32, err := learning.NewFloat32(X)
	if err != nil {
		t.Fatal(err)
	}
	X64 := make([][]float64, len(X)) // the float32 values as float64 rows
	for i := range X64 {
		X64[i] = f32.Row(nil, i)
	}
	if g := newGram(f32, nil, kernel.Gaussian{Sigma: 3}); g.v.layout != layoutF32 {
		t.Fatalf("layout %d on Float32 rows, want float32", g.v.layout)
	}
	if g := newGram(learning.NewDense(X64), nil, kernel.Gaussian{Sigma: 3}); g.v.layout != layoutDense {
		t.Fatalf("layout %d on Dense rows, want float64", g.v.layout)
	}
	train, test := 400, 200
	fit := func(r learning.Rows) *KernelModel {
		res, err := Kernel{Kernel: kernel.Gaussian{Sigma: 3}, Settings: Settings{C: 10, Threads: 1}}.Fit(context.Background(),
			&learning.Data{Rows: learning.Subset(r, seq(train)), Y: y[:train], Classes: 3}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res.Model.(*KernelModel)
	}
	a, b := fit(f32), fit(learning.NewDense(X64))
	if a.sv.v.layout != layoutF32 || b.sv.v.layout != layoutDense {
		t.Fatalf("model layouts %d and %d", a.sv.v.layout, b.sv.v.layout)
	}
	for m := range a.Machines {
		ma, mb := a.Machines[m], b.Machines[m]
		if !slices.Equal(ma.SV, mb.SV) {
			t.Errorf("machine %d: support vectors %v, float64 rows %v", m, ma.SV, mb.SV)
		}
		if d := math.Abs(ma.Obj - mb.Obj); d > 1e-6*math.Abs(mb.Obj) {
			t.Errorf("machine %d: objective %v, float64 rows %v", m, ma.Obj, mb.Obj)
		}
	}
	rest := learning.Subset(f32, seq(train + test)[train:])
	want := make([]int, test)
	for i := range want {
		want[i] = b.Predict(rest.Row(nil, i))
		if got := a.Predict(rest.Row(nil, i)); got != want[i] {
			t.Errorf("test row %d: class %d, float64 rows %d", i, got, want[i])
		}
	}
	for _, threads := range []int{1, 2, 3} {
		for name, r := range map[string]learning.Rows{"float32": rest, "float64": learning.NewDense(X64[train:])} {
			if got := a.PredictRows(nil, r, threads); !slices.Equal(got, want) {
				t.Errorf("%s rows, %d threads: PredictRows differs from Predict", name, threads)
			}
		}
	}
	// The block's kernel values are evalAll's, bit for bit.
	g := a.sv
	kv := [][]float64{make([]float64, len(g.v.sq))}
	one := make([]float64, len(g.v.sq))
	x := rest.Row(nil, 7)
	g.evalAll(one, x, &evalScratch{})
	g.evalBlockF32(kv, [][]float32{rest.(*learning.Float32).Values(7)})
	if !slices.Equal(kv[0], one) {
		t.Errorf("evalBlockF32 differs from evalAll")
	}
}

// A model's support vectors read back as sparse rows of float32 values (a
// model file) take the float32 layout and predict as the fitted model.
func TestFloat32SupportVectorsFromSparse(t *testing.T) {
	X, y := sixDigits(300, 40, 2)
	f32, err := learning.NewFloat32(X)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Kernel{Kernel: kernel.Gaussian{Sigma: 2}, Settings: Settings{C: 1}}.Fit(context.Background(), &learning.Data{Rows: f32, Y: y, Classes: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	km := res.Model.(*KernelModel)
	back := NewKernelModel(km.Kernel, 3, OneVsOne, sparseOf(t, 40, km.SVRows), km.Machines)
	if back.sv.v.layout != layoutF32 {
		t.Fatalf("layout %d, want float32", back.sv.v.layout)
	}
	if got, want := fmt.Sprint(back.PredictRows(nil, f32, 2)), fmt.Sprint(km.PredictRows(nil, f32, 1)); got != want {
		t.Errorf("read-back model predicts %s, fitted %s", got, want)
	}
}

// sparseOf returns the rows r of dim features as sparse rows, as a model
// file stores support vectors.
func sparseOf(t *testing.T, dim int, r learning.Rows) *learning.Sparse {
	t.Helper()
	start := []int{0}
	var idx []int32
	var val []float64
	var buf []float64
	for s := range r.Len() {
		buf = r.Row(buf, s)
		for k, v := range buf {
			if v != 0 {
				idx, val = append(idx, int32(k)), append(val, v)
			}
		}
		start = append(start, len(idx))
	}
	sp, err := learning.NewSparse(dim, start, idx, val)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// On byte support vectors (grey pictures) PredictRows computes blocks of
// rows too: the classes are Predict's row by row, on byte rows and on
// float64 rows some of which are not bytes, whatever the number of
// threads.
func TestPredictRowsBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	X := make([][]float64, 500)
	y := make([]int, len(X))
	for i := range X {
		y[i] = i % 3
		X[i] = make([]float64, 64)
		for k := range X[i] {
			if rng.IntN(3) > 0 {
				X[i][k] = float64(min(255, rng.IntN(200)+20*((k+y[i])%4))) / 255
			}
		}
	}
	grey, ok := learning.NewGrey(X[:300])
	if !ok {
		t.Fatal("NewGrey refused grey rows")
	}
	res, err := Kernel{Kernel: kernel.Gaussian{Sigma: 2}, Settings: Settings{C: 3}}.Fit(context.Background(), &learning.Data{Rows: grey, Y: y[:300], Classes: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	km := res.Model.(*KernelModel)
	if km.sv.v.layout != layoutBytes {
		t.Fatalf("layout %d, want bytes", km.sv.v.layout)
	}
	test := X[300:]
	test[5] = slices.Clone(test[5])
	test[5][3] = 0.123 // not a byte over 255
	want := make([]int, len(test))
	for i, x := range test {
		want[i] = km.Predict(x)
	}
	tg, _ := learning.NewGrey(append(slices.Clone(X[300:305]), X[306:]...))
	wantGrey := append(slices.Clone(want[:5]), want[6:]...)
	for _, threads := range []int{1, 2, 3} {
		if got := km.PredictRows(nil, learning.NewDense(test), threads); !slices.Equal(got, want) {
			t.Errorf("float64 rows, %d threads: PredictRows differs from Predict", threads)
		}
		if got := km.PredictRows(nil, tg, threads); !slices.Equal(got, wantGrey) {
			t.Errorf("byte rows, %d threads: PredictRows differs from Predict", threads)
		}
	}
}

// PredictRowsChecked answers as PredictRows while every decision value is
// finite, and otherwise names the first row whose decision value is not
// (a row of 1e300s: its Gaussian kernel values are NaN on float32 rows,
// ‖x‖² − 2x·z of Inf − Inf, and its cubic ones overflow on float64 rows),
// whatever the number of threads and whichever layout holds the support
// vectors (float32 rows block by block, float64 rows row by row).
func TestPredictRowsChecked(t *testing.T) {
	X, y := sixDigits(300, 20, 3)
	f32, err := learning.NewFloat32(X)
	if err != nil {
		t.Fatal(err)
	}
	for name, train := range map[string]learning.Rows{"float32": f32, "float64": learning.NewDense(X)} {
		var k kernel.Kernel = kernel.Gaussian{Sigma: 3}
		if name == "float64" {
			k = kernel.Polynomial{Degree: 3, Gamma: 1, Coef0: 1}
		}
		res, err := Kernel{Kernel: k, Settings: Settings{C: 3}}.Fit(context.Background(), &learning.Data{Rows: train, Y: y, Classes: 3}, nil)
		if err != nil {
			t.Fatal(err)
		}
		km := res.Model.(*KernelModel)
		test := slices.Clone(X)
		want := km.PredictRows(nil, learning.NewDense(test), 1)
		for _, threads := range []int{1, 3} {
			got, err := km.PredictRowsChecked(nil, learning.NewDense(test), threads)
			if err != nil || !slices.Equal(got, want) {
				t.Errorf("%s, %d threads: %v; want PredictRows' classes", name, threads, err)
			}
		}
		for _, bad := range []int{70, 250} {
			test[bad] = slices.Repeat([]float64{1e300}, 20)
		}
		for _, threads := range []int{1, 3} {
			_, err := km.PredictRowsChecked(nil, learning.NewDense(test), threads)
			if err == nil || !errors.Is(err, learning.ErrOverflow) || !strings.HasPrefix(err.Error(), "row 71: a decision value is ") || !strings.Contains(err.Error(), "not a finite number") {
				t.Errorf("%s, %d threads, rows 71 and 251 of 1e300: %v; want row 71 named", name, threads, err)
			}
		}
	}
}
