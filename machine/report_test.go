package machine

import (
	"math"
	"testing"
)

// TestSummariseSeeds checks the seed table's aggregates against sums done
// by hand: the mean and sample standard deviation, the converged count,
// and the pooled held-out accuracy (right answers summed over the seeds).
func TestSummariseSeeds(t *testing.T) {
	runs := []SeedRun{
		{Seed: 1, Status: Converged, Epochs: 4, LastMistake: 10, Pr: 1, Pg: 0.75, Test: 20, Pa: 0.1, PaModel: 0.12},
		{Seed: 2, Status: EpochLimitReached, Epochs: 8, LastMistake: 30, Pr: 0.5, Pg: 0.5, Test: 20, Pa: 0.2, PaModel: 0.12},
		{Seed: 3, Status: Converged, Epochs: 6, LastMistake: 20, Pr: 0.75, Pg: math.NaN(), Test: 0, Pa: 0.3, PaModel: 0.12},
	}
	s := SummariseSeeds(runs)
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
	switch {
	case s.Converged != 2:
		t.Errorf("converged %d; want 2", s.Converged)
	case !near(s.Epochs.Mean, 6) || !near(s.Epochs.SD, 2) || s.Epochs.N != 3:
		t.Errorf("epochs %+v; want 6 ± 2 over 3", s.Epochs)
	case !near(s.Pr.Mean, 0.75) || !near(s.Pr.SD, 0.25):
		t.Errorf("P_r %+v; want 0.75 ± 0.25", s.Pr)
	case s.Pg.N != 2 || !near(s.Pg.Mean, 0.625):
		t.Errorf("P_g %+v; want the mean of the two measured, 0.625", s.Pg)
	case s.PgPooled == nil || s.PgPooled.N != 40 || !near(s.PgPooled.P, 25.0/40):
		t.Errorf("pooled %+v; want 25 of 40", s.PgPooled)
	}
	if s := SummariseSeeds(runs[2:]); s.PgPooled != nil || !math.IsNaN(s.Pg.Mean) {
		t.Errorf("no held-out cards: pooled %v, P_g %v; want none and NaN", s.PgPooled, s.Pg.Mean)
	}
}
