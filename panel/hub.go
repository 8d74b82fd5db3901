package panel

import "sync"

// hub broadcasts state messages to the event streams of every tab. Each
// subscriber holds at most one pending message: a newer one replaces it, so
// a slow tab skips states instead of slowing the machine or piling up
// memory.
type hub struct {
	mu     sync.Mutex
	subs   map[*subscriber]struct{}
	closed bool
}

type subscriber struct {
	ch chan []byte // capacity 1; closed when the hub closes
}

func newHub() *hub { return &hub{subs: map[*subscriber]struct{}{}} }

// subscribe adds a subscriber, or returns nil if the hub is closed.
func (h *hub) subscribe() *subscriber {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil
	}
	s := &subscriber{ch: make(chan []byte, 1)}
	h.subs[s] = struct{}{}
	return s
}

func (h *hub) unsubscribe(s *subscriber) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.subs, s)
}

// count returns the number of subscribers.
func (h *hub) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs)
}

// publish sends b to every subscriber, replacing any message not yet sent.
func (h *hub) publish(b []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs {
		select {
		case s.ch <- b:
			continue
		default:
		}
		select { // drop the stale message, then send
		case <-s.ch:
		default:
		}
		select {
		case s.ch <- b:
		default:
		}
	}
}

// close ends every stream and refuses new subscribers.
func (h *hub) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return
	}
	h.closed = true
	for s := range h.subs {
		close(s.ch)
		delete(h.subs, s)
	}
}
