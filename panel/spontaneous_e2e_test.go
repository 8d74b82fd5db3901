package panel

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserSpontaneous drives the panel in spontaneous mode in headless
// Chromium: trained without labels for a few epochs, its counters, scores,
// curves and legend speak of the purity of the responses' clusters and the
// responses used, never of mistakes, P_r or P_g; switched back to error
// correction they speak of those again. It keeps a screenshot in
// testdata/spontaneous.png (or $MARK1_SCREENSHOT_SPONTANEOUS).
func TestBrowserSpontaneous(t *testing.T) {
	bin := needChromium(t)
	_, ts := spontaneousPanel(t, Config{Delay: 2 * time.Millisecond})
	ctx := startBrowser(t, bin, 1400, 1000)
	ctx = navigate(t, ctx, 120*time.Second, chromedp.Navigate(ts.URL+"/"))
	step, poll, eval := pageFuncs(t, ctx, 30*time.Second)
	step("page", chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("dials"))))
	poll("first state", `document.body.dataset.connected === "true" && window.mark1.updates > 0`)
	if rule := eval(`document.getElementById("mode").value`); rule != "spontaneous" {
		t.Fatalf("mode %q; want spontaneous", rule)
	}
	step("run", chromedp.Do(ctx, chromedp.Click(chromedp.ID("run"))))
	poll("four epochs", `window.mark1.state.history.length >= 4`)
	step("pause", chromedp.Do(ctx, chromedp.Click(chromedp.ID("pause"))))
	poll("paused", `document.body.dataset.running === "false"`)
	step("step", chromedp.Do(ctx, chromedp.Click(chromedp.ID("step"))))
	poll("stepped", `document.getElementById("message").textContent.includes("card")`)
	step("settle", chromedp.Do(ctx, chromedp.Sleep(300*time.Millisecond)))
	read := func() map[string]string {
		out := map[string]string{}
		for k, expr := range map[string]string{
			"pr label":  `document.getElementById("l-pr").textContent`,
			"pg label":  `document.getElementById("l-pg").textContent`,
			"pr":        `document.getElementById("c-pr").textContent`,
			"scores":    `document.getElementById("scores").textContent`,
			"legend":    `document.getElementById("curveslegend").textContent`,
			"top chart": `document.getElementById("mistakes").dataset.ylabel`,
			"rates":     `document.getElementById("rates").dataset.ylabel`,
			"message":   `document.getElementById("message").textContent`,
			"step":      `document.getElementById("step").title`,
			"answer":    `document.getElementById("answer").textContent`,
		} {
			out[k] = eval(expr)
		}
		return out
	}
	got := read()
	screenshot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	step("screenshot", err)
	want := map[string]string{"pr label": "purity", "pg label": "held-out purity", "scores": "responses used", "legend": "responses used",
		"top chart": "responses used", "rates": "% purity", "message": "not told", "step": "own response", "answer": "hidden class"}
	for k, w := range want {
		if !strings.Contains(got[k], w) {
			t.Errorf("spontaneous: %s reads %q; want %q", k, got[k], w)
		}
	}
	for k, v := range got {
		for _, bad := range []string{"mistake", "P_r", "P_g", "wrong", "corrected", "✓"} {
			if strings.Contains(v, bad) {
				t.Errorf("spontaneous: %s reads %q, which speaks of %q", k, v, bad)
			}
		}
	}
	if !strings.HasSuffix(got["pr"], "%") {
		t.Errorf("purity counter %q; want a percentage", got["pr"])
	}
	out := os.Getenv("MARK1_SCREENSHOT_SPONTANEOUS")
	if out == "" {
		out = filepath.Join("testdata", "spontaneous.png")
	}
	if err := os.WriteFile(out, screenshot, 0o644); err != nil {
		t.Fatal(err)
	}
	// Back to error correction: the words of supervised learning return.
	step("mode", chromedp.Do(ctx, chromedp.SetValue(chromedp.ID("mode"), "error-correction")))
	eval(`String(document.getElementById("mode").dispatchEvent(new Event("change")))`)
	poll("error correction", `window.mark1.state.recipe.rule === "error-correction"`)
	step("settle", chromedp.Do(ctx, chromedp.Sleep(300*time.Millisecond)))
	got = read()
	if got["pr label"] != "P_r" || got["top chart"] != "mistakes" || !strings.Contains(got["legend"], "mistakes") || !strings.Contains(got["scores"], "P_r") {
		t.Errorf("error correction after spontaneous: %v; want P_r, mistakes", got)
	}
	t.Logf("spontaneous: %s; screenshot in %s (%d bytes)", got["scores"], out, len(screenshot))
}
