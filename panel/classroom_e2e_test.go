package panel

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"mark1/internal/testtool"
)

// needChromium returns the Chromium binary for a browser test
// (testtool.NeedChromium).
func needChromium(t *testing.T) string { return testtool.NeedChromium(t) }

// browser is a page under test in headless Chromium.
type browser struct {
	t   *testing.T
	ctx context.Context
}

// openPage starts Chromium at w×h and opens url.
func openPage(t *testing.T, w, h int, url string) *browser {
	t.Helper()
	ctx := navigate(t, startBrowser(t, needChromium(t), w, h), 90*time.Second, chromedp.EmulateViewport(int64(w), int64(h)), chromedp.Navigate(url))
	return &browser{t, ctx}
}

func (b *browser) do(what string, a ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, a...); err != nil {
		b.t.Fatalf("browser: %s: %v", what, err)
	}
}

func (b *browser) poll(what, cond string) {
	b.t.Helper()
	if _, err := chromedp.Run(b.ctx, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(15*time.Second))); err != nil {
		msg, _ := chromedp.Run(b.ctx, chromedp.Evaluate[string](`document.body.dataset.error || document.getElementById("message").textContent`))
		b.t.Fatalf("browser: %s: %v (the page says %q)", what, err, msg)
	}
}

func (b *browser) str(expr string) string {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		b.t.Fatalf("browser: %s: %v", expr, err)
	}
	return v
}

func (b *browser) num(expr string) float64 {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[float64](expr))
	if err != nil {
		b.t.Fatalf("browser: %s: %v", expr, err)
	}
	return v
}

// shot keeps a screenshot of the viewport in $MARK1_SCREENSHOTS, if set.
func (b *browser) shot(name string) {
	b.t.Helper()
	b.keep(name, chromedp.CaptureScreenshot())
}

