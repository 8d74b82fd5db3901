package machine

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"mark1/learning"
)

// The reports' text, as mark1 train and eval print them: each printer
// builds its text and writes it at once, returning the write's error.

// WriteText writes the report as a paragraph: the summary, the rates with
// their 95% intervals (or, trained without labels, the clusters), P_a, the
// motors and the simulated time; wall, if positive, is the run's own time.
func (r Report) WriteText(w io.Writer, wall time.Duration) error {
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s.\n", capital(r.Summary))
	if r.Clusters != nil {
		fmt.Fprintf(&b, "  Spontaneous learning uses no labels; its responses are measured as clusters of the hidden classes:\n")
		r.Clusters.writeSplit(&b, "Trained on:")
		if r.TestClusters != nil {
			r.TestClusters.writeSplit(&b, "Held out:  ")
		}
	} else {
		r.writeRates(&b)
	}
	if r.Pa != nil {
		fmt.Fprintf(&b, "  P_a, on the held-out cards:           %s of the A-units fire (the 1958 model for %s at each card's lit area: %s)\n",
			pct(r.Pa), r.Model, pct(r.PaModel))
	}
	fmt.Fprintf(&b, "  Motors: %d pulses, %d against end stops; %d of %d pots rest at a stop.\n", r.Pulses, r.Saturations, r.AtStop, r.Pots)
	fmt.Fprintf(&b, "  Simulated machine time %s (%.3g s per card, %.3g s per pulse)", clock(r.Seconds), r.PresentSeconds, r.PulseSeconds)
	if wall > 0 {
		fmt.Fprintf(&b, "; this run took %s", wall.Round(time.Millisecond))
	}
	b.WriteString(".\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// writeSplit writes how responses split the cards c counts, labelled what.
func (c *Clusters) writeSplit(w io.Writer, what string) {
	collapse := ""
	if c.Collapsed {
		collapse = "; it collapsed to one response"
	}
	fmt.Fprintf(w, "  %s %d cards split with purity %.1f%% (each response counted as its commonest hidden class; chance %.1f%%): %d of %d responses used%s.\n",
		what, c.Cards, 100*c.Purity, 100*c.Chance, c.Responses, len(c.Class), collapse)
}

// writeRates writes the accuracies of a machine trained with labels.
func (r Report) writeRates(w io.Writer) {
	fmt.Fprintf(w, "  P_r, on the cards it was trained on:  %s\n", r.Pr)
	if r.Pg != nil {
		fmt.Fprintf(w, "  P_g, on %3d cards it never saw:       %s; chance %s\n", r.Pg.N, *r.Pg, pct(r.Chance))
	}
	fmt.Fprintf(w, "  P_r and P_g pairwise, 1958:           %.1f%%", 100*r.PairwisePr)
	if r.PairwisePg != nil {
		fmt.Fprintf(w, ", %.1f%%", 100**r.PairwisePg)
	}
	if r.Classes == 2 {
		fmt.Fprintln(w, " (for two classes the same as above)")
	} else {
		fmt.Fprintln(w, " (the right class preferred to each other class, one at a time; chance 50%)")
	}
}

// WriteText writes the runs over seeds: a row per seed, then the mean ±
// standard deviation of each measure.
func (s SeedSummary) WriteText(w io.Writer) error {
	var b strings.Builder
	r0 := s.Runs[0]
	fmt.Fprintf(&b, "Training over %d seeds (each a fresh machine, cards, split and order); %d training cards and %d held out per seed.\n\n",
		len(s.Runs), r0.Train, r0.Test)
	fmt.Fprintf(&b, "%6s  %-12s %6s %8s %11s %7s %7s %7s %9s\n", "seed", "ended", "epochs", "trials", "last corr.", "P_r", "P_g", "P_a", "P_a model")
	for _, r := range s.Runs {
		pgs := "-"
		if !math.IsNaN(r.Pg) {
			pgs = fmt.Sprintf("%.1f%%", 100*r.Pg)
		}
		fmt.Fprintf(&b, "%6d  %-12s %6d %8d %11d %6.1f%% %7s %6.1f%% %8.1f%%\n", r.Seed, r.Status, r.Epochs, r.Trials, r.LastMistake, 100*r.Pr, pgs, 100*r.Pa, 100*r.PaModel)
	}
	fmt.Fprintf(&b, "\nOver %d seeds (mean ± standard deviation): converged %d of %d; epochs %s; last correction at trial %s;\n",
		len(s.Runs), s.Converged, len(s.Runs), s.Epochs, s.LastMistake)
	fmt.Fprintf(&b, "  P_r %s; P_g %s", s.Pr.Percent(), s.Pg.Percent())
	if p := s.PgPooled; p != nil {
		// All seeds' held-out cards pooled: one Wilson interval on the
		// total, beside the spread between seeds.
		fmt.Fprintf(&b, " (all %d held-out cards pooled: %s)", p.N, *p)
	}
	fmt.Fprintf(&b, ";\n  P_a %s (the 1958 model at each card's lit area: %s).\n", s.Pa.Percent(), s.PaModel.Percent())
	if p := s.Purity; p != nil {
		fmt.Fprintf(&b, "Trained without labels (spontaneous): P_r and P_g above count a response as the class of its number, which means nothing here;\n  as clusters of the hidden classes, purity %s, collapsed to one response in %d of %d seeds.\n",
			p.Percent(), s.Collapsed, len(s.Runs))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteText writes the evaluation: the accuracy with its 95% interval,
// the pairwise rate, the clusters of a machine trained without labels, the
// confusion matrix and the classes the cards have none of.
func (e *Evaluation) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s on %s: accuracy %s on %d cards; chance %.1f%%\n", e.Machine, e.Data, learning.RateOf(e.Accuracy, e.Cards), e.Cards, 100*e.Chance)
	fmt.Fprintf(&b, "  pairwise, 1958: %.1f%% of (card, other class) pairs prefer the card's class; chance 50%%\n\n", 100*e.Pairwise)
	if c := e.Clusters; c != nil {
		collapse := ""
		if c.Collapsed {
			collapse = "; it collapsed to one response"
		}
		fmt.Fprintf(&b, "  trained without labels (spontaneous): the accuracy above counts a response as the class of its number;\n  as clusters of the classes, purity %.1f%% (each response counted as its commonest class; chance %.1f%%), %d of %d responses used%s\n\n",
			100*c.Purity, 100*c.Chance, c.Responses, len(c.Class), collapse)
	}
	e.writeConfusion(&b)
	if len(e.Empty) > 0 {
		fmt.Fprintf(&b, "\nNote: %s has no cards of the machine's class(es) %s; their rows are empty.\n", e.Data, strings.Join(e.Empty, ", "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeConfusion writes the confusion matrix ([true][answered]) with a
// last column of the cards given no class (none).
func (e *Evaluation) writeConfusion(w io.Writer) {
	width := 6
	for _, c := range e.Classes {
		width = max(width, len(c)+1)
	}
	fmt.Fprintf(w, "%*s  predicted →\n%*s", width, "true ↓", width, "")
	for _, c := range e.Classes {
		fmt.Fprintf(w, " %*s", width, c)
	}
	fmt.Fprintf(w, " %*s\n", width, "none")
	for i, row := range e.Confusion {
		fmt.Fprintf(w, "%*s", width, e.Classes[i])
		for _, n := range row {
			fmt.Fprintf(w, " %*d", width, n)
		}
		fmt.Fprintf(w, " %*d\n", width, e.NoClass[i])
	}
}

// pct formats a fraction as "71.9%", or "-" when nil.
func pct(p *float64) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100**p)
}

// clock formats simulated seconds as 1h02m03s.
func clock(s float64) string {
	return time.Duration(s * float64(time.Second)).Round(time.Second).String()
}

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// WriteHeader writes what the session trains on what, before its first
// epoch: the machine, the data (named data), the faults, the four layers'
// couplings, the epoch a resumed run goes on after (resumed names its
// file) and, if table, the head of EpochLine's table.
func (s *Session) WriteHeader(w io.Writer, data, resumed string, table bool) error {
	var b strings.Builder
	m, cfg := s.m, s.m.Config
	fmt.Fprintf(&b, "Training a %q machine (%d S-units, %d A-units, %d of %d R-units in use, %d pots) on %s:\n",
		cfg.Preset, m.Retina.Cells(), len(m.Plugboard.Units), m.Layer.Used(), m.Layer.Config().Units, m.Layer.Pots(), data)
	fmt.Fprintf(&b, "  %d classes (%s), %d training cards, %d held out.\n", len(m.Classes), classList(m.Classes), s.train.Len(), s.test.Len())
	if !cfg.Faults.IsZero() {
		fmt.Fprintf(&b, "  Faults: %s (%d dead A-units).\n", cfg.Faults, m.Plugboard.Dead())
	}
	if c := m.Couplings; c != nil {
		fmt.Fprintf(&b, "  Four layers: %d A_II units learned couplings from A_I over %d cards in sequence (η = %g, δ = %g); the R-units see A_II.\n",
			c.Units, c.Steps, cfg.Coupling.Eta, cfg.Coupling.Delta)
	}
	if done := len(m.History); done > 0 {
		fmt.Fprintf(&b, "  Resuming %s after epoch %d of at most %d.\n", resumed, done, s.recipe.MaxEpochs)
	}
	switch {
	case !table:
	case s.recipe.Rule == Spontaneous:
		// No labels: each card moves its own response's pots, and no
		// response is a mistake; the epoch's line says how the responses
		// split the cards against the hidden classes.
		fmt.Fprintf(&b, "\n  Spontaneous learning: every card moves the pots of the response it gets; no labels, no mistakes.\n")
		fmt.Fprintf(&b, "  After each epoch, the responses as clusters of the hidden classes (purity: each response counted as its commonest class):\n")
		fmt.Fprintf(&b, "\n  epoch  purity  held out  responses used  machine time  pulses\n")
	default:
		fmt.Fprintf(&b, "\n  epoch  mistakes   P_r     P_g    machine time  pulses\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// EpochLine returns epoch e's line of the table WriteHeader heads and a
// note for a progress line: the mistakes and the rates or, trained without
// labels, the purity of the responses on the training and held-out cards
// and the responses used, against the labels it never saw. brief asks for
// the note alone, measuring nothing ("no labels" without labels).
func (s *Session) EpochLine(e Epoch, brief bool) (line, note string) {
	spont := s.recipe.Rule == Spontaneous
	switch {
	case brief && spont:
		return "", "no labels"
	case brief:
		return "", fmt.Sprintf("%d mistakes", e.Mistakes)
	case !spont:
		return fmt.Sprintf("  %5d  %4d/%-4d %6.1f%%  %6s  %12s  %d\n", e.Epoch, e.Mistakes, s.train.Len(),
			100*e.Pr, pct(e.Pg), clock(e.Seconds), e.Pulses), fmt.Sprintf("%d mistakes", e.Mistakes)
	}
	c := s.m.ClustersOf(s.train.X, s.train.Y)
	held := "-"
	if s.test.Len() > 0 {
		held = fmt.Sprintf("%.1f%%", 100*s.m.ClustersOf(s.test.X, s.test.Y).Purity)
	}
	used := fmt.Sprintf("%d of %d", c.Responses, len(c.Class))
	if c.Collapsed {
		used += ", collapsed"
	}
	line = fmt.Sprintf("  %5d  %5.1f%%  %8s  %-14s  %12s  %d\n", e.Epoch, 100*c.Purity, held, used, clock(e.Seconds), e.Pulses)
	return line, fmt.Sprintf("purity %.1f%%", 100*c.Purity)
}

// classList names classes, the first two and the last of more than ten.
func classList(c []string) string {
	if len(c) <= 10 {
		return strings.Join(c, ", ")
	}
	return fmt.Sprintf("%s, %s, … %s", c[0], c[1], c[len(c)-1])
}

// WriteAnswers writes each answer on a line, as mark1 predict prints it:
// the file, the class (or "(no class)"), P_a, and each R-unit's sum and
// whether it fires.
func WriteAnswers(w io.Writer, answers []Answer) error {
	var b strings.Builder
	for _, a := range answers {
		label := "(no class)"
		if a.Class != nil {
			label = *a.Class
		}
		fmt.Fprintf(&b, "%s: %s   P_a %.1f%%   ", a.File, label, 100*a.Pa)
		for u, r := range a.RUnits {
			state := "off"
			if r.On {
				state = "ON"
			}
			sep := ", "
			if u == 0 {
				sep = ""
			}
			fmt.Fprintf(&b, "%sR%d %+.3f %s", sep, u, r.Sum, state)
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
