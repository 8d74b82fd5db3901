package svm

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"mark1/learning"
)

// manyClasses returns two rows for each of k classes (issue 26's file:
// 10,000 classes, 49,995,000 one-vs-one pairs from 390 kB).
func manyClasses(k int) *learning.Data {
	d := &learning.Data{Classes: k}
	for i := range k {
		d.X = append(d.X, []float64{float64(i) * 1e-3, 1}, []float64{float64(i)*1e-3 + 5e-4, 0})
		d.Y = append(d.Y, i, i)
	}
	return d
}

// TestMemoryRefusedUpFront: the kernel SVM counts its one-vs-one pairs (or
// one-vs-rest machines) and their state before making any, and the linear
// SVM its weights, refusing with a *learning.MemoryError that names the
// number of pairs; at once, not after minutes of pairing.
func TestMemoryRefusedUpFront(t *testing.T) {
	const budget = 512 << 20
	ctx := learning.WithMemoryBudget(context.Background(), budget)
	tests := []struct {
		name  string
		l     learning.Learner
		d     *learning.Data
		cause string
	}{
		{"one-vs-one of 10,000 classes", Kernel{}, manyClasses(10_000), "10000 classes in 49995000 one-vs-one pairs over 20000 rows"},
		{"one-vs-rest of 20,000 classes", Kernel{Multiclass: OneVsRest}, manyClasses(20_000), "20000 classes in 20000 one-vs-rest machines"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, err := tt.l.Fit(ctx, tt.d, nil)
			var me *learning.MemoryError
			if !errors.As(err, &me) {
				t.Fatalf("err = %v; want a *learning.MemoryError", err)
			}
			if !strings.Contains(err.Error(), tt.cause) || me.Need <= me.Budget {
				t.Errorf("%q: want %q and a need over the budget", err, tt.cause)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("refused after %v; want at once", d)
			}
		})
	}
	// Linear: 1,000 classes one-vs-rest over 2²⁴ features.
	wide := &learning.Data{Classes: 1000}
	start, idx, val := []int{0}, []int32{}, []float64{}
	for i := range 1000 {
		idx, val = append(idx, 0, 1<<24-1), append(val, float64(i), 1)
		start = append(start, len(idx))
		wide.Y = append(wide.Y, i)
	}
	r, err := learning.NewSparse(1<<24, start, idx, val)
	if err != nil {
		t.Fatal(err)
	}
	wide.Rows = r
	_, err = Linear{}.Fit(ctx, wide, nil)
	var me *learning.MemoryError
	if !errors.As(err, &me) || !strings.Contains(err.Error(), "1000 machines × 16777217 weights") {
		t.Errorf("linear-svm: err = %v; want a *learning.MemoryError naming its weights", err)
	}
}

// TestPairsGroupedByClass checks the one-vs-one problems, built from each
// class's rows, against the definition: pair (a, b) holds the rows of
// class a (+1), then those of class b (−1), each in data order.
func TestPairsGroupedByClass(t *testing.T) {
	d := &learning.Data{Y: []int{2, 0, 1, 2, 0, 0, 3, 1}, Classes: 4}
	cs := []int{0, 1, 2, 3}
	got := pairs(d, cs, OneVsOne)
	if len(got) != 6 {
		t.Fatalf("%d pairs; want 6", len(got))
	}
	q := 0
	for a := range cs {
		for b := a + 1; b < len(cs); b++ {
			p := got[q]
			q++
			var rows []int
			var y []float64
			for _, want := range []int{a, b} { // LIBSVM's order: the positive class's rows first
				for i, c := range d.Y {
					if c == want {
						rows = append(rows, i)
						y = append(y, map[bool]float64{true: 1, false: -1}[c == a])
					}
				}
			}
			prows, py := p.members()
			if p.pos != a || p.neg != b || !equalInts(prows, rows) || len(py) != len(y) || p.size() != len(rows) {
				t.Fatalf("pair %d: %+v; want rows %v labels %v", q, p, rows, y)
			}
			for i := range y {
				if py[i] != y[i] || p.row(i) != rows[i] {
					t.Fatalf("pair (%d, %d): labels %v; want %v", a, b, py, y)
				}
			}
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