// keep writes the picture that capture takes to $MARK1_SCREENSHOTS/name,
// if the folder is set.
func (b *browser) keep(name string, capture chromedp.Action[[]byte]) {
	b.t.Helper()
	dir := os.Getenv("MARK1_SCREENSHOTS")
	if dir == "" {
		return
	}
	png, err := chromedp.Run(b.ctx, capture)
	if err != nil {
		b.t.Fatalf("screenshot: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

// TestLabSteady steps the lab page at 1280×800 many times and checks that
// the page never moves: the window stays scrolled where it was and the Step
// button where it was, while the trace's own box follows the step.
func TestLabSteady(t *testing.T) {
	_, ts := newPanel(t, Config{})
	b := openPage(t, 1280, 800, ts.URL+"/lab.html?every=20")
	b.poll("first frame", `document.body.dataset.frame === "0"`)
	// A long trace: the kernel perceptron with shuffling on the rings.
	b.do("rings", chromedp.SetValue(chromedp.ID("example"), "rings"))
	b.str(`document.getElementById("example").dispatchEvent(new Event("change")), ""`)
	b.poll("rings", `window.lab.frame && window.lab.frame.points.length === 20 && document.body.dataset.frame === "0"`)
	top := b.num(`document.getElementById("step").getBoundingClientRect().top`)
	for i := 1; i <= 40; i++ {
		b.do("step", chromedp.Click(chromedp.ID("step")))
		b.poll("step "+strconv.Itoa(i), `document.body.dataset.frame === "`+strconv.Itoa(i)+`"`)
		if y := b.num(`window.scrollY`); y != 0 {
			t.Fatalf("after step %d the page scrolled to %v", i, y)
		}
		if got := b.num(`document.getElementById("step").getBoundingClientRect().top`); got != top {
			t.Fatalf("after step %d the Step button moved from %v to %v", i, top, got)
		}
	}
	if st := b.num(`document.getElementById("trace").scrollTop`); st == 0 {
		t.Errorf("after 40 steps the trace's box did not scroll to the marked line")
	}
	b.shot("lab-steady-1280x800.png")
}

// TestLabControlsApply checks that the settings a learner does not use are
// disabled, each saying why in its title, and enabled again for one that
// does.
func TestLabControlsApply(t *testing.T) {
	_, ts := newPanel(t, Config{})
	b := openPage(t, 1280, 800, ts.URL+"/lab.html")
	b.poll("first frame", `document.body.dataset.frame === "0"`)
	pick := func(learner string) {
		b.str(`(() => { const s = document.getElementById("learner"); s.value = "` + learner + `"; s.dispatchEvent(new Event("change")); return "" })()`)
	}
	for _, c := range []struct {
		learner string
		off, on []string
	}{
		{"perceptron", []string{"linesearch", "kernel", "C", "hard", "seed", "units", "unitkind"}, []string{"eps", "bias", "order", "start"}},
		{"batch-gd", []string{"order", "seed", "kernel", "C", "hard"}, []string{"eps", "bias", "linesearch", "start"}},
		{"kernel-perceptron", []string{"eps", "linesearch", "start", "C", "hard"}, []string{"kernel", "bias", "order"}},
		{"svm", []string{"eps", "bias", "order", "seed", "linesearch", "start"}, []string{"kernel", "C", "hard"}},
		{"a-layer", []string{"bias", "linesearch", "start", "kernel", "C", "hard"}, []string{"eps", "order", "seed", "units", "unitkind"}},
	} {
		pick(c.learner)
		for _, id := range c.off {
			if b.str(`String(document.getElementById("`+id+`").disabled)`) != "true" {
				t.Errorf("%s: %s is enabled; want disabled", c.learner, id)
			}
			if title := b.str(`document.getElementById("` + id + `").title`); !strings.HasPrefix(title, "Not used") {
				t.Errorf("%s: %s's title %q does not say why it is off", c.learner, id, title)
			}
		}
		for _, id := range c.on {
			if b.str(`String(document.getElementById("`+id+`").disabled)`) != "false" {
				t.Errorf("%s: %s is disabled; want enabled", c.learner, id)
			}
		}
	}
}

// TestTrainedDemo loads a trained machine as serve --machine does and works
// the page as a teacher would: Step and Run are off (saying why), Present
// card and a chosen card answer without learning, Continue training turns
// Step on again, and changing the task asks first.
func TestTrainedDemo(t *testing.T) {
	_, ts := newPanel(t, Config{Machine: trainedMachine(t), Task: "letters1"})
	b := openPage(t, 1280, 800, ts.URL+"/")
	b.poll("state", `window.mark1.state !== null && document.body.dataset.done === "true"`)
	for _, id := range []string{"step", "run"} {
		if b.str(`String(document.getElementById("`+id+`").disabled)`) != "true" || !strings.Contains(b.str(`document.getElementById("`+id+`").title`), "Training has ended") {
			t.Errorf("%s on a trained machine: enabled or unexplained (%q)", id, b.str(`document.getElementById("`+id+`").title`))
		}
	}
	pulses := b.str(`String(window.mark1.state.pulses)`)
	b.do("present", chromedp.Click(chromedp.ID("present")))
	b.poll("answer", `document.getElementById("prediction") !== null`)
	b.do("card no.", chromedp.SetValue(chromedp.ID("cardno"), "7"))
	b.str(`document.getElementById("cardno").dispatchEvent(new Event("change")), ""`)
	b.poll("card 7", `window.mark1.state.message.startsWith("Training card 7 of")`)
	if got := b.str(`String(window.mark1.state.pulses)`); got != pulses {
		t.Errorf("presenting moved pots: pulses %s → %s", pulses, got)
	}
	b.shot("panel-trained-1280x800.png")
	// Every canvas has a name for screen readers, and the disabled Run
	// button does not keep the active one's colour.
	if n := b.str(`String([...document.querySelectorAll("canvas")].filter(c => c.getAttribute("role") !== "img" || !c.getAttribute("aria-label")).length)`); n != "0" {
		t.Errorf("%s canvases without role=img and an aria-label", n)
	}
	if bg := b.str(`getComputedStyle(document.getElementById("run")).backgroundColor`); bg != b.str(`getComputedStyle(document.getElementById("step")).backgroundColor`) {
		t.Errorf("the disabled Run button is coloured %s, unlike the other disabled buttons", bg)
	}
	// Continue training trains, in one press.
	b.do("continue", chromedp.Click(chromedp.ID("continue")))
	b.poll("continued and running", `document.body.dataset.done === "false" && window.mark1.state.running === true`)
	b.do("pause", chromedp.Click(chromedp.ID("pause")))
	b.poll("paused", `window.mark1.state.running === false && !document.getElementById("step").disabled`)
	card := b.str(`String(window.mark1.state.card)`)
	b.do("step", chromedp.Click(chromedp.ID("step")))
	b.poll("stepped", `String(window.mark1.state.card) !== "`+card+`"`)
	// Changing the task asks first, and Cancel keeps the machine.
	b.str(`(() => { const s = document.getElementById("task"); s.value = "shapes"; s.dispatchEvent(new Event("change")); return "" })()`)
	b.poll("asked", `document.getElementById("lose").open`)
	b.shot("panel-ask-1280x800.png")
	if b.str(`String(document.getElementById("lose-keep").hidden)`) != "true" {
		t.Errorf("shapes has other classes, but keeping the training is offered")
	}
	b.do("cancel", chromedp.Click(chromedp.ID("lose-cancel")))
	b.poll("kept", `!document.getElementById("lose").open && document.getElementById("task").value === "letters1"`)
	// letters1960 has the same classes: keep the training.
	b.str(`(() => { const s = document.getElementById("task"); s.value = "letters1960"; s.dispatchEvent(new Event("change")); return "" })()`)
	b.poll("asked again", `document.getElementById("lose").open && !document.getElementById("lose-keep").hidden`)
	b.do("keep", chromedp.Click(chromedp.ID("lose-keep")))
	b.poll("on letters1960", `window.mark1.layout.task === "letters1960" && window.mark1.state.history.length >= 2`)
}

// TestLabSVMSteps steps the SVM's solver on the page: each step moves one
// pair of α's (ringed), the support vectors and the margin band follow,
// and the end is the solver's answer.
func TestLabSVMSteps(t *testing.T) {
	_, ts := newPanel(t, Config{})
	b := openPage(t, 1280, 800, ts.URL+"/lab.html")
	b.poll("first frame", `document.body.dataset.frame === "0"`)
	b.str(`(() => { const s = document.getElementById("example"); s.value = "overlap"; s.dispatchEvent(new Event("change"));
		const l = document.getElementById("learner"); l.value = "svm"; l.dispatchEvent(new Event("change")); return "" })()`)
	b.poll("svm start", `window.lab.frame && window.lab.frame.band === true && document.body.dataset.frame === "0" && Number(document.body.dataset.frames) > 3`)
	if n := b.num(`window.lab.frame.ringed.length`); n != 0 {
		t.Errorf("SVM at the start: %v support vectors; want none (every α = 0)", n)
	}
	for i := 1; i <= 3; i++ {
		b.do("step", chromedp.Click(chromedp.ID("step")))
		b.poll("SMO step "+strconv.Itoa(i), `document.body.dataset.frame === "`+strconv.Itoa(i)+`" && window.lab.frame.pair && window.lab.frame.pair.length === 2`)
	}
	if c := b.str(`document.getElementById("counter").textContent`); !strings.HasPrefix(c, "SMO step 3 of") || !strings.Contains(c, "support vectors") {
		t.Errorf("counter %q", c)
	}
	b.shot("lab-svm-step3-1280x800.png")
	b.do("end", chromedp.Click(chromedp.ID("end")))
	b.poll("end", `document.body.dataset.frame === String(Number(document.body.dataset.frames) - 1)`)
}

// TestLabLosses runs notes 002 on the page: gradient descent on a loss,
// every loss side by side at the same step, and the squared loss as a
// line through the points.
func TestLabLosses(t *testing.T) {
	_, ts := newPanel(t, Config{})
	b := openPage(t, 1280, 800, ts.URL+"/lab.html")
	b.poll("first frame", `document.body.dataset.frame === "0"`)
	set := func(id, v string) {
		b.str(`(() => { const s = document.getElementById("` + id + `"); s.value = "` + v + `"; s.dispatchEvent(new Event("change")); return "" })()`)
	}
	set("example", "overlap")
	set("learner", "sgd")
	set("loss", "logistic")
	set("batch", "4")
	set("eps", "0.5")
	b.poll("sgd", `window.lab.frame && window.lab.frame.loss === "logistic" && document.body.dataset.frame === "0"`)
	for i := 1; i <= 5; i++ {
		b.do("step", chromedp.Click(chromedp.ID("step")))
		b.poll("step "+strconv.Itoa(i), `document.body.dataset.frame === "`+strconv.Itoa(i)+`"`)
	}
	if n := b.num(`document.querySelectorAll("#panels .losspanel").length`); n != 4 || b.str(`String(document.getElementById("sidebyside").hidden)`) != "false" {
		t.Fatalf("side by side: %v panels shown; want the 4 losses", n)
	}
	if got := b.str(`window.lab.frame.losses.map((l) => l.loss + ":" + l.step).join(" ")`); got != "perceptron:5 hinge:5 logistic:5 squared:5" {
		t.Errorf("side by side at step 5: %s", got)
	}
	if c := b.str(`document.getElementById("counter").textContent`); !strings.Contains(c, "batch of 4") || !strings.Contains(c, "R(w) =") {
		t.Errorf("counter %q", c)
	}
	b.shotFull("lab-losses-1280x800.png")
	set("loss", "squared")
	set("eps", "0.05")
	b.poll("squared", `window.lab.frame && window.lab.frame.regression === true && window.lab.frame.waxes[1] === "b"`)
	if b.str(`String(document.getElementById("bias").disabled)`) != "true" {
		t.Errorf("the squared loss always has b, but the bias box is enabled")
	}
	b.do("end", chromedp.Click(chromedp.ID("end")))
	b.poll("end", `document.body.dataset.frame === String(Number(document.body.dataset.frames) - 1)`)
	b.shot("lab-squared-1280x800.png")
	// Other learners show no side-by-side panels.
	set("learner", "perceptron")
	b.poll("perceptron", `window.lab.frame && !window.lab.frame.losses && document.getElementById("sidebyside").hidden`)
}

// shotFull keeps a screenshot of the whole page in $MARK1_SCREENSHOTS.
func (b *browser) shotFull(name string) {
	b.t.Helper()
	b.keep(name, chromedp.FullScreenshot(100))
}

// TestLabURL checks that the address holds the whole lab state: a page set
// up by hand (drawn data, a learner and its kernel, seven steps), opened in
// a fresh browser from its address, shows the same frame, byte for byte;
// and that points placed by hand survive a look at an example.
func TestLabURL(t *testing.T) {
	_, ts := newPanel(t, Config{})
	b := openPage(t, 1280, 800, ts.URL+"/lab.html")
	b.poll("first frame", `document.body.dataset.frame === "0"`)
	set := func(b *browser, id, v string) {
		b.str(`(() => { const s = document.getElementById("` + id + `"); s.value = "` + v + `"; s.dispatchEvent(new Event("change")); return "" })()`)
	}
	b.do("kind", chromedp.SetValue(chromedp.ID("genkind"), "spiral"), chromedp.SetValue(chromedp.ID("genseed"), "3"), chromedp.SetValue(chromedp.ID("gennoise"), "0.2"))
	b.do("generate", chromedp.Click(chromedp.ID("generate")))
	b.poll("drawn", `window.lab.frame && window.lab.frame.points.length === 60`)
	set(b, "learner", "kernel-perceptron")
	set(b, "kernel", "gaussian:sigma=0.5")
	b.poll("kernel", `window.lab.frame && window.lab.frame.caption.includes("gaussian") && document.body.dataset.frame === "0"`)
	for i := 1; i <= 7; i++ {
		b.do("step", chromedp.Click(chromedp.ID("step")))
		b.poll("step", `document.body.dataset.frame === "`+strconv.Itoa(i)+`"`)
	}
	url := b.str(`location.href`)
	want := b.str(`JSON.stringify(window.lab.frame)`)
	if !strings.Contains(url, "gen=spiral") || !strings.Contains(url, "f=7") {
		t.Fatalf("the address %s does not hold the state", url)
	}
	// A fresh browser (its own profile) from the address alone.
	fresh := openPage(t, 390, 844, url)
	fresh.poll("restored", `document.body.dataset.frame === "7"`)
	if got := fresh.str(`JSON.stringify(window.lab.frame)`); got != want {
		t.Errorf("the fresh browser shows another frame from %s", url)
	}
	if got := fresh.str(`document.getElementById("learner").value + " " + document.getElementById("kernel").value + " " + document.getElementById("example").value`); got != "kernel-perceptron gaussian:sigma=0.5 *gen" {
		t.Errorf("the fresh browser's controls: %s", got)
	}
	fresh.shot("lab-url-390x844.png")

	// Your points survive a look at an example.
	set(b, "example", "")
	b.do("clear", chromedp.Click(chromedp.ID("clear")))
	for _, p := range [][2]int{{400, 150}, {150, 400}} {
		b.str(`(() => { const c = document.getElementById("xspace"); const r = c.getBoundingClientRect();
			c.dispatchEvent(new MouseEvent("click", {bubbles: true, clientX: r.left + ` + strconv.Itoa(p[0]) + ` * r.width / c.width, clientY: r.top + ` + strconv.Itoa(p[1]) + ` * r.height / c.height, shiftKey: ` + strconv.FormatBool(p[0] < 200) + `})); return "" })()`)
	}
	b.poll("placed", `window.lab.frame && window.lab.frame.points.length === 2`)
	mine := b.str(`JSON.stringify(window.lab.points)`)
	set(b, "example", "xor")
	b.poll("xor", `window.lab.frame && window.lab.frame.points.length === 8`)
	set(b, "example", "")
	b.poll("back", `window.lab.frame && window.lab.frame.points.length === 2`)
	if got := b.str(`JSON.stringify(window.lab.points)`); got != mine {
		t.Errorf("after a look at xor your points are %s; were %s", got, mine)
	}
	if !strings.Contains(b.str(`location.href`), "pts=") {
		t.Errorf("the address does not hold your points: %s", b.str(`location.href`))
	}
}

// controlsJS lists the page's controls as JSON: each visible button,
// select, input and link, whether it is disabled, and its accessible name
// (its label's text, aria-label, title or text).
const controlsJS = `JSON.stringify([...document.querySelectorAll("button, select, input, a[href], pre[tabindex]")].filter((el) => {
	const r = (el.type === "file" ? el.parentElement : el).getBoundingClientRect();
	return r.width > 0 && r.height > 0 && !el.closest("dialog:not([open])");
}).map((el) => ({
	id: el.id || el.name + ":" + el.value || el.textContent.trim(),
	off: el.disabled,
	group: el.type === "radio" ? el.name : "",
	name: (el.getAttribute("aria-label") || (el.labels && el.labels[0] && el.labels[0].textContent.trim()) || el.title || el.textContent.trim() || "").slice(0, 60),
})))`

type control struct {
	Group string `json:"group"` // a radio's group
	ID    string `json:"id"`
	Off   bool   `json:"off"`
	Name  string `json:"name"`
}

// TestKeyboardWalk tabs through both pages and checks that every enabled
// control is reached, shows a focus ring, and has an accessible name; and
// that the lab's keys step, go back and run.
func TestKeyboardWalk(t *testing.T) {
	_, ts := newPanel(t, Config{})
	for _, page := range []string{"/lab.html", "/"} {
		b := openPage(t, 1280, 800, ts.URL+page)
		if page == "/" {
			b.poll("state", `window.mark1.state !== null`)
		} else {
			b.poll("frame", `document.body.dataset.frame === "0"`)
		}
		var controls []control
		if err := json.Unmarshal([]byte(b.str(controlsJS)), &controls); err != nil {
			t.Fatal(err)
		}
		reached := map[string]bool{}
		for range len(controls) + 10 {
			b.do("tab", chromedp.KeyEvent("\t"))
			id := b.str(`(() => { const el = document.activeElement; if (el === document.body) return ""; return el.id || el.name + ":" + el.value || el.textContent.trim() })()`)
			if id == "" {
				continue
			}
			// A radio group is one stop for Tab; arrow keys move within it.
			if g := b.str(`(() => { const el = document.activeElement; return el.type === "radio" ? el.name : "" })()`); g != "" {
				reached["radio:"+g] = true
			}
			ring := b.str(`(() => { const el = document.activeElement; const s = getComputedStyle(el.type === "file" ? el.parentElement : el); return s.outlineStyle + " " + s.outlineWidth })()`)
			if !strings.HasPrefix(ring, "solid") {
				t.Errorf("%s: %s has focus but no visible ring (outline %s)", page, id, ring)
			}
			reached[id] = true
		}
		for _, c := range controls {
			if c.Name == "" {
				t.Errorf("%s: control %s has no accessible name", page, c.ID)
			}
			if !c.Off && !reached[c.ID] && !reached["radio:"+c.Group] {
				t.Errorf("%s: Tab never reaches %s (%q)", page, c.ID, c.Name)
			}
		}
		t.Logf("%s: %d controls, %d reached by Tab", page, len(controls), len(reached))
	}
	// The lab's keys.
	b := openPage(t, 1280, 800, ts.URL+"/lab.html?every=20")
	b.poll("frame", `document.body.dataset.frame === "0"`)
	b.do("focus", chromedp.Focus(chromedp.ID("trace")))
	b.do("→", chromedp.KeyEvent(kb.ArrowRight))
	b.poll("→ steps", `document.body.dataset.frame === "1"`)
	b.do("n", chromedp.KeyEvent("n"))
	b.poll("n steps", `document.body.dataset.frame === "2"`)
	b.do("←", chromedp.KeyEvent(kb.ArrowLeft))
	b.poll("← goes back", `document.body.dataset.frame === "1"`)
	b.do("End", chromedp.KeyEvent(kb.End))
	b.poll("End", `document.body.dataset.frame === "12"`)
	b.do("Home", chromedp.KeyEvent(kb.Home))
	b.poll("Home", `document.body.dataset.frame === "0"`)
	b.do("r", chromedp.KeyEvent("r"))
	b.poll("r runs to the end", `document.body.dataset.frame === "12" && document.body.dataset.running === "false"`)
}

// TestPageSizes opens both pages at the four window sizes a class meets
// (1280×800, 1440×900, 1920×1080 and a phone's 390×844) and checks that
// nothing is wider than the window and that the lab's maps are at least
// 300 px wide; with MARK1_SCREENSHOTS it keeps a screenshot of each.
func TestPageSizes(t *testing.T) {
	_, ts := newPanel(t, Config{Machine: trainedMachine(t), Task: "letters1"})
	for _, size := range [][2]int{{1280, 800}, {1440, 900}, {1920, 1080}, {390, 844}} {
		w, h := size[0], size[1]
		for _, page := range []string{"lab.html#ex=overlap&l=svm&f=5", "lab.html#ex=overlap&l=sgd&loss=hinge&batch=4&f=9", "lab.html#gen=blobs&n=60&noise=0.3&ln=0&gs=2&cl=4&l=perceptron&bias=1&f=9", ""} {
			b := openPage(t, w, h, ts.URL+"/"+page)
			if page == "" {
				b.poll("state", `window.mark1.state !== null`)
				b.do("present", chromedp.Click(chromedp.ID("present")))
				b.poll("answer", `document.getElementById("prediction") !== null`)
			} else {
				b.poll("frame", `document.body.dataset.frame === "`+page[len(page)-1:]+`"`)
				ids := []string{"xspace", "wspace"}
				if strings.Contains(page, "cl=") { // several classes: no dual chart
					ids = []string{"xspace"}
				}
				for _, id := range ids {
					if got := b.num(`document.getElementById("` + id + `").getBoundingClientRect().width`); got < 300 {
						t.Errorf("%dx%d %s: %s is %v px wide; want at least 300", w, h, page, id, got)
					}
				}
			}
			if sw := b.num(`document.documentElement.scrollWidth`); sw > float64(w) {
				t.Errorf("%dx%d %q: the page is %v px wide, wider than the window", w, h, page, sw)
			}
			name := "panel"
			if page != "" {
				name = "lab-" + page[strings.Index(page, "l=")+2:strings.Index(page, "&f")]
				name = strings.NewReplacer("&", "-", "=", "-").Replace(name)
			}
			if strings.Contains(page, "cl=") {
				name = "lab-classes"
			}
			b.shot(name + "-" + strconv.Itoa(w) + "x" + strconv.Itoa(h) + ".png")
			if w == 390 { // a phone scrolls through the whole page
				b.shotFull(name + "-" + strconv.Itoa(w) + "x" + strconv.Itoa(h) + "-full.png")
			}
			if page != "" {
				// The stage: as the page opens, the map and the Step button
				// are in the window together, and the status line too; on a
				// phone, scrolled down to the map, the Step button stays.
				inView := func(id string) string {
					return `(() => { const r = document.getElementById("` + id + `").getBoundingClientRect(); return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5 })()`
				}
				for _, id := range []string{"xspace", "step", "counter"} {
					if b.str(`String(`+inView(id)+`)`) != "true" {
						t.Errorf("%dx%d %s: #%s is not wholly in the window as the page opens (%s)", w, h, page, id, b.str(`JSON.stringify(document.getElementById("`+id+`").getBoundingClientRect())`))
					}
				}
				if w > 760 && !strings.Contains(page, "cl=") && b.str(`String(`+inView("wspace")+`)`) != "true" {
					t.Errorf("%dx%d %s: w-space is not in the window beside x-space", w, h, page)
				}
				if w == 390 {
					b.str(`window.scrollTo(0, 400); ""`)
					b.poll("scrolled", `window.scrollY > 100`)
					if b.str(`String(`+inView("step")+`)`) != "true" {
						t.Errorf("%dx%d %s scrolled: the Step button left the window", w, h, page)
					}
					b.shot(name + "-" + strconv.Itoa(w) + "x" + strconv.Itoa(h) + "-map.png")
				}
			}
		}
	}
}

// TestLabClasses shows data of three and four classes on the lab page:
// drawn data from the address (the classes, the rule, the step), each
// rule's regions side by side with the counts the server gives, a legend
// of every class; points placed by hand in three classes (the class
// picked for each), carried by the address to a fresh phone-sized
// browser; and a CSV of four classes loaded and saved back.
func TestLabClasses(t *testing.T) {
	_, ts := newPanel(t, Config{})
	b := openPage(t, 1280, 800, ts.URL+"/lab.html#gen=blobs&n=60&noise=0.3&ln=0&gs=2&cl=4&l=perceptron&bias=1&rule=ovr&f=40")
	b.poll("four classes", `window.lab.frame && window.lab.frame.classes && window.lab.frame.classes.length === 4 && document.body.dataset.frame === "40"`)
	if got := b.str(`document.getElementById("classlegend").hidden + " " + document.getElementById("xlegend").hidden + " " + document.getElementById("rulepanels").children.length`); got != "false true 3" {
		t.Errorf("legend hidden, two-class legend hidden, rule panels: %s", got)
	}
	legend := b.str(`document.getElementById("classlegend").textContent`)
	for _, c := range []string{"class 1 (○)", "class 2 (×)", "class 3 (△)", "class 4 (□)", "no class, or several"} {
		if !strings.Contains(legend, c) {
			t.Errorf("the legend lacks %q: %s", c, legend)
		}
	}
	counter := b.str(`document.getElementById("counter").textContent`)
	if !strings.Contains(counter, "one-vs-rest by sign") || !strings.Contains(counter, "claimed by none or several") {
		t.Errorf("the counter does not follow the rule chosen: %s", counter)
	}
	b.shot("lab-classes-4-1280x800.png")
	b.do("scroll", chromedp.ScrollIntoView(chromedp.ID("rulesbox")))
	b.shot("lab-classes-4-rules-1280x800.png")

	// Your points, three classes, each placed with its class picked.
	set := func(id, v string) {
		b.str(`(() => { const s = document.getElementById("` + id + `"); s.value = "` + v + `"; s.dispatchEvent(new Event("change")); return "" })()`)
	}
	set("example", "")
	b.do("clear", chromedp.Click(chromedp.ID("clear")))
	set("classes", "3")
	set("learner", "svm")
	if b.str(`document.getElementById("pick3").hidden + " " + document.getElementById("pick4").hidden`) != "false true" {
		t.Fatal("with 3 classes the picker does not offer class 3 alone")
	}
	click := func(radio string, x, y int) {
		b.do("pick", chromedp.Click(chromedp.ID(radio)))
		b.str(`(() => { const c = document.getElementById("xspace"); const r = c.getBoundingClientRect();
			c.dispatchEvent(new MouseEvent("click", {bubbles: true, clientX: r.left + ` + strconv.Itoa(x) + ` * r.width / c.width, clientY: r.top + ` + strconv.Itoa(y) + ` * r.height / c.height})); return "" })()`)
	}
	for _, p := range []struct {
		radio string
		x, y  int
	}{{"label-plus", 400, 150}, {"label-plus", 430, 190}, {"label-minus", 140, 160}, {"label-minus", 170, 120}, {"label-3", 280, 440}, {"label-3", 320, 470}} {
		click(p.radio, p.x, p.y)
	}
	b.poll("placed", `window.lab.frame && window.lab.frame.classes && window.lab.frame.points.length === 6`)
	if got := b.str(`JSON.stringify(window.lab.points.map((p) => p[2]))`); got != "[1,1,2,2,3,3]" {
		t.Errorf("the points' classes: %s; want [1,1,2,2,3,3]", got)
	}
	b.do("end", chromedp.Click(chromedp.ID("end")))
	b.poll("end", `window.lab.frame.frame === window.lab.frame.frames - 1 && window.lab.frame.frame > 0`)
	if got := b.str(`JSON.stringify(window.lab.frame.rules.map((r) => r.score.right))`); got != "[6,6,6]" {
		t.Errorf("each rule's right points: %s; want [6,6,6] (three separate clouds)", got)
	}
	url := b.str(`location.href`)
	if !strings.Contains(url, "cl=3") || !strings.Contains(url, "pts=") {
		t.Fatalf("the address %s does not hold the classes and points", url)
	}
	want := b.str(`JSON.stringify(window.lab.frame)`)
	fresh := openPage(t, 390, 844, url)
	fresh.poll("restored", `window.lab.frame && window.lab.frame.classes !== undefined`)
	if got := fresh.str(`JSON.stringify(window.lab.frame)`); got != want {
		t.Errorf("the fresh browser shows another frame from %s", url)
	}
	if got := fresh.str(`document.getElementById("classes").value + " " + document.getElementById("pick3").hidden`); got != "3 false" {
		t.Errorf("the fresh browser's classes and picker: %s", got)
	}
	fresh.shotFull("lab-classes-3-390x844-full.png")

	// A CSV of four classes, loaded and saved back.
	csv := "x1,x2,label\n1,1,a\n1.5,1.2,a\n-1,1,b\n-1.2,1.5,b\n-1,-1,c\n-1.5,-1.2,c\n1,-1,d\n1.2,-1.5,d\n"
	b.str(`(() => { const dt = new DataTransfer(); dt.items.add(new File([` + "`" + csv + "`" + `], "four.csv")); const i = document.getElementById("loadpoints"); i.files = dt.files; i.dispatchEvent(new Event("change")); return "" })()`)
	b.poll("four loaded", `window.lab.frame && window.lab.frame.classes && window.lab.frame.classes.length === 4 && window.lab.frame.points.length === 8`)
	if got := b.str(`document.getElementById("classes").value + " " + JSON.stringify(window.lab.points.map((p) => p[2]))`); got != "4 [1,1,2,2,3,3,4,4]" {
		t.Errorf("after loading four classes: %s", got)
	}
}

// TestClassesBeforeGenerate: on one of the notes' (two-class) examples the
// Classes control is usable, and choosing 3 draws data of three classes
// with the settings under "Or draw data", as Generate would.
func TestClassesBeforeGenerate(t *testing.T) {
	_, ts := newPanel(t, Config{})
	b := openPage(t, 1280, 800, ts.URL+"/lab.html")
	b.poll("example", `window.lab && window.lab.example === "notes-004" && window.lab.frame !== undefined`)
	if b.str(`String(document.getElementById("classes").disabled)`) != "false" {
		t.Fatalf("Classes is disabled on an example: %q", b.str(`document.getElementById("classes").title`))
	}
	b.str(`(() => { const s = document.getElementById("classes"); s.value = "3"; s.dispatchEvent(new Event("change")); return "" })()`)
	b.poll("three classes drawn", `window.lab.example === "" && window.lab.frame && window.lab.frame.classes && window.lab.frame.classes.length === 3`)
}
