package compare

import (
	"slices"
	"testing"

	"mark1/learning"
)

// The P_r sample: the asked number of distinct training rows, in their
// order, with their own labels, the same for a given seed in every form
// of the rows, and all of them when the sample is not smaller.
func TestPrSample(t *testing.T) {
	const n = 300
	X := make([][]float64, n)
	Y := make([]int, n)
	for i := range X {
		X[i] = make([]float64, 9) // i in binary: every row its own
		for b := range X[i] {
			X[i][b] = float64(i >> b & 1)
		}
		Y[i] = i % 3
	}
	dense := &learning.Data{X: X, Y: Y, Classes: 3}
	bits, err := learning.NewBits(X)
	if err != nil {
		t.Fatal(err)
	}
	packed := &learning.Data{Rows: bits, Y: Y, Classes: 3}
	for _, all := range []int{0, n, n + 1} {
		if got := prSample(dense, all, 1); got != dense {
			t.Errorf("sample %d: not the whole set", all)
		}
	}
	a, b := prSample(dense, 40, 7), prSample(packed, 40, 7)
	if a.Len() != 40 || b.Len() != 40 || a.Classes != 3 {
		t.Fatalf("sizes %d, %d (classes %d), want 40", a.Len(), b.Len(), a.Classes)
	}
	// Each sampled row must be found after the previous one in the
	// training order (so distinct and in order), by a search through the
	// full set.
	next := 0
	for k := range 40 {
		for next < n && !(slices.Equal(X[next], a.X[k]) && Y[next] == a.Y[k]) {
			next++
		}
		if next == n {
			t.Fatalf("sampled row %d (%v, class %d) is not found after the previous one in the training order", k, a.X[k], a.Y[k])
		}
		next++
		if got := b.Rows.Row(nil, k); !slices.Equal(got, a.X[k]) || b.Y[k] != a.Y[k] {
			t.Fatalf("row %d: bit rows give %v class %d, dense %v class %d", k, got, b.Y[k], a.X[k], a.Y[k])
		}
	}
	if c := prSample(dense, 40, 7); !slices.Equal(c.Y, a.Y) {
		t.Error("the same seed gave another sample")
	}
	if c := prSample(dense, 40, 8); slices.EqualFunc(c.X, a.X, slices.Equal) {
		t.Error("another seed gave the same sample")
	}
}
