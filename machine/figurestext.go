package machine

import (
	"fmt"
	"io"
	"strings"
)

// WriteText writes the parity experiment as mark1 limits parity
// --on-retina prints it: the seeds that answer every card right and those
// with an A-unit that sees every cell, then a line per seed.
func (r ParityResult) WriteText(w io.Writer) error {
	b := &strings.Builder{}
	fmt.Fprintf(b, "Parity on %d retina cells (%d cards): %d of %d seeds answer every card right.\n%d seeds have an A-unit whose origin points cover all %d cells; the wiring model's chance of one: %.3f.\n\n%6s %11s %10s %8s  %s\n",
		r.K, 1<<r.K, r.Perfect, len(r.Runs), r.WithSeeAll, r.K, r.PSeeAll, "seed", "right", "most seen", "see all", "could any weights? (independent of training)")
	for _, x := range r.Runs {
		fmt.Fprintf(b, "%6d %5d/%-5d %10d %8d  %s\n", x.Seed, x.Right, 1<<r.K, x.MostSeen, x.SeeAll, x.Possible)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteText writes the four figures' experiment as mark1 limits figures
// prints it, a seed a line.
func (r FourResult) WriteText(w io.Writer) error {
	b := &strings.Builder{}
	fmt.Fprintf(b, "The four figures, strands %d cells long (span %d), wiring %s, rule %s:\n%d of %d seeds answer all four right; %d have an A-unit that sees both ends.\n\n%6s %7s %9s  %s\n",
		r.Length, r.Span, r.Wiring, r.Rule, r.AllFour, len(r.Runs), r.WithSpanning, "seed", "right", "spanning", "answers to X00 X01 X10 X11")
	for _, x := range r.Runs {
		fmt.Fprintf(b, "%6d %5d/4 %9d  %s\n", x.Seed, x.Right, x.Spanning, strings.Join(x.Answers[:], " "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// FourReachLengths are the strand lengths mark1 limits figures --reach
// measures (FourReachAll): 4 to 18 cells.
func FourReachLengths() []int { return []int{4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18} }

// WriteFourReach writes FourReachAll's rows, run with o, as mark1 limits
// figures --reach prints them: a length a line.
func WriteFourReach(w io.Writer, rows []FourReach, o FourOptions) error {
	b := &strings.Builder{}
	fmt.Fprintf(b, "The smallest window D (wiring local:D) at which a machine answers all four figures right\n(%d seeds, rule %s, %d epochs)\n\n%6s %6s %6s %18s\n",
		len(o.Seeds), o.Recipe.Rule, o.Recipe.MaxEpochs, "L", "span", "D", "seeds 4 of 4")
	for _, r := range rows {
		fmt.Fprintf(b, "%6d %6d %6d %12d of %d\n", r.Length, r.Span, r.Window, r.AllFour, r.Seeds)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
