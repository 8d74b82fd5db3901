package cli

import (
	"fmt"
	"io"

	"mark1/compare"
)

// printSeedsReport prints comparisons repeated over seeds
// (compare.SeedsReport): per learner and features, the mean ± standard
// deviation of P_r, P_g and updates, how many runs converged, and the
// theory lines' bounds beside the perceptron's mistakes.
func printSeedsReport(w io.Writer, s *compare.SeedsReport) {
	r0, seeds := s.Reports[0], s.Seeds
	preset := "raw features"
	if r0.Preset != nil {
		preset = fmt.Sprintf("preset %q", *r0.Preset)
	}
	fmt.Fprintf(w, "Comparison on %s over %d seeds (%d to %d; each seed a fresh machine, cards and split): %d classes, %d training cards, %d held out per seed; %s; kernel %s.\n",
		r0.Data, len(seeds), seeds[0], seeds[len(seeds)-1], len(r0.Classes), r0.Train, r0.Test, preset, r0.Kernel)
	fmt.Fprintf(w, "Chance %s; P_a %s (the 1958 model at each card's lit area: %s). Mean ± standard deviation over seeds.\n\n",
		pctSpread(s.Chance), pctSpread(s.Pa), pctSpread(s.PaModel))
	fmt.Fprintf(w, "%-18s %-12s %15s %15s %11s %17s %10s\n", "learner", "features", "P_r", "P_g", "P_g pooled", "updates", "converged")
	for _, row := range s.Rows {
		pooled := "-"
		if row.PgPooled != nil {
			pooled = ciRange(row.PgPooled.P, row.PgPooled.N)
		}
		pr, pg := pctSpread(row.Pr), pctSpread(row.Pg)
		if row.Clustered() { // no labels: no accuracy (below)
			pr, pg, pooled = "-", "-", "-"
		}
		fmt.Fprintf(w, "%-18s %-12s %15s %15s %11s %17s %7d/%d\n", row.Learner, row.Features,
			pr, pg, pooled, count(row.Updates), row.Converged, len(seeds))
	}
	for _, row := range s.Rows {
		if !row.Clustered() {
			continue
		}
		fmt.Fprintf(w, "\n%s on %s, trained by the spontaneous rule (no labels), as clusters of the hidden classes: purity %s on the training cards",
			row.Learner, row.Features, pctSpread(*row.Purity))
		if row.TestPurity != nil {
			fmt.Fprintf(w, ", %s held out", pctSpread(*row.TestPurity))
		}
		fmt.Fprintf(w, "; %s responses used; collapsed to one response in %d of %d seeds.\n", count(*row.Responses), row.Collapsed, len(seeds))
	}
	fmt.Fprintf(w, "\nP_g pooled: the 95%% Wilson interval of all seeds' held-out cards together.\n")
	for _, t := range s.Theory {
		fmt.Fprintf(w, "Theory, %s: separable in %d of %d seeds", t.Features, t.Separable, len(seeds))
		if t.Separable > 0 {
			fmt.Fprintf(w, "; mistake bound (R/γ)² with γ the largest margin of (x, 1): %s; the perceptron made %s mistakes", count(t.Bound), count(t.Mistakes))
		}
		fmt.Fprintln(w, ".")
	}
}
