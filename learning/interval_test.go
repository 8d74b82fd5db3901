package learning

import (
	"fmt"
	"math"
	"testing"
)

// Hand values: for 5 of 10, p̂ = 1/2, z²/n = 0.384146, and the interval is
// (0.5·1.384146 ∓ 1.959964·√(0.025 + 0.00960365))/1.384146 = [0.236593,
// 0.763407]; for 0 of 10 the upper end is z²/(n+z²) = 3.841459/13.841459.
// The others are the roots of the quadratic (p̂ − p)² = z²·p(1−p)/n, the
// interval's definition, solved separately.
func TestWilson(t *testing.T) {
	tests := []struct {
		right, n int
		lo, hi   float64
	}{
		{5, 10, 0.2365931, 0.7634069},
		{0, 10, 0, 3.841459 / 13.841459},
		{10, 10, 1 - 3.841459/13.841459, 1},
		{81, 100, 0.7222115, 0.8748525},
		{1, 1, 0.2065493, 1},
		{13, 52, 0.1523315, 0.3820646},
	}
	for _, tt := range tests {
		lo, hi := Wilson(tt.right, tt.n)
		if math.Abs(lo-tt.lo) > 2e-7 || math.Abs(hi-tt.hi) > 2e-7 {
			t.Errorf("Wilson(%d, %d) = [%.7f, %.7f], want [%.7f, %.7f]", tt.right, tt.n, lo, hi, tt.lo, tt.hi)
		}
	}
}

func TestChance(t *testing.T) {
	for _, tt := range []struct {
		labels []int
		want   float64
	}{
		{[]int{0, 1, 0, 1}, 0.5},
		{[]int{2, 2, 2, 0}, 0.75},
		{[]int{0, 1, 2, 3, 4}, 0.2},
	} {
		if got := Chance(tt.labels); got != tt.want {
			t.Errorf("Chance(%v) = %v, want %v", tt.labels, got, tt.want)
		}
	}
	if !math.IsNaN(Chance(nil)) {
		t.Error("Chance(nil) is not NaN")
	}
}

func ExampleWilson() {
	lo, hi := Wilson(45, 52)
	fmt.Printf("45 of 52 right: %.1f%%, 95%% interval %.1f–%.1f%%\n", 100*45.0/52, 100*lo, 100*hi)
	// Output:
	// 45 of 52 right: 86.5%, 95% interval 74.7–93.3%
}

// TestMeanCI against Student's t from tables: t(0.975, 9) = 2.2622, so
// ten values 1…10 (mean 5.5, s = 3.0277) give 5.5 ± 2.1659.
func TestMeanCI(t *testing.T) {
	x := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	m, lo, hi := MeanCI(x)
	if m != 5.5 || math.Abs(hi-m-2.1659) > 1e-4 || math.Abs(m-lo-(hi-m)) > 1e-12 {
		t.Errorf("MeanCI 1…10 = %v [%v, %v]; want 5.5 ± 2.1659", m, lo, hi)
	}
	if m, lo, hi := MeanCI([]float64{0.7}); m != 0.7 || lo != 0.7 || hi != 0.7 {
		t.Errorf("one value: %v [%v, %v]", m, lo, hi)
	}
	if m, _, _ := MeanCI(nil); !math.IsNaN(m) {
		t.Errorf("no values: mean %v; want NaN", m)
	}
}

// TestRateAndSpread checks RateOf against Wilson on the rounded count, and
// SpreadOf against the definitions (NaNs skipped, SD 0 for one value).
func TestRateAndSpread(t *testing.T) {
	r := RateOf(0.7, 10)
	lo, hi := Wilson(7, 10)
	if r.Lo != lo || r.Hi != hi || r.N != 10 {
		t.Errorf("RateOf(0.7, 10) = %+v; want Wilson(7, 10) = %v, %v", r, lo, hi)
	}
	if r := RateOf(0.5, 0); !math.IsNaN(r.Lo) {
		t.Errorf("no cards: %+v; want a NaN interval", r)
	}
	for _, tt := range []struct {
		v        []float64
		mean, sd float64
		n        int
	}{
		{[]float64{2, 4, 4, 4, 5, 5, 7, 9}, 5, math.Sqrt(32.0 / 7), 8},
		{[]float64{3, math.NaN()}, 3, 0, 1},
	} {
		s := SpreadOf(tt.v)
		if s.N != tt.n || math.Abs(s.Mean-tt.mean) > 1e-12 || math.Abs(s.SD-tt.sd) > 1e-12 {
			t.Errorf("SpreadOf(%v) = %+v; want %v ± %v over %d", tt.v, s, tt.mean, tt.sd, tt.n)
		}
	}
	if s := SpreadOf([]float64{math.NaN()}); !math.IsNaN(s.Mean) || s.N != 0 {
		t.Errorf("all NaN: %+v", s)
	}
}

// TestRateAndSpreadText: rates and spreads as the reports write them, and
// "-" for what was not measured.
func TestRateAndSpreadText(t *testing.T) {
	for _, tt := range []struct{ got, want string }{
		{RateOf(0.7, 10).String(), "70.0% (95% CI 39.7–89.2%)"},
		{RateOf(0.7, 10).Interval(), "40–89%"},
		{RateOf(0.7, 0).String(), "-"},
		{RateOf(math.NaN(), 5).Interval(), "-"},
		{SpreadOf([]float64{0.5}).Percent(), "50.0 ± 0.0%"},
		{SpreadOf([]float64{0.5}).String(), "0.5 ± 0.0"},
		{SpreadOf([]float64{math.NaN()}).Percent(), "-"},
		{SpreadOf([]float64{math.NaN()}).String(), "-"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q; want %q", tt.got, tt.want)
		}
	}
}
