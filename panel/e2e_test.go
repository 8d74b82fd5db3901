package panel

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowser drives the panel in headless Chromium: it loads the page,
// starts training and waits for the dials to move, pauses, uploads a
// picture and waits for the machine's answer, forces a response, and keeps
// a screenshot in testdata/screenshot.png (or $MARK1_SCREENSHOT).
func TestBrowser(t *testing.T) {
	bin := needChromium(t)
	_, ts := newPanel(t, Config{Delay: 5 * time.Millisecond})
	ctx := startBrowser(t, bin, 1400, 1000)
	picture := filepath.Join(t.TempDir(), "square.png")
	if err := os.WriteFile(picture, pngBytes(t, 60, 60), 0o644); err != nil {
		t.Fatal(err)
	}
	notPicture := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(notPicture, []byte("not a picture"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx = navigate(t, ctx, 120*time.Second, chromedp.Navigate(ts.URL+"/"))
	step, poll, eval := pageFuncs(t, ctx, 20*time.Second)
	step("page", chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("dials"))))
	poll("first state", `document.body.dataset.connected === "true" && window.mark1.updates > 0`)
	pulses0 := eval(`String(document.body.dataset.pulses)`)
	// Before any epoch ends the mistakes chart still reads: whole counts,
	// no two ticks alike (it read 0, 0, 1, 1, 1 in steps of a quarter).
	if ticks := strings.Fields(eval(`document.getElementById("mistakes").dataset.yticks`)); len(ticks) < 2 || len(slices.Compact(slices.Clone(ticks))) != len(ticks) {
		t.Errorf("empty mistakes chart ticks %q; want distinct labels", ticks)
	}
	step("run", chromedp.Do(ctx, chromedp.Click(chromedp.ID("run"))))
	poll("the dials move", `Number(document.body.dataset.pulses) > 300 && window.mark1.state.positions.some((p) => p !== 0)`)
	step("pause", chromedp.Do(ctx, chromedp.Click(chromedp.ID("pause"))))
	poll("paused", `document.body.dataset.running === "false"`)
	pulses1 := eval(`String(document.body.dataset.pulses)`)
	step("upload text", chromedp.Do(ctx, chromedp.SetUploadFiles(chromedp.ID("file"), []string{notPicture})))
	poll("refused", `document.body.dataset.error !== undefined`)
	errMsg := eval(`document.body.dataset.error`)
	step("upload picture", chromedp.Do(ctx, chromedp.SetUploadFiles(chromedp.ID("file"), []string{picture})))
	poll("answer", `!!(window.mark1.state && window.mark1.state.retina && window.mark1.state.retina.source === "square.png" && document.getElementById("prediction"))`)
	// Read in one evaluation: a state update may replace the element
	// between a lookup of its node and a read of its text.
	answer := eval(`document.getElementById("prediction").textContent`)
	step("force", chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#forcebuttons button[data-class="0"]`))))
	poll("forced", `window.mark1.state.moved.length > 0`)
	step("settle", chromedp.Do(ctx, chromedp.Sleep(300*time.Millisecond)))
	screenshot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	step("screenshot", err)
	p0, _ := strconv.Atoi(pulses0)
	p1, _ := strconv.Atoi(pulses1)
	if p0 != 0 || p1 <= 300 {
		t.Errorf("motor pulses before and after training: %d, %d; want 0 and more than 300", p0, p1)
	}
	if answer == "" {
		t.Errorf("no prediction for the uploaded picture")
	}
	if want := "not a picture"; !contains(errMsg, want) {
		t.Errorf("uploading a text file: message %q; want it to say %q", errMsg, want)
	}
	out := os.Getenv("MARK1_SCREENSHOT")
	if out == "" {
		out = filepath.Join("testdata", "screenshot.png")
	}
	if err := os.WriteFile(out, screenshot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("pulses %d → %d; the machine called square.png %q; screenshot in %s (%d bytes)", p0, p1, answer, out, len(screenshot))
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// startBrowser starts headless Chromium with a window of w x h pixels and
// returns its context, cancelled when the test ends.
// navigate runs the actions that open a test's page — the first Run
// starts the browser: no timeout on its context — and returns ctx with the
// test's timeout, cancelled at the end of the test.
func navigate(t *testing.T, ctx context.Context, timeout time.Duration, open ...chromedp.Action[chromedp.Void]) context.Context {
	t.Helper()
	if err := chromedp.Do(ctx, open...); err != nil {
		t.Fatalf("browser: %v", err)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	t.Cleanup(cancel)
	return ctx
}

// pageFuncs returns a browser test's steps on the page in ctx: step fails
// the test on an action's error, poll waits up to wait for a condition to
// hold, eval returns a string expression's value.
func pageFuncs(t *testing.T, ctx context.Context, wait time.Duration) (step func(what string, err error), poll func(what, cond string), eval func(expr string) string) {
	step = func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("browser: %s: %v", what, err)
		}
	}
	poll = func(what, cond string) {
		t.Helper()
		_, err := chromedp.Run(ctx, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(wait)))
		step(what, err)
	}
	eval = func(expr string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
		step(expr, err)
		return v
	}
	return step, poll, eval
}

func startBrowser(t *testing.T, bin string, w, h int) context.Context {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(bin),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(w, h),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelA)
	ctx, cancelC := chromedp.NewContext(actx)
	t.Cleanup(cancelC)
	return ctx
}
