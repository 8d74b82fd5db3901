package panel

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mark1/lab"
)

// labPost posts body to /api/lab as the lab page does, with the token the
// server writes into its pages, and returns the status and the answer.
func labPost(t *testing.T, url, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest("POST", url+"/api/lab", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(TokenHeader, pageToken(t, url))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b
}

// postLab posts body to /api/lab and decodes the answer.
func postLab(t *testing.T, url, body string) (int, map[string]any) {
	t.Helper()
	code, b := labPost(t, url, body)
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("answer is not JSON: %v\n%s", err, b)
	}
	return code, v
}

// TestLabAPI checks the lab's endpoint: the notes' example frame by frame
// (the weights of notes 004), the user's own points, and bad requests.
func TestLabAPI(t *testing.T) {
	_, ts := newPanel(t, Config{})
	wants := map[int][]float64{0: {0, 0}, 1: {1, -2}, 3: {2, -1}, 5: {3, 1}, 12: {3, 1}}
	for f, want := range wants {
		code, v := postLab(t, ts.URL, `{"example":"notes-004","frame":`+itoa(f)+`}`)
		if code != 200 {
			t.Fatalf("frame %d: %d %v", f, code, v)
		}
		w, _ := v["w"].([]any)
		if len(w) != 2 || w[0].(float64) != want[0] || w[1].(float64) != want[1] {
			t.Errorf("frame %d: w = %v; want %v", f, w, want)
		}
		if v["frames"].(float64) != 13 {
			t.Errorf("frame %d: %v frames; want 13", f, v["frames"])
		}
	}
	// Like every control, the lab's POST needs the page's token.
	if res, err := http.Post(ts.URL+"/api/lab", "application/json", strings.NewReader(`{"example":"notes-004"}`)); err != nil || res.StatusCode != http.StatusForbidden {
		t.Errorf("POST /api/lab without the token: %v %v; want 403", err, res.Status)
	} else {
		res.Body.Close()
	}
	// The frame's numbers are the lab package's.
	run, err := lab.Start(context.Background(), mustExample(t, "notes-004"), lab.Setup{})
	if err != nil {
		t.Fatal(err)
	}
	fr, _ := run.Frame(3, 60, 0)
	want, _ := json.Marshal(fr)
	_, got := labPost(t, ts.URL, `{"example":"notes-004","frame":3}`)
	if !bytes.Equal(bytes.TrimSpace(got), want) {
		t.Errorf("the page's frame differs from lab.Run.Frame")
	}
	// A given start: from (0, 1) the first presentation is a mistake.
	if code, v := postLab(t, ts.URL, `{"example":"notes-004","setup":{"start":[0,1]},"frame":1}`); code != 200 || fmt.Sprint(v["w"]) != "[1 -1]" {
		t.Errorf("start (0, 1), frame 1: %d, w = %v; want [1 -1]", code, v["w"])
	}
	// The raster A-layer: its retina, units and fire maps.
	if code, v := postLab(t, ts.URL, `{"example":"xor","setup":{"learner":"a-layer","units":4,"unit_kind":"raster","seed":2},"frame":-1}`); code != 200 || v["retina"] == nil || len(v["raster"].([]any)) != 4 || len(v["fires"].([]any)) != 4 {
		t.Errorf("a-layer raster: %d %v", code, v["error"])
	}
	// Your own points with the SVM.
	code, v := postLab(t, ts.URL, `{"points":[[1,1,1],[2,2,1],[-1,-1,-1],[-2,-1,-1]],"setup":{"learner":"svm","hard":true},"frame":-1}`)
	if code != 200 || len(v["ringed"].([]any)) == 0 || v["decision"] == nil {
		t.Errorf("svm on your points: %d %v", code, v["status"])
	}
	for _, c := range []struct{ body, want string }{
		{`{"example":"nope"}`, `no example "nope"`},
		{`{"points":[]}`, "no points"},
		{`{"points":[[1,1,2]]}`, "label"},
		{`{"points":[[1e9,1,1]]}`, "10⁶"},
		{`{"example":"xor","setup":{"learner":"magic"}}`, `learner "magic"`},
		{`{"example":"xor","setup":{"learner":"svm","kernel":"poly:d=x"}}`, "poly:d=x"},
		{`{"example":"xor","setup":{"eps":-1}}`, "eps"},
		{`{"example":"xor","frame":-5}`, "frame"},
		{`{"example":"xor","setup":{"learner":"a-layer","unit_kind":"hexagons"}}`, "setup.unit_kind hexagons: want halfplane or raster"},
		{`{"example":"xor","setup":{"start":[1,2,3]}}`, "want 2"},
		{`not json`, "bad request body"},
		{`{"points":[` + strings.Repeat("[1,1,1],", 300) + `[1,1,1]]}`, "at most 200"},
	} {
		code, v := postLab(t, ts.URL, c.body)
		msg, _ := v["error"].(string)
		if code != 400 || !strings.Contains(msg, c.want) {
			t.Errorf("%.60s: %d %q; want 400 naming %q", c.body, code, msg, c.want)
		}
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

func mustExample(t *testing.T, name string) lab.Example {
	e, err := lab.Find(name)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestLabBrowser clicks through the notes' example (004) step by step in
// headless Chromium and checks w after every step against the notes, then
// places points by clicking and trains the SVM on them. Screenshots go to
// testdata/lab-notes.png and testdata/lab-svm.png.
func TestLabBrowser(t *testing.T) {
	bin := needChromium(t)
	_, ts := newPanel(t, Config{})
	ctx := startBrowser(t, bin, 1400, 1000)
	ctx = navigate(t, ctx, 45*time.Second, chromedp.EmulateViewport(1240, 1100), chromedp.Navigate(ts.URL+"/lab.html?every=40"))
	check, poll, _ := pageFuncs(t, ctx, 10*time.Second)
	poll("first frame", `document.body.dataset.frame === "0" && document.body.dataset.frames === "13"`)
	// w after each of the 12 presentations: the notes' w₂, w₃, w₄.
	want := []string{"[1,-2]", "[1,-2]", "[2,-1]", "[2,-1]", "[3,1]", "[3,1]", "[3,1]", "[3,1]", "[3,1]", "[3,1]", "[3,1]", "[3,1]"}
	for i, w := range want {
		check("step", chromedp.Do(ctx, chromedp.Click(chromedp.ID("step"))))
		poll("frame "+itoa(i+1), `document.body.dataset.frame === "`+itoa(i+1)+`"`)
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.dataset.w`))
		check("w", err)
		if got != w {
			t.Errorf("after step %d: w = %s; want %s", i+1, got, w)
		}
		if i == 4 {
			shot(t, ctx, "lab-notes.png")
		}
	}
	marked, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#trace .now`)))
	check("trace", err)
	if !strings.HasPrefix(strings.TrimSpace(marked), "12") {
		t.Errorf("the trace marks %q; want step 12's line", marked)
	}
	// Reset and Run: the page steps on by itself to the end and stops.
	check("reset", chromedp.Do(ctx, chromedp.Click(chromedp.ID("reset"))))
	poll("reset", `document.body.dataset.frame === "0"`)
	check("run", chromedp.Do(ctx, chromedp.Click(chromedp.ID("run"))))
	poll("ran to the end", `document.body.dataset.frame === "12" && document.body.dataset.running === "false" && document.body.dataset.w === "[3,1]"`)
	// Clear, place two + and two − points by clicking, and train the SVM.
	check("clear", chromedp.Do(ctx, chromedp.Click(chromedp.ID("clear"))))
	poll("cleared", `document.body.dataset.error === "click on x-space to place points"`)
	var placed []int
	for _, p := range []struct {
		x, y  int
		minus bool
	}{{400, 150, false}, {450, 200, false}, {150, 400, true}, {200, 450, true}} {
		js := `(() => { const c = document.getElementById("xspace"); const r = c.getBoundingClientRect();
			c.dispatchEvent(new MouseEvent("click", {bubbles: true, clientX: r.left + ` + itoa(p.x) + ` * r.width / c.width, clientY: r.top + ` + itoa(p.y) + ` * r.height / c.height, shiftKey: ` + map[bool]string{true: "true", false: "false"}[p.minus] + `})); return true })()`
		_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js))
		check("click", err)
		n := itoa(len(placed) + 1)
		poll("placed", `window.lab.points.length === `+n+` && window.lab.drawn === `+n)
		placed = append(placed, p.x)
	}
	_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const s = document.getElementById("learner"); s.value = "svm"; s.dispatchEvent(new Event("change")); return true })()`))
	check("svm", err)
	// The SVM starts at α = 0 and steps through its solver: End shows its
	// answer.
	poll("svm start", `window.lab.frame && window.lab.frame.band === true && document.body.dataset.frame === "0"`)
	check("end", chromedp.Do(ctx, chromedp.Click(chromedp.ID("end"))))
	poll("svm frame", `window.lab.frame && window.lab.frame.band === true && window.lab.frame.ringed.length >= 2`)
	labels, err := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify(window.lab.frame.labels)`))
	check("labels", err)
	if labels != "[1,1,-1,-1]" {
		t.Errorf("placed labels %s; want [1,1,-1,-1] (two clicks, two shift-clicks)", labels)
	}
	shot(t, ctx, "lab-svm.png")
}

// shot saves a screenshot of the page in testdata (ignored by git).
func shot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	b, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if err := os.WriteFile(filepath.Join("testdata", name), b, 0o644); err != nil {
		t.Fatal(err)
	}
}
