package lab

import (
	"math"
	"testing"

	"mark1/learning/kernel"
)

// TestSMOSteps checks the SVM's steps against the solver of learning/svm
// and the dual problem's own rules: every step keeps 0 ≤ α ≤ C and
// Σ y_i α_i = 0, raises the dual objective, and the last step leaves α and
// b where svm.Solve puts them.
func TestSMOSteps(t *testing.T) {
	for _, c := range []struct {
		example, kernel string
		C               float64
		hard            bool
	}{
		{"pizza-001", "", 0, true},
		{"notes-004", "", 1, false},
		{"overlap", "", 1, false},
		{"overlap", "", 10, false},
		{"overlap", "poly:d=2,gamma=1", 0.5, false},
		{"xor", "poly:d=2,gamma=1", 1, false},
		{"rings", "gaussian:sigma=1", 1, false},
		{"rings", "gaussian:sigma=1", 0, true},
	} {
		e := mustFind(t, c.example)
		k, err := exampleKernel(c.kernel, e)
		if err != nil {
			t.Fatal(err)
		}
		r, err := SolveSVM(e, SVMOptions{Kernel: k, C: c.C, Hard: c.hard})
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		name := c.example + " " + k.String()
		if len(r.Steps) == 0 {
			t.Fatalf("%s: no steps", name)
		}
		bound := c.C
		if bound == 0 {
			bound = 1
		}
		if c.hard {
			bound = math.Inf(1)
		}
		dual := 0.0
		for f := 1; f <= len(r.Steps); f++ {
			s := r.Steps[f-1]
			alpha, _ := r.At(f)
			var sum float64
			for i, a := range alpha {
				if a < 0 || a > bound {
					t.Fatalf("%s step %d: α%d = %v outside [0, %v]", name, f, i+1, a, bound)
				}
				sum += float64(e.Y[i]) * a
			}
			if math.Abs(sum) > 1e-9 {
				t.Fatalf("%s step %d: Σ y α = %v; want 0", name, f, sum)
			}
			if s.Dual < dual-1e-12 {
				t.Fatalf("%s step %d: the dual fell from %v to %v", name, f, dual, s.Dual)
			}
			dual = s.Dual
			if want := dualOf(e, k, alpha); math.Abs(want-s.Dual) > 1e-9*max(1, math.Abs(want)) {
				t.Fatalf("%s step %d: dual %v; Σα − ½αᵀQα = %v", name, f, s.Dual, want)
			}
		}
		alpha, b := r.At(len(r.Steps))
		for i, a := range alpha {
			if math.Abs(a-r.Alpha[i]) > 1e-4*max(1, r.Alpha[i]) {
				t.Errorf("%s: SMO's last α%d = %v; svm.Solve's %v", name, i+1, a, r.Alpha[i])
			}
		}
		if math.Abs(b-r.B) > 1e-3*max(1, math.Abs(r.B)) {
			t.Errorf("%s: SMO's last b = %v; svm.Solve's %v", name, b, r.B)
		}
	}
}

// dualOf is the dual objective Σα − ½ Σ α_i α_j y_i y_j K(x_i, x_j), summed
// out in full.
func dualOf(e Example, k kernel.Kernel, alpha []float64) float64 {
	var v float64
	for i := range alpha {
		v += alpha[i]
		for j := range alpha {
			v -= alpha[i] * alpha[j] * float64(e.Y[i]*e.Y[j]) * k.Eval(e.X[i], e.X[j]) / 2
		}
	}
	return v
}
