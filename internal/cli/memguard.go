package cli

import (
	"context"
	"errors"
	"fmt"

	"mark1/dataset"
	"mark1/internal/base/memguard"
	"mark1/learning"
)

// guardMemory arms a memory guard (memguard.Guard) for a command whose
// --max-memory is limit, its learners counting their working memory against
// the same budget (learning.WithMemoryBudget; modelfile.LearnerBudget narrows it
// to what the data leave just before a fit). finish stops the guard and words
// what stopped the work with the flag that raises the bound; the command
// returns finish(err). name is the command, for the message.
func guardMemory(ctx context.Context, name string, limit int64) (_ context.Context, finish func(error) error) {
	gctx, stop := memguard.Guard(learning.WithMemoryBudget(ctx, limit), limit)
	return gctx, func(err error) error {
		cause := context.Cause(gctx)
		stop()
		var over *memguard.OverError
		if errors.As(cause, &over) && errors.Is(err, context.Canceled) {
			err = fmt.Errorf("%s: stopped: the data and the work on them reached %s", name, overWords(over))
		}
		var need *learning.MemoryError
		if errors.As(err, &need) {
			err = fmt.Errorf("%s: %w: --max-memory %d less the %s the data hold; raise it with --max-memory", name, err, limit, memguard.MB(limit-need.Budget))
		}
		return err
	}
}

// overWords says what the guard found, naming the flag.
func overWords(e *memguard.OverError) string {
	at := fmt.Sprintf("over --max-memory %d (%s); raise it with --max-memory", e.Limit, memguard.MB(e.Limit))
	if e.Heap != 0 {
		return fmt.Sprintf("%s in memory (%s live at the last collection), %s", memguard.MB(e.Heap), memguard.MB(e.Live), at)
	}
	return fmt.Sprintf("%s live in memory, %s", memguard.MB(e.Live), at)
}

// scaleHint says, of scaled values beyond what --max-memory leaves
// (dataset.ErrTooLarge), which flag raises the bound.
func scaleHint(method string, err error) error {
	if errors.Is(err, dataset.ErrTooLarge) {
		return fmt.Errorf("--scale %s: %w (what --max-memory leaves beside the data; raise it with --max-memory)", method, err)
	}
	return err
}
