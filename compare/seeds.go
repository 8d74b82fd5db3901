package compare

import (
	"context"
	"math"

	"mark1/images"
	"mark1/learning"
	"mark1/machine"
)

// A SeedExperiment repeats a comparison for each master seed: a fresh
// machine of Config (its wiring, cards, split, order and noise from the
// seed), the cards Load draws for that seed, and Spec's learners with the
// seed as theirs. Threads bounds the comparisons run at once (0: one per
// core); the results do not depend on it.
type SeedExperiment struct {
	Config  machine.Config
	Spec    Spec
	Load    func(ctx context.Context, seed uint64) (train, test *images.Dataset, err error)
	Threads int
}

// Run runs the comparison for each seed and takes the reports together.
func (e SeedExperiment) Run(ctx context.Context, seeds []uint64) (*SeedsReport, error) {
	reps, err := machine.ForSeeds(ctx, seeds, e.Threads, func(ctx context.Context, seed uint64) (*Report, error) {
		sp := e.Spec
		sp.Seed = seed
		train, test, err := e.Load(ctx, seed)
		if err != nil {
			return nil, err
		}
		return Run(ctx, e.Config, machine.SeedsFrom(seed), train, test, sp, nil)
	})
	if err != nil {
		return nil, err
	}
	return SummariseSeeds(seeds, reps), nil
}

// A SeedsReport is a comparison repeated over seeds: each seed's Report,
// and, per learner and features, the mean and standard deviation over the
// seeds.
type SeedsReport struct {
	Seeds   []uint64        `json:"seeds"`
	Reports []*Report       `json:"reports"`
	Chance  learning.Spread `json:"chance"`
	Pa      learning.Spread `json:"p_a"`
	PaModel learning.Spread `json:"p_a_model"`
	Rows    []SeedsRow      `json:"summary"`
	Theory  []SeedsTheory   `json:"theory_summary"`
}

// A SeedsRow is one learner on one kind of features over the seeds:
// PgPooled is every seed's held-out cards pooled into one accuracy (nil
// without held-out cards), Converged the runs that converged.
type SeedsRow struct {
	Learner   string          `json:"learner"`
	Features  string          `json:"features"`
	Pr        learning.Spread `json:"p_r"`
	Pg        learning.Spread `json:"p_g"`
	PgPooled  *learning.Rate  `json:"p_g_pooled,omitempty"`
	Updates   learning.Spread `json:"updates"`
	Converged int             `json:"converged"`
	// Purity and TestPurity are, for a machine trained by the spontaneous
	// rule (Row.Clusters), its cluster purity on the training and held-out
	// cards over the seeds, Responses the responses it used on the
	// training cards, and Collapsed the seeds in which it collapsed to one
	// response on them; nil and 0 for the other rows (whose P_r and P_g
	// mean what they say).
	Purity     *learning.Spread `json:"purity,omitempty"`
	TestPurity *learning.Spread `json:"test_purity,omitempty"`
	Responses  *learning.Spread `json:"responses_used,omitempty"`
	Collapsed  int              `json:"collapsed,omitempty"`
}

// Clustered reports whether the row is a machine trained without labels.
func (r SeedsRow) Clustered() bool { return r.Purity != nil }

// A SeedsTheory is the convergence theorem's line over the seeds: in how
// many the data were separable, and there the mistake bound (R/γ)² beside
// the perceptron's mistakes.
type SeedsTheory struct {
	Features  string          `json:"features"`
	Separable int             `json:"separable"`
	Bound     learning.Spread `json:"bound"`
	Mistakes  learning.Spread `json:"perceptron_mistakes"`
}

// SummariseSeeds takes reports, one per seed in seeds, together. The
// reports must have the same rows and theory lines (one Spec).
func SummariseSeeds(seeds []uint64, reps []*Report) *SeedsReport {
	s := &SeedsReport{Seeds: seeds, Reports: reps}
	var chance, pa, pam []float64
	for _, r := range reps {
		c := math.NaN()
		if r.Chance != nil {
			c = *r.Chance
		}
		chance, pa, pam = append(chance, c), append(pa, r.Pa), append(pam, r.PaModel)
	}
	s.Chance, s.Pa, s.PaModel = learning.SpreadOf(chance), learning.SpreadOf(pa), learning.SpreadOf(pam)
	for i, row := range reps[0].Rows {
		var pr, pg, up []float64
		out := SeedsRow{Learner: row.Learner, Features: row.Features}
		right, n := 0, 0
		for _, r := range reps {
			x := r.Rows[i]
			pr, up = append(pr, x.Pr), append(up, float64(x.Updates))
			if x.Pg != nil {
				pg = append(pg, *x.Pg)
				right += int(math.Round(*x.Pg * float64(r.Test)))
				n += r.Test
			}
			if x.Converged {
				out.Converged++
			}
		}
		out.Pr, out.Pg, out.Updates = learning.SpreadOf(pr), learning.SpreadOf(pg), learning.SpreadOf(up)
		if row.Clustered() {
			var pur, tpur, used []float64
			for _, r := range reps {
				c := r.Rows[i].Clusters
				pur, used = append(pur, c.Purity), append(used, float64(c.Responses))
				if c.Collapsed {
					out.Collapsed++
				}
				if tc := r.Rows[i].TestClusters; tc != nil {
					tpur = append(tpur, tc.Purity)
				}
			}
			p, u := learning.SpreadOf(pur), learning.SpreadOf(used)
			out.Purity, out.Responses = &p, &u
			if len(tpur) > 0 {
				tp := learning.SpreadOf(tpur)
				out.TestPurity = &tp
			}
		}
		if n > 0 {
			pooled := learning.RateOf(float64(right)/float64(n), n)
			out.PgPooled = &pooled
		}
		s.Rows = append(s.Rows, out)
	}
	for k, t := range reps[0].Theory {
		var bound, mistakes []float64
		out := SeedsTheory{Features: t.Features}
		for _, r := range reps {
			th := r.Theory[k]
			if !th.Separable {
				continue
			}
			out.Separable++
			if th.Bound != nil {
				bound = append(bound, *th.Bound)
			}
			if th.PerceptronMistakes != nil {
				mistakes = append(mistakes, float64(*th.PerceptronMistakes))
			}
		}
		out.Bound, out.Mistakes = learning.SpreadOf(bound), learning.SpreadOf(mistakes)
		s.Theory = append(s.Theory, out)
	}
	return s
}
