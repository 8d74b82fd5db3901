package levels

import (
	"fmt"
	"io"
	"strings"
)

// WriteText writes the report as mark1 levels prints it: a row per task
// with P_g of the ideal, the mark1 and the end-stops-only machines, and
// the coarsest and noisiest pots that stay within the tolerance ("none"
// when even the finest setting swept falls short).
func (r *Report) WriteText(w io.Writer) error {
	b := &strings.Builder{}
	fmt.Fprintf(b, "P_g with ideal pots and with the mark1 preset's; how coarse or noisy the pots may be before P_g falls more than %.0f point\nbelow the ideal machine's (paired differences, mean and 95%% CI over seeds 1–%d; %d cards per class, 40%% held out, %d epochs):\n\n",
		100*r.Tolerance, r.Seeds, r.PerClass, r.Epochs)
	fmt.Fprintf(b, "%-15s %7s %8s %27s %27s %11s %15s %13s\n", "task", "classes", "ideal", "mark1 (diff, 95% CI)", "end stops only (diff, CI)", "min levels", "max step noise", "max backlash")
	for _, row := range r.Rows {
		fmt.Fprintf(b, "%-15s %7d %7.1f%% %7.1f%% (%+5.1f, %+5.1f…%+5.1f) %7.1f%% (%+5.1f, %+5.1f…%+5.1f) %11s %15s %13s\n", row.Task, row.Classes, 100*row.Ideal.Pg,
			100*row.Mark1.Pg, 100*row.Mark1.Diff, 100*row.Mark1.DiffLow, 100*row.Mark1.DiffHigh,
			100*row.Stops.Pg, 100*row.Stops.Diff, 100*row.Stops.DiffLow, 100*row.Stops.DiffHigh,
			orNone(row.MinLevels), orNone(row.MaxNoise), orNone(row.MaxBacklash))
	}
	fmt.Fprintf(b, "\nLevels are readable positions between end stops at ±%g (step %g, no noise or backlash); step noise and backlash on\notherwise ideal pots. \"none\": even the finest setting swept falls short. Settings swept: levels %v, noise %v, backlash %v.\n",
		r.Limit, r.Step, Levels(), Noises(), Backlashes())
	_, err := io.WriteString(w, b.String())
	return err
}

// orNone writes a setting found, or "none" for 0 (none found).
func orNone[T int | float64](v T) string {
	if v == 0 {
		return "none"
	}
	return fmt.Sprint(v)
}
