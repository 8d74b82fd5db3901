package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mark1/machine"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// run runs the command line in-process and returns its exit status and
// output streams.
func run(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runCtx(t, context.Background(), dir, args...)
}

func TestSession(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := run(t, dir, "train", "--task", "leftright", "--n", "20")
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, errs)
	}
	for _, want := range []string{"epoch", "Converged", "P_r", "P_g", "P_a", "Saved the machine to mark1.json"} {
		if !strings.Contains(out, want) {
			t.Errorf("train output lacks %q:\n%s", want, out)
		}
	}
	if code, out, errs = run(t, dir, "eval", "--task", "leftright"); code != 0 || !strings.Contains(out, "accuracy") || !strings.Contains(out, "predicted") {
		t.Fatalf("eval: exit %d: %s%s", code, out, errs)
	}
	if code, _, errs = run(t, dir, "stimuli", "--task", "leftright", "--n", "2", "--out", "cards"); code != 0 {
		t.Fatalf("stimuli: exit %d: %s", code, errs)
	}
	pngs, _ := filepath.Glob(filepath.Join(dir, "cards", "*", "*.png"))
	if len(pngs) != 4 {
		t.Fatalf("stimuli wrote %d PNGs; want 4", len(pngs))
	}
	code, out, errs = run(t, dir, append([]string{"predict"}, pngs...)...)
	if code != 0 || strings.Count(out, "P_a") != 4 || !strings.Contains(out, "R0") {
		t.Fatalf("predict: exit %d: %s%s", code, out, errs)
	}
	if code, _, _ = run(t, dir, "wiring", "--out", "plug.txt"); code != 0 {
		t.Fatalf("wiring: exit %d", code)
	}
	// Retrain with the saved plugboard: the same wiring gives the same machine.
	if code, _, errs = run(t, dir, "train", "--task", "leftright", "--n", "20", "--wiring", "plug.txt", "--out", "again.json"); code != 0 {
		t.Fatalf("train --wiring: exit %d: %s", code, errs)
	}
	a, _ := os.ReadFile(filepath.Join(dir, "mark1.json"))
	b, _ := os.ReadFile(filepath.Join(dir, "again.json"))
	if !bytes.Equal(a, b) {
		t.Error("training with the saved plugboard gave a different machine")
	}
	if code, _, errs = run(t, dir, "train", "--data", "cards", "--test-split", "0.5", "--out", "folder.json"); code != 0 {
		t.Fatalf("train --data folder: exit %d: %s", code, errs)
	}
	if code, out, _ = run(t, dir, "tasks"); code != 0 || !strings.Contains(out, "leftright") || !strings.Contains(out, "ideal") {
		t.Fatalf("tasks: exit %d: %s", code, out)
	}
	if code, out, _ = run(t, dir); code != 0 || !strings.Contains(out, "Commands:") {
		t.Fatalf("no command: exit %d: %s", code, out)
	}
}

