package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"

	"mark1/dataset"
	"mark1/learning"
)

// The readers and the machine count what they will keep before they
// allocate it (--max-memory); a learner's working memory (an SVM's
// per-row state and kernel cache, a linear SVM's copy of the rows, batch
// GD's per-row margins) comes on top and depends on the learner. Rather
// than keep a second estimate of every learner's allocations beside the
// allocations themselves, the commands that fit learners watch the memory
// Go's collector finds live, and stop the work, naming the flag, once it
// passes the budget: memory stays bounded, and the message says which
// flag raises the bound.

// memoryError is the cause of a command's context when its live heap
// passed --max-memory.
type memoryError struct{ msg string }

func (e *memoryError) Error() string { return e.msg }

// The guard reads the live heap every memoryPoll, and every nearPoll once
// the heap (live objects and garbage not yet collected) holds more than
// half the budget: a learner growing at 1 GB/s adds 10 MB in 10 ms, 15 % of
// a 64 MiB budget (issue 26), and 1 MB in 1 ms.
const (
	memoryPoll = 10 * time.Millisecond
	nearPoll   = time.Millisecond
)

// guardMemory arms a memory guard for a command whose --max-memory is
// limit: the returned context is cancelled, with a *memoryError as
// its cause, once the heap the last collection found live exceeds the
// limit (parse has made the same limit Go's soft memory limit, see
// holdMemory). finish stops the guard and turns the cancellation it caused
// into that error, which names the flag; the command returns finish(err).
// name is the command, for the message.
//
// The live heap is known only at the end of a collection, and a learner
// can add megabytes a millisecond meanwhile. Go's collector, whose soft
// limit is the budget, keeps the heap (live data and garbage) under it
// while it can; so the guard also stops the work once the heap passes the
// limit with 80 % of the budget live at the last collection, without
// waiting for the next to say how much is live now.
func guardMemory(ctx context.Context, name string, limit int64) (_ context.Context, finish func(error) error) {
	// Learners count their working memory against the same budget before
	// they allocate it (learning.CheckMemory); learnerBudget narrows it to
	// what the data leave just before a fit.
	gctx, cancel := context.WithCancelCause(learning.WithMemoryBudget(context.WithValue(ctx, unguardedKey{}, ctx), limit))
	quit := make(chan struct{})
	stopped := make(chan struct{})
	g := &heapGuard{name: name, limit: limit, cancel: cancel}
	if !g.start() {
		close(stopped) // a runtime without the metrics: the readers' budgets still hold
	} else {
		go func() {
			defer close(stopped)
			timer := time.NewTimer(memoryPoll)
			defer timer.Stop()
			for {
				select {
				case <-quit:
					return
				case <-gctx.Done():
					return
				case <-timer.C:
				}
				if g.over() {
					return
				}
				timer.Reset(g.poll())
			}
		}()
	}
	finish = func(err error) error {
		close(quit)
		<-stopped
		var over *memoryError
		if errors.As(context.Cause(gctx), &over) && errors.Is(err, context.Canceled) {
			err = over
		}
		var need *learning.MemoryError
		if errors.As(err, &need) {
			err = fmt.Errorf("%s: %w: --max-memory %d less the %s the data hold; raise it with --max-memory", name, err, limit, megabytes(limit-need.Budget))
		}
		cancel(nil)
		return err
	}
	if g.started {
		// The work asks its context often (every learner looks at it in
		// its long loops): each ask also reads the heap, at most every
		// nearPoll, on the working goroutine itself. The guard then holds
		// on one CPU too, where its own goroutine runs only when the work
		// lets it (a one-CPU job-array task, GOMAXPROCS 1).
		return &guardedContext{Context: gctx, g: g}, finish
	}
	return gctx, finish
}

// A heapGuard watches the live heap against a command's --max-memory and
// cancels the command's context, with a *memoryError as its cause, once it
// is over.
type heapGuard struct {
	name        string
	limit       int64
	cancel      context.CancelCauseFunc
	started     bool
	startCycles uint64
	mu          sync.Mutex   // one reading at a time; sample and heap are its
	last        atomic.Int64 // when the last reading was taken (Unix ns)
	heap        uint64
	sample      []metrics.Sample
}

const live, cycles, objects = 0, 1, 2

// start takes the first reading; false for a runtime without the metrics.
func (g *heapGuard) start() bool {
	g.sample = []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/cycles/total:gc-cycles"}, {Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(g.sample)
	for _, s := range g.sample {
		if s.Value.Kind() != metrics.KindUint64 {
			return false
		}
	}
	// The live heap is as the last collection found it: one that ended
	// before the guard started measured someone else's work (an earlier
	// command in the same process), so readings count only once a
	// collection has run since.
	g.startCycles, g.started = g.sample[cycles].Value.Uint64(), true
	return true
}

