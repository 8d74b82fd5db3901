package curves

import (
	"context"
	"math"
	"testing"
)

// normal is the normal integral computed apart from the package's (gonum's
// distuv): Φ(z) = erfc(−z/√2)/2.
func normal(z float64) float64 { return math.Erfc(-z/math.Sqrt2) / 2 }

// TestRT58Environment: the environments RT58Environment returns give
// RT58's worked point through Eq. 11 written out here from PR58's
// constants (not through Differentiated or solveWorked): P_r 0.92 and P_g
// 0.85 at 100 stimuli per class and 100 units per set, the limit 0.887,
// with σ_s² = 0. At P_a = 0.1125, P_c11 = 0.1098 < P_a: RT58's worked point
// fails PR58's criterion P_c12 < P_a < P_c11, and still predicts
// P_g = 0.85; the crossing, P_c11 = P_a, is at P_a = 0.1000.
func TestRT58Environment(t *testing.T) {
	const ne, n = 100.0, 100.0
	for _, pa := range []float64{0.05, 0.08, WorkedPa, 0.15, 0.3} {
		s := RT58Environment(pa)
		m := pa * ne
		c1, c2 := s.Pc11-s.Pc12, 1-s.Pc11
		c3 := (s.VarA11 + s.VarA12) / m
		c4 := (s.Pc11*(1-s.Pc11) + s.Pc12*(1-s.Pc12)) / m
		den := math.Sqrt(c3*n*n + c4*n)
		pr, pg, limit := normal((c1*n+c2)/den), normal(c1*n/den), normal(c1/math.Sqrt(c3))
		if math.Abs(pr-0.92) > 1e-9 || math.Abs(pg-0.85) > 1e-9 || math.Abs(limit-0.887) > 1e-9 || s.VarS11 != 0 || s.VarS12 != 0 {
			t.Errorf("P_a %.4f: %+v gives P_r %.6f, P_g %.6f, limit %.6f; want RT58's 0.92, 0.85, 0.887 with σ_s² = 0", pa, s, pr, pg, limit)
		}
	}
	s := RT58Environment(WorkedPa)
	if math.Abs(s.Pc11-0.1098) > 5e-5 || math.Abs(s.Pc12-0.0848) > 5e-5 || !(s.Pc11 < WorkedPa) {
		t.Errorf("at P_a = %.4f: P_c11 %.5f, P_c12 %.5f; want 0.1098 < P_a and 0.0848", WorkedPa, s.Pc11, s.Pc12)
	}
	if c1, va := s.Pc11-s.Pc12, s.VarA11+s.VarA12; math.Abs(c1-0.0250) > 5e-5 || math.Abs(va-0.00481) > 5e-6 {
		t.Errorf("at P_a = %.4f: c1 %.5f, Σσ_a² %.6f; want 0.0250, 0.00481", WorkedPa, c1, va)
	}
	e := EnvironmentOf(s, WorkedPa, ne)
	if e.Criterion || e.Ceiling != 1 || math.Abs(e.Limit-0.887) > 1e-9 {
		t.Errorf("EnvironmentOf: %+v; want the criterion failing, ceiling 1, limit 0.887", e)
	}
	x := RT58CriterionPa()
	if math.Abs(x-0.1000) > 5e-4 || math.Abs(RT58Environment(x).Pc11-x) > 1e-9 {
		t.Errorf("P_c11 = P_a at P_a %.5f (P_c11 %.5f); want 0.1000", x, RT58Environment(x).Pc11)
	}
	if below := RT58Environment(0.09); !(below.Pc12 < 0.09 && 0.09 < below.Pc11) {
		t.Errorf("at P_a = 0.09: %+v; want the criterion met below the crossing", below)
	}
}

