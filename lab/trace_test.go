package lab

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"mark1/learning"
	"mark1/learning/kernel"
)

func mustFind(t *testing.T, name string) Example {
	t.Helper()
	e, err := Find(name)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestNotes004Trace is the golden trace of notes 004: every w, every
// presentation, in the notes' setting (no bias, ε = 1, the given order).
func TestNotes004Trace(t *testing.T) {
	tr, err := TracePerceptron(context.Background(), mustFind(t, "notes-004"), PerceptronOptions{})
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		sample  int
		score   float64
		mistake bool
		w       []float64
	}
	want := []row{
		{1, 0, true, []float64{1, -2}}, // w₁·(−1,2) = 0: predicted +, but it is −
		{2, 1, false, []float64{1, -2}},
		{3, -1, true, []float64{2, -1}},
		{4, -2, false, []float64{2, -1}},
		{5, 0, true, []float64{3, 1}},
		{6, 2, false, []float64{3, 1}},
		{1, -1, false, []float64{3, 1}},
		{2, 3, false, []float64{3, 1}},
		{3, 4, false, []float64{3, 1}},
		{4, -3, false, []float64{3, 1}},
		{5, -5, false, []float64{3, 1}},
		{6, 2, false, []float64{3, 1}},
	}
	if len(tr.Steps) != len(want) {
		t.Fatalf("%d steps; want %d", len(tr.Steps), len(want))
	}
	for i, s := range tr.Steps {
		w := want[i]
		if s.Sample != w.sample || s.Score != w.score || s.Mistake != w.mistake || !slices.Equal(s.W, w.w) {
			t.Errorf("step %d: sample %d, w·x %v, mistake %v, w %v; want %d, %v, %v, %v", i+1, s.Sample, s.Score, s.Mistake, s.W, w.sample, w.score, w.mistake, w.w)
		}
	}
	for u, w := range map[int][]float64{1: {0, 0}, 2: {1, -2}, 3: {2, -1}, 4: {3, 1}} {
		if got, ok := tr.Weights(u); !ok || !slices.Equal(got, w) {
			t.Errorf("w%s = %v; want %v", Sub(u), got, w)
		}
	}
	if !tr.Converged || tr.Mistakes != 3 || tr.Epochs != 2 {
		t.Errorf("converged %v after %d mistakes in %d epochs; want true, 3, 2", tr.Converged, tr.Mistakes, tr.Epochs)
	}
	var b strings.Builder
	if err := tr.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"w₂ = w₁ − (−1, 2) = (1, −2)", "w₃ = w₂ + (1, 1) = (2, −1)", "w₄ = w₃ − (−1, −2) = (3, 1)"} {
		if !strings.Contains(b.String(), line) {
			t.Errorf("the text lacks %q:\n%s", line, b.String())
		}
	}
	// The theorem: the bound holds.
	if th := tr.Theorem; !(th.Gamma > 0) || float64(tr.Mistakes) > th.Bound {
		t.Errorf("theorem: γ %v, bound %v, %d mistakes", th.Gamma, th.Bound, tr.Mistakes)
	}
}

// TestTheoremGamma checks the maximum margin through the origin against a
// brute-force search over directions in the plane.
func TestTheoremGamma(t *testing.T) {
	for _, name := range []string{"notes-004", "pizza-001"} {
		e := mustFind(t, name)
		th := TheoremOf(e, false)
		best := math.Inf(-1)
		const n = 200000
		for k := range n {
			a := 2 * math.Pi * float64(k) / n
			w := []float64{math.Cos(a), math.Sin(a)}
			lo := math.Inf(1)
			for i, x := range e.X {
				lo = min(lo, float64(e.Y[i])*dot(w, x))
			}
			best = max(best, lo)
		}
		if math.Abs(th.Gamma-best) > 1e-4 {
			t.Errorf("%s: γ = %v; brute force %v", name, th.Gamma, best)
		}
	}
	if th := TheoremOf(mustFind(t, "needs-bias"), false); th.Gamma != 0 || !math.IsInf(th.Bound, 1) {
		t.Errorf("needs-bias without bias: γ %v, bound %v; want 0 and +Inf", th.Gamma, th.Bound)
	}
	if th := TheoremOf(mustFind(t, "needs-bias"), true); !(th.Gamma > 0) {
		t.Errorf("needs-bias with bias: γ %v; want > 0", th.Gamma)
	}
}

