package svm_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"mark1/learning"
	"mark1/learning/kernel"
	"mark1/learning/svm"
)

// binaryRows returns n rows of dim 0/1 features, three classes by which of
// three blocks of features has the most ones, and the rows in dense, sparse
// and bit-set form.
func binaryRows(n, dim int, density float64, seed uint64) ([][]float64, []int, map[string]learning.Rows) {
	rng := rand.New(rand.NewPCG(seed, 2))
	X := make([][]float64, n)
	y := make([]int, n)
	start := []int{0}
	var idx []int32
	var val []float64
	for i := range X {
		X[i] = make([]float64, dim)
		var cnt [3]int
		for k := range X[i] {
			if rng.Float64() < density {
				X[i][k] = 1
				cnt[k%3]++
				idx = append(idx, int32(k))
				val = append(val, 1)
			}
		}
		start = append(start, len(idx))
		y[i] = 0
		for c := range 3 {
			if cnt[c] > cnt[y[i]] {
				y[i] = c
			}
		}
	}
	sp, err := learning.NewSparse(dim, start, idx, val)
	if err != nil {
		panic(err)
	}
	bits, err := learning.NewBits(X)
	if err != nil {
		panic(err)
	}
	grey, _ := learning.NewGrey(X)
	return X, y, map[string]learning.Rows{"X": nil, "dense": learning.NewDense(X), "sparse": sp, "bits": bits, "grey": grey}
}

// The kernel and linear SVMs give the same machines on every form of the
// same 0/1 data (dot products of 0/1 rows are exact in any order), and
// never need the rows written out densely.
func TestSVMSameOnEveryForm(t *testing.T) {
	X, y, forms := binaryRows(150, 70, 0.3, 5)
	learners := []learning.Learner{
		svm.Kernel{Kernel: kernel.Gaussian{Sigma: 3}, Settings: svm.Settings{C: 10}},
		svm.Kernel{Kernel: kernel.Polynomial{Degree: 2}, Multiclass: svm.OneVsRest},
		svm.Linear{Settings: svm.LinearSettings{C: 1, Seed: 3}},
	}
	for _, l := range learners {
		var ref string
		for name, r := range forms {
			d := &learning.Data{X: X, Y: y, Classes: 3}
			if r != nil {
				d = &learning.Data{Rows: r, Y: y, Classes: 3}
			}
			res, err := l.Fit(context.Background(), d, nil)
			if err != nil {
				t.Fatalf("%s on %s: %v", l.Name(), name, err)
			}
			pred := make([]int, len(X))
			for i, x := range X {
				pred[i] = res.Model.Predict(x)
			}
			sv, bsv := res.Model.(learning.SupportVectored).SupportVectors()
			got := fmt.Sprint(pred, sv, bsv, res.Epochs, res.Summary)
			if ref == "" {
				ref = got
			} else if got != ref {
				t.Errorf("%s on %s:\n%s\nanother form:\n%s", l.Name(), name, got, ref)
			}
			if km, ok := res.Model.(*svm.KernelModel); ok {
				if km.SVRows.Len() != sv {
					t.Errorf("%s on %s: SVRows has %d rows for %d support vectors", l.Name(), name, km.SVRows.Len(), sv)
				}
				if (r == nil || name == "dense") != (km.SV != nil) {
					t.Errorf("%s on %s: SV set %v; want dense copies only for dense training rows", l.Name(), name, km.SV != nil)
				}
				for s := range sv {
					if km.SV != nil && !slices.Equal(km.SV[s], km.SVRows.Row(nil, s)) {
						t.Fatalf("%s on %s: SV[%d] differs from SVRows", l.Name(), name, s)
					}
				}
			}
		}
	}
}

// The kernel SVM's model, curve and predictions are the same, bit for bit,
// whatever the number of threads, on float64 rows and on float32 rows
// (whose pairs' rows are gathered into a block the pairs one thread
// solves share: a row left stale from the pair before shows here).
func TestKernelThreadsIdentical(t *testing.T) {
	X, y, _ := binaryRows(240, 60, 0.35, 9)
	for i := range X { // grey levels, so that sums are not exact
		for k := range X[i] {
			X[i][k] *= 0.5 + float64((i+k)%7)/13
		}
	}
	f32, err := learning.NewFloat32(X)
	if err != nil {
		t.Fatal(err)
	}
	for _, rows := range []learning.Rows{nil, f32} {
		testThreadsIdentical(t, X, y, rows)
	}
}

func testThreadsIdentical(t *testing.T, X [][]float64, y []int, rows learning.Rows) {
	var ref string
	for _, threads := range []int{1, 2, 4} {
		var seen []learning.Epoch
		l := svm.Kernel{Kernel: kernel.Gaussian{Sigma: 2}, Settings: svm.Settings{C: 10, Threads: threads, CacheMB: 0.01}}
		res, err := l.Fit(context.Background(), &learning.Data{X: X, Rows: rows, Y: y, Classes: 3},
			learning.RecorderFunc(func(e learning.Epoch) error { seen = append(seen, e); return nil }))
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(seen) != fmt.Sprint(res.Curve) {
			t.Errorf("threads %d: recorder saw %v, curve %v", threads, seen, res.Curve)
		}
		km := res.Model.(*svm.KernelModel)
		pred := make([]int, len(X))
		for i, x := range X {
			pred[i] = km.Predict(x)
		}
		got := fmt.Sprintf("%+v %v %v %v", km.Machines, km.SV, res.Curve, pred)
		if ref == "" {
			ref = got
		} else if got != ref {
			t.Errorf("threads %d: model differs from threads 1", threads)
		}
	}
}

