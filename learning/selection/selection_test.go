package selection

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"mark1/dataset"
)

func TestFolds(t *testing.T) {
	// 3 classes of 23, 10 and 5 rows, interleaved
	var labels []int
	for i := range 38 {
		labels = append(labels, []int{0, 1, 0, 2, 0, 1, 0}[i%7])
	}
	count := make([]int, 3)
	for _, c := range labels {
		count[c]++
	}
	for _, k := range []int{2, 3, 5} {
		f, err := Folds(labels, 3, k, 7)
		if err != nil {
			t.Fatal(err)
		}
		per := make([][]int, k)
		for f := range per {
			per[f] = make([]int, 3)
		}
		for i, c := range labels {
			per[f[i]][c]++
		}
		for c := range 3 {
			for fold := range k {
				// LIBSVM's dealing: fold f holds n(f+1)/k − nf/k rows of a class of n
				if want := count[c]*(fold+1)/k - count[c]*fold/k; per[fold][c] != want {
					t.Errorf("k %d: fold %d has %d rows of class %d; want %d", k, fold, per[fold][c], c, want)
				}
			}
		}
		again, _ := Folds(labels, 3, k, 7)
		other, _ := Folds(labels, 3, k, 8)
		if !reflect.DeepEqual(f, again) || reflect.DeepEqual(f, other) {
			t.Errorf("k %d: the same seed must give the same folds and another seed others", k)
		}
	}
	for _, tt := range []struct {
		k    int
		want string
	}{
		{1, "folds 1 out of range: want at least 2"},
		{6, "folds 6: class 2 has 5 rows"},
	} {
		_, err := Folds(labels, 3, tt.k, 1)
		var fe *FoldError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("k %d: %v; want a *FoldError with %q", tt.k, err, tt.want)
		}
	}
}

func TestParseLog2Range(t *testing.T) {
	tests := []struct {
		text string
		exps []float64
		want string // error
	}{
		{"-5,15,2", []float64{-5, -3, -1, 1, 3, 5, 7, 9, 11, 13, 15}, ""}, // grid.py's default -log2c
		{"3,-15,-2", []float64{3, 1, -1, -3, -5, -7, -9, -11, -13, -15}, ""},
		{"0,1,0.25", []float64{0, 0.25, 0.5, 0.75, 1}, ""},
		{"1,1,1", []float64{1}, ""},
		{"0,1.05,0.35", []float64{0, 0.35, 0.7, 1.05}, ""}, // no drift past end
		{"5,1,2", nil, "the step must be non-zero and lead from begin to end"},
		{"1,5,0", nil, "the step must be non-zero"},
		{"1,5", nil, "want begin,end,step"},
		{"a,5,1", nil, `"a" is not a number`},
		{"0,1e9,1", nil, "is not a number in [-1000, 1000]"},
		{"-1000,1000,0.001", nil, "more than 1000"},
	}
	for _, tt := range tests {
		v, e, err := ParseLog2Range("C", tt.text)
		if tt.want != "" {
			var re *RangeError
			if !errors.As(err, &re) || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "C ") {
				t.Errorf("%q: %v; want a *RangeError naming C with %q", tt.text, err, tt.want)
			}
			continue
		}
		if err != nil || len(e) != len(tt.exps) {
			t.Fatalf("%q: %v %v; want %v", tt.text, e, err, tt.exps)
		}
		for i := range e {
			if math.Abs(e[i]-tt.exps[i]) > 1e-12 || v[i] != math.Exp2(e[i]) {
				t.Errorf("%q: value %d: 2^%v = %v; want 2^%v", tt.text, i, e[i], v[i], tt.exps[i])
			}
		}
	}
	for _, tt := range []struct{ text, want string }{
		{"0.1,1,10", ""}, {"1,0", `"0" is not a finite number > 0`}, {"-1", "> 0"}, {"", "not a finite number"},
		{"1,1", "appears twice"}, {"inf", "> 0"},
	} {
		_, err := ParseList("C", tt.text)
		if (tt.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("ParseList %q: %v; want %q", tt.text, err, tt.want)
		}
	}
}

