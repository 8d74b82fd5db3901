package cli

import (
	"fmt"
	"os"

	"mark1/dials"
	"mark1/internal/atomicfile"
	"mark1/learning/compare"
)

// compareRuns turns a comparison's rows into the runs compare --plot draws:
// mistakes per epoch for the online learners and the hardware; batch GD
// and the SVMs, whose per-epoch counts are not online mistakes, are named
// as not drawn, since the report keeps no objective per epoch.
func compareRuns(rep *compare.Report) []dials.CompareRun {
	var runs []dials.CompareRun
	for _, r := range rep.Rows {
		run := dials.CompareRun{Learner: r.Learner, Features: r.Features}
		switch r.Learner {
		case "batch-gd":
			run.Why = "its counts per epoch are misclassified cards per gradient step, not online corrections, and the report keeps no perceptron risk per epoch"
		case "svm", "linear-svm":
			run.Why = "its solver's passes are not epochs over the data, and the report keeps no dual objective per pass"
		default:
			run.Mistakes = r.Curve
			if len(r.Curve) == 0 {
				run.Why = "no epoch was recorded"
			}
		}
		runs = append(runs, run)
	}
	return runs
}

// plotComparison draws compare --plot to path (PNG) and returns the lines
// naming what it could not draw.
func plotComparison(path string, rep *compare.Report) ([]string, error) {
	runs := compareRuns(rep)
	notes := []string{"P_g per epoch: the report keeps P_g after training only (see the table)"}
	title := fmt.Sprintf("Comparison on %s: %d training cards, %d held out", rep.Data, rep.Train, rep.Test)
	d, err := dials.CompareCurves(title, runs, notes...)
	if err != nil {
		return nil, fmt.Errorf("plotting %s: %w", path, err)
	}
	if err := atomicfile.Write(path, func(f *os.File) error { return d.WritePNG(f) }); err != nil {
		return nil, err
	}
	return append(dials.NotDrawn(runs), notes...), nil
}
