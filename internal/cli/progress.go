package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// A progress line tells a person at a terminal that a long run is alive:
// one line on standard error, rewritten in place ("\r" and the ANSI
// erase-to-end-of-line), with what is done, the rate and an estimate of
// the time left, in the manner of scikit-learn's verbose output and the
// usual Go progress bars. It stays silent under --quiet, when standard
// error is not a terminal (a pipe, a file, a test's buffer), and for runs
// shorter than progressDelay. It is written here rather than taken from a
// progress-bar library: what is needed is forty lines, and a library would
// bring its own terminal handling and dependencies for them.
type progress struct {
	w     io.Writer
	on    bool
	now   func() time.Time
	width int // of the terminal, in columns; 0 if not known

	mu      sync.Mutex // guards everything below; the ticker draws too
	start   time.Time
	label   string // what runs: "training shapes"
	unit    string // what is counted: "epoch"
	limit   bool   // total is a limit the run may stop before (an epoch limit)
	noRate  bool   // show no rate or time left (units that run side by side)
	base    int    // units done before this run began (a resumed run)
	done    int
	doneAt  time.Duration // when the last unit was done, from start
	total   int
	note    string
	shown   bool      // a line is on the terminal
	drawnAt time.Time // when it was drawn
	hidden  bool      // erased for other output: the ticker waits for the next set
	stopped chan struct{}
}

// progressDelay is how long a run goes before its progress line appears.
const progressDelay = time.Second

// newProgress returns a progress line on w, drawn only if w is a terminal
// and quiet is false. now is the clock (time.Now outside tests).
func newProgress(w io.Writer, quiet bool, now func() time.Time) *progress {
	p := &progress{w: w, on: !quiet && isTerminal(w), now: now}
	if p.on {
		p.width = termWidth(w)
	}
	return p
}

// isTerminal reports whether w is a terminal: a character device other
// than the null device.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(fi, null)
}

// begin starts counting a run of units from base (those done before, in a
// resumed run) to total (an upper limit if limit is true), and, if tick is
// positive and the line is on, a ticker that redraws it every tick so that
// the elapsed time moves during a long unit. Call end when the run ends.
func (p *progress) begin(label, unit string, base, total int, limit bool, tick time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.start, p.label, p.unit, p.total, p.limit, p.note = p.now(), label, unit, total, limit, ""
	p.base, p.done, p.doneAt, p.hidden = base, base, 0, false
	if p.on && tick > 0 {
		p.stopped = make(chan struct{})
		go p.ticker(tick, p.stopped)
	}
}

func (p *progress) ticker(tick time.Duration, stop chan struct{}) {
	t := time.NewTicker(tick)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			p.mu.Lock()
			if !p.hidden {
				p.draw()
			}
			p.mu.Unlock()
		}
	}
}

// set records that done units are finished, with a note ("12 mistakes"),
// and redraws the line.
func (p *progress) set(done int, note string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if done != p.done {
		p.doneAt = p.now().Sub(p.start)
	}
	p.done, p.note, p.hidden = done, note, false
	// A fast run may set thousands of times a second: redraw at most ten
	// times a second (the ticker keeps the line current in between).
	if now := p.now(); p.shown && now.Sub(p.drawnAt) < redrawEvery && done < p.total {
		return
	}
	p.draw()
}

// redrawEvery is the least time between two redraws by set.
const redrawEvery = 100 * time.Millisecond

// clear erases the line, before other output is written to the same
// terminal; the next set draws it again.
func (p *progress) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.erase()
	p.hidden = true
}

// end stops the ticker and erases the line.
func (p *progress) end() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped != nil {
		close(p.stopped)
		p.stopped = nil
	}
	p.erase()
}

func (p *progress) erase() {
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
}

// draw writes the line, if it is on and the run has gone on long enough.
// Called with p.mu held.
func (p *progress) draw() {
	if !p.on {
		return
	}
	elapsed := p.now().Sub(p.start)
	if elapsed < progressDelay {
		return
	}
	fmt.Fprint(p.w, "\r\x1b[K"+fitWidth(p.line(elapsed), p.width))
	p.shown, p.drawnAt = true, p.now()
}

// fitWidth shortens line to fit in width-1 columns (one rune a column) of a
// terminal, so that the terminal does not wrap it: a wrapped line cannot be
// rewritten in place. It drops the elapsed time ("· 12s so far") first,
// then cuts the end, marking it "…". width 0 (unknown) leaves line alone.
func fitWidth(line string, width int) string {
	if width < 3 || utf8.RuneCountInString(line) < width {
		return line
	}
	if i := strings.Index(line, " so far"); i >= 0 {
		if j := strings.LastIndex(line[:i], " · "); j >= 0 {
			line = line[:j] + line[i+len(" so far"):]
		}
	}
	r := []rune(line)
	if len(r) < width {
		return line
	}
	return string(r[:width-2]) + "…"
}

// line is the text of the progress line after elapsed.
func (p *progress) line(elapsed time.Duration) string {
	var b strings.Builder
	b.WriteString(p.label + ": ")
	switch {
	case p.total > 0 && p.limit:
		fmt.Fprintf(&b, "%s %d (limit %d)", p.unit, p.done, p.total)
	case p.total > 0:
		fmt.Fprintf(&b, "%s %d of %d", p.unit, p.done, p.total)
	default:
		fmt.Fprintf(&b, "%s %d", p.unit, p.done)
	}
	// The rate is measured over the units done, the estimate counts from
	// when the last one was done.
	if n := p.done - p.base; n > 0 && p.doneAt > 0 && !p.noRate {
		rate := float64(n) / p.doneAt.Seconds()
		if rate >= 1 {
			fmt.Fprintf(&b, " · %.3g %ss/s", rate, p.unit)
		} else {
			fmt.Fprintf(&b, " · %s per %s", roundDuration(time.Duration(float64(time.Second)/rate)), p.unit)
		}
		if p.total > p.done {
			left := max(0, time.Duration(float64(p.total-p.done)/rate*float64(time.Second))-(elapsed-p.doneAt))
			if p.limit {
				fmt.Fprintf(&b, " · at most %s left", roundDuration(left))
			} else {
				fmt.Fprintf(&b, " · about %s left", roundDuration(left))
			}
		}
	}
	fmt.Fprintf(&b, " · %s so far", roundDuration(elapsed))
	if p.note != "" {
		b.WriteString(" · " + p.note)
	}
	return b.String()
}

// roundDuration rounds d to a precision a person reads at a glance.
func roundDuration(d time.Duration) time.Duration {
	switch {
	case d >= time.Hour:
		return d.Round(time.Minute)
	case d >= time.Minute:
		return d.Round(time.Second)
	case d >= 10*time.Second:
		return d.Round(time.Second)
	default:
		return d.Round(100 * time.Millisecond)
	}
}
