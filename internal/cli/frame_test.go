package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// The hostile-input catalogue, generated from the command table: for every
// command, every output it declares is pointed at every input it declares
// (and at their companions), through a symbolic link and a hard link, at a
// non-empty folder, at "/", into a read-only folder and onto a full disk.
// A new command gets its rows by being declared; what the catalogue needs
// of it (a fixture for each input, a quick run that writes each output) is
// checked too, so it cannot be forgotten.

// inputFixture is, for each input flag, a file of the fixtures folder that
// the flag reads.
var inputFixture = map[string]string{
	"data": "x-images-idx3-ubyte", "test": "x-images-idx3-ubyte", "machine": "m.json", "resume": "m.json",
	"model": "model.json", "plan": "p.json", "config": "config.json", "wiring": "w.txt", "image": "card.png",
	"record": "rec",
}

// quickRuns are, for each command, flags that make it succeed quickly
// from the fixtures folder, writing each declared output that is added to
// them. noQuickRun names the commands that have none, with the reason.
var quickRuns = map[string][]string{
	"train":          {"--task", "leftright", "--n", "4", "--epochs", "1", "--quiet"},
	"eval":           {"--machine", "m.json", "--task", "leftright", "--n", "4"},
	"predict":        {"--machine", "m.json", "card.png"},
	"stimuli":        {"--task", "leftright", "--n", "2"},
	"tasks":          {},
	"wiring":         {"--machine", "m.json"},
	"compare":        {"--task", "leftright", "--n", "4", "--learners", "perceptron", "--quiet"},
	"dials":          {"--machine", "m.json"},
	"pa":             {"--task", "leftright", "--n", "3"},
	"levels":         {"--tasks", "leftright", "--seeds", "2", "--n", "4", "--epochs", "2"},
	"curves":         {"--figure", "pr58-9", "--seeds", "2"},
	"ablate":         {"--machine", "m.json", "--task", "leftright", "--n", "4", "--fractions", "0,0.5"},
	"lab":            {"--example", "notes-004"},
	"fit":            {"--data", "d.libsvm", "--learner", "svm", "--quiet", "--test", "d.libsvm"},
	"apply":          {"--model", "model.json", "--data", "d.libsvm"},
	"grid":           {"--data", "d.libsvm", "--C", "1,2", "--gamma", "1", "--folds", "2"},
	"sweep plan":     {"--data", "d.libsvm", "--C", "1,2", "--gamma", "1", "--folds", "2"},
	"sweep run":      {"--plan", "p.json", "--task", "0"},
	"sweep merge":    {"--plan", "p.json", "res"},
	"capacity":       {"--d", "3"},
	"limits parity":  {"--k", "3"},
	"limits figures": {"--seeds", "1-2", "--epochs", "5"},
	"limits vc":      {"--points", "0,0;1,0;0,1"},
}

var noQuickRun = map[string]string{
	"serve": "a server: it writes --out only when the panel's Save button is pressed (panel's own tests)",
}

// outputExtra are flags an output needs beside its command's quick run.
var outputExtra = map[string][]string{
	"fit --liblinear-model": {"--learner", "linear-svm"},
	"dials --animate":       {"--record", "rec"},
	"lab --site":            {"--example", "notes-004"},
	"compare --plot":        {},
}

// outputRuns are, for an output its command's quick run does not write,
// the flags that do (in place of the quick run's).
var outputRuns = map[string][]string{
	"sweep merge --model": {"--plan", "pf.json", "resf"},
}

// outputsWithoutQuickRun are outputs whose quick run would take too long for
// the catalogue, with the reason.
var outputsWithoutQuickRun = map[string]string{
	"lab --site": "builds the WebAssembly with the Go toolchain (TestLabSite)",
}

