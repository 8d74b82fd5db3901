package panel

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"mark1/images"
	"mark1/machine"
)

// TestLoopFlatOutIsFair runs the training loop with no delay between cards
// and checks that, while it runs, requests are answered and the event
// stream keeps delivering states within a bounded time, and that training
// goes on between them: the loop lets others in between batches of cards.
func TestLoopFlatOutIsFair(t *testing.T) {
	// The recipe's epoch limit is the largest: flat out, the default 50
	// epochs of 1,000 cards a class can end within the test's first second,
	// and a loop that has stopped publishes nothing more.
	m := presetMachine(t, taskClasses("shapes"), 1, false)
	m.Recipe = &machine.Recipe{Data: images.Source{Task: "shapes", PerClass: 1000}, MaxEpochs: machine.MaxEpochLimit}
	_, ts := newPanel(t, Config{Machine: m, Delay: NoDelay})
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
	// No clock: a request starved by the loop would be answered only once
	// training ended, so "answered while running" (counted below) is the
	// test; the slowest answer is only logged (on a loaded machine under
	// -race one took over the 750 ms this test once allowed).
	var first, last stateReply
	var slowest time.Duration
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
		slowest = max(slowest, time.Since(start))
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
	t.Logf("%d of 20 requests answered while the loop ran; the slowest in %v", running, slowest.Round(time.Millisecond))
	// States keep coming on the event stream while the loop runs: five
	// more events, and the loop still running after them.
	for len(arrivals) > 0 { // those that came during the requests
		<-arrivals
	}
	for i := range 5 {
		if _, ok := <-arrivals; !ok {
			var st stateReply
			if r, err := http.Get(ts.URL + "/api/state"); err == nil {
				json.NewDecoder(r.Body).Decode(&st)
				r.Body.Close()
			}
			t.Fatalf("event stream closed after %d events (the test's context ends it); running %v, %d pulses: %s", i, st.Running, st.Pulses, st.Message)
		}
	}
	if status, s := post(t, ts.URL+"/api/pause", "", nil); status != 200 || s.Pulses <= last.Pulses {
		t.Errorf("pause: status %d; %d pulses, %d before the events: the loop did not train while the stream ran", status, s.Pulses, last.Pulses)
	}
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
