package cli

import (
	"encoding/json"
	"image/gif"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mark1/lab"
)

// TestLabTrace checks mark1 lab against the notes (004): the text names
// every update as the notes write it, and --json gives the same weights.
func TestLabTrace(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := run(t, dir, "lab", "--example", "notes-004", "--trace")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, line := range []string{"w₂ = w₁ − (−1, 2) = (1, −2)", "w₃ = w₂ + (1, 1) = (2, −1)", "w₄ = w₃ − (−1, −2) = (3, 1)", "(R/γ)² = 5 ≥ 3 mistakes"} {
		if !strings.Contains(out, line) {
			t.Errorf("--trace lacks %q:\n%s", line, out)
		}
	}
	code, out, errs = run(t, dir, "lab", "--example", "notes-004", "--json")
	if code != 0 {
		t.Fatalf("--json: exit %d: %s", code, errs)
	}
	var tr struct {
		Steps []struct {
			Update int       `json:"update"`
			W      []float64 `json:"w"`
		} `json:"steps"`
		Theorem struct {
			Bound *float64 `json:"bound"`
		} `json:"theorem"`
	}
	if err := json.Unmarshal([]byte(out), &tr); err != nil {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	got := map[int][]float64{}
	for _, s := range tr.Steps {
		if s.Update > 0 {
			got[s.Update] = s.W
		}
	}
	want := map[int][2]float64{2: {1, -2}, 3: {2, -1}, 4: {3, 1}}
	if len(got) != len(want) {
		t.Errorf("--json: updates %v; want %v", got, want)
	}
	for u, w := range want {
		if g := got[u]; len(g) != 2 || g[0] != w[0] || g[1] != w[1] {
			t.Errorf("--json: w%d = %v; want %v", u, g, w)
		}
	}
	if b := tr.Theorem.Bound; b == nil {
		t.Errorf("--json: no theorem bound; want 5")
	} else if math.Abs(*b-5) > 1e-9 {
		t.Errorf("--json: theorem bound %v; want 5", *b)
	}
	// Without a separator through the origin the bound is null.
	if code, out, _ = run(t, dir, "lab", "--example", "needs-bias", "--json", "--max-epochs", "3"); code != 0 || !strings.Contains(out, `"bound": null`) {
		t.Errorf("needs-bias without bias: exit %d, want a null bound:\n%.400s", code, out)
	}
}

// TestLabPictures draws a PNG, an SVG and a GIF and checks what came out.
func TestLabPictures(t *testing.T) {
	dir := t.TempDir()
	code, _, errs := run(t, dir, "lab", "--example", "notes-004", "--view", "w", "--step", "3", "--png", "w.png", "--svg", "w.svg")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	f, err := os.Open(filepath.Join(dir, "w.png"))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil || img.Bounds().Dx() != 600 {
		t.Errorf("w.png: %v, %v", err, img.Bounds())
	}
	svg, err := os.ReadFile(filepath.Join(dir, "w.svg"))
	if err != nil || !strings.Contains(string(svg), "<svg") || !strings.Contains(string(svg), "dual chart") {
		t.Errorf("w.svg: %v, %d bytes", err, len(svg))
	}
	code, _, errs = run(t, dir, "lab", "--example", "notes-004", "--view", "x", "--gif", "x.gif", "--delay", "10")
	if code != 0 {
		t.Fatalf("--gif: exit %d: %s", code, errs)
	}
	f, err = os.Open(filepath.Join(dir, "x.gif"))
	if err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(f)
	f.Close()
	if err != nil || len(g.Image) != 13 {
		t.Errorf("x.gif: %v, want 13 frames (the start and 12 steps)", err)
	}
}

// TestLabBadInput checks that bad flags give one line and exit status 2,
// and write nothing.
func TestLabBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--example", "nope"}, `no example "nope"`},
		{[]string{"--eps", "-1"}, "--eps"},
		{[]string{"--eps", "NaN"}, "--eps"},
		{[]string{"--C", "0", "--learner", "svm"}, "--C"},
		{[]string{"--learner", "magic"}, `learner "magic"`},
		{[]string{"--learner", "svm", "--kernel", "poly:d=x"}, "poly:d=x"},
		{[]string{"--view", "w"}, "--png"},
		{[]string{"--view", "nope", "--png", "a.png"}, `--view "nope"`},
		{[]string{"--learner", "svm", "--view", "w", "--png", "a.png"}, "--view w out of range: want regions or margin for the svm"},
		{[]string{"--view", "theorem", "--learner", "batch-gd", "--png", "a.png"}, "--view theorem out of range: want another view, or the learner perceptron"},
		{[]string{"--gif", "a.png"}, ".gif"},
		{[]string{"--step", "99", "--png", "a.png"}, "--step 99"},
		{[]string{"--trace", "--json"}, "not both"},
		{[]string{"--start", "1,x"}, "--start"},
		{[]string{"--start", "1,2,3"}, "want 2"},
	} {
		code, _, errs := run(t, dir, append([]string{"lab"}, c.args...)...)
		if code != 2 || !strings.Contains(errs, c.want) || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
			t.Errorf("lab %v: exit %d, stderr %q; want 2 and one line naming %q", c.args, code, errs, c.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 0 {
		t.Errorf("bad input left files: %v", entries)
	}
}

// TestLabData runs the notes' example from a libsvm file of the user's and
// a three-feature text file: traces in any dimension, pictures declined.
// A user's data take the registry's defaults, as fit's do (bias 1, a
// shuffled order); the notes' words give the notes' trace.
func TestLabData(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.libsvm"), []byte("-1 1:-1 2:2\n1 1:1\n1 1:1 2:1\n-1 1:-1\n-1 1:-1 2:-2\n1 1:1 2:-1\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "three.txt"), []byte("1 2 3 1\n-1 0 2 -1\n0 0 1 1\n4 4 4 -1\n"), 0o644)
	code, out, errs := run(t, dir, "lab", "--data", "notes.libsvm", "--bias=-1", "--order", "given")
	if code != 0 || !strings.Contains(out, "w₄ = w₃ − (−1, −2) = (3, 1)") {
		t.Errorf("--data notes.libsvm: exit %d, %s\n%s", code, errs, out)
	}
	code, out, errs = run(t, dir, "lab", "--data", "three.txt", "--bias", "--max-epochs", "3")
	if code != 0 || !strings.Contains(out, "(1, 2, 3)") || !strings.Contains(errs, "3 features") {
		t.Errorf("--data three.txt: exit %d, %s\n%s", code, errs, out)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--data", "three.txt", "--png", "x.png"}, 2, "2 features and the example has 3"},
		{[]string{"--data", "missing.txt"}, 1, "missing.txt"},
		{[]string{"--data", "three.txt", "--format", "xml"}, 2, "--format"},
	} {
		if code, _, errs := run(t, dir, append([]string{"lab"}, c.args...)...); code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("lab %v: exit %d, %s; want %d naming %q", c.args, code, errs, c.code, c.want)
		}
	}
}

