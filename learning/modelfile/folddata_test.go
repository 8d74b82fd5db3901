package modelfile

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"mark1/dataset"
	"mark1/learning/learners"
	"mark1/learning/selection"
)

// foldText writes n rows of dim features of three classes in libsvm text,
// their values made by value (0 for none) from a seeded source.
func foldText(n, dim int, value func(rng *rand.Rand, row, k int) float64) string {
	rng := rand.New(rand.NewPCG(7, uint64(n)))
	var b strings.Builder
	for r := range n {
		c := r % 3
		fmt.Fprintf(&b, "%d", c)
		for k := range dim {
			if v := value(rng, r, k); v != 0 {
				fmt.Fprintf(&b, " %d:%s", k+1, strings.TrimSpace(fmt.Sprintf("%.17g", v)))
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// grey levels b/255, more than a third of them not zero, shifted by class
func greyValue(rng *rand.Rand, row, k int) float64 {
	if rng.IntN(3) == 0 {
		return 0
	}
	return float64(min(255, 1+rng.IntN(200)+30*(row%3)+k)) / 255
}

// TestFoldDataAsWhole: cross-validation and the grid on a file read as
// their folds take it (ReadFolds, readFolds: dense rows held compact and
// each fold a view of them, sparse rows as parsed) find what they find on
// the file read whole, to the bit — every cell's right predictions and
// iterations, the report's text, the leave-one-out bound — on grey levels,
// on values float32 rounds (six digits) or holds (integers), on sparse and
// on 0/1 rows, and on float32 rows one of whose folds is all grey levels
// (read again as parsed rows); the grid's data fingerprint is the file's.
func TestFoldDataAsWhole(t *testing.T) {
	dir := t.TempDir()
	six := func(rng *rand.Rand, row, k int) float64 {
		v := greyValue(rng, row, k)
		var w float64
		fmt.Sscanf(fmt.Sprintf("%.6g", v), "%g", &w)
		return w
	}
	oneOdd := func(rng *rand.Rand, row, k int) float64 { // one row not of grey levels
		v := greyValue(rng, row, k)
		if row == 4 && v != 0 {
			v += 1e-3
		}
		return v
	}
	cases := []struct {
		name, text string
		held       string // "bytes", "float32" or "parsed" (ReadFolds's rows)
		ran        string // the same, once the grid ran on them
	}{
		{"grey", foldText(60, 12, greyValue), "bytes", "bytes"},
		{"six digits", foldText(60, 12, six), "float32", "float32"},
		{"integers", foldText(60, 12, func(rng *rand.Rand, row, k int) float64 { return float64(rng.IntN(4) * (1 + row%3)) }), "float32", "float32"},
		{"sparse", foldText(60, 40, func(rng *rand.Rand, row, k int) float64 {
			if rng.IntN(8) != 0 {
				return 0
			}
			return float64(1+row%3) / 7
		}), "parsed", "parsed"},
		{"binary", foldText(60, 70, func(rng *rand.Rand, row, k int) float64 { return float64(rng.IntN(2) | (k+row)%3/2) }), "parsed", "parsed"},
		{"a fold of grey levels among float32", foldText(60, 12, oneOdd), "float32", "parsed"},
	}
	spec, err := learners.Lookup("svm")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, c := range cases {
		path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".libsvm")
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		set, err := dataset.ReadFile(path, dataset.Options{})
		if err != nil {
			t.Fatal(err)
		}
		whole := &FoldData{Set: set, fingerprint: set.Fingerprint()} // the rows read whole: FoldFit's way
		l := Setup{Spec: spec, Options: learners.Defaults(), Scale: "none"}
		l.Options.Threads = 1

		// the grid, warm along C, γ of scale and a number
		g := Grid{C: []float64{0.5, 4}, Gamma: []string{"scale", "0.25"}}
		p, d, err := l.PlanFolds(ctx, path, g, GridOptions{Folds: 3, Seed: 5, Warm: true})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if held := heldKind(d); held != c.held {
			t.Errorf("%s: rows held %s; want %s", c.name, held, c.held)
		}
		if p.Data.Fingerprint != set.Fingerprint() {
			t.Errorf("%s: the plan's fingerprint %.12s; want the file's %.12s", c.name, p.Data.Fingerprint, set.Fingerprint())
		}
		got, err := l.CrossValidateFolds(ctx, p, d, 1)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if held := heldKind(d); held != c.ran {
			t.Errorf("%s: rows held %s once the grid ran; want %s", c.name, held, c.ran)
		}
		want, err := l.CrossValidateFolds(ctx, p, whole, 1)
		if err != nil {
			t.Fatalf("%s: whole: %v", c.name, err)
		}
		if !reflect.DeepEqual(got.Right, want.Right) || !reflect.DeepEqual(got.Iterations, want.Iterations) {
			t.Errorf("%s: grid right %v, iterations %v; read whole %v, %v", c.name, got.Right, got.Iterations, want.Right, want.Iterations)
		}

		// fit --cv, and leave-one-out with its bound
		for _, folds := range []int{5, set.Rows()} {
			r, err := l.CrossValidateFile(ctx, path, CVOptions{Folds: folds, Seed: 3, Threads: 1})
			if err != nil {
				t.Fatalf("%s, %d folds: %v", c.name, folds, err)
			}
			cell := Grid{C: []float64{l.Options.C}, Gamma: []string{l.Options.Gamma.String()}}
			wp, err := l.NewPlan(set, selection.DataOf(path, set, ""), cell, folds, 3, false)
			if err != nil {
				t.Fatal(err)
			}
			w, err := l.CrossValidateClasses(ctx, wp, whole, 1)
			if err != nil {
				t.Fatalf("%s, %d folds, whole: %v", c.name, folds, err)
			}
			var gotText, wantText bytes.Buffer
			r.WriteText(&gotText)
			w.WriteText(&wantText)
			if gotText.String() != wantText.String() {
				t.Errorf("%s, %d folds:\n%s; read whole:\n%s", c.name, folds, gotText.String(), wantText.String())
			}
		}
	}
}

// heldKind says how d holds its rows.
func heldKind(d *FoldData) string {
	switch {
	case d.grey != nil:
		return "bytes"
	case d.f32 != nil:
		return "float32"
	case d.stack != nil:
		return "parsed"
	}
	return "whole"
}
