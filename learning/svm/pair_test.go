package svm

import (
	"context"
	"errors"
	"slices"
	"testing"

	"mark1/learning"
	"mark1/learning/kernel"
)

// TestFitPair solves each pair of a four-class fit alone, on float32
// rows grouped by class (as fit holds them) and on dense rows in any
// order, and finds the fit's machines: the same rows, coefficients and ρ,
// to the bit.
func TestFitPair(t *testing.T) {
	d := blobs(3, 240, 4, 5, 1.2)
	l := Kernel{Kernel: kernel.Gaussian{Sigma: 1.3}, Settings: Settings{C: 4}, ClassWeight: []float64{1, 2, 0.5, 1}}
	grouped := &learning.Data{Classes: 4}
	for _, i := range l.RowOrder(d.Y, 4) {
		grouped.X, grouped.Y = append(grouped.X, d.X[i]), append(grouped.Y, d.Y[i])
	}
	rows32, err := learning.NewFloat32(grouped.X)
	if err != nil {
		t.Fatal(err)
	}
	f32 := &learning.Data{Rows: rows32, Y: grouped.Y, Classes: 4}
	for _, data := range []*learning.Data{d, f32} {
		res, err := l.Fit(context.Background(), data, nil)
		if err != nil {
			t.Fatal(err)
		}
		km := res.Model.(*KernelModel)
		for q, want := range km.Machines {
			got, err := l.FitPair(context.Background(), data, q)
			if err != nil {
				t.Fatal(err)
			}
			if got.Pos != want.Pos || got.Neg != want.Neg || got.Rho != want.Rho || !slices.Equal(got.Coef, want.Coef) || len(got.SV) != len(want.SV) {
				t.Fatalf("pair %d: %d vs %d ρ %v, %d SVs; the fit's %d vs %d ρ %v, %d SVs", q, got.Pos, got.Neg, got.Rho, len(got.SV), want.Pos, want.Neg, want.Rho, len(want.SV))
			}
			for j, s := range want.SV { // the fit's SV s is a row; FitPair names it
				a, b := km.SVRows.Row(nil, s), data.Features().Row(nil, got.SV[j])
				if !slices.Equal(a, b) {
					t.Fatalf("pair %d: support vector %d is not the fit's", q, j)
				}
			}
		}
	}
	if _, err := l.FitPair(context.Background(), d, 6); !errors.Is(err, ErrSetting) {
		t.Errorf("pair 6 of 4 classes: %v", err)
	}
	rest := l
	rest.Multiclass = OneVsRest
	if _, err := rest.FitPair(context.Background(), d, 0); !errors.Is(err, ErrSetting) {
		t.Errorf("one-vs-rest: %v", err)
	}
}