// PredictRows answers as Predict does, row by row, whatever the number of
// threads, on dense, sparse and bit-set rows.
func TestPredictRows(t *testing.T) {
	X, y, forms := binaryRows(300, 50, 0.3, 4)
	res, err := svm.Kernel{Kernel: kernel.Gaussian{Sigma: 2}, Settings: svm.Settings{C: 1}}.Fit(context.Background(), &learning.Data{X: X[:200], Y: y[:200], Classes: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	km := res.Model.(*svm.KernelModel)
	want := make([]int, len(X))
	for i, x := range X {
		want[i] = km.Predict(x)
	}
	for name, r := range forms {
		if r == nil {
			continue
		}
		for _, threads := range []int{1, 2, 4, 0} {
			if got := km.PredictRows(nil, r, threads); !slices.Equal(got, want) {
				t.Errorf("%s, %d threads: PredictRows differs from Predict", name, threads)
			}
		}
	}
}

// A two-class problem long enough for its kernel rows to be split among
// goroutines gives the same machine whatever the number of threads.
func TestKernelRowThreadsIdentical(t *testing.T) {
	X, y, _ := binaryRows(2600, 40, 0.3, 12)
	for i := range y {
		y[i] %= 2
	}
	var ref string
	for _, threads := range []int{1, 2, 3} {
		res, err := svm.Kernel{Kernel: kernel.Gaussian{Sigma: 3}, Settings: svm.Settings{C: 1, Threads: threads, Eps: 0.01}}.Fit(context.Background(), &learning.Data{X: X, Y: y, Classes: 2}, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := fmt.Sprintf("%+v", res.Model.(*svm.KernelModel).Machines)
		if ref == "" {
			ref = got
		} else if got != ref {
			t.Errorf("threads %d: machine differs from threads 1", threads)
		}
	}
}

// The rows in RowOrder's order give the model the rows in their own order
// give, to the bit: the same machines, support vectors and predictions,
// one-vs-one on three classes and any two; one-vs-rest keeps the order.
func TestRowOrder(t *testing.T) {
	X, y, _ := binaryRows(240, 60, 0.35, 9)
	for i := range X {
		for k := range X[i] {
			X[i][k] *= 0.5 + float64((i+k)%7)/13
		}
	}
	two := make([]int, len(y))
	for i, c := range y {
		two[i] = min(c, 1)
	}
	tests := []struct {
		name    string
		l       svm.Kernel
		y       []int
		classes int
	}{
		{"one-vs-one", svm.Kernel{Kernel: kernel.Gaussian{Sigma: 2}, Settings: svm.Settings{C: 10, CacheMB: 0.01}, ClassWeight: []float64{1, 2, 0.5}}, y, 3},
		{"two classes, nu", svm.Kernel{Kernel: kernel.Gaussian{Sigma: 2}, Type: svm.NuSVC, Settings: svm.Settings{Nu: 0.3}}, two, 2},
	}
	for _, tt := range tests {
		order := tt.l.RowOrder(tt.y, tt.classes)
		if len(order) != len(X) {
			t.Fatalf("%s: order of %d rows for %d", tt.name, len(order), len(X))
		}
		X2, y2 := make([][]float64, len(X)), make([]int, len(X))
		for k, i := range order {
			X2[k], y2[k] = X[i], tt.y[i]
			if k > 0 && y2[k] < y2[k-1] || k > 0 && y2[k] == y2[k-1] && i < order[k-1] {
				t.Fatalf("%s: row %d (class %d) after row %d (class %d)", tt.name, i, y2[k], order[k-1], y2[k-1])
			}
		}
		if tt.l.RowOrder(y2, tt.classes) != nil {
			t.Errorf("%s: grouped rows ordered again", tt.name)
		}
		var models []string
		for _, d := range []struct {
			X [][]float64
			y []int
		}{{X, tt.y}, {X2, y2}} {
			f32, err := learning.NewFloat32(d.X)
			if err != nil {
				t.Fatal(err)
			}
			res, err := tt.l.Fit(context.Background(), &learning.Data{Rows: f32, Y: d.y, Classes: tt.classes}, nil)
			if err != nil {
				t.Fatal(err)
			}
			km := res.Model.(*svm.KernelModel)
			var sv [][]float64
			for s := range km.SVRows.Len() {
				sv = append(sv, km.SVRows.Row(nil, s))
			}
			pred := make([]int, len(X))
			for i, x := range X {
				pred[i] = km.Predict(x)
			}
			models = append(models, fmt.Sprintf("%+v %v %v", km.Machines, sv, pred))
		}
		if models[0] != models[1] {
			t.Errorf("%s: the grouped rows give another model", tt.name)
		}
	}
	if order := (svm.Kernel{Multiclass: svm.OneVsRest}).RowOrder(y, 3); order != nil {
		t.Errorf("one-vs-rest: order %v; want the rows as they are", order)
	}
}
