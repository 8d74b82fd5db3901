package compare

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"mark1/internal/base/jsonnum"
	"mark1/learning"
	"mark1/machine"
)

// WriteText writes the report as the table mark1 compare prints: a line
// per learner and features, the pairwise rates, the spontaneous rule's
// clusters, the footnotes, the notes and the convergence theorem's lines.
func (rep *Report) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	rep.writeText(ew)
	return ew.err
}

func (rep *Report) writeText(w io.Writer) {
	if rep.Preset != nil {
		fmt.Fprintf(w, "Comparison on %s: %d classes, %d training cards, %d held out; machine preset %q; kernel %s.\n\n",
			rep.Data, len(rep.Classes), rep.Train, rep.Test, *rep.Preset, rep.Kernel)
	} else {
		fmt.Fprintf(w, "Comparison on %s: %d classes, %d training rows, %d held out; raw features; kernel %s.\n\n",
			rep.Data, len(rep.Classes), rep.Train, rep.Test, rep.Kernel)
	}
	var facts []string
	if rep.Chance != nil {
		facts = append(facts, fmt.Sprintf("Chance (always the most common held-out class): %.1f%%.", 100**rep.Chance))
	}
	if rep.Preset != nil {
		facts = append(facts, fmt.Sprintf("P_a, A-units firing per card: %.1f%% (the 1958 model at each card's lit area: %.1f%%).", 100*rep.Pa, 100*rep.PaModel))
	}
	if len(facts) > 0 {
		fmt.Fprintf(w, "%s\n\n", strings.Join(facts, " "))
	}
	fmt.Fprintf(w, "%-18s %-12s %7s %7s %9s %8s %6s %9s %7s %9s %12s %9s\n",
		"learner", "features", "P_r", "P_g", "P_g 95%CI", "updates", "epochs", "margin", "SVs", "time", "machine time", "pulses")
	for _, r := range rep.Rows {
		rep.writeRow(w, r)
	}
	rep.writeClusterRows(w)
	if len(rep.Classes) > 2 {
		fmt.Fprintf(w, "\nPairwise, 1958 (P_r, P_g: the right class scored above each other class, one at a time; chance 50%%;\none-vs-one SVMs score by votes):")
		for _, r := range rep.Rows {
			if r.PrPairwise != nil {
				fmt.Fprintf(w, "\n  %-18s %-12s %6.1f%% %7s", r.Learner, r.Features, 100**r.PrPairwise, num(scaled(r.PgPairwise), "%.1f%%"))
			}
		}
		fmt.Fprintln(w)
	} else {
		fmt.Fprintf(w, "\nFor two classes 1958's pairwise P_r and P_g are these accuracies.\n")
	}
	if rep.PrCards < rep.Train {
		fmt.Fprintf(w, "\nP_r on a seeded sample of %d of the %d training cards, the same for every learner (a sample size of 0 takes all).", rep.PrCards, rep.Train)
	}
	rep.writeNotes(w)
}

// writeRow writes r's line of the table.
func (rep *Report) writeRow(w io.Writer, r Row) {
	mtime := "-"
	if r.MachineSeconds != nil {
		mtime = clock(*r.MachineSeconds)
	}
	conv := " "
	if !r.Converged {
		conv = "*"
	}
	ci := "-"
	if r.Pg != nil {
		ci = learning.RateOf(*r.Pg, rep.Test).Interval()
	}
	pr, pg := fmt.Sprintf("%.1f%%", 100*r.Pr), num(scaled(r.Pg), "%.1f%%")
	if r.Clustered() { // no labels: no accuracy (writeClusterRows)
		pr, pg, ci = "-", "-", "-"
	}
	fmt.Fprintf(w, "%-18s %-12s %7s %7s %9s %8d %5d%s %9s %7s %9s %12s %9s\n",
		r.Learner, r.Features, pr, pg, ci, r.Updates, r.Epochs, conv,
		num(r.Margin, "%.4f"), num(r.SupportVectors, "%d"), time.Duration(r.Seconds*1e9).Round(time.Microsecond), mtime, num(r.Pulses, "%d"))
}

