package limits

import (
	"fmt"
	"io"
	"strings"
)

// WriteText writes the table as mark1 capacity prints it: a row per N
// with the fraction and C(N, d), the row N = 2d marked as the capacity.
func (r CapacityResult) WriteText(w io.Writer) error {
	b := &strings.Builder{}
	fmt.Fprintf(b, "Cover's count in d = %d dimensions: labelings of N points a threshold unit realises\n\n%6s %12s  %s\n", r.D, "N", "fraction", "C(N,d) of 2^N")
	for _, p := range r.Points {
		mark := ""
		if p.N == 2*r.D {
			mark = "   ← N = 2d: exactly 1/2, the capacity"
		}
		fmt.Fprintf(b, "%6d %12.6f  %s%s\n", p.N, p.Fraction, p.Count, mark)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// CurveTitle is the title of the capacity curve (Curve) drawn as a chart.
func (r CapacityResult) CurveTitle() string {
	return fmt.Sprintf("Cover (1965): the fraction of the 2^N labelings of N points in general position\nthat a threshold unit with d = %d weights realises; exactly 50%% at N = 2d = %d", r.D, 2*r.D)
}

// WriteText writes the order of parity and its proof in a few lines, as
// mark1 limits parity prints it.
func (r ParityResult) WriteText(w io.Writer) error {
	var feas []string
	for j, f := range r.Feasible {
		feas = append(feas, fmt.Sprintf("%d: %v", j, f))
	}
	_, err := fmt.Fprintf(w, "Parity on %d points has order %d (Minsky and Papert, Thm 3.1).\n  masks of at most j points suffice (linear program, j: feasible): %s\n  proved: integer coefficients −(−2)^|S| checked on all %d inputs; a Farkas vector for order %d checked exactly: %v\n",
		r.K, r.Order, strings.Join(feas, ", "), 1<<r.K, r.Order-1, r.Checked)
	return err
}

// WriteText writes how many labelings a line separates and names those it
// does not, as mark1 limits vc prints them.
func (r Shattering) WriteText(w io.Writer) error {
	_, err := fmt.Fprintf(w, "Of the %d labelings of these %d points, a line separates %d (linear programming).\nNot separable: %s\n",
		len(r.Separable), len(r.Points), r.Count, strings.Join(r.Inseparable(), ", "))
	return err
}

// SheetTitle is the title of the sheet of the labelings (Panels).
func (r Shattering) SheetTitle() string {
	return fmt.Sprintf("The %d labelings of %d points: a line separates %d (VC dimension of lines in the plane: 3)", len(r.Separable), len(r.Points), r.Count)
}
