package panel

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestLoopFlatOutIsFair runs the training loop with no delay between cards
// and checks that, while it runs, requests are answered and the event
// stream keeps delivering states within a bounded time, and that training
// goes on between them: the loop lets others in between batches of cards.
func TestLoopFlatOutIsFair(t *testing.T) {
	_, ts := newPanel(t, Config{Delay: NoDelay, PerClass: 1000})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res := openEvents(t, ctx, ts.URL)
	arrivals := make(chan time.Time, 1024)
	go func() {
		defer close(arrivals)
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<22)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "data: ") {
				select {
				case arrivals <- time.Now():
				default:
				}
			}
		}
	}()
	<-arrivals // the state on connecting
	if status, s := post(t, ts.URL+"/api/run", "", nil); status != 200 || !s.Running {
		t.Fatalf("run: status %d, running %v", status, s.Running)
	}
	// bound is far above what the loop should cost (one batch of cards,
	// loopSlice) and below what a starved request waits on a loaded machine.
	const bound = 750 * time.Millisecond
	var first, last stateReply
	running := 0
	for i := range 20 {
		time.Sleep(20 * time.Millisecond)
		start := time.Now()
		r, err := http.Get(ts.URL + "/api/state")
		if err != nil {
			t.Fatal(err)
		}
		var s stateReply
		err = json.NewDecoder(r.Body).Decode(&s)
		r.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if took := time.Since(start); took > bound {
			t.Errorf("request %d took %v with the loop running flat out; want ≤ %v", i, took, bound)
		}
		if i == 0 {
			first = s
		}
		last = s
		if s.Running {
			running++
		}
	}
	if running < 10 {
		t.Fatalf("the loop ran during only %d of 20 requests (training ended: %s); the test needs it running", running, last.Message)
	}
	if last.Pulses <= first.Pulses {
		t.Errorf("no training between the requests: %d pulses, then %d", first.Pulses, last.Pulses)
	}
	// States keep coming on the event stream while the loop runs.
	prev := time.Now()
	for i := range 5 {
		select {
		case at, ok := <-arrivals:
			if !ok {
				t.Fatalf("event stream closed after %d events", i)
			}
			prev = at
		case <-time.After(bound):
			t.Fatalf("no event for %v after event %d (last at %v) with the loop running flat out", bound, i, prev.Format(time.StampMilli))
		}
	}
	post(t, ts.URL+"/api/pause", "", nil)
}

// openEvents opens the panel's event stream at url; it is closed when the
// test ends or ctx is done.
func openEvents(t *testing.T, ctx context.Context, url string) *http.Response {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", url+"/api/events", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	return res
}
