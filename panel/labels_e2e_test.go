package panel

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mark1/machine"
)

// TestBrowserLabels checks, in headless Chromium at three window sizes,
// that the page labels what it shows: both charts' axes and scales, P_r and
// P_g as numbers with their card counts, a legend for the A-units'
// colours, the decision rule beside the lamps, the epoch and machine-time
// counters; and that the sections do not move as the text changes. It
// keeps a screenshot per size in $MARK1_SCREENSHOTS (a folder), if set.
func TestBrowserLabels(t *testing.T) {
	bin := needChromium(t)
	if testing.Short() {
		t.Skip("slow: a browser at three sizes")
	}
	t.Run("binary", func(t *testing.T) { browserLabels(t, bin, nil) })
	t.Run("one-per-class", func(t *testing.T) {
		browserLabels(t, bin, presetMachine(t, []string{"square", "circle", "diamond", "triangle"}, 1, true))
	})
}

// browserLabels is TestBrowserLabels for a panel on m (nil: the default
// binary-code machine).
func browserLabels(t *testing.T, bin string, m *machine.Machine) {
	onePer := m != nil
	_, ts := newPanel(t, Config{Delay: 2 * time.Millisecond, Machine: m})
	ctx := startBrowser(t, bin, 1920, 1080)
	ctx = navigate(t, ctx, 150*time.Second, chromedp.Navigate(ts.URL+"/")) // slow when the machine is shared
	do := func(what string, a ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, a...); err != nil {
			t.Fatalf("browser: %s: %v", what, err)
		}
	}
	poll := func(what, cond string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(60*time.Second))); err != nil {
			msg, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`String(document.body.dataset.error) + " | epoch " + window.mark1.state.epoch + " history " + window.mark1.state.history.length + " updates " + window.mark1.updates + " | " + document.getElementById("message").textContent + " | " + document.getElementById("status").textContent`))
			t.Fatalf("browser: %s: %v (the page says: %s)", what, err, msg)
		}
	}
	eval := func(expr string) string { t.Helper(); return browserRun(t, ctx, expr, chromedp.Evaluate[string](expr)) }
	text := func(id string) string {
		t.Helper()
		return eval(fmt.Sprintf(`document.getElementById(%q).textContent`, id))
	}
	poll("first state", `window.mark1.updates > 0`)
	do("run", chromedp.Click(chromedp.ID("run")))
	poll("three epochs, or convergence", `window.mark1.state && window.mark1.state.history.length >= 1 && (window.mark1.state.history.length >= 3 || !window.mark1.state.running)`)
	do("pause", chromedp.Click(chromedp.ID("pause")))
	poll("paused", `document.body.dataset.running === "false"`)
	do("step", chromedp.Click(chromedp.ID("step")))
	poll("a card on the retina", `!!(window.mark1.state.retina && document.getElementById("prediction"))`)
	do("settle", chromedp.Sleep(300*time.Millisecond))

	pct := regexp.MustCompile(`^\d{1,3}\.\d%$`)
	for _, id := range []string{"c-pr", "c-pg"} {
		if got := text(id); !pct.MatchString(got) {
			t.Errorf("#%s = %q; want a percentage", id, got)
		}
	}
	// 4 classes × 10 cards, 20% held out: 32 training cards, 8 held out.
	if got, want := text("scores"), regexp.MustCompile(`P_r \d+\.\d% of 32 training cards · P_g \d+\.\d% of 8 held-out cards`); !want.MatchString(got) {
		t.Errorf("#scores = %q; want it to match %s", got, want)
	}
	if got := text("c-epoch"); !regexp.MustCompile(`^\d+ \((\d+ done|converged|recognized|epoch limit)\)$`).MatchString(got) {
		t.Errorf("epoch counter %q; want \"N (M done)\", or \"M (converged)\" once training has ended", got)
	}
	// Once training has ended after a whole epoch, the cards presented are
	// that epoch's, all 32 (they read "0 of 32", the next epoch's, never
	// begun); while it runs, or paused, those of the epoch under way.
	epoch, card := text("c-epoch"), text("c-card")
	if ended := regexp.MustCompile(`\((converged|recognized|epoch limit)\)$`).MatchString(epoch); ended && card != "32 of 32" {
		t.Errorf("after training ended (%q), cards presented %q; want \"32 of 32\"", epoch, card)
	} else if !regexp.MustCompile(`^([0-9]|[12][0-9]|3[0-2]) of 32$`).MatchString(card) {
		t.Errorf("cards presented %q; want \"N of 32\"", card)
	}
	if got := text("c-time"); !regexp.MustCompile(`^(\d+h)?(\d+m)?\d+s$`).MatchString(got) || got == "0s" {
		t.Errorf("machine-time counter %q; want a running clock like 2m05s", got)
	}
	checks := []struct{ id, want string }{{"alegend", "R0"}, {"alegend", "R1"}, {"alegend", "source-set"}, {"rule", "→"}}
	if onePer {
		checks = append(checks, struct{ id, want string }{"rule", "the largest sum wins"})
	} else {
		checks = append(checks, struct{ id, want string }{"rule", "binary code"})
	}
	for _, tc := range checks {
		if got := text(tc.id); !contains(got, tc.want) {
			t.Errorf("#%s = %q; want it to say %q", tc.id, got, tc.want)
		}
	}
	// The rule names the class the machine says, or "no class".
	if rule, said := text("rule"), text("prediction"); !contains(rule, "→ "+said) && !contains(rule, "no class") {
		t.Errorf("rule %q does not spell the answer %q", rule, said)
	}
	if onePer {
		// The highlighted lamp is the one with the largest sum.
		got := browserRun(t, ctx, "winner", chromedp.Evaluate[string](`(() => {
			const rows = [...document.querySelectorAll("#lamps .lampinfo")];
			const w = rows.findIndex((e) => e.classList.contains("win"));
			const sums = window.mark1.state.retina.sums;
			const best = sums.indexOf(Math.max(...sums));
			return w + " " + best;
		})()`))
		var w, best int
		if _, err := fmt.Sscan(got, &w, &best); err != nil || w != best || w < 0 {
			t.Errorf("highlighted lamp and largest sum: %q; want the same R-unit", got)
		}
	}
	for _, tc := range []struct{ id, ylabel, tick string }{{"mistakes", "mistakes", "0"}, {"rates", "% right", "100%"}} {
		got := browserRun(t, ctx, tc.id, chromedp.Evaluate[map[string]string](fmt.Sprintf(`Object.assign({}, document.getElementById(%q).dataset)`, tc.id)))
		if got["xlabel"] != "epoch" || got["ylabel"] != tc.ylabel || !contains(got["yticks"], tc.tick) {
			t.Errorf("chart #%s axes %v; want x \"epoch\", y %q with a tick %q", tc.id, got, tc.ylabel, tc.tick)
		}
	}
	legend := text("curveslegend")
	for _, want := range []string{"mistakes", "P_r", "P_g", "held-out"} {
		if !contains(legend, want) {
			t.Errorf("chart legend %q; want it to name %q", legend, want)
		}
	}
	// The map is fetched again at most every two seconds: wait for the one
	// of the trained machine.
	poll("the sensitivity map after training", `document.getElementById("mapinfo").textContent.startsWith("after epoch") && document.getElementById("mapimg").complete && document.getElementById("mapimg").naturalWidth > 0`)

	// Stable layout: stepping changes the message, the lamps and the
	// numbers, not where the sections are.
	const rects = `JSON.stringify([...document.querySelectorAll("main > .unit, .counters, .maps")].map((e) => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; }))`
	before, after := eval(rects), ""
	for range 5 {
		do("step", chromedp.Click(chromedp.ID("step")))
		do("settle", chromedp.Sleep(150*time.Millisecond))
		if now := eval(rects); now != before {
			after = now
		}
	}
	if after != "" {
		t.Errorf("the sections moved as the text changed:\nbefore %s\nafter  %s", before, after)
	}

	dir := os.Getenv("MARK1_SCREENSHOTS")
	for _, size := range [][2]int64{{1920, 1080}, {1280, 800}, {400, 800}} {
		opts := []chromedp.EmulateViewportOption{chromedp.EmulateScale(1)}
		if size[0] < 720 {
			opts = append(opts, chromedp.EmulateMobile)
		}
		do("resize", chromedp.EmulateViewport(size[0], size[1], opts...))
		do("settle", chromedp.Sleep(400*time.Millisecond))
		if browserRun(t, ctx, "overflow", chromedp.Evaluate[bool](`document.documentElement.scrollWidth > window.innerWidth + 1`)) {
			t.Errorf("at %dx%d the page is wider than the window", size[0], size[1])
		}
		if dir == "" {
			continue
		}
		shot := browserRun(t, ctx, "screenshot", chromedp.CaptureScreenshot())
		name := filepath.Join(dir, fmt.Sprintf("panel-%s-%dx%d.png", map[bool]string{false: "binary", true: "one-per-class"}[onePer], size[0], size[1]))
		if err := os.WriteFile(name, shot, 0o644); err != nil {
			t.Fatal(err)
		}
		full := browserRun(t, ctx, "full screenshot", chromedp.FullScreenshot(100))
		if err := os.WriteFile(name[:len(name)-4]+"-full.png", full, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// browserRun runs a browser action that returns a value, and fails the test
// if it fails.
func browserRun[T any](t *testing.T, ctx context.Context, what string, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatalf("browser: %s: %v", what, err)
	}
	return v
}