// blobSet is a small 3-class data set.
func blobSet(t *testing.T, name string, n int) *dataset.Set {
	var b strings.Builder
	for i := range n {
		c := i % 3
		fmt.Fprintf(&b, "%d 1:%g 2:%g\n", c, float64(c)+0.1*float64(i%7), float64(i%5)*0.3)
	}
	s, err := dataset.Read(strings.NewReader(b.String()), name, dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// nearest is a FitFunc without a learner: the class of the nearest
// training row (first feature), with a bias from c so that cells differ.
// It refuses C values out of increasing order, and counts as iterations
// the rows of the fit (cold) or 1 when it follows another (warm).
func nearest(_ context.Context, s *dataset.Set, tr, te []int, cs []float64, gamma string, warm bool) ([]Fit, error) {
	train, test := s.Subset(tr), s.Subset(te)
	var fits []Fit
	for k, c := range cs {
		if k > 0 && !(c > cs[k-1]) {
			return nil, fmt.Errorf("C %v out of increasing order", cs)
		}
		out := make([]int, test.Rows())
		for i := range out {
			x := test.DenseRow(nil, i)
			best, bd := 0, math.Inf(1)
			for j := range train.Rows() {
				y := train.DenseRow(nil, j)
				if d := math.Abs(x[0] - y[0] + math.Log2(c)/8); d < bd {
					best, bd = train.Y[j], d
				}
			}
			out[i] = best
		}
		it := train.Rows()
		if warm && k > 0 {
			it = 1
		}
		fits = append(fits, Fit{Pred: out, Iterations: it})
	}
	return fits, nil
}

func TestRunMerge(t *testing.T) {
	s := blobSet(t, "blobs.svm", 60)
	p, err := NewPlan(s, Data{Path: "blobs.svm", Format: "libsvm"}, "nearest", nil, []float64{4, 0.25, 1}, []string{"0.5", "2"}, 4, 3)
	if err != nil {
		t.Fatal(err)
	}
	p.WarmStart = true
	if p.Tasks != 8 || !slices.Equal(p.FoldRows, []int{15, 15, 15, 15}) {
		t.Fatalf("tasks %d, fold rows %v", p.Tasks, p.FoldRows)
	}
	one, err := RunAll(context.Background(), p, s, 1, nearest, nil)
	if err != nil {
		t.Fatal(err)
	}
	four, err := RunAll(context.Background(), p, s, 4, nearest, nil)
	if err != nil || !reflect.DeepEqual(one, four) {
		t.Fatalf("results with 4 workers differ from 1 worker's: %v", err)
	}
	// task by task, into two folders in reverse order
	dirs := []string{t.TempDir(), t.TempDir()}
	for i := p.Tasks - 1; i >= 0; i-- {
		r, err := Run(context.Background(), p, s, i, nearest)
		if err != nil || !reflect.DeepEqual(r, one[i]) {
			t.Fatalf("task %d: %+v, %v; RunAll %+v", i, r, err, one[i])
		}
		if err := WriteResult(dirs[i%2], r); err != nil {
			t.Fatal(err)
		}
	}
	var a, b strings.Builder
	Merge(p, one).Write(&a)
	got, err := ReadResults(p, []string{dirs[1], dirs[0]})
	if err != nil {
		t.Fatal(err)
	}
	Merge(p, got).Write(&b)
	if a.String() != b.String() {
		t.Errorf("merged tables differ:\n%s\n%s", a.String(), b.String())
	}
	// brute force: each cell's accuracy from every fold's right count,
	// each fit computed alone (a column of one C)
	tab := Merge(p, one)
	folds, _ := Folds(s.Y, len(s.Classes), p.Folds, p.Seed)
	for c := range p.C {
		for g := range p.Gamma {
			n := 0
			for f := range p.Folds {
				var tr, te []int
				for r, k := range folds {
					if k == f {
						te = append(te, r)
					} else {
						tr = append(tr, r)
					}
				}
				fit, _ := nearest(context.Background(), s, tr, te, p.C[c:c+1], p.Gamma[g], false)
				for r, y := range fit[0].Pred {
					if y == s.Y[te[r]] {
						n++
					}
				}
			}
			if tab.Right[c][g] != n {
				t.Errorf("cell %d,%d: %d right; the folds sum to %d", c, g, tab.Right[c][g], n)
			}
		}
	}
	// the smallest C starts cold (45 training rows a fold), the others warm
	if want := []int{4, 4 * 45, 4}; !slices.Equal([]int{tab.Iterations[0][1], tab.Iterations[1][1], tab.Iterations[2][1]}, want) {
		t.Errorf("iterations of γ 2's cells: %v; want %v", tab.Iterations, want)
	}
	// a missing, a duplicated, a foreign result
	os.Rename(filepath.Join(dirs[0], ResultName(4)), filepath.Join(t.TempDir(), "x"))
	dup := t.TempDir()
	r7, _ := Run(context.Background(), p, s, 7, nearest)
	WriteResult(dup, r7)
	other, _ := NewPlan(s, Data{Path: "blobs.svm", Format: "libsvm"}, "nearest", nil, []float64{4, 0.25, 1}, []string{"0.5", "2"}, 4, 4)
	r5, _ := Run(context.Background(), other, s, 5, nearest)
	foreign := t.TempDir()
	WriteResult(foreign, r5)
	edited := t.TempDir()
	r3, _ := Run(context.Background(), p, s, 3, nearest)
	r3.C = []float64{0.25, 1, 4}
	WriteResult(edited, r3)
	_, err = ReadResults(p, []string{dirs[0], dirs[1], dup, foreign, edited})
	var me *MergeError
	if !errors.As(err, &me) || !slices.Equal(me.Missing, []int{4}) || len(me.Duplicate) != 1 || len(me.Foreign) != 2 {
		t.Fatalf("%v; want task 4 missing, task 7 twice, two foreign results", err)
	}
	for _, want := range []string{"1 task without a result: 4 (gamma 2, fold 0)", "task 7: ", "a result of another plan", "task 3's column, C values, fold or counts disagree with the plan"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%v: want %q", err, want)
		}
	}
	// another data set
	if _, err := Run(context.Background(), p, blobSet(t, "other.svm", 61), 0, nearest); !errors.Is(err, ErrData) {
		t.Errorf("other data: %v; want ErrData", err)
	}
}

// FuzzReadPlan: whatever a plan file holds, ReadPlan accepts a plan that
// checks and encodes to bytes that read back to the same plan, or refuses
// it with an error naming the file.
func FuzzReadPlan(f *testing.F) {
	s := &dataset.Set{Dim: 1, Classes: []string{"a", "b"}, Y: []int{0, 1, 0, 1}, RowStart: []int{0, 0, 0, 0, 0}}
	p, err := NewPlan(s, Data{Path: "d.csv", Format: "csv", Indices: "auto"}, "svm", map[string]string{"kernel": "rbf"}, []float64{1, 2}, []string{"0.5"}, 2, 1)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(p.Encode())
	f.Add([]byte(`{"format":"mark1-sweep-plan","version":1}`))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) {
		path := filepath.Join(dir, "plan.json")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		p, err := ReadPlan(path)
		if err != nil {
			if !strings.HasPrefix(err.Error(), path) && !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		if err := os.WriteFile(path, p.Encode(), 0o644); err != nil {
			t.Fatal(err)
		}
		back, err := ReadPlan(path)
		if err != nil || !reflect.DeepEqual(p, back) || back.ID() != p.ID() {
			t.Fatalf("round trip: %v\n%+v\n%+v", err, p, back)
		}
	})
}

