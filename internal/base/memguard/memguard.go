// Package memguard stops work whose live heap passes a byte budget.
//
// Readers and learners count what they will keep before they allocate it;
// what they cannot count ahead (a learner's working arrays, garbage not yet
// collected) comes on top. Rather than keep a second estimate of every
// allocation beside the allocations themselves, a guarded piece of work
// runs under a context that the guard cancels, with an *OverError as its
// cause, once the memory Go's collector finds live passes the budget.
// HoldLimit makes the same budget Go's soft memory limit, so that the
// collector works harder as the heap nears it.
package memguard

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
)

// An OverError is the cause of a guarded context cancelled because the
// heap passed the budget: Live bytes were live at the last collection, and
// when Heap is not 0 the heap (live data and garbage) had reached Heap
// bytes with 80 % of the budget live.
type OverError struct {
	Live, Heap, Limit int64
}

func (e *OverError) Error() string {
	if e.Heap != 0 {
		return fmt.Sprintf("the data and the work on them reached %s in memory (%s live at the last collection), over the budget of %d bytes (%s)",
			MB(e.Heap), MB(e.Live), e.Limit, MB(e.Limit))
	}
	return fmt.Sprintf("the data and the work on them reached %s live in memory, over the budget of %d bytes (%s)", MB(e.Live), e.Limit, MB(e.Limit))
}

// MB writes n bytes in MB (10⁶ bytes), as the budget errors do.
func MB(n int64) string { return fmt.Sprintf("%.0f MB", float64(n)/1e6) }

// The guard reads the live heap every memoryPoll, and every nearPoll once
// the heap (live objects and garbage not yet collected) holds more than
// half the budget: a learner growing at 1 GB/s adds 10 MB in 10 ms, 15 % of
// a 64 MiB budget (issue 26), and 1 MB in 1 ms.
const (
	memoryPoll = 10 * time.Millisecond
	nearPoll   = time.Millisecond
)

// Guard arms a guard of limit bytes on ctx: the returned context is
// cancelled, with an *OverError as its cause, once the heap the last
// collection found live exceeds limit. stop ends the guard; call it once
// the work is done.
//
// The live heap is known only at the end of a collection, and a learner
// can add megabytes a millisecond meanwhile. Go's collector, whose soft
// limit is the budget (HoldLimit), keeps the heap (live data and garbage)
// under it while it can; so the guard also stops the work once the heap
// passes the limit with 80 % of the budget live at the last collection,
// without waiting for the next to say how much is live now.
func Guard(ctx context.Context, limit int64) (_ context.Context, stop func()) {
	gctx, cancel := context.WithCancelCause(context.WithValue(ctx, unguardedKey{}, ctx))
	quit := make(chan struct{})
	stopped := make(chan struct{})
	g := &heapGuard{limit: limit, cancel: cancel}
	if !g.start() {
		close(stopped) // a runtime without the metrics: the readers' budgets still hold
	} else {
		go g.watch(gctx, quit, stopped)
	}
	stop = func() {
		close(quit)
		<-stopped
		cancel(nil)
	}
	if g.started {
		// The work asks its context often (every learner looks at it in
		// its long loops): each ask also reads the heap, at most every
		// nearPoll, on the working goroutine itself. The guard then holds
		// on one CPU too, where its own goroutine runs only when the work
		// lets it (a one-CPU job-array task, GOMAXPROCS 1).
		return &guardedContext{Context: gctx, g: g}, stop
	}
	return gctx, stop
}

// A heapGuard watches the live heap against a limit and cancels a context,
// with an *OverError as its cause, once it is over.
type heapGuard struct {
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

// watch reads the heap until quit is closed, ctx is done or the heap is
// over, then closes stopped.
func (g *heapGuard) watch(ctx context.Context, quit, stopped chan struct{}) {
	defer close(stopped)
	timer := time.NewTimer(memoryPoll)
	defer timer.Stop()
	for {
		select {
		case <-quit:
		case <-ctx.Done():
		case <-timer.C:
			if !g.over() {
				timer.Reset(g.poll())
				continue
			}
		}
		return
	}
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
		g.cancel(&OverError{Live: int64(l), Limit: g.limit})
		return true
	case fresh && heap > limit && l >= limit/10*8:
		// The collector, asked to keep the heap within the budget (the
		// soft memory limit), could not, and 80 % of it was live at the
		// last collection: waiting for the next one to say how much is
		// live now would let a fast learner add megabytes a millisecond.
		g.cancel(&OverError{Live: int64(l), Heap: int64(heap), Limit: g.limit})
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

// A guardedContext is a guarded context: its Err also reads the heap, at
// most every nearPoll (see Guard).
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

// Unguarded returns the context a guard was armed on (Guard), which is
// cancelled with ctx's parents but not by the guard; outside a guard, ctx.
// A reader that counts what it keeps against the same budget takes it: it
// stops with its own error, which names the file and the line where the
// budget ran out, where the guard, which sees the reader's buffers and its
// arrays' spare room too, would stop it a little earlier naming neither.
func Unguarded(ctx context.Context) context.Context {
	if p, ok := ctx.Value(unguardedKey{}).(context.Context); ok {
		return p
	}
	return ctx
}

// HoldLimit makes limit bytes Go's soft memory limit, unless the user set
// GOMEMLIMIT: the collector then runs harder as the heap nears the budget
// instead of letting garbage double the footprint (train refusing a
// 6-million-row libsvm file at the default budget peaked at 1.06 GB RSS
// without it, 0.70 GB with it). The caller restores the previous limit.
func HoldLimit(limit int64) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetMemoryLimit(limit)
}

// HoldGC sets the collector's target to percent (unless GOGC is set) and
// returns the function that restores the previous one. Work on large
// arrays without pointers (rows, kernel caches, support vectors), cheap
// to mark, loses little to the extra collections of a low target, and its
// peak stays near its live data.
func HoldGC(percent int) (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(percent)
	return func() { debug.SetGCPercent(old) }
}

// Live collects garbage and returns the bytes then live; false for a
// runtime without the metric.
func Live() (int64, bool) {
	runtime.GC() // what is live, not what awaits collection
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0, false
	}
	return int64(s[0].Value.Uint64()), true
}

// Left returns what a budget of limit bytes leaves beside the heap live
// now (Live): at least 1 byte, so that a budget spent is still a budget;
// limit itself for a runtime without the metric.
func Left(limit int64) int64 {
	live, ok := Live()
	if !ok {
		return limit
	}
	return max(limit-min(live, limit), 1)
}