// catalogueFixtures makes the fixtures folder: data, a machine, a model,
// a plan and its results, a configuration, a wiring listing, a picture and
// a recording.
func catalogueFixtures(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	root, _ := filepath.Abs("../..")
	for _, n := range []string{"images", "labels"} {
		b, err := os.ReadFile(filepath.Join(root, "images/testdata/mnist/t10k-"+n+"-idx"+map[string]string{"images": "3", "labels": "1"}[n]+"-ubyte"))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "x-"+n+"-idx"+map[string]string{"images": "3", "labels": "1"}[n]+"-ubyte"), b, 0o644)
	}
	os.WriteFile(filepath.Join(dir, "d.libsvm"), blobs(7, 40, 4, []string{"1", "2"}), 0o644)
	os.WriteFile(filepath.Join(dir, "card.png"), smallPNG(t), 0o644)
	for _, args := range [][]string{
		{"train", "--task", "leftright", "--n", "4", "--epochs", "2", "--quiet", "--out", "m.json", "--record", "rec"},
		{"fit", "--data", "d.libsvm", "--learner", "perceptron", "--epochs", "2", "--quiet", "--model", "model.json"},
		{"wiring", "--machine", "m.json", "--out", "w.txt"},
		{"sweep", "plan", "--data", "d.libsvm", "--C", "1,2", "--gamma", "1", "--folds", "2", "--plan", "p.json"},
		{"sweep", "run", "--plan", "p.json", "--task", "0", "--out", "res"},
		{"sweep", "run", "--plan", "p.json", "--task", "1", "--out", "res"},
		{"sweep", "plan", "--final", "--data", "d.libsvm", "--C", "1", "--gamma", "1", "--plan", "pf.json"},
		{"sweep", "run", "--plan", "pf.json", "--task", "0", "--out", "resf"},
	} {
		if code, _, errs := run(t, dir, args...); code != 0 {
			t.Fatalf("fixture %v: %s", args, errs)
		}
	}
	var m struct {
		Machine struct {
			Config json.RawMessage `json:"config"`
		} `json:"machine"`
	}
	b, _ := os.ReadFile(filepath.Join(dir, "m.json"))
	if err := json.Unmarshal(b, &m); err != nil || len(m.Machine.Config) == 0 {
		t.Fatalf("m.json has no config: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "config.json"), m.Machine.Config, 0o644)
	return dir
}

// hashTree returns a digest of everything under path (names, kinds and
// contents), to show that a case left it as it was.
func hashTree(t *testing.T, path string) string {
	t.Helper()
	h := sha256.New()
	filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			fmt.Fprintf(h, "%s: %v\n", p, err)
			return nil
		}
		fmt.Fprintf(h, "%s %v\n", p, d.Type())
		if d.Type().IsRegular() {
			b, _ := os.ReadFile(p)
			h.Write(b)
		}
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))
}

// withFlag returns args with --flag set to value, replacing a value
// args give it.
func withFlag(args []string, flag, value string) []string {
	out := slices.Clone(args)
	for i := 0; i+1 < len(out); i++ {
		if out[i] == "--"+flag {
			out[i+1] = value
			return out
		}
	}
	return append(out, "--"+flag, value)
}

// A catalogueCase is one generated row: a command line and the files it
// must leave as they were.
type catalogueCase struct {
	name string
	args []string
	keep []string // paths (relative to the fixtures) that must not change
	code int      // the exit status wanted: 2, or 1 (a failure naming a flag)
}

// catalogue generates the rows for command c.
func catalogue(c command) []catalogueCase {
	words := strings.Fields(c.name)
	base := quickRuns[c.name]
	var cases []catalogueCase
	add := func(name string, code int, args []string, keep ...string) {
		cases = append(cases, catalogueCase{name: c.name + " " + name, args: append(slices.Clone(words), args...), keep: keep, code: code})
	}
	for _, o := range c.out {
		for _, in := range c.in {
			fx := inputFixture[in.flag]
			args := withFlag(base, in.flag, fx)
			if slices.Contains(o.rewrites, in.flag) {
				continue
			}
			add(fmt.Sprintf("--%s = --%s", o.flag, in.flag), 2, withFlag(args, o.flag, fx), fx)
			add(fmt.Sprintf("--%s = a symbolic link to --%s", o.flag, in.flag), 2, withFlag(args, o.flag, "link-to-"+fx), fx)
			if fx != "rec" {
				add(fmt.Sprintf("--%s = a hard link to --%s", o.flag, in.flag), 2, withFlag(args, o.flag, "hard-"+fx), fx)
			}
			switch in.kind {
			case inData:
				add(fmt.Sprintf("--%s = the labels beside --%s", o.flag, in.flag), 2, withFlag(args, o.flag, "x-labels-idx1-ubyte"), "x-labels-idx1-ubyte")
			case inPlan:
				add(fmt.Sprintf("--%s = the data of --%s", o.flag, in.flag), 2, withFlag(args, o.flag, "d.libsvm"), "d.libsvm")
			}
		}
		if c.argsIn {
			arg := base[len(base)-1]
			add(fmt.Sprintf("--%s = an argument", o.flag), 2, withFlag(base, o.flag, arg), arg)
		}
		for _, o2 := range c.out {
			if o2.flag > o.flag {
				add(fmt.Sprintf("--%s = --%s", o.flag, o2.flag), 2, withFlag(withFlag(base, o.flag, "same.out"), o2.flag, "same.out"))
			}
		}
		add(fmt.Sprintf("--%s = a non-empty folder", o.flag), 1, withFlag(base, o.flag, "full-folder"), "full-folder")
		add(fmt.Sprintf("--%s = /", o.flag), 1, withFlag(base, o.flag, "/"))
	}
	return cases
}