// Every example with every learner (and the SVM with a hard margin) gives
// JSON that decodes, whatever the run found: a bound, a margin or a γ that
// does not exist (no separator, w = 0) is null, never an error at the end.
func TestLabJSONEveryRun(t *testing.T) {
	dir := t.TempDir()
	for _, e := range lab.Examples() {
		for _, args := range [][]string{
			{"--learner", "perceptron"}, {"--learner", "perceptron", "--bias"},
			{"--learner", "batch-gd"}, {"--learner", "kernel-perceptron", "--kernel", "poly:d=2,gamma=1"},
			{"--learner", "svm"}, {"--learner", "svm", "--hard"}, {"--learner", "svm", "--hard", "--kernel", "gaussian:sigma=1"},
		} {
			a := append([]string{"lab", "--example", e.Name, "--json", "--max-epochs", "20"}, args...)
			code, out, errs := run(t, dir, a...)
			if code != 0 {
				t.Errorf("%v: exit %d: %s", a, code, errs)
				continue
			}
			var v any
			if err := json.Unmarshal([]byte(out), &v); err != nil {
				t.Errorf("%v: %v", a, err)
			}
		}
	}
}

// TestLabSGDPictures draws gradient descent on each loss (notes 002):
// every view sgd has gives a PNG of the size its rows and columns ask
// (two panels side by side; the losses view four columns over two rows),
// a GIF has a frame per step, and the views it has not are refused naming
// the ones it has.
func TestLabSGDPictures(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		loss, view string
		w, h       int
	}{
		{"perceptron", "", 1280, 820}, {"hinge", "x", 640, 820}, {"logistic", "risk", 640, 820},
		{"squared", "notes", 1280, 820}, {"logistic", "losses", 2080, 1300},
	} {
		args := []string{"lab", "--example", "overlap", "--learner", "sgd", "--loss", c.loss, "--batch", "4", "--eps", "0.1", "--png", c.loss + c.view + ".png"}
		if c.view != "" {
			args = append(args, "--view", c.view)
		}
		if code, _, errs := run(t, dir, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		f, err := os.Open(filepath.Join(dir, c.loss+c.view+".png"))
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := png.DecodeConfig(f)
		f.Close()
		if err != nil || cfg.Width != c.w || cfg.Height != c.h {
			t.Errorf("%s %s: %dx%d (%v); want %dx%d", c.loss, c.view, cfg.Width, cfg.Height, err, c.w, c.h)
		}
	}
	if code, _, errs := run(t, dir, "lab", "--example", "overlap", "--learner", "sgd", "--loss", "hinge", "--batch", "16", "--epochs", "5", "--gif", "sgd.gif"); code != 0 {
		t.Fatalf("--gif: exit %d: %s", code, errs)
	}
	f, err := os.Open(filepath.Join(dir, "sgd.gif"))
	if err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(f)
	f.Close()
	if err != nil || len(g.Image) != 6 { // the start and one full-batch step per epoch
		t.Errorf("--gif: %v frames (%v); want 6", len(g.Image), err)
	}
	code, _, errs := run(t, dir, "lab", "--example", "overlap", "--learner", "sgd", "--view", "regions", "--png", "r.png")
	if code != 2 || !strings.Contains(errs, "notes, x, risk or losses for sgd") {
		t.Errorf("--view regions for sgd: exit %d: %s", code, errs)
	}
}

