package learning_test

import (
	"fmt"
	"reflect"
	"testing"

	"mark1/learning"
)

// split cuts X into sparse parts of at most size rows.
func split(t *testing.T, X [][]float64, size int) []*learning.Sparse {
	t.Helper()
	var parts []*learning.Sparse
	for lo := 0; lo < len(X); lo += size {
		start := []int{0}
		var idx []int32
		var val []float64
		for _, x := range X[lo:min(len(X), lo+size)] {
			for j, v := range x {
				if v != 0 {
					idx, val = append(idx, int32(j)), append(val, v)
				}
			}
			start = append(start, len(val))
		}
		p, err := learning.NewSparse(len(X[0]), start, idx, val)
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, p)
	}
	return parts
}

// A Stack reads as the rows joined, and its Compact32 in any order is the
// joined rows' Compact32 of the rows in that order, in every form: each
// part let go and release called once for it.
func TestStackCompact32(t *testing.T) {
	tests := []struct {
		name string
		X    [][]float64
		form string
	}{
		{"bits", [][]float64{{1, 0, 1}, {0, 1, 1}, {1, 1, 0}, {0, 0, 1}, {1, 0, 0}}, "*learning.Bits"},
		{"sparse", [][]float64{{0.5, 0, 0, 0, 0, 0}, {0, 0, 2, 0, 0, 0}, {0, 0, 0, 0, 0, -1}, {0, 0, 0, 0, 0, 0}, {3, 0, 0, 0, 0, 0}}, "*learning.Sparse"},
		{"grey", [][]float64{{1.0 / 255, 0, 1}, {0, 200.0 / 255, 1}, {7.0 / 255, 0, 3.0 / 255}, {1, 1, 1}, {0, 0, 1}}, "*learning.Grey"},
		{"float32", [][]float64{{0.1, 0, 1}, {0, 0.2, 1}, {7, 0, 0.3}, {1, 1, 1}, {0, 0.5, 1}}, "*learning.Float32"},
		{"float64", [][]float64{{0.1, 0, 1}, {0, 1e-300, 1}, {7, 0, 0.3}, {1, 1, 1}, {0, 0.5, 1}}, "*learning.Dense"},
	}
	orders := [][]int{nil, {0, 1, 2, 3, 4}, {4, 2, 0, 1, 3}, {3, 4, 1, 0, 2}}
	for _, tt := range tests {
		for _, size := range []int{1, 2, 5} {
			for _, order := range orders {
				parts := split(t, tt.X, size)
				s, err := learning.NewStack(parts)
				if err != nil {
					t.Fatal(err)
				}
				if s.Len() != len(tt.X) || s.Dim() != len(tt.X[0]) {
					t.Fatalf("%s: %d×%d stack", tt.name, s.Len(), s.Dim())
				}
				for i, x := range tt.X {
					if got := s.Row(nil, i); !reflect.DeepEqual(got, x) {
						t.Errorf("%s, parts of %d: row %d %v; want %v", tt.name, size, i, got, x)
					}
				}
				Y := tt.X
				if order != nil {
					Y = make([][]float64, len(order))
					for k, i := range order {
						Y[k] = tt.X[i]
					}
				}
				want := split(t, Y, len(Y))[0].Compact32()
				released, first := 0, parts[0]
				got := s.Compact32(order, func() { released++ })
				if got == learning.Rows(first) { // a single sparse part, in its order: itself
					if len(parts) != 1 || order != nil || released != 0 {
						t.Errorf("%s, parts of %d, order %v: a part returned as the copy", tt.name, size, order)
					}
					continue
				}
				if reflect.TypeOf(got).String() != tt.form || reflect.TypeOf(want) != reflect.TypeOf(got) {
					t.Errorf("%s: Compact32 gives %T; want %s", tt.name, got, tt.form)
				}
				for k := range Y {
					if g, w := got.Row(nil, k), want.Row(nil, k); !reflect.DeepEqual(g, w) {
						t.Errorf("%s, parts of %d, order %v: row %d %v; want %v", tt.name, size, order, k, g, w)
					}
				}
				if released != len(parts) {
					t.Errorf("%s, parts of %d: release called %d times for %d parts", tt.name, size, released, len(parts))
				}
				for p, part := range parts {
					if part != nil {
						t.Errorf("%s: part %d kept after the copy", tt.name, p)
					}
				}
			}
		}
	}
	if _, err := learning.NewStack([]*learning.Sparse{split(t, [][]float64{{1, 2}}, 1)[0], split(t, [][]float64{{1, 2, 3}}, 1)[0]}); err == nil {
		t.Error("parts of 2 and 3 features stacked")
	}
}

// Compact32Rows of some rows is Compact32 of a copy of them, the form
// chosen on those rows alone (grey rows among float32 ones, ones among grey
// ones, sparse rows among dense ones), and leaves the rows it reads as they
// were.
func TestCompact32Rows(t *testing.T) {
	X := [][]float64{
		{0.1, 0, 1, 0.4}, {1, 1, 0, 1}, {0, 0, 1, 0}, {7.0 / 255, 0, 3.0 / 255, 1},
		{0, 0.5, 1, 0.3}, {1, 0, 1, 1}, {0, 0, 0, 0.25}, {0, 1e-300, 1, 2},
	}
	all := split(t, X, len(X))[0]
	before := fmt.Sprint(all.Start, all.Index, all.Value)
	for _, idx := range [][]int{
		nil, {}, {0, 1, 2, 3, 4, 5, 6, 7}, {7, 6, 5, 4, 3, 2, 1, 0}, {1, 5}, {1, 3, 5}, {2, 6}, {6, 2, 2},
		{0, 4}, {3, 0, 4}, {7, 0}, {3},
	} {
		sub := make([][]float64, len(idx))
		for k, i := range idx {
			sub[k] = X[i]
		}
		want := learning.Subset(all, idx).(*learning.Sparse).Compact32()
		got := all.Compact32Rows(idx)
		if reflect.TypeOf(got) != reflect.TypeOf(want) || got.Len() != len(idx) || got.Dim() != len(X[0]) {
			t.Errorf("rows %v: %T of %d rows; want %T of %d", idx, got, got.Len(), want, want.Len())
			continue
		}
		for k := range idx {
			if g, w := got.Row(nil, k), want.Row(nil, k); !reflect.DeepEqual(g, w) {
				t.Errorf("rows %v: row %d %v; want %v", idx, k, g, w)
			}
		}
		if got == learning.Rows(all) {
			t.Errorf("rows %v: the rows read returned as their copy", idx)
		}
	}
	if after := fmt.Sprint(all.Start, all.Index, all.Value); after != before {
		t.Error("Compact32Rows changed the rows it read")
	}
}