func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	os.MkdirAll(filepath.Join(dir, "empty"), 0o755)
	write("notimage/a/x.png", "this is not a PNG")
	write("notimage/b/y.png", "nor this")
	write("bad.libsvm", "1 1:0.5\nabc 2:1\n")
	write("broken.json", `{"format":"mark1-machine","version":1,"checksum":"sha256:00","machine":{}}`)
	write("v9.json", `{"format":"mark1-machine","version":9}`)
	write("note.txt", "hello")
	tests := []struct {
		name string
		args []string
		code int
		want []string // substrings of the one-line message
	}{
		{"missing data", []string{"train", "--data", "nowhere"}, 1, []string{"nowhere"}},
		{"empty folder", []string{"train", "--data", "empty"}, 1, []string{"empty"}},
		{"not an image", []string{"train", "--data", "notimage"}, 1, []string{"x.png"}},
		{"bad libsvm", []string{"train", "--data", "bad.libsvm"}, 1, []string{"bad.libsvm", "2"}},
		{"unknown task", []string{"train", "--task", "chess"}, 2, []string{"chess"}},
		{"unknown preset", []string{"train", "--preset", "mark2"}, 2, []string{"mark2"}},
		{"bad flag value", []string{"train", "--epochs", "0"}, 2, []string{"--epochs"}},
		{"bad layout", []string{"train", "--layout", "diagonal"}, 2, []string{"diagonal"}},
		{"bad motors", []string{"train", "--limit", "-1"}, 2, []string{"limit"}},
		{"too many classes", []string{"train", "--task", "letters", "--code", "one-per-class"}, 1, []string{"26 classes need 26 R-units"}},
		{"unknown flag", []string{"train", "--frobnicate"}, 2, []string{"frobnicate"}},
		{"unknown command", []string{"fly"}, 2, []string{"fly"}},
		{"corrupted machine", []string{"eval", "--machine", "broken.json", "--task", "shapes"}, 1, []string{"broken.json", "checksum"}},
		{"other version", []string{"predict", "--machine", "v9.json", "note.txt"}, 1, []string{"v9.json", "version 9"}},
		{"missing machine", []string{"wiring", "--machine", "gone.json"}, 1, []string{"gone.json"}},
		{"bad wiring", []string{"train", "--wiring", "note.txt"}, 1, []string{"note.txt", "plugboard"}},
		{"stimuli into a file", []string{"stimuli", "--out", "note.txt"}, 1, []string{"note.txt"}},
		{"split out of range", []string{"train", "--test-split", "1.5"}, 2, []string{"--test-split"}},
	}
	for _, tt := range tests {
		code, out, errs := run(t, dir, append(tt.args, "--out", "out.json")[:len(tt.args)]...)
		if code != tt.code {
			t.Errorf("%s: exit %d; want %d (stderr %q)", tt.name, code, tt.code, errs)
		}
		line := strings.TrimSpace(errs)
		if i := strings.LastIndex(line, "\n"); i >= 0 && tt.code == 1 {
			t.Errorf("%s: %d lines of error; want one: %q", tt.name, strings.Count(errs, "\n"), errs)
		}
		for _, w := range tt.want {
			if !strings.Contains(errs, w) {
				t.Errorf("%s: stderr %q lacks %q", tt.name, errs, w)
			}
		}
		if strings.Contains(out, "Saved") {
			t.Errorf("%s: claims to have saved: %s", tt.name, out)
		}
		if _, err := os.Stat(filepath.Join(dir, "mark1.json")); err == nil {
			t.Fatalf("%s: wrote mark1.json", tt.name)
		}
	}
}

func TestCompareCommand(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := run(t, dir, "compare", "--task", "square-circle", "--n", "20", "--plot", "curves.png", "--export-libsvm", "feat")
	if code != 0 {
		t.Fatalf("compare: exit %d: %s", code, errs)
	}
	for _, want := range []string{"hardware", "ideal", "kernel-perceptron", "linear-svm", "Theory, pixels", "machine time"} {
		if !strings.Contains(out, want) {
			t.Errorf("compare output lacks %q", want)
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, "curves.png")); err != nil || fi.Size() < 1000 {
		t.Errorf("learning-curve plot: %v", err)
	}
	// Every learner that ran is drawn (TestCompareRuns) or named with the
	// reason: here every one is drawn, and the software learners' P_g per
	// epoch is named as not measured.
	for _, want := range []string{"not drawn:", "P_g per epoch of perceptron, averaged, batch-gd, kernel-perceptron, svm, linear-svm: not measured"} {
		if !strings.Contains(errs, want) {
			t.Errorf("compare --plot: standard error lacks %q:\n%s", want, errs)
		}
	}
	if strings.Contains(errs, "svm (pixels") {
		t.Errorf("compare --plot: an SVM not drawn:\n%s", errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "feat", "train-association.libsvm")); err != nil {
		t.Errorf("libsvm export: %v", err)
	}
	code, out, _ = run(t, dir, "compare", "--task", "leftright", "--n", "10", "--learners", "perceptron,svm", "--json")
	if code != 0 || !strings.HasPrefix(out, "{") || !strings.Contains(out, `"learner": "svm"`) {
		t.Errorf("compare --json: exit %d: %.200s", code, out)
	}
	code, out, _ = run(t, dir, "compare", "--task", "leftright", "--n", "10", "--learners", "perceptron", "--csv")
	if code != 0 || !strings.HasPrefix(out, "learner,features,p_r") || strings.Count(out, "\n") != 3 {
		t.Errorf("compare --csv: exit %d: %s", code, out)
	}
	for _, bad := range [][]string{
		{"--learners", "no-such-learner"},
		{"--kernel", "gaussian:sigma=0"},
		{"--kernel", "cosine"},
		{"--kernel", "sigmoid:gamma=-1"}, // sigmoid is LIBSVM's -t 3; a γ ≤ 0 is not
		{"--kernel", "tanh"},
		{"--features", "colour"},
		{"--C", "-1"},
	} {
		code, _, errs := run(t, dir, append([]string{"compare", "--n", "5"}, bad...)...)
		if code != 2 || errs == "" {
			t.Errorf("compare %v: exit %d (%q); want 2 and a message", bad, code, errs)
		}
	}
}

