package fitline_test

import (
	"context"
	"fmt"
	"strings"
	"time"

	"mark1/internal/progress"
	"mark1/internal/progress/fitline"
	"mark1/learning"
)

// A perceptron's fit drawn on a buffer that stands for a terminal, with a
// clock that moves a second an epoch: each line drawn (none in the first
// second), and how the fit ended.
func ExampleRecorder() {
	clock := time.Date(1960, 6, 23, 10, 0, 0, 0, time.UTC)
	now := func() time.Time { return clock }
	var term strings.Builder
	line := progress.NewDrawn(&term, 0, now)
	rec := fitline.Recorder(context.Background(), line, "perceptron", 2, 50)
	d := &learning.Data{Classes: 2,
		X: [][]float64{{2, 1}, {1, 3}, {-1, -2}, {-2, 1}, {3, -1}, {-1, -3}},
		Y: []int{0, 0, 1, 1, 0, 1}}
	res, err := learning.Perceptron{MaxEpochs: 50}.Fit(context.Background(), d, learning.RecorderFunc(func(e learning.Epoch) error {
		clock = clock.Add(time.Second)
		return rec.Record(e)
	}))
	line.End()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, draw := range strings.Split(term.String(), "\r\x1b[K") {
		if draw != "" {
			fmt.Println(draw)
		}
	}
	fmt.Println(res.Status)
	// Output:
	// fitting perceptron: epoch 1 (limit 50) · 1 epochs/s · at most 49s left · 1s so far
	// fitting perceptron: epoch 2 (limit 50) · 1 epochs/s · at most 48s left · 2s so far
	// converged
}

// A comparison's line counts its learners and shows the last to report:
// its own count, rate and time left, counted from its first entry.
func ExampleCompare() {
	clock := time.Date(1960, 6, 23, 10, 0, 0, 0, time.UTC)
	now := func() time.Time { return clock }
	var term strings.Builder
	cmp := fitline.NewCompare(progress.NewDrawn(&term, 0, now), nil, 2, 2, map[string]int{"perceptron": 20}, now)
	cmp.Start("perceptron", "pixels")
	for epoch := 1; epoch <= 4; epoch++ {
		clock = clock.Add(time.Second)
		cmp.Record("perceptron", "pixels", learning.Epoch{Epoch: epoch, Mistakes: 5 - epoch})
	}
	cmp.End()
	draws := strings.Split(term.String(), "\r\x1b[K")
	fmt.Println(draws[len(draws)-2])
	// Output:
	// compare: learner 1 of 2 · 4s so far · perceptron on pixels: epoch 4 (limit 20) · 1.33 epochs/s · at most 12s left · 3s so far
}