// TestCatalogue runs the generated rows of every command: each is refused
// (exit 2 for outputs that name inputs, 1 for outputs that cannot be
// written) and leaves every fixture as it was.
func TestCatalogue(t *testing.T) {
	dir := catalogueFixtures(t)
	for fx := range inputFixture {
		fx = inputFixture[fx]
		os.Symlink(fx, filepath.Join(dir, "link-to-"+fx))
		os.Link(filepath.Join(dir, fx), filepath.Join(dir, "hard-"+fx))
	}
	os.Mkdir(filepath.Join(dir, "full-folder"), 0o755)
	os.WriteFile(filepath.Join(dir, "full-folder", "mine.txt"), []byte("a user's file\n"), 0o644)
	total := 0
	for _, c := range commands() {
		for _, tc := range catalogue(c) {
			total++
			t.Run(tc.name, func(t *testing.T) {
				before := map[string]string{}
				for _, k := range tc.keep {
					before[k] = hashTree(t, filepath.Join(dir, k))
				}
				code, _, errs := run(t, dir, tc.args...)
				switch {
				case tc.code == 2 && code != 2, tc.code == 1 && (code == 0 || code == 2 && !strings.Contains(errs, "--")):
					t.Errorf("%v: exit %d (%q); want %d", tc.args, code, errs, tc.code)
				case code != 0 && (strings.Count(strings.TrimSpace(errs), "\n") > 0 && !strings.Contains(errs, "Usage") || strings.Contains(errs, "panic")):
					t.Errorf("%v: want one line, got %q", tc.args, errs)
				}
				for _, k := range tc.keep {
					if hashTree(t, filepath.Join(dir, k)) != before[k] {
						t.Errorf("%v changed %s", tc.args, k)
					}
				}
			})
		}
	}
	t.Logf("catalogue: %d generated rows over %d commands", total, len(commands()))
}

// TestCatalogueCovers holds the catalogue's own needs: every input flag has
// a fixture and every command a quick run (or a reason why not), every
// output a quick run.
func TestCatalogueCovers(t *testing.T) {
	for _, c := range commands() {
		if _, ok := quickRuns[c.name]; !ok && noQuickRun[c.name] == "" {
			t.Errorf("%s: no quick run in quickRuns (nor a reason in noQuickRun)", c.name)
		}
		for _, in := range c.in {
			if inputFixture[in.flag] == "" {
				t.Errorf("%s --%s: no fixture in inputFixture", c.name, in.flag)
			}
		}
	}
}

// mountTmpfs mounts a tmpfs of size bytes (read-only if ro) at a new
// folder, for the cases a developer's machine cannot make: they need root
// (CI runs as root), and are skipped elsewhere unless CI is set.
func mountTmpfs(t *testing.T, size int, ro bool) string {
	t.Helper()
	dir := t.TempDir()
	opts := fmt.Sprintf("size=%d", size)
	if ro {
		opts += ",ro"
	}
	if err := exec.Command("mount", "-t", "tmpfs", "-o", opts, "tmpfs", dir).Run(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("mount -t tmpfs (needed in CI for the full-disk and read-only cases): %v", err)
		}
		t.Skipf("mount -t tmpfs: %v (needs root; CI runs these)", err)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	return dir
}

