// Package heaptest samples the peak of the live heap while a test runs
// work (a command, a server's requests), for tests that bound memory.
package heaptest

import (
	"runtime/metrics"
	"time"
)

// A Sampler records the peak of the live heap, read every millisecond,
// until Peak stops it.
type Sampler struct {
	stop chan struct{}
	done chan struct{}
	peak uint64
}

// Start starts sampling.
func Start() *Sampler {
	h := &Sampler{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(h.done)
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			metrics.Read(s)
			h.peak = max(h.peak, s[0].Value.Uint64())
			select {
			case <-h.stop:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	return h
}

// Peak stops sampling and returns the peak, in bytes.
func (h *Sampler) Peak() uint64 {
	close(h.stop)
	<-h.done
	return h.peak
}
