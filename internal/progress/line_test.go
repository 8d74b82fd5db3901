package progress

import (
	"bytes"
	"os"
	"testing"
	"time"
)

// fakeClock is a clock the test moves by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

func TestProgressLine(t *testing.T) {
	for _, tc := range []struct {
		name        string
		base, total int
		limit       bool
		done        int
		elapsed     time.Duration
		note, want  string
	}{
		{"epoch limit", 0, 50, true, 2, 2 * time.Second, "5 mistakes",
			"training shapes: epoch 2 (limit 50) · 1 epochs/s · at most 48s left · 2s so far · 5 mistakes"},
		{"fixed count", 0, 16, false, 4, 8 * time.Second, "",
			"training shapes: epoch 4 of 16 · 2s per epoch · about 24s left · 8s so far"},
		{"fast", 0, 1000, true, 250, 1500 * time.Millisecond, "",
			"training shapes: epoch 250 (limit 1000) · 167 epochs/s · at most 4.5s left · 1.5s so far"},
		{"nothing done yet", 0, 50, true, 0, 3 * time.Second, "",
			"training shapes: epoch 0 (limit 50) · 3s so far"},
		{"no total", 0, 0, false, 7, 7 * time.Minute, "",
			"training shapes: epoch 7 · 1m0s per epoch · 7m0s so far"},
		{"done", 0, 10, true, 10, 90 * time.Minute, "",
			"training shapes: epoch 10 (limit 10) · 9m0s per epoch · 1h30m0s so far"},
		{"resumed after 40", 40, 60, true, 45, 10 * time.Second, "",
			"training shapes: epoch 45 (limit 60) · 2s per epoch · at most 30s left · 10s so far"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &Line{label: "training shapes", unit: "epoch", base: tc.base, total: tc.total, limit: tc.limit, done: tc.done, note: tc.note, doneAt: tc.elapsed}
			if got := p.line(tc.elapsed); got != tc.want {
				t.Errorf("line\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestProgressTerminal drives a progress line on a fake terminal with a
// fake clock: nothing in the first second, then the line rewritten in
// place, erased before other output and at the end.
func TestProgressTerminal(t *testing.T) {
	var term bytes.Buffer
	clk := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	p := &Line{w: &term, on: true, now: clk.now}
	p.Begin(Run{Label: "training shapes", Unit: "epoch", Total: 20, Limit: true})
	clk.advance(500 * time.Millisecond)
	p.Set(1, "")
	if term.Len() != 0 {
		t.Fatalf("a line within the first second: %q", term.String())
	}
	clk.advance(1500 * time.Millisecond)
	p.Set(2, "3 mistakes")
	want := "\r\x1b[Ktraining shapes: epoch 2 (limit 20) · 1 epochs/s · at most 18s left · 2s so far · 3 mistakes"
	if got := term.String(); got != want {
		t.Fatalf("after 2 s\n got %q\nwant %q", got, want)
	}
	term.Reset()
	p.Clear()
	p.Clear()
	if got := term.String(); got != "\r\x1b[K" {
		t.Errorf("clear twice: %q; want one erase", got)
	}
	// Output to a file or a buffer that is not the line's own leaves the
	// line alone; output to its own writer erases it.
	p.Set(2, "3 mistakes")
	term.Reset()
	p.Before(&bytes.Buffer{})
	if term.Len() != 0 {
		t.Errorf("before output elsewhere: %q; want nothing", term.String())
	}
	p.Before(&term)
	if got := term.String(); got != "\r\x1b[K" {
		t.Errorf("before output to the line's writer: %q; want an erase", got)
	}
	// Half a second into the next epoch, the rate stays that of the
	// epochs done, and the time left goes down.
	term.Reset()
	clk.advance(500 * time.Millisecond)
	p.Set(2, "")
	want = "\r\x1b[Ktraining shapes: epoch 2 (limit 20) · 1 epochs/s · at most 18s left · 2.5s so far" // 17.5 s, to the second
	if got := term.String(); got != want {
		t.Errorf("within an epoch\n got %q\nwant %q", got, want)
	}
	term.Reset()
	clk.advance(1500 * time.Millisecond)
	p.Set(4, "")
	p.End()
	want = "\r\x1b[Ktraining shapes: epoch 4 (limit 20) · 1 epochs/s · at most 16s left · 4s so far\r\x1b[K"
	if got := term.String(); got != want {
		t.Errorf("end\n got %q\nwant %q", got, want)
	}
}

// TestProgressQuiet: no terminal, or quiet, means no line at all.
func TestProgressQuiet(t *testing.T) {
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	var buf bytes.Buffer
	for _, tc := range []struct {
		name string
		p    *Line
		buf  *bytes.Buffer
	}{
		{"a buffer is not a terminal", New(&buf, false, time.Now), &buf},
		{"quiet", New(&buf, true, time.Now), &buf},
		{"the null device is not a terminal", New(devnull, false, time.Now), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.p.Drawn() {
				t.Fatalf("progress on")
			}
			clk := &fakeClock{t: time.Now()}
			tc.p.now = clk.now
			tc.p.Begin(Run{Label: "x", Unit: "epoch", Total: 5, Limit: true, Tick: time.Millisecond})
			clk.advance(time.Hour)
			tc.p.Set(3, "")
			tc.p.End()
			if tc.buf != nil && tc.buf.Len() != 0 {
				t.Errorf("wrote %q", tc.buf.String())
			}
		})
	}
}

// A progress line longer than the terminal loses its elapsed time first,
// then is cut to one column less than the width, so the terminal never
// wraps it (a wrapped line cannot be rewritten in place); a short one, or
// one on a terminal of unknown width, is left alone.
func TestFitWidth(t *testing.T) {
	long := "training shapes: epoch 2 (limit 20) · 1 epochs/s · at most 18s left · 2s so far · 3 mistakes"
	for _, tc := range []struct {
		line  string
		width int
		want  string
	}{
		{"short", 80, "short"},
		{long, 0, long},
		{long, 90, "training shapes: epoch 2 (limit 20) · 1 epochs/s · at most 18s left · 3 mistakes"},
		{long, 40, "training shapes: epoch 2 (limit 20) · …"},
		{"x", 1, "x"},
	} {
		got := fitWidth(tc.line, tc.width)
		if got != tc.want {
			t.Errorf("fitWidth(%q, %d) = %q, want %q", tc.line, tc.width, got, tc.want)
		}
		if w := tc.width; w > 2 && len([]rune(got)) >= w {
			t.Errorf("fitWidth(.., %d) is %d runes", w, len([]rune(got)))
		}
	}
}
