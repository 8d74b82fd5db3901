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
	return X, y, map[string]learning.Rows{"X": nil, "dense": learning.NewDense(X), "sparse": sp, "bits": bits}
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
			got := fmt.Sprint(pred, sv, bsv, res.Epochs, res.Status)
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
