package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// run runs the command line in-process and returns its exit status and
// output streams.
func run(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	code = Main(context.Background(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
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
	// Every learner that ran is drawn or named with the reason.
	for _, want := range []string{"not drawn:", "svm (pixels, association): ", "linear-svm (pixels, association): ", "batch-gd (pixels, association): "} {
		if !strings.Contains(errs, want) {
			t.Errorf("compare --plot: standard error lacks %q:\n%s", want, errs)
		}
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
		{"--learners", "adaline"},
		{"--kernel", "gaussian:sigma=0"},
		{"--kernel", "sigmoid"},
		{"--features", "colour"},
		{"--C", "-1"},
	} {
		code, _, errs := run(t, dir, append([]string{"compare", "--n", "5"}, bad...)...)
		if code != 2 || errs == "" {
			t.Errorf("compare %v: exit %d (%q); want 2 and a message", bad, code, errs)
		}
	}
}
