package learners_test

import (
	"fmt"
	"testing"

	"mark1/learning"
	"mark1/learning/learners"
)

// The meter counts what each learner reports: epochs against the limit,
// one-vs-one pairs of the kernel SVM (the pairs before the one under way),
// SMO iterations of its single machine on two classes, passes or machines
// of the linear SVM.
func TestMeter(t *testing.T) {
	entries := []learning.Epoch{{Epoch: 1, Mistakes: 1000}, {Epoch: 2, Mistakes: 1000, Machine: 1}, {Epoch: 3, Mistakes: 37, Machine: 2}}
	for _, tc := range []struct {
		learner string
		classes int
		unit    string
		total   int
		limit   bool
		counts  []int
	}{
		{"kernel-perceptron", 10, "epoch", 50, true, []int{1, 2, 3}},
		{"hardware", 2, "epoch", 50, true, []int{1, 2, 3}},
		{"batch-gd", 2, "step", 50, true, []int{1, 2, 3}},
		{"svm", 10, "pair", 45, false, []int{0, 1, 2}},
		{"svm", 2, "SMO iteration", 0, false, []int{1000, 2000, 2037}},
		{"linear-svm", 10, "machine", 10, false, []int{0, 1, 2}},
		{"linear-svm", 2, "pass", 0, false, []int{1, 2, 3}},
	} {
		m := learners.NewMeter(tc.learner, tc.classes, 50)
		if m.Unit != tc.unit || m.Total != tc.total || m.Limit != tc.limit {
			t.Errorf("%s, %d classes: %s, total %d, limit %v; want %s, %d, %v", tc.learner, tc.classes, m.Unit, m.Total, m.Limit, tc.unit, tc.total, tc.limit)
		}
		done := 0
		for k, e := range entries {
			if done = m.Count(done, e); done != tc.counts[k] {
				t.Errorf("%s, %d classes: entry %d counts %d; want %d", tc.learner, tc.classes, k, done, tc.counts[k])
			}
		}
	}
}

func ExampleNewMeter() {
	m := learners.NewMeter("svm", 4, 0)
	done := 0
	for _, e := range []learning.Epoch{{Machine: 0}, {Machine: 3}} {
		done = m.Count(done, e)
	}
	fmt.Printf("%d of %d %ss\n", done, m.Total, m.Unit)
	// Output: 3 of 6 pairs
}