// TestRegressionFolds: plain folds of sizes ⌊n·(f+1)/k⌋ − ⌊n·f/k⌋ whatever
// the targets, the same for a seed, another for another seed.
func TestRegressionFolds(t *testing.T) {
	a, err := RegressionFolds(10, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	sizes := make([]int, 3)
	for _, f := range a {
		sizes[f]++
	}
	if sizes[0] != 3 || sizes[1] != 3 || sizes[2] != 4 {
		t.Errorf("fold sizes %v; want [3 3 4]", sizes)
	}
	b, _ := RegressionFolds(10, 3, 1)
	c, _ := RegressionFolds(10, 3, 2)
	if !slices.Equal(a, b) || slices.Equal(a, c) {
		t.Errorf("seed 1 twice %v %v, seed 2 %v: want the same, then another", a, b, c)
	}
	if _, err := RegressionFolds(2, 3, 1); err == nil || !strings.Contains(err.Error(), "2 rows") {
		t.Errorf("3 folds of 2 rows: %v", err)
	}
}

// TestEditedPlans: a plan whose lists disagree with each other or with its
// data is refused, by Check or, for what needs the data, by Run, before
// any fit.
func TestEditedPlans(t *testing.T) {
	s := blobSet(t, "blobs.svm", 60)
	good, err := NewPlan(s, Data{Path: "blobs.svm", Format: "libsvm"}, "nearest", nil, []float64{0.5, 1}, []string{"0.5", "2"}, 3, 3)
	if err != nil {
		t.Fatal(err)
	}
	good.Log2C, good.Log2Gamma = []float64{-1, 0}, []float64{-1, 1}
	if err := good.Check(); err != nil {
		t.Fatalf("the plan as made: %v", err)
	}
	for _, tt := range []struct {
		name string
		edit func(p *Plan)
		want string
	}{
		{"c against log2c", func(p *Plan) { p.C[1] = 3 }, "not 2^0"},
		{"gamma against log2gamma", func(p *Plan) { p.Gamma[1] = "4" }, "not 2^1"},
		{"an empty fold", func(p *Plan) { p.FoldRows = []int{60, 0, 0} }, "at least one row"},
		{"fold sizes that add up", func(p *Plan) { p.FoldRows = []int{19, 21, 20} }, "not its data's folds"},
		{"another seed: other folds of the same sizes", func(p *Plan) { p.Seed = 4 }, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := *good
			p.C, p.Gamma, p.FoldRows = slices.Clone(good.C), slices.Clone(good.Gamma), slices.Clone(good.FoldRows)
			tt.edit(&p)
			err := p.Check()
			if err == nil {
				fits := 0
				_, err = Run(context.Background(), &p, s, 0, func(ctx context.Context, set *dataset.Set, tr, te []int, cs []float64, gamma string, warm bool) ([]Fit, error) {
					fits++
					return nearest(ctx, set, tr, te, cs, gamma, warm)
				})
				if err != nil && fits > 0 {
					t.Errorf("refused after %d fits", fits)
				}
			}
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("error %v; want %q", err, tt.want)
			}
		})
	}
}

