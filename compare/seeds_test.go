package compare

import (
	"math"
	"testing"

	"mark1/dataset"
)

// TestSummariseSeeds checks compare's seed table against sums by hand:
// per row the mean ± SD, the pooled held-out cards and the converged
// count; per theory line the separable seeds' bound and mistakes.
func TestSummariseSeeds(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	i := func(v int) *int { return &v }
	reps := []*Report{
		{Test: 10, Chance: f(0.5), Pa: 0.1, PaModel: 0.2, Rows: []Row{{Learner: "perceptron", Features: "pixels", Pr: 1, Pg: f(0.8), Updates: 10, Converged: true}},
			Theory: []Theory{{Features: "pixels", Separable: true, Bound: f(100), PerceptronMistakes: i(10)}}},
		{Test: 10, Chance: f(0.5), Pa: 0.3, PaModel: 0.2, Rows: []Row{{Learner: "perceptron", Features: "pixels", Pr: 0.5, Pg: f(0.6), Updates: 30}},
			Theory: []Theory{{Features: "pixels"}}},
	}
	s := SummariseSeeds([]uint64{1, 2}, reps)
	r := s.Rows[0]
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
	if !near(r.Pr.Mean, 0.75) || !near(r.Pr.SD, math.Sqrt(0.125)) || !near(r.Updates.Mean, 20) || r.Converged != 1 {
		t.Errorf("row %+v", r)
	}
	if r.PgPooled == nil || r.PgPooled.N != 20 || !near(r.PgPooled.P, 0.7) {
		t.Errorf("pooled %+v; want 14 of 20", r.PgPooled)
	}
	if th := s.Theory[0]; th.Separable != 1 || !near(th.Bound.Mean, 100) || !near(th.Mistakes.Mean, 10) {
		t.Errorf("theory %+v", th)
	}
	if !near(s.Pa.Mean, 0.2) || !near(s.Chance.Mean, 0.5) {
		t.Errorf("P_a %+v, chance %+v", s.Pa, s.Chance)
	}
}

// TestSquarePictures: k² features are k×k pictures, grey if in [0,1].
func TestSquarePictures(t *testing.T) {
	for _, tt := range []struct {
		dim  int
		vals []float64
		k    int
		grey bool
	}{
		{4, []float64{0, 0.5, 1}, 2, true},
		{4, []float64{0, 255}, 2, false},
		{5, []float64{0.5}, 0, false},
		{1, []float64{0.5}, 0, false},
	} {
		k, grey := SquarePictures(&dataset.Set{Dim: tt.dim, Value: tt.vals})
		if k != tt.k || grey != tt.grey {
			t.Errorf("dim %d %v: %d, %v; want %d, %v", tt.dim, tt.vals, k, grey, tt.k, tt.grey)
		}
	}
}
