package progress_test

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"mark1/internal/progress"
)

// A line drawn on a buffer that stands for a terminal, with a clock the
// example moves by hand: nothing in the first second, then the line, and
// at the end the sequence that erases it.
func Example() {
	clock := time.Date(1960, 6, 23, 10, 0, 0, 0, time.UTC)
	now := func() time.Time { return clock }
	var term strings.Builder
	line := progress.NewDrawn(&term, 0, now)
	line.Begin(progress.Run{Label: "training shapes", Unit: "epoch", Total: 20, Limit: true})
	clock = clock.Add(500 * time.Millisecond)
	line.Set(1, "") // within the first second: not drawn
	clock = clock.Add(1500 * time.Millisecond)
	line.Set(2, "3 mistakes")
	line.End()
	fmt.Printf("%q\n", term.String())
	// Output:
	// "\r\x1b[Ktraining shapes: epoch 2 (limit 20) · 1 epochs/s · at most 18s left · 2s so far · 3 mistakes\r\x1b[K"
}

// A line on a writer that is not a terminal draws nothing, but still
// counts: its Text says where the run stands.
func ExampleNew() {
	clock := time.Date(1960, 6, 23, 10, 0, 0, 0, time.UTC)
	now := func() time.Time { return clock }
	var buf bytes.Buffer
	line := progress.New(&buf, false, now)
	line.Begin(progress.Run{Label: "ablating mark1.json", Unit: "measurement", Total: 16})
	clock = clock.Add(8 * time.Second)
	line.Set(4, "")
	line.End()
	fmt.Println(line.Drawn(), buf.Len())
	fmt.Println(line.Text())
	// Output:
	// false 0
	// ablating mark1.json: measurement 4 of 16 · 2s per measurement · about 24s left · 8s so far
}

// A terminal 60 columns wide: the line drops its elapsed time, then is
// cut, so that the terminal does not wrap it.
func ExampleNewDrawn() {
	clock := time.Date(1960, 6, 23, 10, 0, 0, 0, time.UTC)
	now := func() time.Time { return clock }
	var term strings.Builder
	line := progress.NewDrawn(&term, 60, now)
	line.Begin(progress.Run{Label: "fitting svm", Unit: "pair", Total: 6})
	clock = clock.Add(3 * time.Second)
	line.Set(2, "")
	fmt.Printf("%q\n", term.String())
	// Output:
	// "\r\x1b[Kfitting svm: pair 2 of 6 · 1.5s per pair · about 6s left"
}

func ExampleRoundDuration() {
	for _, d := range []time.Duration{1234 * time.Millisecond, 12345 * time.Millisecond, 3723 * time.Second} {
		fmt.Println(progress.RoundDuration(d))
	}
	// Output:
	// 1.2s
	// 12s
	// 1h2m0s
}
