package cli

import (
	"fmt"
	"io"
	"math"

	"mark1/compare"
)

// printSeedsReport prints comparisons repeated over seeds: per learner and
// features, the mean ± standard deviation of P_r, P_g and updates, how
// many runs converged, and the theory lines' bounds beside the
// perceptron's mistakes.
func printSeedsReport(w io.Writer, seeds []uint64, reps []*compare.Report) {
	r0 := reps[0]
	preset := "raw features"
	if r0.Preset != nil {
		preset = fmt.Sprintf("preset %q", *r0.Preset)
	}
	fmt.Fprintf(w, "Comparison on %s over %d seeds (%d to %d; each seed a fresh machine, cards and split): %d classes, %d training cards, %d held out per seed; %s; kernel %s.\n",
		r0.Data, len(seeds), seeds[0], seeds[len(seeds)-1], len(r0.Classes), r0.Train, r0.Test, preset, r0.Kernel)
	var chance, pa, pam []float64
	for _, r := range reps {
		c := math.NaN()
		if r.Chance != nil {
			c = *r.Chance
		}
		chance, pa, pam = append(chance, c), append(pa, r.Pa), append(pam, r.PaModel)
	}
	fmt.Fprintf(w, "Chance %s; P_a %s (the 1958 model at each card's lit area: %s). Mean ± standard deviation over seeds.\n\n",
		spreadOf(chance).pct(), spreadOf(pa).pct(), spreadOf(pam).pct())
	fmt.Fprintf(w, "%-18s %-12s %15s %15s %11s %17s %10s\n", "learner", "features", "P_r", "P_g", "P_g pooled", "updates", "converged")
	for i, row := range r0.Rows {
		var pr, pg, up []float64
		conv, right, n := 0, 0, 0
		for _, r := range reps {
			x := r.Rows[i]
			pr, up = append(pr, x.Pr), append(up, float64(x.Updates))
			if x.Pg != nil {
				pg = append(pg, *x.Pg)
				right += int(math.Round(*x.Pg * float64(r.Test)))
				n += r.Test
			}
			if x.Converged {
				conv++
			}
		}
		pooled := "-"
		if n > 0 {
			pooled = ciRange(float64(right)/float64(n), n)
		}
		fmt.Fprintf(w, "%-18s %-12s %15s %15s %11s %17s %7d/%d\n", row.Learner, row.Features,
			spreadOf(pr).pct(), spreadOf(pg).pct(), pooled, spreadOf(up).count(), conv, len(reps))
	}
	fmt.Fprintf(w, "\nP_g pooled: the 95%% Wilson interval of all seeds' held-out cards together.\n")
	for k, t := range r0.Theory {
		var bound, mistakes []float64
		sep := 0
		for _, r := range reps {
			th := r.Theory[k]
			if !th.Separable {
				continue
			}
			sep++
			if th.Bound != nil {
				bound = append(bound, *th.Bound)
			}
			if th.PerceptronMistakes != nil {
				mistakes = append(mistakes, float64(*th.PerceptronMistakes))
			}
		}
		fmt.Fprintf(w, "Theory, %s: separable in %d of %d seeds", t.Features, sep, len(reps))
		if sep > 0 {
			fmt.Fprintf(w, "; mistake bound (R/γ)² with γ the largest margin of (x, 1): %s; the perceptron made %s mistakes", spreadOf(bound).count(), spreadOf(mistakes).count())
		}
		fmt.Fprintln(w, ".")
	}
}
