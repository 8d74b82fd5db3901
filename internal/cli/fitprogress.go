package cli

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"mark1/learning"
	"mark1/learning/learners"
)

// learnerProgress draws the progress of the learners of a comparison on
// one progress line (progress.go): the number of the last learner to start, and
// for the last one to report, its own count, rate and time left as the
// note. On a terminal that line; elsewhere, unless quiet, a line per
// learner as it starts. Safe for learners running side by side.
type learnerProgress struct {
	w       io.Writer
	quiet   bool
	line    *progress
	classes int
	epochs  map[string]int // epoch limit by learner
	now     func() time.Time

	mu      sync.Mutex
	started int
	runs    map[string]*progress // by "learner on features": never drawn, used for its line text
	done    map[string]int
}

// newLearnerProgress starts the line for runs learner runs.
func newLearnerProgress(w io.Writer, quiet bool, runs, classes int, epochs map[string]int, now func() time.Time) *learnerProgress {
	lp := &learnerProgress{w: w, quiet: quiet, line: newProgress(w, quiet, now), classes: classes, epochs: epochs, now: now,
		runs: map[string]*progress{}, done: map[string]int{}}
	lp.line.noRate = true // the learners run side by side: a rate of learners means nothing
	lp.line.begin("compare", "learner", 0, runs, false, 250*time.Millisecond)
	return lp
}

// start is told that learner starts on features.
func (lp *learnerProgress) start(learner, features string) {
	lp.mu.Lock()
	defer lp.mu.Unlock()
	lp.started++
	switch {
	case lp.line.on:
		lp.line.set(lp.started, fmt.Sprintf("training %s on %s", learner, features))
	case !lp.quiet:
		fmt.Fprintf(lp.w, "  training %s on %s…\n", learner, features)
	}
}

// checking is told that the convergence theorem's line starts on
// features, with the time it may take.
func (lp *learnerProgress) checking(features string, budget time.Duration) {
	lp.mu.Lock()
	defer lp.mu.Unlock()
	what := fmt.Sprintf("learners done; the convergence theorem on %s (hard-margin SVM, at most %s)", features, roundDuration(budget))
	switch {
	case lp.line.on:
		lp.line.set(lp.started, what)
	case !lp.quiet:
		fmt.Fprintf(lp.w, "  %s…\n", what)
	}
}

// record is told of a progress entry of learner on features. It never
// asks a run to stop.
func (lp *learnerProgress) record(learner, features string, e learning.Epoch) error {
	if !lp.line.on {
		return nil
	}
	lp.mu.Lock()
	defer lp.mu.Unlock()
	key := learner + " on " + features
	mt := learners.NewMeter(learner, lp.classes, lp.epochs[learner])
	p := lp.runs[key]
	if p == nil {
		p = &progress{now: lp.now}
		p.begin(key, mt.Unit, 0, mt.Total, mt.Limit, 0)
		lp.runs[key] = p
	}
	lp.done[key] = mt.Count(lp.done[key], e)
	p.set(lp.done[key], "")
	p.mu.Lock()
	note := p.line(lp.now().Sub(p.start))
	p.mu.Unlock()
	lp.line.set(lp.started, note)
	return nil
}

// end erases the line.
func (lp *learnerProgress) end() { lp.line.end() }

// fitProgress returns a Recorder that draws learner's progress on one
// progress line on w (a terminal, unless quiet), and the function that ends
// it. The Recorder stops the fit, with the cause, once ctx is done (an
// interrupt, the memory guard): the learner ends after the entry it was
// told of, its Result Stopped.
func fitProgress(ctx context.Context, w io.Writer, quiet bool, learner string, classes, epochs int) (learning.Recorder, func()) {
	p := newProgress(w, quiet, time.Now)
	mt := learners.NewMeter(learner, classes, epochs)
	if p.on {
		p.begin("fitting "+learner, mt.Unit, 0, mt.Total, mt.Limit, 250*time.Millisecond)
	}
	done := 0
	return learning.RecorderFunc(func(e learning.Epoch) error {
		if p.on {
			done = mt.Count(done, e)
			p.set(done, "")
		}
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		return nil
	}), p.end
}
