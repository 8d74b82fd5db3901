package svm

import (
	"context"
	"slices"
	"testing"

	"mark1/learning"
	"mark1/learning/kernel"
)

// A Predictor answers as the model's PredictRows, call after call, on
// blocks of rows of every type in turn (its working memory, kept from one
// call to the next, made for float32 rows serving float64 rows after them
// and the other way round), on one or more goroutines.
func TestPredictorMatchesPredictRows(t *testing.T) {
	X, y := sixDigits(600, 100, 1)
	f32, err := learning.NewFloat32(X)
	if err != nil {
		t.Fatal(err)
	}
	X64 := make([][]float64, len(X))
	for i := range X64 {
		X64[i] = f32.Row(nil, i)
	}
	train := 400
	for _, tc := range []struct {
		name string
		rows learning.Rows // the training rows: the model's layout
	}{
		{"float32", f32},
		{"float64", learning.NewDense(X64)},
	} {
		res, err := Kernel{Kernel: kernel.Gaussian{Sigma: 3}, Settings: Settings{C: 10, Threads: 1}}.Fit(context.Background(),
			&learning.Data{Rows: learning.Subset(tc.rows, seq(train)), Y: y[:train], Classes: 3}, nil)
		if err != nil {
			t.Fatal(err)
		}
		km := res.Model.(*KernelModel)
		for _, threads := range []int{1, 2} {
			p := km.Predictor()
			for lo := train; lo < len(X); lo += 70 { // blocks of 70 rows, of alternating types
				hi := min(len(X), lo+70)
				var block learning.Rows = learning.NewDense(X64[lo:hi])
				if (lo-train)/70%2 == 0 {
					if block, err = learning.NewFloat32(X[lo:hi]); err != nil {
						t.Fatal(err)
					}
				}
				want := km.PredictRows(nil, block, threads)
				got, err := p.PredictRowsChecked(nil, block, threads)
				if err != nil || !slices.Equal(got, want) {
					t.Errorf("%s model, %d threads, rows %d to %d: Predictor %v, %v; PredictRows %v", tc.name, threads, lo, hi, got, err, want)
				}
			}
		}
	}
}
