package cli

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mark1/internal/labsite"
	"mark1/internal/testtool"
	"mark1/lab"
	"mark1/panel"
)

// TestLabSite writes the static lab site (lab --site), serves it with a
// plain file server, and checks in headless Chromium that its WebAssembly
// answers the page (the notes' example, a state from the address), and
// that its traces are byte for byte those of lab --json, for every example
// with the default learner, for each other learner, and for every
// kernel that calls exp.
func TestLabSite(t *testing.T) {
	bin := testtool.NeedChromium(t)
	dir := t.TempDir()
	site := filepath.Join(dir, "site")
	if code, out, errs := run(t, dir, "lab", "--site", "site"); code != 0 || !strings.Contains(out, "wrote the lab site") {
		t.Fatalf("lab --site: exit %d: %s%s", code, out, errs)
	}
	checkSite(t, site)
	ts := httptest.NewServer(http.FileServer(http.Dir(site)))
	defer ts.Close()

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(bin), chromedp.NoSandbox, chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 800))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelA()
	ctx, cancelC := chromedp.NewContext(actx)
	defer cancelC()
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/lab.html#ex=xor&l=kernel-perceptron&k=poly%3Ad%3D2%2Cgamma%3D1&f=3")); err != nil {
		t.Fatalf("browser: %v", err)
	}
	ctx, cancelT := context.WithTimeout(ctx, 240*time.Second)
	defer cancelT()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.body.dataset.wasm === "ready" && document.body.dataset.frame === "3"`, chromedp.WithPollingTimeout(60*time.Second))); err != nil {
		msg, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("message").textContent + " wasm=" + document.body.dataset.wasm + " frame=" + document.body.dataset.frame + " " + location.href`))
		t.Fatalf("the static site did not show the address's frame 3: %v (%q)", err, msg)
	}
	if got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`window.lab.frame.caption`)); !strings.Contains(got, "kernel perceptron") {
		t.Errorf("the static site's caption %q", got)
	}

	type tcase struct {
		flags []string
		setup string
	}
	var cases []tcase
	def := `"learner":"perceptron","eps":1,"seed":1,"C":1,"max_epochs":100,"loss":"perceptron","batch":1`
	for _, name := range lab.Names() {
		cases = append(cases, tcase{[]string{"--example", name}, `{"example":"` + name + `","setup":{` + def + `}}`})
	}
	cases = append(cases,
		tcase{[]string{"--example", "needs-bias", "--learner", "batch-gd", "--bias", "--eps", "0.5"}, `{"example":"needs-bias","setup":{"learner":"batch-gd","bias":true,"eps":0.5,"seed":1,"C":1,"max_epochs":100,"loss":"perceptron","batch":1}}`},
		tcase{[]string{"--example", "xor", "--learner", "kernel-perceptron", "--kernel", "poly:d=2,gamma=1"}, `{"example":"xor","setup":{"learner":"kernel-perceptron","kernel":"poly:d=2,gamma=1","eps":1,"seed":1,"C":1,"max_epochs":100,"loss":"perceptron","batch":1}}`},
		tcase{[]string{"--example", "rings", "--learner", "svm", "--kernel", "poly:d=2,gamma=1,c=1"}, `{"example":"rings","setup":{"learner":"svm","kernel":"poly:d=2,gamma=1,c=1","eps":1,"seed":1,"C":1,"max_epochs":100,"loss":"perceptron","batch":1}}`},
		// The kernels that call exp: the lab computes them with its
		// portable exp, so amd64's assembly math.Exp does not show.
		tcase{[]string{"--example", "rings", "--learner", "kernel-perceptron", "--kernel", "gaussian:sigma=1"}, `{"example":"rings","setup":{"learner":"kernel-perceptron","kernel":"gaussian:sigma=1","eps":1,"seed":1,"C":1,"max_epochs":100}}`},
		tcase{[]string{"--example", "xor", "--learner", "svm", "--kernel", "rbf:gamma=scale", "--C", "10"}, `{"example":"xor","setup":{"learner":"svm","kernel":"rbf:gamma=scale","eps":1,"seed":1,"C":10,"max_epochs":100}}`},
		tcase{[]string{"--example", "overlap", "--learner", "svm", "--kernel", "laplace:sigma=0.5"}, `{"example":"overlap","setup":{"learner":"svm","kernel":"laplace:sigma=0.5","eps":1,"seed":1,"C":1,"max_epochs":100}}`},
		tcase{[]string{"--example", "pizza-001", "--learner", "kernel-perceptron", "--kernel", "sigmoid:gamma=0.5,coef0=-1"}, `{"example":"pizza-001","setup":{"learner":"kernel-perceptron","kernel":"sigmoid:gamma=0.5,coef0=-1","eps":1,"seed":1,"C":1,"max_epochs":100}}`},
		tcase{[]string{"--example", "overlap", "--learner", "svm", "--hard"}, `{"example":"overlap","setup":{"learner":"svm","hard":true,"eps":1,"seed":1,"C":1,"max_epochs":100,"loss":"perceptron","batch":1}}`},
		tcase{[]string{"--example", "overlap", "--learner", "sgd", "--loss", "logistic", "--batch", "4", "--eps", "0.5"}, `{"example":"overlap","setup":{"learner":"sgd","loss":"logistic","batch":4,"eps":0.5,"seed":1,"C":1,"max_epochs":100}}`},
		// The random A-layer: its units drawn with sin and cos from the
		// seed, the same in the browser.
		tcase{[]string{"--example", "xor", "--learner", "a-layer", "--units", "8", "--seed", "3"}, `{"example":"xor","setup":{"learner":"a-layer","units":8,"seed":3,"eps":1,"max_epochs":100}}`},
		tcase{[]string{"--example", "rings", "--learner", "a-layer", "--units", "64", "--seed", "11", "--order", "shuffle", "--eps", "0.5"}, `{"example":"rings","setup":{"learner":"a-layer","units":64,"seed":11,"shuffle":true,"eps":0.5,"max_epochs":100}}`},
		// Its raster units: integer wiring on a retina whose cells are
		// found with a floor, the same in the browser.
		tcase{[]string{"--example", "xor", "--learner", "a-layer", "--unit-kind", "raster", "--units", "8", "--seed", "3"}, `{"example":"xor","setup":{"learner":"a-layer","units":8,"unit_kind":"raster","seed":3,"eps":1,"max_epochs":100}}`},
		tcase{[]string{"--example", "rings", "--learner", "a-layer", "--unit-kind", "raster", "--units", "64", "--seed", "11", "--order", "shuffle"}, `{"example":"rings","setup":{"learner":"a-layer","units":64,"unit_kind":"raster","seed":11,"shuffle":true,"eps":1,"max_epochs":100}}`},
	)
	for _, c := range cases {
		code, want, errs := run(t, dir, append([]string{"lab", "--json"}, c.flags...)...)
		if code != 0 {
			t.Fatalf("lab %v: exit %d: %s", c.flags, code, errs)
		}
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`window.mark1LabTrace(`+jsString(c.setup)+`)`))
		if err != nil {
			t.Fatalf("%v: %v", c.flags, err)
		}
		if got != want {
			t.Errorf("lab %v: the static site's trace differs from lab --json (%d bytes against %d):\n%.300s", c.flags, len(got), len(want), got)
		}
	}
	t.Logf("%d traces byte for byte equal", len(cases))

	// The address's state on the static site: each learner, drawn data,
	// points of three and drawn data of four classes, a step. Each address
	// set in the open page (a settings left out is at its default, whatever
	// the page showed before) shows its step, and the frame the page's
	// WebAssembly drew is the one lab.Request.Answer gives natively for
	// what the page asked.
	for _, c := range []struct{ hash, frame string }{
		{"ex=notes-004&f=3", "3"},
		{"ex=needs-bias&l=batch-gd&bias=1&eps=0.5&f=4", "4"},
		{"ex=rings&l=kernel-perceptron&k=gaussian%3Asigma%3D1&f=6", "6"},
		{"ex=overlap&l=svm&C=10&f=5", "5"},
		{"ex=overlap&l=sgd&loss=logistic&batch=4&eps=0.5&f=9", "9"},
		{"gen=moons&n=40&noise=0.1&ln=0.05&gs=4&l=svm&k=gaussian%3Asigma%3D0.5&f=2", "2"},
		{"pts=2.5,2.7,1;3.1,1.8,1;-2.9,2.5,2;-2.3,3.3,2;0,-3.3,3;0.8,-3.9,3&cl=3&l=perceptron&bias=1&rule=ovo&f=5", "5"},
		{"gen=spiral&n=80&noise=0&ln=0&gs=3&cl=4&l=kernel-perceptron&k=gaussian%3Asigma%3D0.5&f=7", "7"},
		{"ex=xor&l=a-layer&u=8&seed=3&f=5", "5"},
		{"gen=spiral&n=60&noise=0.1&ln=0&gs=1&l=a-layer&u=32&seed=2&order=shuffle&f=40", "40"},
		{"ex=rings&l=a-layer&u=16&uk=raster&seed=4&f=7", "7"},
		{"ex=xor&f=0", "0"},
	} {
		before, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`window.lab.asked; location.hash = "`+c.hash+`"; window.lab.asked`))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`window.lab.asked > `+strconv.Itoa(int(before))+` && window.lab.frame && document.body.dataset.frame === "`+c.frame+`" && !window.lab.inflight`, chromedp.WithPollingTimeout(60*time.Second))); err != nil {
			msg, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("message").textContent + " frame=" + document.body.dataset.frame`))
			t.Fatalf("#%s: the static site did not show step %s: %v (%q)", c.hash, c.frame, err, msg)
		}
		asked, err := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify(window.lab.asking)`))
		if err != nil {
			t.Fatal(err)
		}
		shown, err := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify(window.lab.frame)`))
		if err != nil {
			t.Fatal(err)
		}
		var q lab.Request
		if err := json.Unmarshal([]byte(asked), &q); err != nil {
			t.Fatalf("#%s: the page asked %s: %v", c.hash, asked, err)
		}
		// The page asked what the address says, defaults for the rest.
		h, _ := url.ParseQuery(c.hash)
		learner, classes := cmp.Or(h.Get("l"), "perceptron"), q.Classes
		if q.Generate != nil {
			classes = q.Generate.Classes
		}
		if q.Setup.Learner != learner || strconv.Itoa(max(classes, 2)) != cmp.Or(h.Get("cl"), "2") || q.Setup.Bias != (h.Get("bias") == "1") || q.Setup.Kernel != h.Get("k") ||
			(h.Has("u") && strconv.Itoa(q.Setup.Units) != h.Get("u")) || q.Setup.UnitKind != h.Get("uk") {
			t.Errorf("#%s: the page asked %s", c.hash, asked)
		}
		fr, err := q.Answer(context.Background(), 60)
		if err != nil {
			t.Fatalf("#%s: %s: %v", c.hash, asked, err)
		}
		native, err := json.Marshal(fr)
		if err != nil {
			t.Fatal(err)
		}
		var a, b any
		if json.Unmarshal(native, &a) != nil || json.Unmarshal([]byte(shown), &b) != nil || !reflect.DeepEqual(a, b) {
			t.Errorf("#%s: the static site's frame differs from lab.Request.Answer's for %s", c.hash, asked)
		}
	}
}

// checkSite checks that the folder holds the whole static lab site: the
// panel's lab page with the WebAssembly's script, the other page files as
// the panel serves them, index.html, and the WebAssembly and wasm_exec.js
// embedded in mark1 — and nothing else but what marks the folder as
// mark1's.
func checkSite(t *testing.T, site string) {
	t.Helper()
	var wasm bytes.Buffer
	if err := labsite.WriteWasm(&wasm); err != nil {
		t.Fatal(err)
	}
	want := panel.LabSiteFiles()
	want["lab.wasm"] = wasm.Bytes()
	want["wasm_exec.js"] = labsite.WasmExec()
	want["index.html"] = nil
	for _, f := range []string{"index.html", "lab.html", "lab.js", "lab.css", "style.css", "wasm_exec.js", "lab.wasm"} {
		if _, ok := want[f]; !ok {
			t.Errorf("the site would lack %s", f)
		}
	}
	for name, b := range want {
		got, err := os.ReadFile(filepath.Join(site, name))
		switch {
		case err != nil:
			t.Errorf("the site lacks %s: %v", name, err)
		case name == "index.html":
			if !strings.Contains(string(got), `url=lab.html`) {
				t.Errorf("index.html does not lead to lab.html:\n%s", got)
			}
		case name == "lab.html":
			for _, s := range []string{`<meta name="mark1-static" content="1">`, `<script src="wasm_exec.js"></script>` + "\n" + `<script src="lab.js"></script>`} {
				if !strings.Contains(string(got), s) {
					t.Errorf("the site's lab.html lacks %s", s)
				}
			}
		case !bytes.Equal(got, b):
			t.Errorf("the site's %s (%d bytes) is not mark1's (%d bytes)", name, len(got), len(b))
		}
	}
	if !bytes.HasPrefix(wasm.Bytes(), []byte("\x00asm")) {
		t.Errorf("lab.wasm is not WebAssembly")
	}
	entries, err := os.ReadDir(site)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if _, ok := want[e.Name()]; !ok && !strings.HasPrefix(e.Name(), ".mark1") {
			t.Errorf("the site holds %s, which is not the site's", e.Name())
		}
	}
}

// TestLabSiteAnywhere writes the static site from a folder outside mark1's
// source, with no Go on PATH and no MARK1_SOURCE (which --site once read):
// the WebAssembly is in mark1 (internal/labsite), so lab --site needs
// nothing else.
func TestLabSiteAnywhere(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv("MARK1_SOURCE", "")
	os.Unsetenv("MARK1_SOURCE")
	dir := t.TempDir()
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
		t.Fatal("the test folder is a module")
	}
	code, out, errs := run(t, dir, "lab", "--site", "site")
	if code != 0 || !strings.Contains(out, "wrote the lab site") {
		t.Fatalf("lab --site: exit %d: %s%s", code, out, errs)
	}
	checkSite(t, filepath.Join(dir, "site"))
	// Again into the same folder: lab --site replaces a site it wrote.
	if code, out, errs := run(t, dir, "lab", "--site", "site"); code != 0 {
		t.Fatalf("lab --site again: exit %d: %s%s", code, out, errs)
	}
	checkSite(t, filepath.Join(dir, "site"))
}

// TestLabSiteBinary runs the installed mark1 binary alone — copied to an
// empty folder, run there with an empty PATH and environment — and checks
// the site it writes.
func TestLabSiteBinary(t *testing.T) {
	testtool.Long(t, "builds mark1 and runs it")
	bin := mark1Binary(t)
	dir := t.TempDir()
	cmd := exec.Command(bin, "lab", "--site", "labsite")
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + t.TempDir(), "HOME=" + dir}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "wrote the lab site to labsite") {
		t.Fatalf("mark1 lab --site labsite: %v\n%s", err, out)
	}
	checkSite(t, filepath.Join(dir, "labsite"))
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	return "`" + strings.NewReplacer("\\", "\\\\", "`", "\\`", "$", "\\$").Replace(s) + "`"
}
