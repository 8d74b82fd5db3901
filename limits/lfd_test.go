package limits

import (
	"context"
	"testing"
)

// TestLFDPerceptron: 300 runs at N = 10 (fewer than the 1,000 of the book, to stay fast); the
// figures measured elsewhere, about 9.4 iterations and P[f ≠ g] about 0.11, must lie within
// four of our 95% half-widths (a loose, honest tolerance; the run is seeded, not tuned).
func TestLFDPerceptron(t *testing.T) {
	r, err := LFDPerceptron(context.Background(), 10, 300, 1000, 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("N = 10: iterations %.2f ± %.2f, P[f≠g] %.4f ± %.4f", r.MeanIterations, r.IterationsHalf95, r.MeanDisagreement, r.DisagreementHalf95)
	if d := r.MeanIterations - 9.4; d > 4*r.IterationsHalf95 || -d > 4*r.IterationsHalf95 {
		t.Errorf("mean iterations %.2f ± %.2f; about 9.4 expected", r.MeanIterations, r.IterationsHalf95)
	}
	if d := r.MeanDisagreement - 0.11; d > 4*r.DisagreementHalf95 || -d > 4*r.DisagreementHalf95 {
		t.Errorf("P[f≠g] %.4f ± %.4f; about 0.11 expected", r.MeanDisagreement, r.DisagreementHalf95)
	}
}
