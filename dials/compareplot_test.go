package dials

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

// compareRuns is a comparison as compare --plot hands it over: online
// learners with mistakes, the hardware with P_g per epoch, batch GD and an
// SVM with objectives, and a learner with nothing per epoch.
func compareRuns() []CompareRun {
	nan := math.NaN()
	return []CompareRun{
		{Learner: "hardware", Features: "association", Mistakes: []int{31, 18, 9, 6, 2, 0}, Pg: []float64{0.55, 0.62, 0.70, 0.72, 0.75, 0.775}},
		{Learner: "perceptron", Features: "pixels", Mistakes: []int{40, 25, 20, 14, 9, 5, 2, 0}},
		{Learner: "perceptron", Features: "association", Mistakes: []int{28, 12, 4, 0}},
		{Learner: "averaged", Features: "pixels", Mistakes: []int{40, 25, 20, 14, 9, 5, 2, 0}},
		{Learner: "batch-gd", Features: "pixels", Objective: []float64{310, 120, 64, 30, 12, 3, 0},
			ObjectiveName: "perceptron risk R(w)", ObjectiveAxis: "epoch"},
		{Learner: "svm", Features: "pixels", Objective: []float64{0, -2, -6.5, -9.1, -10.2, -10.4, -10.45},
			ObjectiveAt: []float64{0, 160, 320, 480, 640, 800, 873}, ObjectiveName: "SVM dual objective", ObjectiveAxis: "SMO iteration"},
		{Learner: "svm", Features: "association", Objective: []float64{-12, -3.5, -8, -20, -6, -9},
			ObjectiveName: "final SVM dual objective", ObjectiveAxis: "one-vs-one pair", Separate: true},
		{Learner: "ideal", Features: "association", Mistakes: []int{30, 10, 0}, Pg: []float64{nan, 0.7, 0.8}},
		{Learner: "linear-svm", Features: "pixels", Why: "no objective per solver pass was recorded"},
	}
}

func TestCompareCurvesGolden(t *testing.T) {
	d, err := CompareCurves("Comparison on shapes: 160 training cards, 40 held out", compareRuns())
	if err != nil {
		t.Fatal(err)
	}
	goldenImage(t, "compare.png", d)
}

func TestNotDrawn(t *testing.T) {
	for _, tc := range []struct {
		name string
		runs []CompareRun
		want []string
	}{
		{"all drawn", compareRuns()[:8], nil},
		{"with reasons", compareRuns(), []string{"linear-svm (pixels): no objective per solver pass was recorded"}},
		{"no reason given", []CompareRun{{Learner: "pocket"}}, []string{"pocket: nothing was recorded per epoch"}},
		{"grouped", []CompareRun{{Learner: "svm", Features: "pixels", Why: "w"}, {Learner: "batch-gd", Features: "pixels", Why: "v"},
			{Learner: "svm", Features: "association", Why: "w"}}, []string{"svm (pixels, association): w", "batch-gd (pixels): v"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := NotDrawn(tc.runs); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("NotDrawn = %q; want %q", got, tc.want)
			}
		})
	}
	// A figure of runs none of which can be drawn still says so.
	d, err := CompareCurves("nothing", []CompareRun{{Learner: "svm", Why: "solver iterations are not epochs"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, h := d.Size(); h <= 0 {
		t.Errorf("empty comparison: height %d", h)
	}
}

func TestIntegerTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		labels string
	}{
		{1, 8, "1 2 3 4 5 6 7 8"},
		{1, 13, "2 4 6 8 10 12"},
		{1, 50, "10 20 30 40 50"},
		{1, 1000, "200 400 600 800 1000"},
		{0.5, 1.5, "1"},
	} {
		var got []string
		for _, tk := range (integerTicks{}).Ticks(tc.lo, tc.hi) {
			if tk.Value != math.Trunc(tk.Value) {
				t.Errorf("[%v, %v]: a tick at %v, not a whole epoch", tc.lo, tc.hi, tk.Value)
			}
			if tk.Label != "" {
				got = append(got, tk.Label)
			}
		}
		if s := strings.Join(got, " "); s != tc.labels {
			t.Errorf("[%v, %v]: labels %q; want %q", tc.lo, tc.hi, s, tc.labels)
		}
	}
}

func TestWrapWords(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want []string
	}{
		{"short title", 20, []string{"short title"}},
		{"Comparison on a/b/c.gz (train): 8000 cards", 25, []string{"Comparison on a/b/c.gz", "(train): 8000 cards"}},
		{"a verylongwordindeed b", 5, []string{"a", "verylongwordindeed", "b"}},
		{"", 5, []string{""}},
	} {
		if got := wrapWords(tc.s, tc.n); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("wrapWords(%q, %d) = %q; want %q", tc.s, tc.n, got, tc.want)
		}
	}
}
