package selection

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mark1/dataset"
)

// TestDataOfReadOptions: the data options a plan records read the file as
// it was read, libsvm indices as found; an unknown indices word is refused.
func TestDataOfReadOptions(t *testing.T) {
	for _, tc := range []struct {
		text string
		want dataset.Indices
	}{{"1 0:1 1:2\n-1 1:1\n", dataset.ZeroBased}, {"1 1:1 2:2\n-1 2:1\n", dataset.OneBased}} {
		s, err := dataset.Read(strings.NewReader(tc.text), "d.libsvm", dataset.Options{})
		if err != nil {
			t.Fatal(err)
		}
		opt, err := DataOf("d.libsvm", s, "").ReadOptions()
		if err != nil || opt.Format != dataset.LibSVM || opt.Indices != tc.want {
			t.Errorf("%q: %+v, %v; want libsvm, indices %v", tc.text, opt, err, tc.want)
		}
	}
	if _, err := (Data{Format: "csv", Indices: "2-based"}).ReadOptions(); err == nil {
		t.Error("indices 2-based: no error")
	}
}

// TestCheckOut: a results folder holding a file that is not a result of
// the plan is refused, naming it; an empty or missing folder is not.
func TestCheckOut(t *testing.T) {
	p := &Plan{Tasks: 2}
	dir := t.TempDir()
	if err := CheckOut(dir, p); err != nil {
		t.Errorf("empty folder: %v", err)
	}
	if err := CheckOut(filepath.Join(dir, "new"), p); err != nil {
		t.Errorf("missing folder: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, ResultName(0)), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := CheckOut(dir, p); err == nil || !strings.Contains(err.Error(), ResultName(0)) {
		t.Errorf("a foreign file: %v; want an error naming it", err)
	}
}

// TestResultText: a task's line names its column and what it found.
func TestResultText(t *testing.T) {
	p := &Plan{Tasks: 6}
	var b strings.Builder
	r := Result{Task: 3, Fold: 1, Rows: 10, C: []float64{0.5, 2}, Right: []int{7, 9}}
	if err := r.WriteText(&b, p, nil); err != nil {
		t.Fatal(err)
	}
	if want := "task 3 of 6 (gamma -, fold 1): right of 10 for C = 0.5,2: 7,9\n"; b.String() != want {
		t.Errorf("%q; want %q", b.String(), want)
	}
}
