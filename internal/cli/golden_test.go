package cli

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// update rewrites the golden files instead of comparing with them:
//
//	go test ./internal/cli -run Golden -update
var update = flag.Bool("update", false, "rewrite testdata/*.golden with the outputs of this build")

// golden compares got with testdata/name.golden, or writes it with
// -update. On a difference it names the first line that differs.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./internal/cli -run Golden -update writes it)", err)
	}
	want := string(b)
	if got == want {
		return
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(gl), len(wl)) {
		g, w := "(none)", "(none)"
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			t.Errorf("%s differs at line %d:\n got: %s\nwant: %s\n(if the change is meant, refresh with: go test ./internal/cli -run Golden -update)", path, i+1, g, w)
			return
		}
	}
}

// Wall-clock durations as Go prints them (1.189ms, 46µs, 2.5s, 1m2.3s),
// with the spaces before them: a fraction or a sub-second unit. The simulated machine's clock (48s,
// 1m36s) is whole seconds and deterministic, so it is kept.
var wallClock = regexp.MustCompile(` *(?:\d+h)?(?:\d+m)?\d+(?:\.\d+)?(?:ns|µs|us|ms)|(?:\d+h)?(?:\d+m)?\d+\.\d+s`)

// normalize makes a command's output deterministic: the test's folder
// becomes $DIR, and a wall-clock duration becomes <time>, right-aligned
// in the width of it and the spaces before it, so that tables stay
// aligned. Only the words
// "took" and "time" columns carry wall-clock times; the simulated
// machine's clock is untouched.
func normalize(s, dir string) string {
	s = strings.ReplaceAll(s, dir, "$DIR")
	s = regexp.MustCompile(`this run took \S+?\.`).ReplaceAllString(s, "this run took <time>.")
	return wallClock.ReplaceAllStringFunc(s, func(d string) string {
		const mark = "<time>"
		if n := utf8.RuneCountInString(d); n > len(mark) {
			return strings.Repeat(" ", n-len(mark)) + mark
		}
		return mark
	})
}

// goldenRun runs a command in dir and renders what it did: the command
// line, its standard output, its standard error and its exit status.
func goldenRun(t *testing.T, dir string, args ...string) string {
	t.Helper()
	code, out, errs := run(t, dir, args...)
	var b strings.Builder
	fmt.Fprintf(&b, "$ mark1 %s\n", strings.Join(args, " "))
	fmt.Fprintf(&b, "--- stdout\n%s", out)
	if errs != "" {
		fmt.Fprintf(&b, "--- stderr\n%s", errs)
	}
	fmt.Fprintf(&b, "--- exit %d\n", code)
	return normalize(b.String(), dir)
}

// TestGoldenHelp holds every command's --help, and the command list, to
// testdata/help-*.golden.
func TestGoldenHelp(t *testing.T) {
	dir := t.TempDir()
	golden(t, "help", goldenRun(t, dir, "help"))
	for _, c := range commands() {
		t.Run(c.name, func(t *testing.T) {
			golden(t, goldenHelpName(c.name), goldenRun(t, dir, append(strings.Fields(c.name), "--help")...))
		})
	}
}

// goldenHelpName is the golden file of a command's --help: help-fit,
// help-sweep-run.
func goldenHelpName(command string) string {
	return "help-" + strings.ReplaceAll(command, " ", "-")
}

// goldenCases are the main outputs held to testdata/NAME.golden, run in
// this order in one folder (train writes m.json for dials, fit fm.json for
// apply).
var goldenCases = []struct {
	name string
	args []string
}{
	{"train", []string{"train", "--task", "leftright", "--n", "10", "--epochs", "3", "--a-units", "48", "--out", "m.json"}},
	{"dials", []string{"dials", "--machine", "m.json"}},
	{"fit", []string{"fit", "--data", "cards.libsvm", "--test", "test.libsvm", "--model", "fm.json"}},
	{"fit-linear-svm", []string{"fit", "--data", "cards.libsvm", "--learner", "linear-svm", "--model", "lm.json"}},
	{"apply", []string{"apply", "--model", "fm.json", "--data", "test.libsvm"}},
	{"compare", []string{"compare", "--task", "leftright", "--n", "20", "--epochs", "5", "--no-theory", "--quiet"}},
	{"lab", []string{"lab", "--example", "notes-004"}},
	{"lab-svm", []string{"lab", "--example", "pizza-001", "--learner", "svm"}},
	{"lab-classes", []string{"lab", "--data", "three-classes.csv", "--bias"}},
	{"pa", []string{"pa", "--task", "leftright", "--n", "5"}},
}

// TestGoldenOutputs holds the main outputs to testdata/*.golden: train's
// report, the dials as text, fit and apply, the comparison table, the
// lab's trace and pa's table, each on small data made here from seeds.
func TestGoldenOutputs(t *testing.T) {
	dir := t.TempDir()
	setup := [][]string{
		{"stimuli", "--task", "leftright", "--n", "20", "--format", "libsvm", "--out", "cards.libsvm"},
		{"stimuli", "--task", "leftright", "--n", "10", "--seed", "7", "--format", "libsvm", "--out", "test.libsvm"},
	}
	for _, args := range setup {
		if code, _, errs := run(t, dir, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
	}
	three, err := os.ReadFile(filepath.Join("testdata", "three-classes.csv")) // lab's data of three classes
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "three-classes.csv"), three, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			golden(t, c.name, goldenRun(t, dir, c.args...))
		})
	}
}

// TestNormalize: wall-clock times go, the simulated clock and other
// numbers stay, and a table keeps its columns.
func TestNormalize(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"hardware   1.189ms        3m13s", "hardware    <time>        3m13s"},
		{"perceptron    46µs            -", "perceptron  <time>            -"},
		{"Simulated machine time 1m36s (3 s per card); this run took 20ms.", "Simulated machine time 1m36s (3 s per card); this run took <time>."},
		{"this run took 0s.", "this run took <time>."},
		{"took 1m2.5s, epoch 48s, P_r 100.0%", "took <time>, epoch 48s, P_r 100.0%"},
		{"/tmp/x/m.json saved", "$DIR/m.json saved"},
	} {
		if got := normalize(c.in, "/tmp/x"); got != c.want {
			t.Errorf("normalize(%q) = %q; want %q", c.in, got, c.want)
		}
	}
}

// TestGoldenFilesUsed: every golden file belongs to a case above, so a
// renamed case leaves no stale file behind.
func TestGoldenFilesUsed(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.golden"))
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{"help": true}
	for _, c := range commands() {
		known[goldenHelpName(c.name)] = true
	}
	for _, c := range goldenCases {
		known[c.name] = true
	}
	for _, f := range files {
		if name := strings.TrimSuffix(filepath.Base(f), ".golden"); !known[name] {
			t.Errorf("%s belongs to no golden case; remove it", f)
		}
	}
	if len(files) == 0 {
		t.Error("no golden files (go test ./internal/cli -run Golden -update writes them)")
	}
}
