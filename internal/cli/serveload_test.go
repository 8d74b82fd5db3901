package cli

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mark1/panel"
)

// TestServeLoad runs "mark1 serve" on the loopback interface and puts it
// under a bounded load: many tabs following the event stream, many uploads
// (good pictures, bad files, oversized ones), picture and state requests,
// and the controls, all at once, in two rounds. No request may fail in a
// way it should not, the server must stop cleanly, and neither goroutines
// nor the heap may grow from one round to the next. Run it with -race too.
func TestServeLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("load test")
	}
	baseline := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	outR, outW := io.Pipe()
	var stderr bytes.Buffer
	exit := make(chan int, 1)
	go func() {
		exit <- Main(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--delay", "0", "--n", "10", "--max-upload", "100000"},
			strings.NewReader(""), outW, &stderr)
		outW.Close()
	}()
	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil {
		cancel()
		t.Fatalf("serve printed no address: %v (stderr %q)", err, stderr.String())
	}
	go io.Copy(io.Discard, outR)
	_, rest, ok := strings.Cut(line, "http://")
	if !ok {
		t.Fatalf("serve said %q", line)
	}
	base := "http://" + strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "(Ctrl-C to stop)."))
	base = strings.TrimSuffix(strings.TrimSpace(base), "/")

	page, err := http.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	pageBytes, _ := io.ReadAll(page.Body)
	page.Body.Close()
	m := regexp.MustCompile(`<meta name="mark1-token" content="([0-9a-f]+)">`).FindSubmatch(pageBytes)
	if m == nil {
		t.Fatal("the panel's page carries no token")
	}
	token := string(m[1])

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}, Timeout: 20 * time.Second}
	img := smallPNG(t)
	var failures atomic.Int64
	var requests atomic.Int64
	fail := func(format string, a ...any) {
		if failures.Add(1) <= 10 {
			t.Errorf(format, a...)
		}
	}
	do := func(method, path string, body []byte, want ...int) {
		requests.Add(1)
		req, _ := http.NewRequest(method, base+path, bytes.NewReader(body))
		req.Header.Set(panel.TokenHeader, token)
		t0 := time.Now()
		defer func() {
			if d := time.Since(t0); d > time.Second {
				t.Logf("slow: %s %s took %v", method, path, d)
			}
		}()
		resp, err := client.Do(req)
		if err != nil {
			fail("%s %s: %v", method, path, err)
			return
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		for _, w := range want {
			if resp.StatusCode == w {
				return
			}
		}
		fail("%s %s: status %d; want %v", method, path, resp.StatusCode, want)
	}

	const viewers, uploaders, perUploader = 40, 8, 25
	round := func() {
		rctx, stop := context.WithTimeout(ctx, 1500*time.Millisecond)
		defer stop()
		var wg sync.WaitGroup
		var events atomic.Int64
		for range viewers {
			wg.Go(func() {
				req, _ := http.NewRequestWithContext(rctx, "GET", base+"/api/events", nil)
				resp, err := client.Do(req)
				if err != nil {
					fail("events: %v", err)
					return
				}
				defer resp.Body.Close()
				sc := bufio.NewScanner(resp.Body)
				sc.Buffer(make([]byte, 1<<16), 1<<22)
				for sc.Scan() {
					if strings.HasPrefix(sc.Text(), "event: state") {
						events.Add(1)
					}
				}
			})
		}
		for u := range uploaders {
			wg.Go(func() {
				for i := range perUploader {
					switch i % 5 {
					case 0, 1:
						do("POST", fmt.Sprintf("/api/upload?name=u%d-%d.png", u, i), img, 200)
					case 2:
						do("POST", "/api/upload?name=junk.png", []byte("not a picture"), 415)
					case 3:
						do("POST", "/api/upload?name=huge.png", make([]byte, 200_000), 413)
					case 4:
						do("POST", "/api/upload?name=claims-huge.png", pngHeader(200_000, 200_000), 413)
					}
					do("GET", "/api/state", nil, 200)
					if i%8 == 0 {
						do("GET", "/", nil, 200)
					}
					if i == 0 && u < 2 { // drawing the dials is slow and holds the panel's lock
						do("GET", "/api/dials.png", nil, 200)
					}
				}
			})
		}
		wg.Go(func() { // the operator
			for i := range 20 {
				switch i % 4 {
				case 0:
					do("POST", "/api/run", nil, 200, 409)
				case 1:
					do("POST", "/api/speed", []byte(`{"delay_ms": 1}`), 200)
				case 2:
					do("POST", "/api/pause", nil, 200, 409)
				case 3:
					do("POST", "/api/step", nil, 200, 409)
				}
				do("GET", "/api/layout", nil, 200)
			}
		})
		wg.Wait()
		if events.Load() < viewers {
			fail("%d tabs received %d state events; want at least one each", viewers, events.Load())
		}
	}
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	round()
	client.CloseIdleConnections()
	time.Sleep(100 * time.Millisecond)
	g1, h1 := runtime.NumGoroutine(), heap()
	round()
	client.CloseIdleConnections()
	// Handlers still finishing (a dial picture being drawn on a loaded
	// machine) end in their own time: wait for them, boundedly.
	g2 := runtime.NumGoroutine()
	for deadline := time.Now().Add(10 * time.Second); g2 > g1+5 && time.Now().Before(deadline); g2 = runtime.NumGoroutine() {
		time.Sleep(50 * time.Millisecond)
	}
	h2 := heap()
	if g2 > g1+5 {
		t.Errorf("goroutines grew from %d to %d between rounds", g1, g2)
	}
	if h2 > h1+32<<20 {
		t.Errorf("heap grew from %d to %d bytes between rounds", h1, h2)
	}
	cancel()
	select {
	case code := <-exit:
		if code != 130 {
			t.Errorf("serve exit %d; want 130 (interrupted): %s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop")
	}
	client.CloseIdleConnections()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > baseline+2 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if g := runtime.NumGoroutine(); g > baseline+2 {
		t.Errorf("%d goroutines after serve stopped; %d before it started", g, baseline)
	}
	t.Logf("%d requests and %d event streams in two rounds; goroutines %d → %d, heap %d → %d kB; %d failures",
		requests.Load(), 2*viewers, g1, g2, h1>>10, h2>>10, failures.Load())
}