// TestBatchGDLoop is the notes' loop (001) on needs-bias with the bias
// trick and ε = 0.5, against the loop written out here: every V, R(w), ∇R
// and w. The first two steps by hand: from w = 0 every sample is in V and
// Σ y x̃ = (9.5, 6.5, 0), so w = (4.75, 3.25, 0); there the five − samples
// are wrong, R = 32, ∇R = (4, 4, 5), and w = (2.75, 1.25, −2.5).
func TestBatchGDLoop(t *testing.T) {
	e := mustFind(t, "needs-bias")
	const eps = 0.5
	tr, err := TraceBatchGD(context.Background(), e, GDOptions{Bias: true, Eps: eps})
	if err != nil {
		t.Fatal(err)
	}
	x := e.Lift(true)
	w := []float64{0, 0, 0}
	var want []GDStep
	for step := 1; step <= 100; step++ {
		s := GDStep{Step: step, W: slices.Clone(w), Grad: []float64{0, 0, 0}, Eps: eps, Scale: 1}
		for i, xi := range x {
			y := float64(e.Y[i])
			if m := y * dot(w, xi); m <= 0 {
				s.V = append(s.V, i+1)
				s.Risk -= m
				for j := range w {
					s.Grad[j] -= y * xi[j]
				}
			}
		}
		if len(s.V) == 0 {
			break
		}
		for j := range w {
			w[j] -= eps * s.Grad[j]
		}
		s.Next = slices.Clone(w)
		for i, xi := range x {
			if m := float64(e.Y[i]) * dot(w, xi); m < 0 {
				s.After -= m
			}
		}
		want = append(want, s)
	}
	if len(want) < 3 || !slices.Equal(want[0].Next, []float64{4.75, 3.25, 0}) || want[1].Risk != 32 || !slices.Equal(want[1].Next, []float64{2.75, 1.25, -2.5}) {
		t.Fatalf("the reference loop disagrees with the hand computation: %+v", want[:2])
	}
	if len(tr.Steps) != len(want) {
		t.Fatalf("%d steps; want %d", len(tr.Steps), len(want))
	}
	close := func(a, b []float64) bool {
		return slices.EqualFunc(a, b, func(p, q float64) bool { return math.Abs(p-q) < 1e-12 })
	}
	for i, s := range tr.Steps {
		w := want[i]
		if s.Step != w.Step || !close(s.W, w.W) || !slices.Equal(s.V, w.V) || math.Abs(s.Risk-w.Risk) > 1e-12 ||
			!close(s.Grad, w.Grad) || s.Eps != w.Eps || s.Scale != 1 || !close(s.Next, w.Next) || math.Abs(s.After-w.After) > 1e-12 {
			t.Errorf("step %d: %+v; want %+v", i+1, s, w)
		}
	}
	if !tr.Converged || tr.Steps[len(tr.Steps)-1].After != 0 {
		t.Errorf("not converged: %s", tr.Status)
	}
	// The line search: R never rises, and it ends with no mistakes.
	ls, err := TraceBatchGD(context.Background(), e, GDOptions{Bias: true, Eps: eps, LineSearch: true})
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range ls.Steps[1:] {
		if s.After > s.Risk+1e-12 {
			t.Errorf("line search step %d: R rose from %v to %v", i+2, s.Risk, s.After)
		}
	}
	if !ls.Converged {
		t.Errorf("line search: %s", ls.Status)
	}
}

// phi is the explicit feature map of notes 004 for K(x, z) = (x·z)².
func phi(x []float64) []float64 {
	return []float64{x[0] * x[0], x[1] * x[1], math.Sqrt2 * x[0] * x[1]}
}

