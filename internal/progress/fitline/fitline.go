package fitline

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"mark1/internal/progress"
	"mark1/learning"
	"mark1/learning/learners"
)

// Compare draws the progress of the learners of a comparison on one
// progress line: the number of the last learner to start, and for the
// last one to report, its own count, rate and time left as the note. When
// the line is not drawn, each learner's start is written to a log instead,
// a line of its own. Safe for learners running side by side.
type Compare struct {
	log     io.Writer
	line    *progress.Line
	classes int
	epochs  map[string]int // epoch limit by learner
	now     func() time.Time

	mu      sync.Mutex
	started int
	runs    map[string]*progress.Line // by "learner on features": never drawn, used for its line text
	done    map[string]int
}

// NewCompare begins line for runs learner runs on classes classes, epochs
// holding each learner's epoch limit by name, on the clock now. log, if
// not nil, is told of each learner as it starts when line is not drawn.
// Call End when the comparison ends.
func NewCompare(line *progress.Line, log io.Writer, runs, classes int, epochs map[string]int, now func() time.Time) *Compare {
	lp := &Compare{log: log, line: line, classes: classes, epochs: epochs, now: now,
		runs: map[string]*progress.Line{}, done: map[string]int{}}
	// The learners run side by side: a rate of learners means nothing.
	lp.line.Begin(progress.Run{Label: "compare", Unit: "learner", Total: runs, NoRate: true, Tick: 250 * time.Millisecond})
	return lp
}

// Start is told that learner starts on features.
func (lp *Compare) Start(learner, features string) {
	lp.mu.Lock()
	defer lp.mu.Unlock()
	lp.started++
	switch {
	case lp.line.Drawn():
		lp.line.Set(lp.started, fmt.Sprintf("training %s on %s", learner, features))
	case lp.log != nil:
		fmt.Fprintf(lp.log, "  training %s on %s…\n", learner, features)
	}
}

// Checking is told that the convergence theorem's line starts on
// features, with the time it may take.
func (lp *Compare) Checking(features string, budget time.Duration) {
	lp.mu.Lock()
	defer lp.mu.Unlock()
	what := fmt.Sprintf("learners done; the convergence theorem on %s (hard-margin SVM, at most %s)", features, progress.RoundDuration(budget))
	switch {
	case lp.line.Drawn():
		lp.line.Set(lp.started, what)
	case lp.log != nil:
		fmt.Fprintf(lp.log, "  %s…\n", what)
	}
}

// Record is told of a progress entry of learner on features, counted as
// learners.NewMeter says. It never asks a run to stop.
func (lp *Compare) Record(learner, features string, e learning.Epoch) error {
	if !lp.line.Drawn() {
		return nil
	}
	lp.mu.Lock()
	defer lp.mu.Unlock()
	key := learner + " on " + features
	mt := learners.NewMeter(learner, lp.classes, lp.epochs[learner])
	p := lp.runs[key]
	if p == nil {
		p = progress.New(nil, true, lp.now)
		p.Begin(progress.Run{Label: key, Unit: mt.Unit, Total: mt.Total, Limit: mt.Limit})
		lp.runs[key] = p
	}
	lp.done[key] = mt.Count(lp.done[key], e)
	p.Set(lp.done[key], "")
	lp.line.Set(lp.started, p.Text())
	return nil
}

// End erases the line.
func (lp *Compare) End() { lp.line.End() }

// Recorder returns a Recorder that draws the fit of the learner named
// learner, on classes classes with an epoch limit of epochs, on line,
// counting its entries as learners.NewMeter says. The Recorder stops the
// fit, with the cause, once ctx is done (an interrupt, the memory guard):
// the learner ends after the entry it was told of, its Result Stopped.
// The caller ends the line.
func Recorder(ctx context.Context, line *progress.Line, learner string, classes, epochs int) learning.Recorder {
	mt := learners.NewMeter(learner, classes, epochs)
	if line.Drawn() {
		line.Begin(progress.Run{Label: "fitting " + learner, Unit: mt.Unit, Total: mt.Total, Limit: mt.Limit, Tick: 250 * time.Millisecond})
	}
	done := 0
	return learning.RecorderFunc(func(e learning.Epoch) error {
		if line.Drawn() {
			done = mt.Count(done, e)
			line.Set(done, "")
		}
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		return nil
	})
}
