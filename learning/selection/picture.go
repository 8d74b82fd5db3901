package selection

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
)

// A Picture is a table as plain values to draw: the accuracy (in percent)
// over log2 C, and over log2 γ when every γ is a number (a Surface), else
// one line a γ against log2 C (Lines).
type Picture struct {
	Title, Best string
	// LogC is log2 C, increasing.
	LogC []float64
	// Surface: LogGamma is log2 γ, increasing, and Accuracy[r][c] the
	// accuracy at (LogC[c], LogGamma[r]); BestC and BestGamma are the best
	// cell's coordinates.
	Surface          bool
	LogGamma         []float64
	Accuracy         [][]float64
	BestC, BestGamma float64
	// Lines: one a γ (its legend in Names, "γ 0.5"; "" for a learner
	// without γ), the accuracy at each LogC.
	Names []string
	Lines [][]float64
}

// Picture returns t's values for a picture. It is an error when there is
// nothing to draw: a single C and a single γ, or a single C with numeric γ
// values (no contour).
func (t *Table) Picture() (*Picture, error) {
	p := t.Plan
	g := "-"
	if s := p.Gamma[t.BestGamma]; s != "" {
		g = s
	}
	pic := &Picture{
		Title: fmt.Sprintf("%d-fold cross-validation accuracy of %s on %s", p.Folds, p.Learner, p.Data.Path),
		Best:  fmt.Sprintf("best: C = %.6g, γ = %s, %.4g%%", p.C[t.BestC], g, t.Accuracy(t.BestC, t.BestGamma)),
	}
	ci := increasing(len(p.C), func(i int) float64 { return math.Log2(p.C[i]) })
	for _, c := range ci {
		pic.LogC = append(pic.LogC, math.Log2(p.C[c]))
	}
	var gcol []int // columns with a numeric γ
	var lg []float64
	for k, s := range p.Gamma {
		if v, err := strconv.ParseFloat(s, 64); err == nil {
			gcol, lg = append(gcol, k), append(lg, math.Log2(v))
		}
	}
	if len(gcol) < 2 || len(gcol) != len(p.Gamma) {
		if len(p.C) < 2 {
			return nil, errors.New("a single value of C and of γ: nothing to draw")
		}
		for k := range p.Gamma {
			line := make([]float64, len(ci))
			for i, c := range ci {
				line[i] = t.Accuracy(c, k)
			}
			pic.Names, pic.Lines = append(pic.Names, legend(p.Gamma[k])), append(pic.Lines, line)
		}
		return pic, nil
	}
	if len(p.C) < 2 {
		return nil, errors.New("a single value of C: no contour to draw (give two or more)")
	}
	pic.Surface = true
	for _, r := range increasing(len(lg), func(i int) float64 { return lg[i] }) {
		pic.LogGamma = append(pic.LogGamma, lg[r])
		row := make([]float64, len(ci))
		for i, c := range ci {
			row[i] = t.Accuracy(c, gcol[r])
		}
		pic.Accuracy = append(pic.Accuracy, row)
	}
	pic.BestC, pic.BestGamma = math.Log2(p.C[t.BestC]), lg[slices.Index(gcol, t.BestGamma)]
	return pic, nil
}

// increasing returns the indices 0…n−1 in increasing order of v(i), equal
// values in index order.
func increasing(n int, v func(int) float64) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(v(a), v(b)) })
	return idx
}

// legend names a γ's line: "γ 0.5", "" for a learner without γ.
func legend(gamma string) string {
	if gamma == "" {
		return ""
	}
	return "γ " + gamma
}
