package selection

import (
	"context"
	"encoding/base64"
	"math"
	"testing"

	"mark1/dataset"
)

// TestPairClasses: the binary problems are numbered as the SVM numbers its
// one-vs-one machines: (0,1), (0,2), …, (1,2), ….
func TestPairClasses(t *testing.T) {
	for k := 2; k <= 12; k++ {
		q := 0
		for a := range k {
			for b := a + 1; b < k; b++ {
				if ga, gb := PairClasses(q, k); ga != a || gb != b {
					t.Fatalf("k %d: pair %d is (%d,%d); want (%d,%d)", k, q, ga, gb, a, b)
				}
				q++
			}
		}
	}
}

// TestByPairColumns: a plan split by pair has a task for every γ, fold and
// pair, each once; Check refuses a wrong count of pairs.
func TestByPairColumns(t *testing.T) {
	s := blobSet(t, "blobs.svm", 60)
	p, err := NewPlan(s, Data{Path: "blobs.svm", Format: "libsvm"}, "svm", nil, []float64{1, 2}, []string{"0.5", "2"}, 4, 3)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.ByPair(); err != nil {
		t.Fatal(err)
	}
	if p.Pairs != 3 || p.Tasks != 2*4*3 {
		t.Fatalf("pairs %d, tasks %d", p.Pairs, p.Tasks)
	}
	seen := map[[3]int]bool{}
	for i := range p.Tasks {
		c := p.Column(i)
		if a, b := PairClasses(c.Pair, 3); a != c.A || b != c.B {
			t.Fatalf("task %d: classes %d, %d for pair %d", i, c.A, c.B, c.Pair)
		}
		seen[[3]int{c.Gamma, c.Fold, c.Pair}] = true
	}
	if len(seen) != p.Tasks {
		t.Fatalf("%d distinct columns of %d tasks", len(seen), p.Tasks)
	}
	q := *p
	q.Pairs = 6
	if q.Check() == nil {
		t.Error("6 pairs of 3 classes accepted")
	}
	if _, err := RunAll(context.Background(), p, s, 1, nearest, nil); err == nil {
		t.Error("RunAll ran a plan split by pair")
	}
	if _, err := Run(context.Background(), p, s, 0, nearest); err == nil {
		t.Error("Run ran a task of a plan split by pair")
	}
}

// TestComposeVotes: each row's class is the one with the most votes over
// the pairs, a tie to the smaller class index, against the fold's labels;
// the nearest-row votes of every pair, composed, equal the one-vs-one vote
// counted directly.
func TestComposeVotes(t *testing.T) {
	s := blobSet(t, "blobs.svm", 60)
	p, err := NewPlan(s, Data{Path: "blobs.svm", Format: "libsvm"}, "svm", nil, []float64{1, 4}, []string{"1"}, 3, 5)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.ByPair(); err != nil {
		t.Fatal(err)
	}
	// nearestPair votes for a when the nearest training row of classes a
	// and b (first feature, shifted by log2 C / 8) is of class a.
	nearestPair := func(_ context.Context, train, test *dataset.Set, a, b int, cs []float64, _ string, _ bool) ([]PairFit, error) {
		var fits []PairFit
		for _, c := range cs {
			f := PairFit{Votes: make([]bool, test.Rows()), Iterations: 1}
			for i := range f.Votes {
				x := test.DenseRow(nil, i)
				best, bd := -1, math.Inf(1)
				for j := range train.Rows() {
					if y := train.Y[j]; y == a || y == b {
						if d := math.Abs(x[0] - train.DenseRow(nil, j)[0] + math.Log2(c)/8); d < bd {
							best, bd = y, d
						}
					}
				}
				f.Votes[i] = best == a
			}
			fits = append(fits, f)
		}
		return fits, nil
	}
	var results []Result
	for i := range p.Tasks {
		r, err := RunPair(context.Background(), p, s, i, nearestPair)
		if err != nil {
			t.Fatal(err)
		}
		if p.foreign(r, p.ID()) != "" {
			t.Fatalf("task %d: %s", i, p.foreign(r, p.ID()))
		}
		results = append(results, r)
	}
	tab := Merge(p, results)
	// the same votes counted directly, fold by fold
	folds, _ := Folds(s.Y, 3, p.Folds, p.Seed)
	for ci, c := range p.C {
		right := 0
		for f := range p.Folds {
			tr, te := split(folds, f)
			train, test := s.Subset(tr), s.Subset(te)
			for i := range test.Rows() {
				votes := make([]int, 3)
				for q := range 3 {
					a, b := PairClasses(q, 3)
					fit, _ := nearestPair(context.Background(), train, test.Subset([]int{i}), a, b, []float64{c}, "", false)
					if fit[0].Votes[0] {
						votes[a]++
					} else {
						votes[b]++
					}
				}
				best := 0
				for y := range votes {
					if votes[y] > votes[best] {
						best = y
					}
				}
				if best == test.Y[i] {
					right++
				}
			}
		}
		if tab.Right[ci][0] != right {
			t.Errorf("C %v: merged %d right; counted directly %d", c, tab.Right[ci][0], right)
		}
	}
	// a three-way tie goes to class 0: on every row pair (0,1) votes 0,
	// pair (0,2) votes 2 and pair (1,2) votes 1
	r := []Result{results[0], results[1], results[2]}
	n := r[0].Rows
	for q, all := range []bool{true, false, true} {
		bits := make([]byte, (n+7)/8)
		for row := range n {
			if all {
				bits[row/8] |= 1 << (row % 8)
			}
		}
		v := base64.StdEncoding.EncodeToString(bits)
		r[q].Votes = []string{v, v}
	}
	labels, _ := base64.StdEncoding.DecodeString(r[0].Labels)
	want := 0
	for _, y := range labels {
		if y == 0 {
			want++
		}
	}
	got := composeVotes(&Plan{Data: Data{Classes: 3}, Pairs: 3, Folds: 1, Gamma: []string{"1"}, C: p.C}, r)
	if got[0].Right[0] != want || want == 0 || want == n {
		t.Errorf("ties: %d right; want the %d rows of class 0 of %d", got[0].Right[0], want, n)
	}
}