// writeClusterRows says, for the machines trained by the spontaneous rule,
// how their responses split the cards against the labels they never saw:
// what they did in their own words, in place of P_r and P_g.
func (rep *Report) writeClusterRows(w io.Writer) {
	header := false
	for _, r := range rep.Rows {
		if !r.Clustered() {
			continue
		}
		if !header {
			fmt.Fprintf(w, "\nSpontaneous learning uses no labels: its P_r, P_g and margin would count a response as the class of its number.\n")
			fmt.Fprintf(w, "Its responses as clusters of the hidden classes (purity: each response counted as its commonest class; updates: every card shown):\n")
			header = true
		}
		fmt.Fprintf(w, "  %-18s %-12s on %d training cards %s", r.Learner, r.Features, r.Clusters.Cards, clusterWords(*r.Clusters))
		if r.TestClusters != nil {
			fmt.Fprintf(w, "; on %d held out %s", r.TestClusters.Cards, clusterWords(*r.TestClusters))
		}
		fmt.Fprintln(w, ".")
	}
}

// clusterWords says how responses split cards: "purity 50.0% (chance
// 50.0%), 1 of 2 responses used: collapsed".
func clusterWords(c machine.Clusters) string {
	s := fmt.Sprintf("purity %.1f%% (chance %.1f%%), %d of %d responses used", 100*c.Purity, 100*c.Chance, c.Responses, len(c.Class))
	if c.Collapsed {
		s += ": collapsed"
	}
	return s
}

// writeNotes writes the table's footnotes, the report's notes and the
// convergence theorem's lines.
func (rep *Report) writeNotes(w io.Writer) {
	fmt.Fprintf(w, "\n* stopped at a limit, not converged. updates: mistakes corrected (perceptrons, hardware), adaptations (ADALINEs: every card),\nsteps (batch GD) or solver iterations (SVMs). pulses: the Mark I's motor pulses; the memistor ADALINE's plating pulses, one per adaptation.\n")
	fmt.Fprintf(w, "margin: smallest over the binary machines. Perceptrons, hardware, memistor ADALINE: the geometric margin min y·f(x)/‖w‖ on the training data\n")
	fmt.Fprintf(w, "(negative: a training card on the wrong side). SVMs: 1/‖w‖, the margin they maximize (the same when no card lies inside it).\n")
	for _, n := range rep.Notes {
		fmt.Fprintf(w, "Note: %s.\n", n)
	}
	for _, t := range rep.Theory {
		if !t.Separable {
			fmt.Fprintf(w, "Theory, %s: %s.\n", t.Features, t.Note)
			continue
		}
		fmt.Fprintf(w, "Theory, %s: separable; in the perceptron's space (x, 1) the largest margin γ = %s (hard-margin SVM without a bias term there), R = max ‖(x, 1)‖ = %s, mistake bound (R/γ)² = %s", t.Features, num(t.Margin, "%.4g"), num(t.Radius, "%.4g"), num(t.Bound, "%.4g"))
		if t.PerceptronMistakes != nil {
			fmt.Fprintf(w, "; the perceptron made %d mistakes", *t.PerceptronMistakes)
		}
		fmt.Fprintln(w, ".")
	}
}

// WriteCSV writes the report's rows as CSV with a header line; what does
// not apply to a row is an empty cell.
func (rep *Report) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"learner", "features", "p_r", "p_g", "updates", "epochs", "converged", "margin", "support_vectors", "bounded_svs", "seconds", "machine_seconds", "pulses", "p_r_pairwise", "p_g_pairwise",
		"purity", "test_purity", "responses_used", "test_responses_used", "collapsed", "test_collapsed"})
	for _, r := range rep.Rows {
		cw.Write(r.csvCells())
	}
	cw.Flush()
	return cw.Error()
}

// csvCells are r's cells in WriteCSV's columns.
func (r Row) csvCells() []string {
	f := func(v float64) string { return jsonnum.Cell(&v, 'g', 6) }
	fp := func(v *float64) string { return jsonnum.Cell(v, 'g', 6) }
	opt := func(s string) string { // "-", not applicable: an empty cell
		if s == "-" {
			return ""
		}
		return s
	}
	pr, pg := f(r.Pr), fp(r.Pg)
	if r.Clustered() { // no labels: no accuracy; the cluster cells say what it did
		pr, pg = "", ""
	}
	cells := []string{r.Learner, r.Features, pr, pg, strconv.Itoa(r.Updates), strconv.Itoa(r.Epochs),
		strconv.FormatBool(r.Converged), fp(r.Margin), opt(num(r.SupportVectors, "%d")), opt(num(r.BoundedSVs, "%d")),
		f(r.Seconds), fp(r.MachineSeconds), opt(num(r.Pulses, "%d")), fp(r.PrPairwise), fp(r.PgPairwise), "", "", "", "", "", ""}
	// The spontaneous rule's clusters: purity, responses used and collapse
	// on the training and held-out cards, empty for the other rows.
	for k, c := range []*machine.Clusters{r.Clusters, r.TestClusters} {
		if c != nil {
			cells[15+k] = jsonnum.Cell(&c.Purity, 'g', 6)
			cells[17+k] = strconv.Itoa(c.Responses)
			cells[19+k] = strconv.FormatBool(c.Collapsed)
		}
	}
	return cells
}