// fill writes into dir until its file system is full.
func fill(t *testing.T, dir string) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 4096)
	for {
		if _, err := f.Write(buf); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			break
		}
	}
	for { // the last bytes
		if _, err := f.Write(buf[:1]); err != nil {
			break
		}
	}
}

// outName is a file name that output flag accepts.
func outName(flag string) string {
	switch flag {
	case "png", "plot":
		return "out.png"
	case "svg":
		return "out.svg"
	case "gif", "animate":
		return "out.gif"
	}
	return "out"
}

// TestCatalogueDisks runs every output of every command into a read-only
// folder and onto a full disk: each run fails with a message naming the
// output, exit 1, and leaves nothing on the disk but what was there.
func TestCatalogueDisks(t *testing.T) {
	dir := catalogueFixtures(t)
	ro := mountTmpfs(t, 1<<20, true)
	full := mountTmpfs(t, 256<<10, false)
	fill(t, full)
	before := hashTree(t, full)
	for _, c := range commands() {
		base, ok := quickRuns[c.name]
		if !ok {
			continue
		}
		for _, o := range c.out {
			key := c.name + " --" + o.flag
			if outputsWithoutQuickRun[key] != "" {
				continue
			}
			args := append(strings.Fields(c.name), base...)
			if r, ok := outputRuns[key]; ok {
				args = append(strings.Fields(c.name), r...)
			}
			for i := 0; i+1 < len(outputExtra[key]); i += 2 {
				args = withFlag(args, strings.TrimPrefix(outputExtra[key][i], "--"), outputExtra[key][i+1])
			}
			for _, place := range []struct{ name, dir string }{{"read-only", ro}, {"full disk", full}} {
				t.Run(key+" "+place.name, func(t *testing.T) {
					out := filepath.Join(place.dir, outName(o.flag))
					code, _, errs := run(t, dir, withFlag(args, o.flag, out)...)
					if code != 1 || !strings.Contains(errs, out) && !strings.Contains(errs, "--"+o.flag) {
						t.Errorf("%v: exit %d (%q); want 1 and a message naming the output", args, code, errs)
					}
					if strings.Contains(errs, "panic") {
						t.Errorf("panic: %s", errs)
					}
				})
			}
		}
	}
	if got := hashTree(t, full); got != before {
		entries, _ := os.ReadDir(full)
		t.Errorf("the full disk holds more than before: %v", entries)
	}
}

// TestNewFileOutputs: stimuli's libsvm and IDX outputs must not exist yet,
// as its help says; an existing file is refused and kept.
func TestNewFileOutputs(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"mine.libsvm", "x-images-idx3-ubyte.gz", "y-labels-idx1-ubyte.gz"} {
		os.WriteFile(filepath.Join(dir, f), []byte("a user's file\n"), 0o644)
	}
	for _, args := range [][]string{
		{"stimuli", "--format", "libsvm", "--out", "mine.libsvm"},
		{"stimuli", "--format", "idx", "--out", "x"},
		{"stimuli", "--format", "idx", "--out", "y"},
	} {
		before := hashTree(t, dir)
		code, _, errs := run(t, dir, args...)
		if code != 2 || !strings.Contains(errs, "exists") {
			t.Errorf("%v: exit %d (%q); want 2 and a message that it exists", args, code, errs)
		}
		if hashTree(t, dir) != before {
			t.Errorf("%v changed the folder", args)
		}
	}
}

// TestTrainKeepsEarlierMachine: train without --out never replaces the
// mark1.json an earlier run saved; with --out it does, and --resume goes on
// training it.
func TestTrainKeepsEarlierMachine(t *testing.T) {
	dir := t.TempDir()
	args := []string{"train", "--task", "leftright", "--n", "4", "--epochs", "1", "--quiet"}
	if code, _, errs := run(t, dir, args...); code != 0 {
		t.Fatal(errs)
	}
	before := hashTree(t, filepath.Join(dir, "mark1.json"))
	code, _, errs := run(t, dir, append(args, "--seed", "2")...)
	if code != 2 || !strings.Contains(errs, "mark1.json exists") || !strings.Contains(errs, "--out") {
		t.Errorf("second run: exit %d %q; want 2 and the way to name or replace it", code, errs)
	}
	if hashTree(t, filepath.Join(dir, "mark1.json")) != before {
		t.Error("mark1.json was replaced")
	}
	if code, _, errs := run(t, dir, append(args, "--seed", "2", "--out", "mark1.json")...); code != 0 {
		t.Errorf("--out mark1.json: %s", errs)
	}
}

