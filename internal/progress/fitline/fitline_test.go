package fitline

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"mark1/internal/progress"
	"mark1/learning"
	"mark1/learning/kernel"
	"mark1/learning/svm"
)

// fakeClock is a clock the test moves by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

// blobs4 is four separated Gaussian classes in 3 dimensions.
func blobs4(n int) *learning.Data {
	rng := rand.New(rand.NewPCG(3, 4))
	d := &learning.Data{Classes: 4}
	for i := range n {
		c := i % 4
		x := []float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		if c < 3 {
			x[c] += 4
		}
		d.X, d.Y = append(d.X, x), append(d.Y, c)
	}
	return d
}

// A comparison's progress line on a (fake) terminal shows the SVM's pairs
// as a real four-class fit reports them, with the rate and the time left,
// the number of the learner (the second of three started), and then the
// convergence theorem's line and its budget.
func TestLearnerProgressSVM(t *testing.T) {
	var term bytes.Buffer
	clk := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	lp := NewCompare(progress.NewDrawn(&term, 0, clk.now), &term, 3, 4, map[string]int{"svm": 50}, clk.now) // the buffer stands for a terminal
	lp.Start("perceptron", "pixels")
	lp.Start("svm", "pixels")
	var lines []string
	_, err := svm.Kernel{Kernel: kernel.Gaussian{Sigma: 2}, Settings: svm.Settings{Threads: 1}}.Fit(context.Background(), blobs4(200), learning.RecorderFunc(func(e learning.Epoch) error {
		clk.advance(2 * time.Second)
		lp.Record("svm", "pixels", e)
		lines = append(lines, term.String()[strings.LastIndex(term.String(), "\x1b[K")+3:])
		return nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	clk.advance(time.Second)
	lp.Checking("pixels", 12*time.Second)
	checking := term.String()[strings.LastIndex(term.String(), "\x1b[K")+3:]
	lp.End()
	if want := "compare: learner 2 of 3 · 13s so far · learners done; the convergence theorem on pixels (hard-margin SVM, at most 12s)"; !strings.HasPrefix(checking, want) {
		t.Errorf("theorem's line %q; want it to begin %q", checking, want)
	}
	if len(lines) < 6 {
		t.Fatalf("%d progress entries for 6 pairs", len(lines))
	}
	last := lines[len(lines)-1]
	t.Logf("last line: %s", last)
	for _, want := range []string{"compare: learner 2 of 3", "svm on pixels: pair 5 of 6", "per pair", "left", "so far"} {
		if !strings.Contains(last, want) {
			t.Errorf("last line %q lacks %q", last, want)
		}
	}
	if !strings.HasSuffix(term.String(), "\r\x1b[K") {
		t.Errorf("the line is not erased at the end: %q", term.String()[max(0, term.Len()-40):])
	}
}

// A fit draws no progress line when its writer is not a terminal or it is
// quiet; its recorder stops the fit, with the cause, once the context is
// done.
func TestRecorderQuiet(t *testing.T) {
	var buf bytes.Buffer
	for _, tc := range []struct {
		w     io.Writer
		quiet bool
	}{{&buf, false}, {&buf, true}, {os.Stderr, true}} {
		line := progress.New(tc.w, tc.quiet, time.Now)
		rec := Recorder(context.Background(), line, "svm", 4, 50)
		if err := rec.Record(learning.Epoch{Epoch: 1}); err != nil {
			t.Errorf("quiet %v: the recorder asked to stop: %v", tc.quiet, err)
		}
		line.End()
	}
	if buf.Len() != 0 {
		t.Errorf("wrote %q", buf.String())
	}
	stop := errors.New("over the memory budget")
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(stop)
	line := progress.New(&buf, true, time.Now)
	rec := Recorder(ctx, line, "perceptron", 2, 50)
	defer line.End()
	res, err := learning.Perceptron{MaxEpochs: 50}.Fit(context.Background(), blobs4(40), rec)
	if !errors.Is(err, stop) || res == nil || res.Status != learning.Stopped || res.Epochs != 1 {
		t.Errorf("a done context: %v, %+v; want the cause, and the fit Stopped after one epoch", err, res)
	}
}
