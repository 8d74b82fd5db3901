package curves

import (
	"fmt"
	"io"
	"strings"
)

// WriteText writes the figure as mark1 curves prints it: the title, the
// parameters used and why, the notes, the measured points with their 95%
// intervals, and RT58's worked point (rt58-5; mark1 adds where to measure
// the cards' P_a and P_c).
func (f *Figure) WriteText(w io.Writer) error {
	b := &strings.Builder{}
	fmt.Fprintf(b, "%s\n", f.Title)
	for _, p := range f.Parameters {
		fmt.Fprintf(b, "  %s = %s: %s\n", p.Name, p.Text(), p.Why)
	}
	for _, n := range f.Notes {
		fmt.Fprintf(b, "  Note: %s.\n", n)
	}
	x := map[bool]string{true: "P_a %6.4f", false: "n_sr %6g"}[f.XValue == "p_a"]
	for _, cv := range f.Curves {
		if cv.Kind != "measured" {
			continue
		}
		fmt.Fprintf(b, "\n  %s (%d seeds):\n", cv.Name, cv.Seeds)
		for i := range cv.X {
			fmt.Fprintf(b, "    "+x+": %.3f (95%% CI %.3f–%.3f)\n", cv.X[i], cv.Y[i], cv.CILow[i], cv.CIHigh[i])
		}
	}
	if wp := f.WorkedPoint; wp != nil {
		fmt.Fprintf(b, "\n  Worked point (RT58: 100 A-units per set, 100 squares and 100 circles):\n")
		fmt.Fprintf(b, "    paper:    P_r %.3f, P_g %.3f, limit %.3f\n", wp.Paper.Pr, wp.Paper.Pg, wp.Paper.Limit)
		fmt.Fprintf(b, "    model:    P_r %.3f, P_g %.3f, limit %.3f\n", wp.Model.Pr, wp.Model.Pg, wp.Model.Limit)
		fmt.Fprintf(b, "    measured: P_r %.3f (95%% CI %.3f–%.3f), P_g %.3f (95%% CI %.3f–%.3f)\n",
			wp.Measured.Pr.Mean, wp.Measured.Pr.CILow, wp.Measured.Pr.CIHigh, wp.Measured.Pg.Mean, wp.Measured.Pg.CILow, wp.Measured.Pg.CIHigh)
		fmt.Fprintf(b, "    %s\n", wp.Deviation)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