// TestWorkedPointCause: on the machine of RT58's worked point (100 units
// per set, μ, square-circle), the statistics measured on the fresh cards
// put Eq. 11's limit far below RT58's 0.887 and near the machine's P_g:
// c1 = P_c11 − P_c12 is small (like RT58's 0.025), the variance over
// stimuli σ_s² is about 0.005 (RT58's is 0), and it alone caps the limit,
// whatever the number of units, at Φ(c1/√σ_s²). Each number is computed
// here again from the statistics (PcStats itself is checked against its
// definition by brute force in TestPcStats).
func TestWorkedPointCause(t *testing.T) {
	e, s, err := WorkedMachine(context.Background(), 20)
	if err != nil {
		t.Fatal(err)
	}
	pa := e.Pa
	c1 := s.Pc11 - s.Pc12
	varS, varA := s.VarS11+s.VarS12, s.VarA11+s.VarA12
	c3 := varS + varA/(pa*100)
	limit, ceiling := normal(c1/math.Sqrt(c3)), normal(c1/math.Sqrt(varS))
	c4 := (s.Pc11*(1-s.Pc11) + s.Pc12*(1-s.Pc12)) / (pa * 100)
	den := math.Sqrt(c3*100*100 + c4*100)
	pr, pg := normal((c1*100+1-s.Pc11)/den), normal(c1*100/den)
	if math.Abs(e.Limit-limit) > 1e-9 || math.Abs(e.Ceiling-ceiling) > 1e-9 || math.Abs(e.C3-c3) > 1e-12 || math.Abs(e.C1-c1) > 1e-12 {
		t.Errorf("EnvironmentOf %+v; computed again: c1 %.5f, c3 %.5f, limit %.4f, ceiling %.4f", e, c1, c3, limit, ceiling)
	}
	// The numbers docs/rosenblatt.md and the deviation text give, to the
	// places they give them.
	for _, x := range []struct {
		name      string
		got, want float64
		places    int
	}{
		{"P_a", pa, 0.158, 3}, {"P_c11", s.Pc11, 0.441, 3}, {"P_c12", s.Pc12, 0.424, 3}, {"c1", c1, 0.0174, 4},
		{"Σσ_s²", varS, 0.0030, 4}, {"Σσ_a²", varA, 0.123, 3}, {"c3", c3, 0.0108, 4}, {"σ_a² part of c3", c3 - varS, 0.0078, 4},
		{"limit", limit, 0.5665, 4}, {"ceiling", ceiling, 0.624, 3}, {"Eq. 11's P_r at 100", pr, 0.5863, 4}, {"Eq. 11's P_g at 100", pg, 0.5655, 4},
	} {
		if math.Abs(x.got-x.want) > 0.5*math.Pow(10, -float64(x.places)) {
			t.Errorf("%s = %.*f; the docs say %.*f", x.name, x.places+1, x.got, x.places, x.want)
		}
	}
	// RT58's side, from RT58Environment checked above: its c3 has no σ_s²
	// part; the limits with one side's c1 over the other's c3.
	ps := RT58Environment(WorkedPa)
	pc1, pc3 := ps.Pc11-ps.Pc12, (ps.VarA11+ps.VarA12)/(WorkedPa*100)
	for _, x := range []struct {
		name      string
		got, want float64
		places    int
	}{
		{"RT58's c3", pc3, 0.000427, 6}, {"c3 over RT58's", c3 / pc3, 25, 0},
		{"RT58's c1 over the machine's c3", normal(pc1 / math.Sqrt(c3)), 0.595, 3},
		{"the machine's c1 over RT58's c3", normal(c1 / math.Sqrt(pc3)), 0.800, 3},
	} {
		if math.Abs(x.got-x.want) > 0.5*math.Pow(10, -float64(x.places)) {
			t.Errorf("%s = %.*f; the docs say %.*f", x.name, x.places+1, x.got, x.places, x.want)
		}
	}
	if e.Criterion || !(c1 > 0) {
		t.Errorf("criterion %v, c1 %.4f; want PR58's criterion failing and c1 > 0", e.Criterion, c1)
	}
	t.Logf("P_a %.4f, P_c11 %.4f, P_c12 %.4f, c1 %.4f, Σσ_s² %.5f, Σσ_a² %.4f, c3 %.5f (σ_a² part %.5f): limit %.4f, ceiling %.4f; Eq. 11 at 100: P_r %.4f, P_g %.4f",
		pa, s.Pc11, s.Pc12, c1, varS, varA, c3, c3-varS, limit, ceiling, pr, pg)
}
