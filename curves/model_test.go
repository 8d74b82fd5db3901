package curves

import (
	"math"
	"strings"
	"testing"

	"mark1/response"
)

// TestRT58WorkedPoint: the constants solved for RT58's Fig. 5 give back the
// numbers read from RT58's text: P_r = 0.92 and P_g = 0.85 after 100
// squares and 100 circles with 100 A-units per set, both tending to 0.887.
func TestRT58WorkedPoint(t *testing.T) {
	c := RT58(100)
	for _, tc := range []struct {
		name      string
		got, want float64
	}{
		{"P_r", P(1, c, 100), 0.92},
		{"P_g", P(1, c.Generalisation(), 100), 0.85},
		{"limit of P_r", P(1, c, 1e12), 0.887},
		{"limit of P_g", P(1, c.Generalisation(), 1e12), 0.887},
		{"Limit()", c.Limit(), 0.887},
	} {
		if math.Abs(tc.got-tc.want) > 5e-4 {
			t.Errorf("%s = %.4f; RT58 says %.3f", tc.name, tc.got, tc.want)
		}
	}
	// More units, better: the limit rises toward 1 (RT58: "the
	// probabilities of correct performance approach unity").
	if l2, l5 := RT58(200).Limit(), RT58(500).Limit(); !(l2 > 0.887 && l5 > l2 && l5 < 1) {
		t.Errorf("limits %v (200 units) and %v (500); want rising above 0.887 toward 1", l2, l5)
	}
	// P_g rises and P_r falls toward the limit (Fig. 5's curves).
	if !(P(1, c, 10) > P(1, c, 1000)) || !(P(1, c.Generalisation(), 10) < P(1, c.Generalisation(), 1000)) {
		t.Error("P_r does not fall or P_g does not rise toward the limit")
	}
}

// TestIdealEnvironment: PR58's qualitative statements about the ideal
// environment, and the constants against a value worked by hand.
func TestIdealEnvironment(t *testing.T) {
	// P_g: c₁ = c₂ = 0, Z = 0, "Pg can never be any better than the
	// random expectation of 0.5".
	if g := P(1, IdealSum(0.07, 1000).Generalisation(), 100); g != 0.5 {
		t.Errorf("ideal P_g = %v; want 0.5", g)
	}
	// By hand: P_a = 0.1, N_e = 1000, n = 100, Σ: Z² = N_e(1−P_a)/(2(n + n²P_a))
	// = 900/(2·1100) = 0.40909; μ: Z² = N_e(1−P_a)/(2n) = 4.5.
	if z := IdealSum(0.1, 1000).Z(100); math.Abs(z*z-900.0/2200) > 1e-12 {
		t.Errorf("Σ: Z² = %v; want %v", z*z, 900.0/2200)
	}
	if z := IdealMean(0.1, 1000).Z(100); math.Abs(z*z-4.5) > 1e-12 {
		t.Errorf("μ: Z² = %v; want 4.5", z*z)
	}
	// The μ system does better than Σ, and both fall toward 0.5.
	for _, n := range []float64{10, 100, 1000, 10000} {
		s, m := P(1, IdealSum(0.07, 1000), n), P(1, IdealMean(0.07, 1000), n)
		if !(m > s && s > 0.5) {
			t.Errorf("n = %v: Σ %v, μ %v; want 0.5 < Σ < μ", n, s, m)
		}
	}
	if p := P(1, IdealSum(0.07, 1000), 1e9); math.Abs(p-0.5) > 1e-3 {
		t.Errorf("Σ after 10⁹ stimuli: %v; want → 0.5", p)
	}
	if got := PNar(0.005, 100); math.Abs(got-(1-math.Pow(0.995, 100))) > 1e-15 {
		t.Errorf("P(N_ar > 0) = %v", got)
	}
}

// TestIdealMeanAgainstMachine: the μ constants, derived from PR58's
// assumptions, predict the simulated machine's P_r in the ideal
// environment at its own P_a: at 100 and 300 stimuli per response (512
// A-units, 5 seeds) the measured mean is within 0.06 of the model.
func TestIdealMeanAgainstMachine(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates 10 machines")
	}
	pr, _, pa, err := measure(t.Context(), "ideal-environment", 256, response.Mean, []int{100, 300}, 5, "test")
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range pr.X {
		model := P(PNar(pa, 256), IdealMean(pa, 256), n)
		if math.Abs(pr.Y[i]-model) > 0.06 {
			t.Errorf("n_sr %v: measured P_r %.3f [%.3f, %.3f]; model at P_a %.3f: %.3f", n, pr.Y[i], pr.CILow[i], pr.CIHigh[i], pa, model)
		}
	}
}

// TestLostFigures: the figures whose constants the OCR loses are refused,
// saying why.
func TestLostFigures(t *testing.T) {
	for _, name := range []string{"pr58-10", "pr58-11"} {
		if _, err := Compute(t.Context(), name, Options{}); err == nil || !strings.Contains(err.Error(), "OCR") {
			t.Errorf("%s: %v; want a refusal naming the OCR", name, err)
		}
	}
}
