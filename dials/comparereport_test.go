package dials

import (
	"reflect"
	"testing"

	"mark1/compare"
)

// CompareRuns hands every row to the plot: mistakes for the online
// learners and the hardware (with P_g per epoch where measured), the
// perceptron risk for batch GD, the SVM's dual objective from 0 at the
// start along its SMO iterations for one machine and at the end of each
// pair for several, and a reason for a row with nothing to draw.
func TestCompareRuns(t *testing.T) {
	rep := &compare.Report{Rows: []compare.Row{
		{Learner: "hardware", Features: "association", Curve: []int{5, 2, 0}, PgCurve: []float64{0.5, 0.7, 0.75}},
		{Learner: "perceptron", Features: "pixels", Curve: []int{7, 0}},
		{Learner: "batch-gd", Features: "pixels", Curve: []int{9, 3}, Objective: []float64{4.5, 0}},
		{Learner: "svm", Features: "pixels", Curve: []int{100, 37}, Objective: []float64{-3, -3.5}},
		{Learner: "svm", Features: "association", Curve: []int{100, 20, 50, 30}, Objective: []float64{-1, -2, -5, -6}, ObjectiveMachine: []int{0, 0, 1, 2}},
		{Learner: "linear-svm", Features: "pixels", Curve: []int{40, 10}, Objective: []float64{-0.5, -0.6}},
		{Learner: "batch-gd", Features: "association"},
	}}
	runs := CompareRuns(rep)
	if len(runs) != len(rep.Rows) {
		t.Fatalf("%d runs for %d rows", len(runs), len(rep.Rows))
	}
	for _, tc := range []struct {
		run            int
		mistakes       []int
		objective, at  []float64
		pg             []float64
		axis, notDrawn string
	}{
		{run: 0, mistakes: []int{5, 2, 0}, pg: []float64{0.5, 0.7, 0.75}},
		{run: 1, mistakes: []int{7, 0}},
		{run: 2, objective: []float64{4.5, 0}, axis: "gradient step"},
		{run: 3, objective: []float64{0, -3, -3.5}, at: []float64{0, 100, 137}, axis: "SMO iteration"},
		{run: 4, objective: []float64{-2, -5, -6}, axis: "one-vs-one pair"},
		{run: 5, objective: []float64{0, -0.5, -0.6}, at: []float64{0, 1, 2}, axis: "solver pass"},
		{run: 6, axis: "gradient step", notDrawn: "it took no step (no training card was misclassified at the start)"},
	} {
		r := runs[tc.run]
		if !reflect.DeepEqual(r.Mistakes, tc.mistakes) || !reflect.DeepEqual(r.Objective, tc.objective) || !reflect.DeepEqual(r.ObjectiveAt, tc.at) ||
			!reflect.DeepEqual(r.Pg, tc.pg) || r.ObjectiveAxis != tc.axis || r.Why != tc.notDrawn {
			t.Errorf("row %d (%s): got %+v", tc.run, r.Label(), r)
		}
	}
}
