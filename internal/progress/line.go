package progress

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// A Line tells a person at a terminal that a long run is alive: one line,
// rewritten in place, with what is done, the rate and an estimate of the
// time left. It stays silent when quiet, when its writer is not a terminal
// (a pipe, a file, a test's buffer), and for runs shorter than
// progressDelay. Its methods are safe to call from several goroutines.
type Line struct {
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

// New returns a progress line on w, drawn only if w is a terminal and
// quiet is false, as wide as the terminal. now is the clock (time.Now
// outside tests). A line that is not drawn still counts: its Text says
// where its run stands.
func New(w io.Writer, quiet bool, now func() time.Time) *Line {
	p := &Line{w: w, on: !quiet && isTerminal(w), now: now}
	if p.on {
		p.width = termWidth(w)
	}
	return p
}

// NewDrawn returns a progress line drawn on w whatever w is, width columns
// wide (0 if not known): for a writer the caller knows to be a terminal,
// or a buffer that stands for one in a test or an example.
func NewDrawn(w io.Writer, width int, now func() time.Time) *Line {
	return &Line{w: w, on: true, now: now, width: width}
}

// Drawn reports whether the line is drawn on its writer.
func (p *Line) Drawn() bool { return p.on }

// A Run is what a line counts: units from Base (those done before, in a
// resumed run) to Total.
type Run struct {
	Label string // what runs: "training shapes"
	Unit  string // what is counted, singular: "epoch"
	Base  int    // units done before this run began (a resumed run)
	Total int    // units in all; 0 if not known
	Limit bool   // Total is a limit the run may stop before (an epoch limit)
	// NoRate shows no rate or time left: for units that run side by
	// side, whose rate means nothing.
	NoRate bool
	// Tick, if positive, is how often a ticker redraws a drawn line, so
	// that the elapsed time moves during a long unit.
	Tick time.Duration
}

// Begin starts counting r, and its ticker if the line is drawn. Call End
// when the run ends.
func (p *Line) Begin(r Run) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.start, p.label, p.unit, p.total, p.limit, p.note = p.now(), r.Label, r.Unit, r.Total, r.Limit, ""
	p.base, p.done, p.doneAt, p.hidden, p.noRate = r.Base, r.Base, 0, false, r.NoRate
	if p.on && r.Tick > 0 {
		p.stopped = make(chan struct{})
		go p.ticker(r.Tick, p.stopped)
	}
}

func (p *Line) ticker(tick time.Duration, stop chan struct{}) {
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

// Set records that done units are finished, with a note ("12 mistakes"),
// and redraws the line.
func (p *Line) Set(done int, note string) {
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

// redrawEvery is the least time between two redraws by Set.
const redrawEvery = 100 * time.Millisecond

// Clear erases the line, before other output is written to the same
// terminal; the next Set draws it again.
func (p *Line) Clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.erase()
	p.hidden = true
}

// Before erases the line before other output is written to w, when w
// may show on the same screen: the line's own writer, or a terminal. Output
// to a file or a pipe (standard output redirected) leaves the line drawn,
// so that it does not flicker at every line written there.
func (p *Line) Before(w io.Writer) {
	if w == p.w || isTerminal(w) {
		p.Clear()
	}
}

// End stops the ticker and erases the line.
func (p *Line) End() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped != nil {
		close(p.stopped)
		p.stopped = nil
	}
	p.erase()
}

func (p *Line) erase() {
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
}

// draw writes the line, if it is on and the run has gone on long enough.
// Called with p.mu held.
func (p *Line) draw() {
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

// Text returns the text of the line now, drawn or not (unfitted to any
// width): "training shapes: epoch 4 of 16 · 2s per epoch · about 24s left
// · 8s so far".
func (p *Line) Text() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.line(p.now().Sub(p.start))
}

// line is the text of the progress line after elapsed.
func (p *Line) line(elapsed time.Duration) string {
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
			fmt.Fprintf(&b, " · %s per %s", RoundDuration(time.Duration(float64(time.Second)/rate)), p.unit)
		}
		if p.total > p.done {
			left := max(0, time.Duration(float64(p.total-p.done)/rate*float64(time.Second))-(elapsed-p.doneAt))
			if p.limit {
				fmt.Fprintf(&b, " · at most %s left", RoundDuration(left))
			} else {
				fmt.Fprintf(&b, " · about %s left", RoundDuration(left))
			}
		}
	}
	fmt.Fprintf(&b, " · %s so far", RoundDuration(elapsed))
	if p.note != "" {
		b.WriteString(" · " + p.note)
	}
	return b.String()
}

// RoundDuration rounds d to a precision a person reads at a glance: to the
// minute from an hour, to the second from ten seconds, else to a tenth of
// a second.
func RoundDuration(d time.Duration) time.Duration {
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