// TestSpontaneousInItsOwnWords: a machine trained without labels is
// reported as clusters of the hidden classes (purity, responses used,
// collapse), by train, train --json and eval, not by mistakes and P_r.
func TestSpontaneousInItsOwnWords(t *testing.T) {
	dir := t.TempDir()
	args := []string{"train", "--task", "leftright", "--n", "10", "--code", "one-per-class", "--rule", "spontaneous", "--epochs", "5", "--quiet", "--out", "sp.json"}
	code, out, errs := run(t, dir, args...)
	if code != 0 || !strings.Contains(out, "purity") || strings.Contains(out, "P_r, on the cards") || strings.Contains(out, "mistakes in the last") {
		t.Errorf("train: exit %d %q %q; want purity, no P_r or mistakes", code, out, errs)
	}
	code, out, _ = run(t, dir, append(args[:len(args)-2], "--json", "--out", "sp2.json")...)
	var rep struct {
		Clusters *struct {
			Purity    float64 `json:"purity"`
			Responses int     `json:"responses"`
		} `json:"clusters"`
	}
	if err := json.Unmarshal([]byte(out), &rep); code != 0 || err != nil || rep.Clusters == nil || rep.Clusters.Responses < 1 {
		t.Errorf("train --json: exit %d, %v, %+v", code, err, rep.Clusters)
	}
	if code, out, _ := run(t, dir, "eval", "--machine", "sp.json", "--task", "leftright", "--n", "10"); code != 0 || !strings.Contains(out, "purity") {
		t.Errorf("eval: exit %d %q; want the purity", code, out)
	}
}

// TestSpontaneousEpochLines: train's line per epoch of a spontaneous run
// says how the responses split the cards (purity, responses used), with no
// mistakes or P_r; compare reports such a machine as clusters, its P_r and
// P_g cells empty, in the table and the CSV, and refuses the rule without
// one R-unit per class.
func TestSpontaneousEpochLines(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := run(t, dir, "train", "--task", "leftright", "--n", "10", "--code", "one-per-class", "--rule", "spontaneous", "--epochs", "3", "--out", "sp.json")
	if code != 0 || !strings.Contains(out, "epoch  purity  held out  responses used") || strings.Contains(out, "mistakes   P_r") {
		t.Errorf("train: exit %d %q %q; want the purity per epoch, no mistakes column", code, out, errs)
	}
	if n := strings.Count(out, " of 2"); n < 3 {
		t.Errorf("train: %d lines name the responses used; want one per epoch:\n%s", n, out)
	}
	base := []string{"compare", "--task", "leftright", "--n", "10", "--learners", "hardware,perceptron", "--features", "pixels", "--no-theory", "--quiet", "--epochs", "3", "--rule", "spontaneous"}
	code, out, errs = run(t, dir, append(base, "--code", "one-per-class")...)
	if code != 0 || !strings.Contains(out, "as clusters of the hidden classes") || !strings.Contains(out, "purity") {
		t.Fatalf("compare: exit %d %q %q; want the clusters", code, out, errs)
	}
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 4 && strings.HasPrefix(line, "hardware ") && (f[2] != "-" || f[3] != "-") {
			t.Errorf("compare: the spontaneous machine's row %q gives P_r or P_g", line)
		}
	}
	code, out, _ = run(t, dir, append(base, "--code", "one-per-class", "--csv")...)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 3 || !strings.HasSuffix(lines[0], ",purity,test_purity,responses_used,test_responses_used,collapsed,test_collapsed") ||
		!strings.HasPrefix(lines[1], "hardware,association,,,") || !strings.HasSuffix(lines[2], ",,,,,,") {
		t.Errorf("compare --csv: exit %d\n%s", code, out)
	}
	if code, _, errs := run(t, dir, base...); code != 2 || !strings.Contains(errs, "--code one-per-class") {
		t.Errorf("compare --rule spontaneous on the binary code: exit %d %q; want 2, naming --code one-per-class", code, errs)
	}
}