// TestHelpOnStdout checks that every command's --help (and -h, and
// "mark1 help COMMAND") prints its usage on standard output, nothing on
// standard error, and exits 0.
func TestHelpOnStdout(t *testing.T) {
	dir := t.TempDir()
	for _, c := range commands() {
		name := c.name
		words := strings.Fields(name)
		for _, args := range [][]string{append(words, "--help"), append(words, "-h"), append([]string{"help"}, words...)} {
			code, out, errs := run(t, dir, args...)
			if code != 0 || errs != "" || !strings.HasPrefix(out, "Usage: mark1 "+name) || !strings.Contains(out, "Flags:") {
				t.Errorf("%v: exit %d, stdout %.60q, stderr %q; want usage on stdout, exit 0", args, code, out, errs)
			}
		}
	}
}

// TestDeadMachineIsNotSilent trains on libsvm data whose values run to 16
// (as scikit-learn's digits): they read as nearly black grey levels, and
// train stops with the reason and the fix; scaled to 0–255 as the message
// says, they train. A 26-class task on the default binary machine ends
// with the one-per-class hint.
func TestDeadMachineIsNotSilent(t *testing.T) {
	dir := t.TempDir()
	var b, scaled strings.Builder
	for i := range 40 {
		class := i % 2
		for _, out := range []*strings.Builder{&b, &scaled} {
			fmt.Fprintf(out, "%d", class)
			for p := 1; p <= 64; p++ {
				x, y := (p-1)%8, (p-1)/8
				v := 0
				if (class == 0 && x < 4 && y > 1 && y < 6) || (class == 1 && x >= 4 && y > 1 && y < 6) {
					v = 16
					if out == &scaled {
						v = 255
					}
				}
				fmt.Fprintf(out, " %d:%d", p, v)
			}
			fmt.Fprintln(out)
		}
	}
	os.WriteFile(filepath.Join(dir, "digits.libsvm"), []byte(b.String()), 0o644)
	os.WriteFile(filepath.Join(dir, "scaled.libsvm"), []byte(scaled.String()), 0o644)
	code, _, errs := run(t, dir, "train", "--data", "digits.libsvm")
	if code != 1 || !strings.Contains(errs, "lights a photocell") || !strings.Contains(errs, "svm-scale -l 0 -u 255") {
		t.Errorf("train on values up to 16: exit %d, %q; want exit 1 with the reason and the fix", code, errs)
	}
	if code, _, errs = run(t, dir, "train", "--data", "scaled.libsvm"); code != 0 || errs != "" {
		t.Errorf("train on values up to 255: exit %d, %q", code, errs)
	}
	code, _, errs = run(t, dir, "train", "--task", "letters", "--n", "4", "--epochs", "3", "--quiet", "--out", "letters.json")
	if code != 0 || !strings.Contains(errs, "warning: with the binary code") || !strings.Contains(errs, "The flags: --code one-per-class, --r-units 26, --preset full.") {
		t.Errorf("letters on the binary code: exit %d, %q; want the one-per-class hint", code, errs)
	}
}

