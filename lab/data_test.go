package lab

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"mark1/dataset"
)

// TestFromDataset reads the notes' example from libsvm, CSV and text files
// and checks that the trace is the notes' (w₄ = (3, 1)), and that the sign
// rule is the documented one.
func TestFromDataset(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"notes.libsvm": "-1 1:-1 2:2\n1 1:1\n1 1:1 2:1\n-1 1:-1\n-1 1:-1 2:-2\n1 1:1 2:-1\n",
		"notes.csv":    "x1,x2,label\n-1,2,minus\n1,0,plus\n1,1,plus\n-1,0,minus\n-1,-2,minus\n1,-1,plus\n",
		"notes.txt":    "-1 2 0\n1 0 1\n1 1 1\n-1 0 0\n-1 -2 0\n1 -1 1\n",
	}
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := dataset.ReadFile(path, dataset.Options{})
		if err != nil {
			t.Fatal(err)
		}
		e, err := FromDataset(s)
		if err != nil {
			t.Fatal(err)
		}
		want := []int{-1, 1, 1, -1, -1, 1}
		if name == "notes.csv" {
			// Text labels: the first class in the file ("minus") is +.
			want = []int{1, -1, -1, 1, 1, -1}
		}
		if !slices.Equal(e.Y, want) {
			t.Errorf("%s: labels %v; want %v (%s)", name, e.Y, want, e.Teaches)
		}
		if name == "notes.csv" {
			continue
		}
		tr, err := TracePerceptron(context.Background(), e, PerceptronOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if w, _ := tr.Weights(4); !slices.Equal(w, []float64{3, 1}) {
			t.Errorf("%s: w₄ = %v; want (3, 1)", name, w)
		}
	}
	three := filepath.Join(dir, "three.txt")
	os.WriteFile(three, []byte("1 1 a\n2 2 b\n3 3 c\n"), 0o644)
	s, err := dataset.ReadFile(three, dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := FromDataset(s); err == nil || !strings.Contains(err.Error(), "3 classes") {
		t.Errorf("three classes: %v", err)
	}
}
