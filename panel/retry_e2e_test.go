package panel

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserMapRetry: a picture the server refuses with 503 (its cap on
// pictures drawn at once, under load) is fetched again, with a pause that
// grows, until it comes; meanwhile the caption says so, and no text on the
// page reads "undefined" (issue 26: under -race the sensitivity map never
// arrived, as the page never asked again).
func TestBrowserMapRetry(t *testing.T) {
	bin := needChromium(t)
	m := presetMachine(t, taskClasses("shapes"), 1, false)
	p, err := New(Config{Machine: m, Task: "shapes", PerClass: 10, Delay: 2 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	const refuse = 3
	var refused, served atomic.Int32
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/") && strings.HasSuffix(r.URL.Path, ".png") {
			if refused.Load() < refuse {
				refused.Add(1)
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusServiceUnavailable)
				w.Write([]byte(`{"error":"too many pictures at once (the limit is 2); try again shortly"}`))
				return
			}
			served.Add(1)
		}
		p.ServeHTTP(w, r)
	})
	ts := httptest.NewUnstartedServer(h)
	ts.Config = p.HTTPServer()
	ts.Config.Handler = h
	ts.Start()
	t.Cleanup(func() {
		p.Close()
		ts.Close()
	})
	ctx := startBrowser(t, bin, 1280, 900)
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/")); err != nil {
		t.Fatalf("browser: %v", err)
	}
	start := time.Now()
	loaded := `document.getElementById("mapimg").complete && document.getElementById("mapimg").naturalWidth > 0`
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](loaded, chromedp.WithPollingTimeout(60*time.Second))); err != nil {
		caption := browserRun(t, ctx, "caption", chromedp.Evaluate[string](`document.getElementById("mapinfo").textContent`))
		t.Fatalf("the map never came after %d refusals: %v (the caption says %q)", refused.Load(), err, caption)
	}
	t.Logf("the map came after %d refusals, in %v", refused.Load(), time.Since(start).Round(time.Millisecond))
	if refused.Load() != refuse || served.Load() < 1 {
		t.Errorf("%d refused, %d served; want %d refused, then served", refused.Load(), served.Load(), refuse)
	}
	caption := browserRun(t, ctx, "caption", chromedp.Evaluate[string](`document.getElementById("mapinfo").textContent`))
	if caption != "before training" && !strings.HasPrefix(caption, "after epoch") {
		t.Errorf("caption %q once the map came; want before training or after epoch N", caption)
	}
	if body := browserRun(t, ctx, "page text", chromedp.Evaluate[string](`document.body.innerText`)); strings.Contains(body, "undefined") {
		t.Errorf("the page shows \"undefined\": %q", body)
	}
}