// TestKernelTraceExplicitMap runs the kernel perceptron with (x·z)² on the
// notes' example and on xor against a perceptron written out here on the
// explicit map Φ(x) = (x₁², x₂², √2·x₁x₂) of notes 004: the same
// presentations, the same f(x) and mistakes, and w = Σ a_i Φ(x_i) over the
// stored samples. (√2·√2 is not exactly 2 in floating point, so the
// reference treats |f| < 1e-9 as the tie f = 0 that the kernel computes
// exactly; ties count as mistakes.) On notes 004, Φ(1, 0) = Φ(−1, 0) with
// opposite labels, so the run cannot converge: five epochs of it are checked.
func TestKernelTraceExplicitMap(t *testing.T) {
	for _, c := range []struct {
		name     string
		epochs   int
		converge bool
	}{{"notes-004", 5, false}, {"xor", 0, true}} {
		e := mustFind(t, c.name)
		kt, err := TraceKernelPerceptron(context.Background(), e, KernelOptions{Kernel: kernel.Polynomial{Degree: 2}, MaxEpochs: c.epochs})
		if err != nil {
			t.Fatal(err)
		}
		w := make([]float64, 3)
		step := 0
		for epoch := 1; epoch <= max(c.epochs, 100) && step < len(kt.Steps); epoch++ {
			for i, x := range e.X {
				if step >= len(kt.Steps) {
					break
				}
				p := phi(x)
				f := dot(w, p)
				if math.Abs(f) < 1e-9 {
					f = 0
				}
				y := float64(e.Y[i])
				mistake := y*f <= 0
				if mistake {
					for j := range w {
						w[j] += y * p[j]
					}
				}
				k := kt.Steps[step]
				if k.Sample != i+1 || k.Epoch != epoch || k.Mistake != mistake || math.Abs(k.F-f) > 1e-9 {
					t.Fatalf("%s step %d: kernel epoch %d sample %d f %v mistake %v; explicit map epoch %d sample %d f %v mistake %v",
						c.name, step+1, k.Epoch, k.Sample, k.F, k.Mistake, epoch, i+1, f, mistake)
				}
				step++
			}
		}
		sum := make([]float64, 3)
		for _, s := range kt.Stored {
			for j, v := range phi(s.X) {
				sum[j] += float64(s.Coef) * v
			}
		}
		for j := range w {
			if math.Abs(w[j]-sum[j]) > 1e-9 {
				t.Errorf("%s: Σ a_i Φ(x_i) = %v; explicit perceptron w = %v", c.name, sum, w)
				break
			}
		}
		if kt.Converged != c.converge {
			t.Errorf("%s: converged %v; want %v (%s)", c.name, kt.Converged, c.converge, kt.Status)
		}
	}
}

// TestSVMHardMargin checks the SVM on pizza-001 with a hard margin against
// the theorem's: the margin 1/‖w‖ is at least the max margin through the
// origin (the SVM may also use b), every sample satisfies y f(x) ≥ 1 − tol,
// and support vectors sit on f = ±1.
func TestSVMHardMargin(t *testing.T) {
	e := mustFind(t, "pizza-001")
	r, err := SolveSVM(e, SVMOptions{Hard: true})
	if err != nil {
		t.Fatal(err)
	}
	th := TheoremOf(e, false)
	if r.Margin == nil {
		t.Fatal("no margin on separable data")
	}
	if *r.Margin < th.Gamma-1e-6 {
		t.Errorf("SVM margin %v < margin through the origin %v", *r.Margin, th.Gamma)
	}
	for i, x := range e.X {
		f := float64(e.Y[i]) * r.Decision(x)
		if f < 1-1e-4 {
			t.Errorf("sample %d: y f = %v < 1", i+1, f)
		}
		if slices.Contains(r.Support, i+1) && math.Abs(f-1) > 1e-4 {
			t.Errorf("support vector %d: y f = %v; want 1", i+1, f)
		}
	}
	// Against learning's linear separator measure.
	if g := learning.GeometricMargin(e.Data(), r.W, r.B); math.Abs(g-*r.Margin) > 1e-4 {
		t.Errorf("geometric margin of (w, b) %v; SVM margin %v", g, *r.Margin)
	}
}