// TestPredictEvalJSON checks predict --json and eval --json against the
// text outputs of the same commands, and that no number is written as -0,
// NaN or Inf.
func TestPredictEvalJSON(t *testing.T) {
	dir := t.TempDir()
	if code, _, errs := run(t, dir, "train", "--task", "shapes", "--n", "10", "--quiet"); code != 0 {
		t.Fatal(errs)
	}
	run(t, dir, "stimuli", "--task", "shapes", "--n", "2", "--out", "cards")
	pngs, _ := filepath.Glob(filepath.Join(dir, "cards", "*", "*.png"))
	code, text, errs := run(t, dir, append([]string{"predict"}, pngs...)...)
	if code != 0 {
		t.Fatal(errs)
	}
	code, js, errs := run(t, dir, append([]string{"predict", "--json"}, pngs...)...)
	if code != 0 {
		t.Fatal(errs)
	}
	predictOut := js
	var p machine.Predictions
	if err := json.Unmarshal([]byte(js), &p); err != nil || len(p.Pictures) != len(pngs) || len(p.Classes) != 4 {
		t.Fatalf("predict --json: %v, %d pictures:\n%s", err, len(p.Pictures), js)
	}
	lines := strings.Split(strings.TrimSpace(text), "\n")
	for i, a := range p.Pictures {
		label := "(no class)"
		if a.Class != nil {
			label = *a.Class
		}
		want := fmt.Sprintf("%s: %s   P_a %.1f%%", a.File, label, 100*a.Pa)
		if !strings.HasPrefix(lines[i], want) {
			t.Errorf("picture %d: JSON says %q; text says %q", i, want, lines[i])
		}
		for u, r := range a.RUnits {
			if !strings.Contains(lines[i], fmt.Sprintf("R%d %+.3f", u, r.Sum)) || r.On != (r.Sum > 0) {
				t.Errorf("picture %d, R%d: JSON %+v; text %q", i, u, r, lines[i])
			}
		}
		if a.CellsLit < 1 || a.CellsLit > 400 {
			t.Errorf("picture %d: %d cells lit", i, a.CellsLit)
		}
	}
	code, text, _ = run(t, dir, "eval", "--task", "shapes", "--n", "5")
	code2, js, errs := run(t, dir, "eval", "--task", "shapes", "--n", "5", "--json")
	if code != 0 || code2 != 0 {
		t.Fatal(errs)
	}
	var e machine.Evaluation
	if err := json.Unmarshal([]byte(js), &e); err != nil {
		t.Fatal(err)
	}
	right, total := 0, 0
	for i, row := range e.Confusion {
		for j, n := range row {
			total += n
			if i == j {
				right += n
			}
		}
		total += e.NoClass[i]
	}
	if total != e.Cards || float64(right)/float64(total) != e.Accuracy ||
		!strings.Contains(text, fmt.Sprintf("accuracy %.1f%% (95%% CI", 100*e.Accuracy)) || !strings.Contains(text, fmt.Sprintf(" on %d cards;", e.Cards)) {
		t.Errorf("eval --json %+v disagrees with itself or with the text %q", e, text)
	}
	for _, out := range []string{predictOut, js} {
		for _, bad := range []string{"-0,", "-0\n", "NaN", "Inf"} {
			if strings.Contains(out, bad) {
				t.Errorf("JSON output holds %q", bad)
			}
		}
	}
}

// TestWiringListingUnits: a plugboard listing with fewer A-units than the
// default gives the machine that many, and the saved machine loads (it
// was saved with the default count and could not be read back).
func TestWiringListingUnits(t *testing.T) {
	dir := t.TempDir()
	if code, _, errs := run(t, dir, "train", "--task", "leftright", "--n", "5", "--quiet", "--epochs", "1", "--out", "a.json"); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := run(t, dir, "wiring", "--machine", "a.json", "--out", "plug.txt"); code != 0 {
		t.Fatal(errs)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "plug.txt"))
	b = bytes.TrimRight(b, "\n")
	os.WriteFile(filepath.Join(dir, "plug.txt"), append(b[:bytes.LastIndexByte(b, '\n')], '\n'), 0o644)
	if code, _, errs := run(t, dir, "train", "--task", "leftright", "--n", "5", "--quiet", "--epochs", "1", "--wiring", "plug.txt", "--out", "b.json"); code != 0 {
		t.Fatalf("train --wiring: exit %d: %s", code, errs)
	}
	code, out, errs := run(t, dir, "dials", "--machine", "b.json")
	if code != 0 || !strings.Contains(out, "511 pots") {
		t.Errorf("dials on the machine: exit %d, %q; want 511 pots\n%s", code, errs, out)
	}
}
