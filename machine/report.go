package machine

import (
	"math"

	"mark1/associator"
	"mark1/internal/base/jsonnum"
	"mark1/learning"
)

// A Report is what a training session measured, as train prints it and
// --json writes it: the accuracies with their 95% Wilson intervals, the
// 1958 pairwise measures, P_a beside its model, and what the motors did.
type Report struct {
	// Summary is the session's outcome in words (Session.Summary).
	Summary string `json:"summary"`
	Status  string `json:"status"`
	Epochs  int    `json:"epochs"`
	// Pr is the accuracy on the training cards, Pg on the held-out ones
	// (nil without any); Chance is the held-out cards' chance level.
	Pr     learning.Rate  `json:"pr"`
	Pg     *learning.Rate `json:"pg"`
	Chance *float64       `json:"chance"`
	// PairwisePr and PairwisePg are PR58's P_r and P_g: the right class
	// preferred to each other class, one at a time (Machine.Pairwise); for
	// two classes they equal Pr and Pg. PairwisePg is nil without
	// held-out cards.
	PairwisePr float64  `json:"pairwise_pr"`
	PairwisePg *float64 `json:"pairwise_pg"`
	Classes    int      `json:"classes"`
	// Pa is P_a on the held-out cards and PaModel the 1958 model's at each
	// card's lit area (nil without held-out cards); Model names the
	// model's parameters.
	Pa      *float64 `json:"pa"`
	PaModel *float64 `json:"pa_model"`
	Model   string   `json:"model"`
	// Pulses and Saturations count the motors' pulses and those against an
	// end stop; AtStop of Pots pots rest at a stop.
	Pulses      int64 `json:"pulses"`
	Saturations int64 `json:"saturations"`
	AtStop      int   `json:"at_stop"`
	Pots        int   `json:"pots"`
	// Seconds is the simulated machine time, at PresentSeconds a card and
	// PulseSeconds a pulse.
	Seconds        float64 `json:"seconds"`
	PresentSeconds float64 `json:"present_seconds"`
	PulseSeconds   float64 `json:"pulse_seconds"`
	// Spontaneous learning uses no labels: Clusters and TestClusters say
	// how its responses split the training and the held-out cards, against
	// the labels it never saw (nil for the other rules, TestClusters
	// without held-out cards).
	Clusters     *Clusters `json:"clusters,omitempty"`
	TestClusters *Clusters `json:"test_clusters,omitempty"`
}

// Report returns what the session has measured so far. It panics before
// the first epoch (misuse: there is nothing to report).
func (s *Session) Report() Report {
	m := s.m
	if len(m.History) == 0 {
		panic("machine: Report before the first epoch")
	}
	last := m.History[len(m.History)-1]
	r := Report{
		Summary: s.Summary(), Status: s.status.String(), Epochs: last.Epoch,
		Pr: learning.RateOf(last.Pr, s.train.Len()), Chance: jsonnum.Of(learning.Chance(s.test.Y)),
		PairwisePr: m.Pairwise(s.train.X, s.train.Y), Classes: len(m.Classes),
		Model:  associator.ModelOf(m.Config.Associator).String(),
		Pulses: last.Pulses, Saturations: last.Saturations, Pots: m.Bank.Len(),
		Seconds: last.Seconds, PresentSeconds: m.Config.PresentSeconds, PulseSeconds: m.Config.Motors.PulseSeconds,
	}
	if last.Pg != nil {
		pg := learning.RateOf(*last.Pg, s.test.Len())
		r.Pg = &pg
	}
	if s.test.Len() > 0 {
		pw := m.Pairwise(s.test.X, s.test.Y)
		pa := SummarisePa(m.MeasurePa(s.test.X))
		r.PairwisePg, r.Pa, r.PaModel = &pw, jsonnum.Of(pa.Mean), jsonnum.Of(pa.Model)
	}
	for i := range m.Bank.Len() {
		if m.Bank.AtStop(i) {
			r.AtStop++
		}
	}
	if s.recipe.Rule == Spontaneous {
		c := m.ClustersOf(s.train.X, s.train.Y)
		r.Clusters = &c
		if s.test.Len() > 0 {
			tc := m.ClustersOf(s.test.X, s.test.Y)
			r.TestClusters = &tc
		}
	}
	return r
}

// A SeedSummary is a SeedExperiment's runs taken together: how many
// converged, and each quantity's mean and standard deviation over the
// seeds; PgPooled is every seed's held-out cards pooled into one accuracy
// (nil without held-out cards).
type SeedSummary struct {
	Runs        []SeedRun       `json:"runs"`
	Converged   int             `json:"converged"`
	Epochs      learning.Spread `json:"epochs"`
	LastMistake learning.Spread `json:"last_mistake"`
	Pr          learning.Spread `json:"pr"`
	Pg          learning.Spread `json:"pg"`
	Pa          learning.Spread `json:"pa"`
	PaModel     learning.Spread `json:"pa_model"`
	PgPooled    *learning.Rate  `json:"pg_pooled,omitempty"`
	// Purity and Collapsed, for machines trained without labels
	// (spontaneous): the spread of the runs' cluster purity, and how many
	// collapsed to one response; nil and 0 for the other rules.
	Purity    *learning.Spread `json:"purity,omitempty"`
	Collapsed int              `json:"collapsed,omitempty"`
}

// SummariseSeeds takes runs (one per seed) together.
func SummariseSeeds(runs []SeedRun) SeedSummary {
	s := SeedSummary{Runs: runs}
	var pr, pg, ep, lastM, pa, pam []float64
	right, n := 0, 0
	for _, r := range runs {
		pr, pg, ep = append(pr, r.Pr), append(pg, r.Pg), append(ep, float64(r.Epochs))
		lastM, pa, pam = append(lastM, float64(r.LastMistake)), append(pa, r.Pa), append(pam, r.PaModel)
		if r.Status == Converged {
			s.Converged++
		}
		if r.Test > 0 && !math.IsNaN(r.Pg) {
			right += int(math.Round(r.Pg * float64(r.Test)))
			n += r.Test
		}
	}
	s.Epochs, s.LastMistake = learning.SpreadOf(ep), learning.SpreadOf(lastM)
	s.Pr, s.Pg, s.Pa, s.PaModel = learning.SpreadOf(pr), learning.SpreadOf(pg), learning.SpreadOf(pa), learning.SpreadOf(pam)
	if n > 0 {
		pooled := learning.RateOf(float64(right)/float64(n), n)
		s.PgPooled = &pooled
	}
	var purity []float64
	for _, r := range runs {
		if c := r.Clusters; c != nil {
			purity = append(purity, c.Purity)
			if c.Collapsed {
				s.Collapsed++
			}
		}
	}
	if len(purity) > 0 {
		p := learning.SpreadOf(purity)
		s.Purity = &p
	}
	return s
}
