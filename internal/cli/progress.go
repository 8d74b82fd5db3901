package cli

import (
	"context"
	"io"
	"time"

	"mark1/internal/progress"
	"mark1/internal/progress/fitline"
	"mark1/learning"
)

// fitProgress returns a Recorder that draws learner's fit on a progress
// line on w (drawn on a terminal, unless quiet; fitline.Recorder, which
// stops the fit once ctx is done), and the function that ends the line.
func fitProgress(ctx context.Context, w io.Writer, quiet bool, learner string, classes, epochs int) (learning.Recorder, func()) {
	line := progress.New(w, quiet, time.Now)
	return fitline.Recorder(ctx, line, learner, classes, epochs), line.End
}