// over reads the heap and reports whether it is over the budget, having
// cancelled the context if so.
func (g *heapGuard) over() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.last.Store(time.Now().UnixNano())
	metrics.Read(g.sample)
	heap, n, l := g.sample[objects].Value.Uint64(), g.sample[cycles].Value.Uint64(), g.sample[live].Value.Uint64()
	g.heap = heap
	// The live heap counts once a collection both started and ended since
	// the guard did: one already running then marks what the earlier work
	// held.
	fresh, limit := n >= g.startCycles+2, uint64(g.limit)
	switch {
	case fresh && l > limit:
		g.cancel(&memoryError{fmt.Sprintf("%s: stopped: the data and the work on them reached %s live in memory, over --max-memory %d (%s); raise it with --max-memory",
			g.name, megabytes(int64(l)), g.limit, megabytes(g.limit))})
		return true
	case fresh && heap > limit && l >= limit/10*8:
		// The collector, asked to keep the heap within the budget (the
		// soft memory limit), could not, and 80 % of it was live at the
		// last collection: waiting for the next one to say how much is
		// live now would let a fast learner add megabytes a millisecond.
		g.cancel(&memoryError{fmt.Sprintf("%s: stopped: the data and the work on them reached %s in memory (%s live at the last collection), over --max-memory %d (%s); raise it with --max-memory",
			g.name, megabytes(int64(heap)), megabytes(int64(l)), g.limit, megabytes(g.limit))})
		return true
	}
	return false
}

// poll is the time to the next reading: nearPoll once the heap holds more
// than half the budget, else memoryPoll.
func (g *heapGuard) poll() time.Duration {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.heap > uint64(g.limit)/2 {
		return nearPoll
	}
	return memoryPoll
}

// A guardedContext is a guarded command's context: its Err also reads the
// heap, at most every nearPoll (see guardMemory).
type guardedContext struct {
	context.Context
	g *heapGuard
}

// Err returns the context's error, reading the heap first when the last
// reading is older than nearPoll.
func (c *guardedContext) Err() error {
	if err := c.Context.Err(); err != nil {
		return err
	}
	if time.Now().UnixNano()-c.g.last.Load() >= int64(nearPoll) && c.g.over() {
		return c.Context.Err()
	}
	return nil
}

// unguardedKey keys, in a guarded context, the context the guard was armed
// on.
type unguardedKey struct{}

// readContext returns the context a reader of data takes under a memory
// guard: the one the guard was armed on, which Ctrl-C cancels but the
// guard does not. A reader counts what it keeps against --max-memory as it
// reads and stops with its own error, which names the file and the line
// where the budget ran out; the guard, which sees the reader's buffers and
// its arrays' spare room too, would stop it a little earlier with a message
// naming neither. Outside a guard it returns ctx.
func readContext(ctx context.Context) context.Context {
	if p, ok := ctx.Value(unguardedKey{}).(context.Context); ok {
		return p
	}
	return ctx
}

// holdMemory makes a command's --max-memory, limit, Go's soft memory
// limit for the rest of the command, unless the user set GOMEMLIMIT: the
// collector then runs harder as the heap nears the budget instead of
// letting garbage double the footprint (train refusing a 6-million-row
// libsvm file at the default budget peaked at 1.06 GB RSS without it, 0.70
// GB with it). Run restores the previous limit when the command ends.
func holdMemory(limit int64) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetMemoryLimit(limit)
}

// megabytes writes n bytes in MB (10⁶ bytes), as the budget errors do.
func megabytes(n int64) string { return fmt.Sprintf("%.0f MB", float64(n)/1e6) }

// learnerBudget returns ctx with the budget a learner's working memory
// may take: --max-memory (which guardMemory put in ctx) less the heap live
// now, which holds the data the learner is about to be given. A learner
// counts its need against it before allocating (learning.CheckMemory), so
// that the data and the work together stay within --max-memory.
func learnerBudget(ctx context.Context) context.Context {
	limit := learning.MemoryBudget(ctx)
	if limit == 0 {
		return ctx
	}
	runtime.GC() // what is live, not what awaits collection
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return ctx
	}
	live := int64(min(s[0].Value.Uint64(), uint64(limit)))
	return learning.WithMemoryBudget(ctx, max(limit-live, 1))
}

// scaleSet applies sc to s within what --max-memory leaves beside the data
// already read, stopping once ctx is cancelled. Scaling can densify a
// sparse file; each scaled value costs an index and a number (12 bytes),
// and as much again for the learners' compact copy of the rows
// (modelfile.Rows), so the scaled values are counted at 24 bytes.
func scaleSet(ctx context.Context, sc *dataset.Scaler, s *dataset.Set) (*dataset.Set, error) {
	maxValues := 0
	if b := learning.MemoryBudget(learnerBudget(ctx)); b > 0 {
		maxValues = int(max(1, b/24))
	}
	out, err := sc.ApplyContext(ctx, s, maxValues)
	if errors.Is(err, dataset.ErrTooLarge) {
		return nil, fmt.Errorf("--scale %s: %w (what --max-memory leaves beside the data; raise it with --max-memory)", sc.Method, err)
	}
	return out, err
}