// WriteText writes the comparisons repeated over seeds as mark1 compare
// --seeds prints them: per learner and features, the mean ± standard
// deviation of P_r, P_g and updates, how many runs converged, and the
// theory lines' bounds beside the perceptron's mistakes.
func (s *SeedsReport) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	r0, seeds := s.Reports[0], s.Seeds
	preset := "raw features"
	if r0.Preset != nil {
		preset = fmt.Sprintf("preset %q", *r0.Preset)
	}
	fmt.Fprintf(ew, "Comparison on %s over %d seeds (%d to %d; each seed a fresh machine, cards and split): %d classes, %d training cards, %d held out per seed; %s; kernel %s.\n",
		r0.Data, len(seeds), seeds[0], seeds[len(seeds)-1], len(r0.Classes), r0.Train, r0.Test, preset, r0.Kernel)
	fmt.Fprintf(ew, "Chance %s; P_a %s (the 1958 model at each card's lit area: %s). Mean ± standard deviation over seeds.\n\n",
		s.Chance.Percent(), s.Pa.Percent(), s.PaModel.Percent())
	fmt.Fprintf(ew, "%-18s %-12s %15s %15s %11s %17s %10s\n", "learner", "features", "P_r", "P_g", "P_g pooled", "updates", "converged")
	for _, row := range s.Rows {
		pr, pg, pooled := row.Pr.Percent(), row.Pg.Percent(), "-"
		if row.PgPooled != nil {
			pooled = row.PgPooled.Interval()
		}
		if row.Clustered() { // no labels: no accuracy (below)
			pr, pg, pooled = "-", "-", "-"
		}
		fmt.Fprintf(ew, "%-18s %-12s %15s %15s %11s %17s %7d/%d\n", row.Learner, row.Features,
			pr, pg, pooled, row.Updates, row.Converged, len(seeds))
	}
	for _, row := range s.Rows {
		if !row.Clustered() {
			continue
		}
		fmt.Fprintf(ew, "\n%s on %s, trained by the spontaneous rule (no labels), as clusters of the hidden classes: purity %s on the training cards",
			row.Learner, row.Features, row.Purity.Percent())
		if row.TestPurity != nil {
			fmt.Fprintf(ew, ", %s held out", row.TestPurity.Percent())
		}
		fmt.Fprintf(ew, "; %s responses used; collapsed to one response in %d of %d seeds.\n", *row.Responses, row.Collapsed, len(seeds))
	}
	fmt.Fprintf(ew, "\nP_g pooled: the 95%% Wilson interval of all seeds' held-out cards together.\n")
	for _, t := range s.Theory {
		fmt.Fprintf(ew, "Theory, %s: separable in %d of %d seeds", t.Features, t.Separable, len(seeds))
		if t.Separable > 0 {
			fmt.Fprintf(ew, "; mistake bound (R/γ)² with γ the largest margin of (x, 1): %s; the perceptron made %s mistakes", t.Bound, t.Mistakes)
		}
		fmt.Fprintln(ew, ".")
	}
	return ew.err
}

// errWriter keeps the first error of its writes and writes nothing after
// it, so that a printer checks once at its end.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

// num formats *v, or "-" when v is nil (not applicable).
func num[T int | int64 | float64](v *T, format string) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf(format, *v)
}

// scaled returns 100·*v, or nil.
func scaled(v *float64) *float64 {
	if v == nil {
		return nil
	}
	p := 100 * *v
	return &p
}

// clock formats simulated seconds as 1h02m03s.
func clock(s float64) string {
	return time.Duration(s * float64(time.Second)).Round(time.Second).String()
}