// TestPicture: a table's picture values have increasing axes whatever the
// grid's order, the accuracy at its cell, the best cell ringed; a grid
// without numeric γ is drawn as lines, and a single cell is refused.
func TestPicture(t *testing.T) {
	p := &Plan{Learner: "svm", Folds: 2, C: []float64{4, 1}, Gamma: []string{"2", "0.5"}, Data: Data{Path: "d", Rows: 10}}
	tab := &Table{Plan: p, Right: [][]int{{1, 2}, {3, 4}}, BestC: 1, BestGamma: 1}
	pic, err := tab.Picture()
	if err != nil {
		t.Fatal(err)
	}
	if !pic.Surface || !slices.Equal(pic.LogC, []float64{0, 2}) || !slices.Equal(pic.LogGamma, []float64{-1, 1}) {
		t.Fatalf("axes %v %v", pic.LogC, pic.LogGamma)
	}
	// (C 1, γ 0.5) is Right[1][1] = 4 of 10; (C 4, γ 2) Right[0][0] = 1.
	if pic.Accuracy[0][0] != 40 || pic.Accuracy[1][1] != 10 || pic.BestC != 0 || pic.BestGamma != -1 {
		t.Errorf("accuracy %v, best (%v, %v)", pic.Accuracy, pic.BestC, pic.BestGamma)
	}
	p.Gamma = []string{"scale", "auto"}
	if pic, err := tab.Picture(); err != nil || pic.Surface || len(pic.Lines) != 2 || pic.Lines[0][0] != 30 {
		t.Errorf("lines: %+v, %v", pic, err)
	}
	p.C, p.Gamma, tab.Right = []float64{1}, []string{"1"}, [][]int{{1}}
	tab.BestC, tab.BestGamma = 0, 0
	if _, err := tab.Picture(); err == nil {
		t.Error("a single cell was drawn")
	}
}

// TestEditedResult: a result edited by hand, its counts still in range, is
// refused by merge, naming the file; the one written is accepted.
func TestEditedResult(t *testing.T) {
	s := blobSet(t, "blobs.svm", 60)
	p, err := NewPlan(s, Data{Path: "blobs.svm", Format: "libsvm"}, "nearest", nil, []float64{1}, []string{"1"}, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for i := range p.Tasks {
		r, err := Run(context.Background(), p, s, i, nearest)
		if err != nil {
			t.Fatal(err)
		}
		if err := WriteResult(dir, r); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ReadResults(p, []string{dir}); err != nil {
		t.Fatalf("as written: %v", err)
	}
	f := filepath.Join(dir, ResultName(0))
	b, _ := os.ReadFile(f)
	var r Result
	json.Unmarshal(b, &r)
	r.Right[0] = max(0, r.Right[0]-1) // one right answer fewer: still in range
	edited, _ := json.MarshalIndent(r, "", " ")
	os.WriteFile(f, append(edited, '\n'), 0o644)
	_, err = ReadResults(p, []string{dir})
	if err == nil || !strings.Contains(err.Error(), "sha256 does not match") || !strings.Contains(err.Error(), ResultName(0)) {
		t.Errorf("edited: %v; want it refused, naming the file", err)
	}
}

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
