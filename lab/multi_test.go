package lab

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"mark1/internal/testtool"
)

// tinyThree is a small three-class set with integer coordinates, each
// class separable from the others by a line.
func tinyThree(t *testing.T) Multi {
	t.Helper()
	m, err := NewMulti("tiny three",
		[][]float64{{3, 1}, {-2, 2}, {-1, -3}, {2, 2}, {-3, 1}, {0, -2}, {3, 0}, {-2, 3}, {1, -3}},
		[]int{0, 1, 2, 0, 1, 2, 0, 1, 2}, []string{"A", "B", "C"})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// perceptronBrute is the textbook perceptron written out: w ← w + y·x̃ on
// every y·w·x̃ ≤ 0, x̃ = (x, 1), in the given order from w = 0, until an
// epoch without mistakes. It returns f(x) = w·x̃.
func perceptronBrute(x [][]float64, y []int) func([]float64) float64 {
	w := []float64{0, 0, 0}
	for range 1000 {
		mistakes := 0
		for i, p := range x {
			if float64(y[i])*(w[0]*p[0]+w[1]*p[1]+w[2]) <= 0 {
				w[0] += float64(y[i]) * p[0]
				w[1] += float64(y[i]) * p[1]
				w[2] += float64(y[i])
				mistakes++
			}
		}
		if mistakes == 0 {
			break
		}
	}
	return func(p []float64) float64 { return w[0]*p[0] + w[1]*p[1] + w[2] }
}

// TestMultiRulesBruteForce checks the three rules of a perceptron's
// multi-class run against brute force: perceptrons written out for each
// one-vs-rest and one-vs-one problem, and the rules applied by hand —
// one-vs-rest by sign, the largest response, LIBSVM's votes — at every
// point of a grid over x-space.
func TestMultiRulesBruteForce(t *testing.T) {
	m := tinyThree(t)
	run, err := StartMulti(context.Background(), m, Setup{Learner: "perceptron", Bias: true})
	if err != nil {
		t.Fatal(err)
	}
	k := len(m.Classes)
	var rest, pair []func([]float64) float64
	for c := range k {
		y := make([]int, len(m.Y))
		for i, v := range m.Y {
			y[i] = -1
			if v == c {
				y[i] = 1
			}
		}
		rest = append(rest, perceptronBrute(m.X, y))
	}
	for a := range k {
		for b := a + 1; b < k; b++ {
			var x [][]float64
			var y []int
			for i, v := range m.Y {
				if v == a || v == b {
					x = append(x, m.X[i])
					y = append(y, map[bool]int{true: 1, false: -1}[v == a])
				}
			}
			pair = append(pair, perceptronBrute(x, y))
		}
	}
	ovr, unit, ovo, err := run.Classify(-1)
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for gx := -5.0; gx <= 5; gx += 0.25 {
		for gy := -5.0; gy <= 5; gy += 0.25 {
			x := []float64{gx, gy}
			// One-vs-rest by sign: exactly one positive.
			want := -1
			n := 0
			for c, f := range rest {
				if f(x) > 0 {
					want, n = c, n+1
				}
			}
			if n != 1 {
				want = -1
				counts["none or several"]++
			}
			if got := ovr(x); got != want {
				t.Fatalf("ovr(%v) = %d; brute force %d", x, got, want)
			}
			// The largest response; the first on a tie.
			want = 0
			for c := range k {
				if rest[c](x) > rest[want](x) {
					want = c
				}
			}
			if got := unit(x); got != want {
				t.Fatalf("unit(%v) = %d; brute force %d", x, got, want)
			}
			// LIBSVM's votes: pairs (0,1), (0,2), (1,2); a tie to the first.
			votes := make([]int, k)
			p := 0
			for a := range k {
				for b := a + 1; b < k; b++ {
					if pair[p](x) > 0 {
						votes[a]++
					} else {
						votes[b]++
					}
					p++
				}
			}
			want = 0
			for c := range k {
				if votes[c] > votes[want] {
					want = c
				}
			}
			if votes[0] == 1 && votes[1] == 1 && votes[2] == 1 {
				counts["three-way vote ties"]++
			}
			if got := ovo(x); got != want {
				t.Fatalf("ovo(%v) = %d; brute force %d", x, got, want)
			}
		}
	}
	// The grid must reach the rules' hard cases, or the test says little.
	if counts["none or several"] == 0 {
		t.Errorf("no grid point left to none or several classes by one-vs-rest: %v", counts)
	}
	scores, err := run.Scores(-1)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range scores {
		if s.Right != len(m.X) {
			t.Errorf("%s: %d of %d training points right; the classes are separable", s.Rule, s.Right, len(m.X))
		}
	}
	t.Logf("grid cases: %v", counts)
}

// TestMultiSVMAgainstLIBSVM trains LIBSVM's one-vs-one C-SVC (svm-train)
// on three and four classes and checks that the lab's one-vs-one votes
// give the class svm-predict gives at every point of a grid, but for
// points within 10⁻³ of a pairwise boundary (the solvers stop at
// different points within their tolerance).
func TestMultiSVMAgainstLIBSVM(t *testing.T) {
	testtool.Need(t, "svm-train", "libsvm-tools")
	dir := t.TempDir()
	for _, c := range []struct {
		gen    GenOptions
		kernel string
		args   []string
	}{
		{GenOptions{Kind: "blobs", Classes: 3, Noise: 0.3, Seed: 2}, "linear", []string{"-t", "0"}},
		{GenOptions{Kind: "xor", Classes: 4, Seed: 5}, "gaussian:sigma=1", []string{"-t", "2", "-g", "0.5"}},
		{GenOptions{Kind: "circles", Classes: 3, Noise: 0.1, Seed: 3, N: 45}, "gaussian:sigma=1", []string{"-t", "2", "-g", "0.5", "-c", "10"}},
	} {
		m, err := GenerateMulti(c.gen)
		if err != nil {
			t.Fatal(err)
		}
		C := 1.0
		if len(c.args) > 4 {
			C = 10
		}
		run, err := StartMulti(context.Background(), m, Setup{Learner: "svm", Kernel: c.kernel, C: C})
		if err != nil {
			t.Fatal(err)
		}
		var train, grid strings.Builder
		for i, x := range m.X {
			fmt.Fprintf(&train, "%s 1:%g 2:%g\n", m.Classes[m.Y[i]], x[0], x[1])
		}
		var pts [][]float64
		for gx := -4.0; gx <= 4; gx += 0.2 {
			for gy := -4.0; gy <= 4; gy += 0.2 {
				pts = append(pts, []float64{gx, gy})
				fmt.Fprintf(&grid, "1 1:%g 2:%g\n", gx, gy)
			}
		}
		tf, gf, mf, pf := filepath.Join(dir, "train"), filepath.Join(dir, "grid"), filepath.Join(dir, "model"), filepath.Join(dir, "pred")
		if err := os.WriteFile(tf, []byte(train.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(gf, []byte(grid.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		args := append(append([]string{"-q", "-e", "1e-6"}, c.args...), tf, mf)
		if out, err := exec.Command("svm-train", args...).CombinedOutput(); err != nil {
			t.Fatalf("svm-train %v: %v\n%s", args, err, out)
		}
		if out, err := exec.Command("svm-predict", "-q", gf, mf, pf).CombinedOutput(); err != nil {
			t.Fatalf("svm-predict: %v\n%s", err, out)
		}
		want := testtool.Numbers(t, pf)
		_, _, ovo, err := run.Classify(-1)
		if err != nil {
			t.Fatal(err)
		}
		var pairF []func([]float64) float64
		for _, r := range run.OvO {
			f, err := r.decisionAt(-1)
			if err != nil {
				t.Fatal(err)
			}
			pairF = append(pairF, f)
		}
		agree, near := 0, 0
		for i, x := range pts {
			got := m.Classes[ovo(x)]
			if got == fmt.Sprint(want[i]) {
				agree++
				continue
			}
			close := false
			for _, f := range pairF {
				if math.Abs(f(x)) < 1e-3 {
					close = true
				}
			}
			if !close {
				t.Errorf("%s: at %v the lab's votes give %s, svm-predict %v", m.Name, x, got, want[i])
			}
			near++
		}
		if agree < len(pts)*99/100 {
			t.Errorf("%s: %d of %d grid points agree with svm-predict", m.Name, agree, len(pts))
		}
		t.Logf("%s, %s: %d of %d grid points as svm-predict, %d on a boundary", m.Name, c.kernel, agree, len(pts), near)
	}
}

// TestGenerateMulti checks the multi-class generators: every class drawn,
// the same seed the same points, moons refused beyond two classes, label
// noise moving the asked fraction of points to another class.
func TestGenerateMulti(t *testing.T) {
	for _, kind := range []string{"blobs", "xor", "circles", "spiral"} {
		for _, k := range []int{3, 4} {
			o := GenOptions{Kind: kind, Classes: k, Seed: 7}
			a, err := GenerateMulti(o)
			if err != nil {
				t.Fatalf("%s %d: %v", kind, k, err)
			}
			b, _ := GenerateMulti(o)
			if fmt.Sprint(a.X, a.Y) != fmt.Sprint(b.X, b.Y) {
				t.Errorf("%s %d: the same seed drew other points", kind, k)
			}
			if len(a.Classes) != k || len(a.X) != 60 {
				t.Errorf("%s %d: %d classes, %d points", kind, k, len(a.Classes), len(a.X))
			}
			o.LabelNoise = 0.2
			c, err := GenerateMulti(o)
			if err != nil {
				t.Fatal(err)
			}
			moved := 0
			for i := range a.Y {
				if a.Y[i] != c.Y[i] {
					moved++
				}
			}
			if kind != "xor" && moved != 12 { // xor's labels follow the quadrants, drawn again
				t.Errorf("%s %d: label noise 0.2 moved %d of 60 points; want 12", kind, k, moved)
			}
		}
	}
	if _, err := GenerateMulti(GenOptions{Kind: "moons", Classes: 3}); err == nil || !strings.Contains(err.Error(), "moons") {
		t.Errorf("moons with 3 classes: %v", err)
	}
	if _, err := GenerateMulti(GenOptions{Kind: "blobs", Classes: 5}); err == nil {
		t.Error("5 classes: no error")
	}
}

// TestRequestClasses checks a page's request of points of 3 classes:
// labels 1 to 3 make the classes that have points, a label beyond them is
// refused naming the point.
func TestRequestClasses(t *testing.T) {
	q := Request{Classes: 3, Points: [][3]float64{{1, 1, 1}, {-1, 1, 2}, {0, -1, 3}, {2, 2, 1}, {-2, 2, 2}, {0, -2, 3}}, Frame: -1}
	fr, err := q.Answer(context.Background(), 20)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(fr.Classes, ",") != "1,2,3" || len(fr.Rules) != 3 || len(fr.Rules[0].Z) != 400 || len(fr.Lines) != 3 {
		t.Errorf("classes %v, %d rules, %d lines", fr.Classes, len(fr.Rules), len(fr.Lines))
	}
	q.Points[0][2] = 4
	if _, err := q.Answer(context.Background(), 20); err == nil || !strings.Contains(err.Error(), "point 1: label 4") {
		t.Errorf("label 4 of 3 classes: %v", err)
	}
	q.Points = [][3]float64{{1, 1, 1}, {2, 2, 1}}
	if _, err := q.Answer(context.Background(), 20); err == nil || !strings.Contains(err.Error(), "at least two") {
		t.Errorf("one class: %v", err)
	}
}
