package lab

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Num writes v as the notes do: at most four decimals, a true minus sign.
func Num(v float64) string {
	if math.IsInf(v, 1) {
		return "∞"
	}
	r := math.Round(v*1e4) / 1e4
	if r == 0 {
		r = 0 // no −0
	}
	return strings.Replace(strconv.FormatFloat(r, 'f', -1, 64), "-", "−", 1)
}

// MarginText writes an SVM's margin 1/‖w‖ to four decimal places, or
// says there is none (w = 0, or a hard margin asked of data it cannot
// separate).
func MarginText(m *float64) string {
	if m == nil {
		return "none"
	}
	return strings.Replace(strconv.FormatFloat(*m, 'f', 4, 64), "-", "−", 1)
}

// small writes v with four significant digits, so that a tiny α > 0 is not
// written as 0.
func small(v float64) string {
	if v == 0 || math.Abs(v) >= 1e-4 {
		return Num(v)
	}
	return strings.Replace(strconv.FormatFloat(v, 'g', 4, 64), "-", "−", -1)
}

// Vec writes v as (v₁, v₂, …).
func Vec(v []float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = Num(x)
	}
	return "(" + strings.Join(s, ", ") + ")"
}

// Sub writes n as subscript digits.
func Sub(n int) string {
	const digits = "₀₁₂₃₄₅₆₇₈₉"
	var b strings.Builder
	for _, c := range strconv.Itoa(n) {
		b.WriteString(string([]rune(digits)[c-'0']))
	}
	return b.String()
}

