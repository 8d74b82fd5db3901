package modelfile

import (
	"context"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"mark1/dataset"
	"mark1/learning/learners"
	"mark1/learning/selection"
)

// blobSet reads two well separated blobs of libsvm rows.
func blobSet(t *testing.T) *dataset.Set {
	t.Helper()
	var b strings.Builder
	for i := range 40 {
		c, x := "1", 1.0+float64(i%7)/10
		if i%2 == 1 {
			c, x = "2", -1.0-float64(i%5)/10
		}
		b.WriteString(c + " 1:" + strconv.FormatFloat(x, 'g', -1, 64) + " 2:" + strconv.FormatFloat(x/2, 'g', -1, 64) + "\n")
	}
	s, err := dataset.Read(strings.NewReader(b.String()), "blobs", dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSetupPlanRoundTrip: a plan records a Setup's options, and SetupOf
// rebuilds the same learner from it; cross-validating the plan on two
// separable blobs is right on every row, and the SVM's support vectors
// bound its leave-one-out error.
func TestSetupPlanRoundTrip(t *testing.T) {
	set := blobSet(t)
	spec, err := learners.Lookup("svm")
	if err != nil {
		t.Fatal(err)
	}
	opts := learners.Defaults()
	if err := opts.Set("kernel", "linear"); err != nil {
		t.Fatal(err)
	}
	l := Setup{Spec: spec, Options: opts, Scale: dataset.ScaleUnit}
	p, err := selection.NewPlan(set, selection.Data{Path: "blobs"}, spec.Name, l.PlanOptions(), []float64{1}, []string{""}, 4, 1)
	if err != nil {
		t.Fatal(err)
	}
	back, err := SetupOf(p)
	if err != nil {
		t.Fatal(err)
	}
	if back.Spec.Name != l.Spec.Name || back.Scale != l.Scale || !reflect.DeepEqual(back.PlanOptions(), l.PlanOptions()) {
		t.Fatalf("SetupOf gave %+v, want %+v", back.PlanOptions(), l.PlanOptions())
	}
	tab, err := back.CrossValidate(context.Background(), p, set, 2)
	if err != nil {
		t.Fatal(err)
	}
	if acc := tab.Accuracy(0, 0); acc != 100 {
		t.Errorf("cross-validation accuracy %v%% on separable blobs", acc)
	}
	n, ok, err := back.SupportVectors(context.Background(), set, 1)
	if err != nil || !ok || n < 2 || n > set.Rows() {
		t.Errorf("support vectors %d, %v, %v", n, ok, err)
	}
	if err := CheckScale("nonsense"); err == nil {
		t.Error("scale nonsense accepted")
	}
}
