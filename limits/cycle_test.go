package limits

import (
	"fmt"
	"testing"
)

func TestXORCycles(t *testing.T) {
	x := [][]int64{{0, 0, 1}, {0, 1, 1}, {1, 0, 1}, {1, 1, 1}}
	r := PerceptronCycle(x, []int64{-1, 1, 1, -1}, 1, 1000)
	if got, want := r.String(), "bounded, cycling, period 4"; got != want {
		t.Fatalf("XOR: %q; want %q", got, want)
	}
	if got, want := fmt.Sprint(r.Visited), "[[0 0 0] [0 0 -1] [0 1 0] [1 1 1]]"; got != want {
		t.Errorf("XOR visited %s; want %s", got, want)
	}
	and := PerceptronCycle(x, []int64{-1, -1, -1, 1}, 1, 1000)
	if !and.Converged {
		t.Errorf("AND: %s; want converged", and)
	}
}
