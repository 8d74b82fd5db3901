package dials

import (
	"fmt"
	"slices"
	"strings"

	"mark1/chart"
	"mark1/compare"
)

// CompareReport draws a comparison's learning curves (CompareCurves, titled
// with its data and cards) and returns the drawing and the lines naming
// what it could not draw: the runs with nothing to draw and the learners
// whose P_g was not measured per epoch.
func CompareReport(rep *compare.Report) (*chart.Drawing, []string, error) {
	runs := CompareRuns(rep)
	var notes []string
	var noPg []string
	for _, r := range rep.Rows {
		if r.PgCurve == nil && !r.Clustered() && !slices.Contains(noPg, r.Learner) {
			noPg = append(noPg, r.Learner)
		}
	}
	if len(noPg) > 0 {
		why := "not measured during training (P_g after training is in the table)"
		if rep.Test == 0 {
			why = "there are no held-out cards"
		}
		notes = append(notes, fmt.Sprintf("P_g per epoch of %s: %s", strings.Join(noPg, ", "), why))
	}
	title := fmt.Sprintf("Comparison on %s: %d training cards, %d held out", rep.Data, rep.Train, rep.Test)
	d, err := CompareCurves(title, runs, notes...)
	if err != nil {
		return nil, nil, err
	}
	return d, append(NotDrawn(runs), notes...), nil
}

// CompareRuns turns a comparison's rows into the runs compare --plot draws:
// mistakes per epoch for the online learners and the hardware; the
// perceptron risk per step for batch GD (its per-epoch counts are
// misclassified cards per gradient step, not online corrections); the dual
// objective for the SVMs — per solver pass (linear) or block of SMO
// iterations (kernel) for one binary machine, and at the end of each
// machine's solve when there are several, since each pair's objective is
// its own quantity; and P_g per epoch where the learner measured it (the
// hardware learners).
func CompareRuns(rep *compare.Report) []CompareRun {
	var runs []CompareRun
	for _, r := range rep.Rows {
		run := CompareRun{Learner: r.Learner, Features: r.Features, Pg: r.PgCurve}
		switch r.Learner {
		case "batch-gd":
			run.Objective, run.ObjectiveName, run.ObjectiveAxis = r.Objective, "perceptron risk R(w, b), summed over the machines", "gradient step"
			if len(r.Objective) == 0 {
				run.Why = "it took no step (no training card was misclassified at the start)"
			}
		case "svm", "linear-svm":
			switch {
			case len(r.Objective) == 0:
				run.Why = "its solver recorded no objective"
			case r.ObjectiveMachine != nil:
				run.Objective = finalObjectives(r.Objective, r.ObjectiveMachine)
				run.ObjectiveName, run.Separate = "final SVM dual objective", true
				run.ObjectiveAxis = map[string]string{"svm": "one-vs-one pair", "linear-svm": "one-vs-rest machine"}[r.Learner]
			default:
				// Both duals start from α = 0, where the objective is 0: the
				// curve starts there, at pass or iteration 0. The kernel
				// SVM's entries come every min(n, 1000) iterations and at
				// the end; the linear SVM's after every pass.
				run.ObjectiveName, run.ObjectiveAxis = "SVM dual objective", "solver pass"
				if r.Learner == "svm" {
					run.ObjectiveAxis = "SMO iteration"
				}
				run.Objective = append([]float64{0}, r.Objective...)
				run.ObjectiveAt = []float64{0}
				done := 0
				for _, it := range r.Curve {
					if r.Learner == "svm" {
						done += it
					} else {
						done++
					}
					run.ObjectiveAt = append(run.ObjectiveAt, float64(done))
				}
			}
		default:
			run.Mistakes = r.Curve
			if r.Clustered() {
				run.Why = "trained by the spontaneous rule: no labels, so no mistakes or P_g (its clusters are in the table)"
			} else if len(r.Curve) == 0 {
				run.Why = "no epoch was recorded"
			}
		}
		runs = append(runs, run)
	}
	return runs
}

// finalObjectives returns the last objective of each machine, in machine
// order, from entries in machine order.
func finalObjectives(obj []float64, machine []int) []float64 {
	var out []float64
	for i, v := range obj {
		if i+1 == len(obj) || machine[i+1] != machine[i] {
			out = append(out, v)
		}
	}
	return out
}