// TestLabClasses runs lab on data of three classes (a CSV of iris's
// names; its trace is the golden case lab-classes): the trace as JSON, and
// the picture of the three rules side by side; a two-class view is refused
// naming the one it has.
func TestLabClasses(t *testing.T) {
	dir := t.TempDir()
	data, err := filepath.Abs("testdata/three-classes.csv")
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, dir, "lab", "--data", data, "--bias", "--json")
	if code != 0 {
		t.Fatalf("--json: exit %d: %s", code, errs)
	}
	var v struct {
		Classes   []string `json:"classes"`
		OneVsRest []struct {
			Class string `json:"class"`
		} `json:"one_vs_rest"`
		OneVsOne []struct {
			Classes [2]string `json:"classes"`
		} `json:"one_vs_one"`
		Rules []lab.RuleScore `json:"rules"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Classes) != 3 || len(v.OneVsRest) != 3 || len(v.OneVsOne) != 3 || v.OneVsOne[2].Classes != [2]string{"versicolor", "virginica"} || len(v.Rules) != 3 {
		t.Errorf("--json: %+v", v)
	}
	if code, _, errs := run(t, dir, "lab", "--data", data, "--learner", "svm", "--kernel", "gaussian:sigma=1", "--png", "c.png"); code != 0 {
		t.Fatalf("--png: exit %d: %s", code, errs)
	}
	f, err := os.Open(filepath.Join(dir, "c.png"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := png.DecodeConfig(f)
	f.Close()
	if err != nil || cfg.Width != 1860 || cfg.Height != 860 {
		t.Errorf("--png: %dx%d, %v; want three 620-pixel panels, 1860x860", cfg.Width, cfg.Height, err)
	}
	code, _, errs = run(t, dir, "lab", "--data", data, "--view", "notes", "--png", "n.png")
	if code != 2 || !strings.Contains(errs, "classes for data of more than two classes") {
		t.Errorf("--view notes on three classes: exit %d: %s", code, errs)
	}
	code, _, errs = run(t, dir, "lab", "--data", data, "--learner", "sgd", "--loss", "squared")
	if code != 2 || !strings.Contains(errs, "squared loss") {
		t.Errorf("sgd squared on three classes: exit %d: %s", code, errs)
	}
}

// TestLabALayer runs the random A-layer (issue 37): --json holds the
// units, the A-vectors and the perceptron's weights on the A-units per
// step; each of its views draws a PNG of its size; a --units out of
// range is refused naming the flag.
func TestLabALayer(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := run(t, dir, "lab", "--example", "xor", "--learner", "a-layer", "--units", "8", "--seed", "3", "--json")
	if code != 0 {
		t.Fatalf("--json: exit %d: %s", code, errs)
	}
	var v struct {
		Learner string                                  `json:"learner"`
		Units   []lab.AUnit                             `json:"units"`
		A       [][]float64                             `json:"a"`
		PR      float64                                 `json:"p_r"`
		P       struct{ Steps []struct{ W []float64 } } `json:"perceptron"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if v.Learner != "a-layer" || len(v.Units) != 8 || len(v.A) != 8 || len(v.P.Steps) == 0 || len(v.P.Steps[0].W) != 9 {
		t.Errorf("--json: %.400s", out)
	}
	for _, c := range []struct {
		view string
		w, h int
	}{{"", 1860, 900}, {"units", 3 * 280, 3*280 + 90}, {"aspace", 1240, 900}} {
		args := []string{"lab", "--example", "xor", "--learner", "a-layer", "--units", "8", "--seed", "3", "--png", "a" + c.view + ".png"}
		if c.view != "" {
			args = append(args, "--view", c.view)
		}
		if code, _, errs := run(t, dir, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		f, err := os.Open(filepath.Join(dir, "a"+c.view+".png"))
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := png.DecodeConfig(f)
		f.Close()
		if err != nil || cfg.Width != c.w || cfg.Height != c.h {
			t.Errorf("view %q: %dx%d (%v); want %dx%d", c.view, cfg.Width, cfg.Height, err, c.w, c.h)
		}
	}
	code, _, errs = run(t, dir, "lab", "--example", "xor", "--learner", "a-layer", "--units", "65")
	if code != 2 || !strings.Contains(errs, "--units 65 out of range") {
		t.Errorf("--units 65: exit %d: %s", code, errs)
	}
	code, _, errs = run(t, dir, "lab", "--example", "xor", "--learner", "a-layer", "--view", "w", "--png", "w.png")
	if code != 2 || !strings.Contains(errs, "units, aspace or theorem for the a-layer") {
		t.Errorf("--view w: exit %d: %s", code, errs)
	}
}