func sign(y int) string {
	if y > 0 {
		return "+"
	}
	return "−"
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func orderText(shuffle bool, seed uint64) string {
	if shuffle {
		return fmt.Sprintf("a fresh shuffle each epoch (seed %d)", seed)
	}
	return "the given order"
}

// WriteText writes the trace as the notes write it: a table of every
// presentation, then each update as "w₂ = w₁ − (−1, 2) = (1, −2)".
func (t *PerceptronTrace) WriteText(w io.Writer) error {
	o := t.Options
	ew := &errWriter{w: w}
	wn, xn := "w", "x"
	if o.Bias {
		wn, xn = "w̃ = (w, b)", "x̃ = (x, 1)"
	}
	ew.printf("perceptron on %s: %s, ε = %s, %s, start w%s = %s\n", t.Example, biasText(o.Bias), Num(o.Eps), orderText(o.Shuffle, o.Seed), Sub(1), Vec(t.Start))
	ew.printf("predict + iff %s·%s ≥ 0; a mistake is y·%s·%s ≤ 0 (a point on the line counts as one); on a mistake w ← w + ε·y·%s\n\n", "w", xn, "w", xn, xn)
	ew.printf("%5s %5s %6s  %-16s %2s %9s  %-7s %s\n", "step", "epoch", "sample", "x", "y", "w·x", "mistake", wn+" after")
	for _, s := range t.Steps {
		ew.printf("%5d %5d %6d  %-16s %2s %9s  %-7s %s\n", s.Step, s.Epoch, s.Sample, Vec(s.X), sign(s.Y), Num(s.Score), yesNo(s.Mistake), Vec(s.W))
	}
	ew.printf("\nthe updates, as the notes write them:\n  w%s = %s\n", Sub(1), Vec(t.Start))
	for _, s := range t.Steps {
		if !s.Mistake {
			continue
		}
		x := s.X
		if o.Bias {
			x = append(append([]float64(nil), x...), 1)
		}
		op := "+"
		if s.Y < 0 {
			op = "−"
		}
		eps := ""
		if o.Eps != 1 {
			eps = Num(o.Eps) + "·"
		}
		ew.printf("  w%s = w%s %s %s%s = %s\n", Sub(s.Update), Sub(s.Update-1), op, eps, Vec(x), Vec(s.W))
	}
	ew.printf("\n%s\n", t.Status)
	th := t.Theorem
	if th.Gamma > 0 && !t.zeroStart() {
		ew.printf("theorem: R = %s, γ = %s, (R/γ)² = %s bounds the mistakes from w₁ = 0; this run starts at %s (%d mistakes)\n", Num(th.R), Num(th.Gamma), Num(th.Bound), Vec(t.Start), t.Mistakes)
	} else if th.Gamma > 0 {
		ew.printf("theorem: R = %s, γ = %s (max margin through the origin%s), (R/γ)² = %s ≥ %d mistakes\n", Num(th.R), Num(th.Gamma), liftText(o.Bias), Num(th.Bound), t.Mistakes)
	} else {
		ew.printf("theorem: R = %s; no separator through the origin%s, so no bound (%d mistakes)\n", Num(th.R), liftText(o.Bias), t.Mistakes)
	}
	return ew.err
}

func biasText(bias bool) string {
	if bias {
		return "with the bias trick x → (x, 1)"
	}
	return "no bias"
}

func liftText(bias bool) string {
	if bias {
		return " of the lifted points (x, 1)"
	}
	return ""
}

// WriteText writes the notes' loop (001) step by step: V, R(w), ∇R, ε and
// the new w.
func (t *GDTrace) WriteText(w io.Writer) error {
	o := t.Options
	ew := &errWriter{w: w}
	search := "fixed ε = " + Num(o.Eps)
	if o.LineSearch {
		search = "line search (first step from w = 0 of size ε = " + Num(o.Eps) + ")"
	}
	ew.printf("batch gradient descent on R(w) = Σ_{i∈V} −y_i X_i·w, %s, %s, from w = %s\n", t.Example, biasText(o.Bias), Vec(t.Start))
	ew.printf("loop: V ← {i : y_i X_i·w ≤ 0}; w ← w − ε ∇R(w), ∇R(w) = −Σ_{i∈V} y_i X_i; step: %s\n\n", search)
	for _, s := range t.Steps {
		v := make([]string, len(s.V))
		for i, j := range s.V {
			v[i] = strconv.Itoa(j)
		}
		scale := ""
		if s.Scale != 1 {
			scale = ", rescaled ×" + Num(s.Scale) + " to the old ‖w‖"
		}
		ew.printf("step %d: w = %s, V = {%s}, R(w) = %s, ∇R = %s, ε = %s%s → w = %s, R = %s\n",
			s.Step, Vec(s.W), strings.Join(v, ", "), Num(s.Risk), Vec(s.Grad), Num(s.Eps), scale, Vec(s.Next), Num(s.After))
	}
	ew.printf("\n%s\n", t.Status)
	return ew.err
}

// WriteText writes the kernel perceptron's presentations and the samples
// it stores with their coefficients (004).
func (t *KernelTrace) WriteText(w io.Writer) error {
	o := t.Options
	ew := &errWriter{w: w}
	ew.printf("kernel perceptron on %s: K = %s, %s, %s\n", t.Example, t.Kernel, biasText(o.Bias), orderText(o.Shuffle, o.Seed))
	ew.printf("predict + iff f(x) = Σ a_j K(x_j, x)%s ≥ 0; on a mistake a_i ← a_i + y_i and x_i is stored\n\n", map[bool]string{true: " + Σ a_j", false: ""}[o.Bias])
	ew.printf("%5s %5s %6s  %-16s %2s %9s  %-7s %s\n", "step", "epoch", "sample", "x", "y", "f(x)", "mistake", "a_i after")
	for _, s := range t.Steps {
		ew.printf("%5d %5d %6d  %-16s %2s %9s  %-7s %s\n", s.Step, s.Epoch, s.Sample, Vec(s.X), sign(s.Y), Num(s.F), yesNo(s.Mistake), Num(float64(s.Coef)))
	}
	ew.printf("\nstored samples (in the order of their first mistake):\n")
	for _, s := range t.Stored {
		ew.printf("  sample %d %s %s: a = %s\n", s.Sample, Vec(s.X), sign(s.Y), Num(float64(s.Coef)))
	}
	ew.printf("\n%s\n", t.Status)
	return ew.err
}

// WriteText writes the SVM's α, support vectors, b and margin (004).
func (r *SVMResult) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	c := "C = " + Num(r.Options.C)
	if r.Options.Hard {
		c = "hard margin"
	} else if r.Options.C == 0 {
		c = "C = 1"
	}
	ew.printf("SVM on %s: K = %s, %s; f(x) = Σ α_i y_i K(x_i, x) + b\n\n", r.Example, r.Kernel, c)
	ew.printf("%6s  %-16s %2s %10s  %s\n", "sample", "x", "y", "α", "")
	for i, a := range r.Alpha {
		note := ""
		if a > 0 {
			note = "support vector"
		}
		ew.printf("%6d  %-16s %2s %10s  %s\n", i+1, Vec(r.ex.X[i]), sign(r.ex.Y[i]), small(a), note)
	}
	if len(r.Steps) > 0 {
		ew.printf("\nSMO, step by step from α = 0: each step moves one pair (i, j) and keeps Σ y_k α_k = 0\n")
		ew.printf("%6s %4s %4s  %-21s %-21s %9s %9s %9s %9s\n", "step", "i", "j", "α_i: before → after", "α_j: before → after", "b", "dual", "margin", "KKT gap")
		for _, s := range r.Steps {
			ew.printf("%6d %4d %4d  %-21s %-21s %9s %9s %9s %9s\n", s.Step, s.I, s.J,
				small(s.Before[0])+" → "+small(s.After[0]), small(s.Before[1])+" → "+small(s.After[1]),
				Num(s.B), Num(s.Dual), MarginText(s.Margin), small(s.Gap))
		}
	}
	ew.printf("\nb = %s, margin 1/‖w‖ = %s", Num(r.B), MarginText(r.Margin))
	if r.W != nil {
		ew.printf(", w = %s", Vec(r.W))
	}
	ew.printf("\n%d support vectors (%d at α = C)\n%s\n", len(r.Support), r.Bounded, r.Status)
	return ew.err
}

type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, a ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, a...)
	}
}
