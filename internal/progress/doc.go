// Package progress draws a progress line: one line on a terminal,
// rewritten in place ("\r" and the ANSI erase-to-end-of-line), that tells
// a person a long run is alive — what runs, how many of its units are
// done, the rate, an estimate of the time left and the time so far — in
// the manner of scikit-learn's verbose output and the usual Go progress
// bars.
//
// A [Line] made by [New] is drawn only when its writer is a terminal (a
// character device other than the null device) and it is not quiet, and
// only once a run has gone on for a second; it fits the terminal's width,
// so the terminal never wraps it (a wrapped line cannot be rewritten in
// place). A ticker redraws it while a long unit runs, at most ten redraws
// a second come from [Line.Set], [Line.Clear] erases it before other
// output and [Line.End] when the run ends. Its clock is a parameter, so
// tests and examples are deterministic.
//
// The package counts plain units and imports nothing else of mark1: the
// machine's training, an ablation and the learners all draw on it. What a
// learner's progress entries count is the learners' registry's
// (learners.NewMeter); package fitline turns them into a line's counts.
//
// It is written here rather than taken from a progress-bar library: what
// is needed is small, and a library would bring its own terminal handling
// and dependencies for it.
package progress
