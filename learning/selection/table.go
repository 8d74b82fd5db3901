package selection

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"mark1/learning/kernel"
)

// Table is a merged search: every cell's right predictions summed over the
// folds, and the best cell.
type Table struct {
	Plan *Plan
	// Right[c][g] counts the right predictions of cell (C[c], Gamma[g])
	// over all folds, out of Plan.Data.Rows; Iterations[c][g] sums its
	// fits' solver iterations.
	Right, Iterations [][]int
	// BestC and BestGamma index the best cell: the most right
	// predictions; among equals the smallest C, then the smallest γ (the
	// simplest model), so the choice does not depend on any order.
	BestC, BestGamma int
}

// Merge sums results (one per task, in task order, as ReadResults and
// RunAll return them) into a Table; the results of a plan split by pair
// are first counted as the SVM counts its machines' votes.
func Merge(p *Plan, results []Result) *Table {
	folds := *p
	if p.Pairs != 0 {
		results = composeVotes(p, results)
		folds.Pairs, folds.Tasks = 0, len(results)
	}
	t := &Table{Plan: p, Right: make([][]int, len(p.C)), Iterations: make([][]int, len(p.C))}
	for c := range t.Right {
		t.Right[c] = make([]int, len(p.Gamma))
		t.Iterations[c] = make([]int, len(p.Gamma))
	}
	for _, r := range results {
		g := folds.Column(r.Task).Gamma
		for c := range p.C {
			t.Right[c][g] += r.Right[c]
			t.Iterations[c][g] += r.Iterations[c]
		}
	}
	order := gammaOrder(p.Gamma)
	for c := range p.C {
		for g := range p.Gamma {
			r, best := t.Right[c][g], t.Right[t.BestC][t.BestGamma]
			switch {
			case r > best:
			case r < best:
				continue
			case p.C[c] < p.C[t.BestC]:
			case p.C[c] == p.C[t.BestC] && order[g] < order[t.BestGamma]:
			default:
				continue
			}
			t.BestC, t.BestGamma = c, g
		}
	}
	return t
}

// gammaOrder ranks the γ values, numbers by value ("scale", "auto" and ""
// after them, in list order).
func gammaOrder(gs []string) []int {
	idx := make([]int, len(gs))
	for i := range idx {
		idx[i] = i
	}
	val := func(i int) float64 {
		if x, err := strconv.ParseFloat(gs[i], 64); err == nil {
			return x
		}
		return math.Inf(1)
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		va, vb := val(a), val(b)
		switch {
		case va < vb:
			return -1
		case va > vb:
			return 1
		}
		return 0
	})
	rank := make([]int, len(gs))
	for r, i := range idx {
		rank[i] = r
	}
	return rank
}

// Accuracy returns cell (c, g)'s cross-validation accuracy in percent.
func (t *Table) Accuracy(c, g int) float64 {
	return 100 * float64(t.Right[c][g]) / float64(t.Plan.Data.Rows)
}

// Log2Gamma returns the base-2 logarithms of the numeric γ values (NaN for
// scale, auto and none).
func (p *Plan) log2Gamma(g int) float64 {
	x, err := strconv.ParseFloat(p.Gamma[g], 64)
	if err != nil {
		return math.NaN()
	}
	return math.Log2(x)
}

// Describe names the learner and its fixed options that have a value in
// one phrase: "svm (kernel=rbf, scale=std)". A kernel's parameter that the
// kernel does not read (degree for rbf) is left out.
func (p *Plan) Describe() string {
	ks, kerr := kernel.Parse(p.Options["kernel"])
	keys := make([]string, 0, len(p.Options))
	for k, v := range p.Options {
		if (k == "gamma" || k == "degree" || k == "coef0") && kerr == nil && !ks.Uses(k) {
			continue
		}
		if v != "" {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var o []string
	for _, k := range keys {
		o = append(o, k+"="+p.Options[k])
	}
	if len(o) == 0 {
		return p.Learner
	}
	return p.Learner + " (" + strings.Join(o, ", ") + ")"
}

// Write prints the table — every cell's C, γ, their base-2 logarithms and
// the cross-validation accuracy — and the best cell in LIBSVM's words.
// The text depends on the plan and the results alone.
func (t *Table) Write(w io.Writer) error {
	p := t.Plan
	fmt.Fprintf(w, "%d-fold cross-validation of %s on %s: %d rows, %d features, %d classes (data sha256 %.12s, fold seed %d)\n",
		p.Folds, p.Describe(), p.Data.Path, p.Data.Rows, p.Data.Dim, p.Data.Classes, p.Data.Fingerprint, p.Seed)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "log2 C\tlog2 gamma\tC\tgamma\taccuracy %%\tright\t\n")
	for c := range p.C {
		for g := range p.Gamma {
			lg := "-"
			if x := p.log2Gamma(g); !math.IsNaN(x) {
				lg = strconv.FormatFloat(x, 'g', 6, 64)
			}
			fmt.Fprintf(tw, "%.6g\t%s\t%.6g\t%s\t%.4f\t%d/%d\t\n", math.Log2(p.C[c]), lg, p.C[c], GammaText(p.Gamma[g]), t.Accuracy(c, g), t.Right[c][g], p.Data.Rows)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if _, err := fmt.Fprintf(w, "best: C = %.6g, gamma = %s: Cross Validation Accuracy = %.6g%%\n",
		p.C[t.BestC], GammaText(p.Gamma[t.BestGamma]), t.Accuracy(t.BestC, t.BestGamma)); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "solver: %d %s in %d fits, %s\n", t.TotalIterations(), p.iterationWord(), len(p.C)*len(p.Gamma)*p.Folds, p.startWords())
	return err
}

// TotalIterations sums the solver iterations of every fit.
func (t *Table) TotalIterations() int {
	n := 0
	for _, row := range t.Iterations {
		for _, v := range row {
			n += v
		}
	}
	return n
}

// iterationWord names the learner's iterations (learning.Result.Epochs).
func (p *Plan) iterationWord() string {
	switch p.Learner {
	case "svm":
		return "SMO iterations"
	case "linear-svm":
		return "passes"
	}
	return "epochs"
}

// startWords says where each fit of a column started.
func (p *Plan) startWords() string {
	if p.WarmStart && len(p.C) > 1 {
		return "each C but the smallest from the solution for the C below it (warm starts)"
	}
	return "each from α = 0"
}
