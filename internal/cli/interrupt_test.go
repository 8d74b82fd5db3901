package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"mark1/machine"
)

// TestInterrupts interrupts commands part way (as Ctrl-C or SIGTERM does:
// the context is cancelled) and checks that each stops with status 130,
// leaves no half-made output, and never replaces an earlier machine with a
// run cut short.
func TestInterrupts(t *testing.T) {
	dir := t.TempDir()
	if code, _, errs := run(t, dir, "train", "--task", "leftright", "--n", "10", "--quiet", "--out", "earlier.json"); code != 0 {
		t.Fatal(errs)
	}
	earlier, _ := os.ReadFile(filepath.Join(dir, "earlier.json"))
	if code, _, errs := run(t, dir, "train", "--task", "leftright", "--n", "10", "--quiet", "--epochs", "5", "--record", "rec", "--out", "recorded.json"); code != 0 {
		t.Fatal(errs)
	}
	os.WriteFile(filepath.Join(dir, "blobs.libsvm"), blobs(7, 400, 5, []string{"1", "2", "3"}), 0o644)
	if code, _, errs := run(t, dir, "fit", "--data", "blobs.libsvm", "--learner", "perceptron", "--quiet", "--model", "blobs-model.json"); code != 0 {
		t.Fatal(errs)
	}
	os.WriteFile(filepath.Join(dir, "card.png"), smallPNG(t), 0o644)
	if code, _, errs := run(t, dir, "sweep", "plan", "--data", "blobs.libsvm", "--C", "1,2", "--gamma", "1", "--folds", "2", "--plan", "plan.json"); code != 0 {
		t.Fatal(errs)
	}
	for _, task := range []string{"0", "1"} {
		if code, _, errs := run(t, dir, "sweep", "run", "--plan", "plan.json", "--task", task, "--out", "res"); code != 0 {
			t.Fatal(errs)
		}
	}
	if code, _, errs := run(t, dir, "sweep", "plan", "--final", "--data", "blobs.libsvm", "--C", "1", "--gamma", "1", "--plan", "final.json"); code != 0 {
		t.Fatal(errs)
	}
	for _, task := range []string{"0", "1", "2"} {
		if code, _, errs := run(t, dir, "sweep", "run", "--plan", "final.json", "--task", task, "--out", "resf"); code != 0 {
			t.Fatal(errs)
		}
	}
	tests := []struct {
		name    string
		after   int64 // cancel after the context's Err is asked this often
		args    []string
		keep    []string // files that must be left as they were
		made    []string // files the interrupted command must leave (and no others)
		errHave string
	}{
		{"stimuli", 20, []string{"stimuli", "--task", "shapes", "--n", "200", "--out", "cards"}, nil, nil, "interrupted"},
		{"stimuli --format libsvm", 1, []string{"stimuli", "--task", "shapes", "--n", "400", "--format", "libsvm", "--out", "cards.libsvm"}, nil, nil, "interrupted"},
		{"stimuli --format idx", 5, []string{"stimuli", "--task", "shapes", "--n", "400", "--format", "idx", "--out", "cards"}, nil, nil, "interrupted"},
		{"new train run over an earlier machine", 300,
			[]string{"train", "--task", "shapes", "--n", "20", "--out", "earlier.json"},
			[]string{"earlier.json"}, []string{"earlier.interrupted.json"}, "earlier.json holds an earlier machine"},
		{"new train run over an earlier machine, with checkpoints", 300,
			[]string{"train", "--task", "shapes", "--n", "20", "--out", "earlier.json", "--checkpoint-every", "1"},
			[]string{"earlier.json"}, []string{"earlier.interrupted.json"}, "earlier.json holds an earlier machine"},
		{"compare", -1, []string{"compare", "--task", "leftright", "--n", "20", "--plot", "c.png"}, nil, nil, "interrupted"}, // -1: at "training svm" (below)
		{"ablate", 50, []string{"ablate", "--machine", "earlier.json", "--plot", "a.png"}, nil, nil, "interrupted"},
		{"dials --animate", 3, []string{"dials", "--record", "rec", "--animate", "a.gif"}, nil, nil, "interrupted"},
		{"pa --png", 1, []string{"pa", "--task", "shapes", "--n", "20", "--png", "pa.png"}, nil, nil, "interrupted"},
		{"lab --gif", 5, []string{"lab", "--example", "rings", "--learner", "kernel-perceptron", "--kernel", "gaussian:sigma=1", "--gif", "l.gif"}, nil, nil, "interrupted"},
		{"fit", 0, []string{"fit", "--data", "blobs.libsvm", "--model", "fit.json"}, nil, nil, "interrupted"},
		{"wiring after reading the machine", 0, []string{"wiring", "--machine", "earlier.json", "--out", "w.txt"}, nil, nil, "interrupted"},
		{"dials after reading the machine", 0, []string{"dials", "--machine", "earlier.json", "--png", "d.png"}, nil, nil, "interrupted"},
		{"eval after reading", 0, []string{"eval", "--machine", "earlier.json", "--task", "leftright"}, nil, nil, "interrupted"},
		{"eval after fitting the cards", 1, []string{"eval", "--machine", "earlier.json", "--task", "leftright"}, nil, nil, "interrupted"},
		{"apply", 1, []string{"apply", "--model", "blobs-model.json", "--data", "blobs.libsvm", "--predictions", "p.txt"}, nil, nil, "interrupted"},
		{"predict", 0, []string{"predict", "--machine", "earlier.json", "card.png"}, nil, nil, "interrupted"},
		{"levels", 1, []string{"levels", "--tasks", "leftright", "--seeds", "2", "--n", "4", "--png", "l.png"}, nil, nil, "interrupted"},
		{"limits parity --on-retina", 20, []string{"limits", "parity", "--on-retina", "--k", "10", "--seeds", "1-3"}, nil, nil, "interrupted"},
		{"limits figures --reach", 20, []string{"limits", "figures", "--reach", "--seeds", "1-3"}, nil, nil, "interrupted"},
		{"curves", 1, []string{"curves", "--figure", "pr58-9", "--seeds", "2", "--png", "c.png"}, nil, nil, "interrupted"},
		{"grid", 0, []string{"grid", "--data", "blobs.libsvm", "--C", "1,2", "--gamma", "1", "--folds", "2", "--png", "g.png"}, nil, nil, "interrupted"},
		{"sweep plan", 0, []string{"sweep", "plan", "--data", "blobs.libsvm", "--C", "1", "--gamma", "1", "--plan", "p2.json"}, nil, nil, "interrupted"},
		{"sweep run", 0, []string{"sweep", "run", "--plan", "plan.json", "--task", "0", "--out", "res2"}, nil, nil, "interrupted"},
		{"sweep merge", 0, []string{"sweep", "merge", "--plan", "plan.json", "res", "--png", "m.png"}, nil, nil, "interrupted"},
		{"sweep plan --final", 0, []string{"sweep", "plan", "--final", "--data", "blobs.libsvm", "--C", "1", "--gamma", "1", "--plan", "pf2.json"}, nil, nil, "interrupted"},
		{"sweep run of a final plan", 0, []string{"sweep", "run", "--plan", "final.json", "--task", "1", "--out", "resf2"}, nil, nil, "interrupted"},
		{"sweep merge --model", 0, []string{"sweep", "merge", "--plan", "final.json", "resf", "--model", "fm.json"}, nil, nil, "interrupted"},
	}
	// Every command of the table has a row (a new command needs one).
	for _, c := range commands() {
		if noInterrupt[c.name] != "" {
			continue
		}
		if !slices.ContainsFunc(tests, func(tt struct {
			name    string
			after   int64
			args    []string
			keep    []string
			made    []string
			errHave string
		}) bool {
			return strings.Join(tt.args, " ") == c.name || strings.HasPrefix(strings.Join(tt.args, " "), c.name+" --")
		}) {
			t.Errorf("%s has no interrupt row", c.name)
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := listing(t, dir)
			var code int
			var errs string
			if tt.after < 0 {
				// Interrupted in the middle of the work, when its progress
				// says it has reached the SVM: under the command's memory
				// guard, which the countdown does not see.
				code, errs = runCancelAt(t, dir, "training svm", tt.args...)
			} else {
				code, _, errs = runCtx(t, interruptAfter(tt.after), dir, tt.args...)
			}
			if code != 130 {
				t.Errorf("exit %d; want 130 (stderr %q)", code, errs)
			}
			if !strings.Contains(errs, tt.errHave) {
				t.Errorf("stderr %q lacks %q", errs, tt.errHave)
			}
			after := listing(t, dir)
			var added []string
			for _, p := range after {
				if !slices.Contains(before, p) {
					added = append(added, filepath.Base(p))
				}
			}
			if !slices.Equal(added, tt.made) {
				t.Errorf("left %v; want %v", added, tt.made)
			}
			for _, k := range tt.keep {
				if b, _ := os.ReadFile(filepath.Join(dir, k)); !bytes.Equal(b, earlier) {
					t.Errorf("%s was replaced", k)
				}
			}
			for _, m := range tt.made {
				os.Remove(filepath.Join(dir, m))
			}
		})
	}
}

// noInterrupt names the commands TestInterrupts has no row for, and why.
var noInterrupt = map[string]string{
	"tasks":     "prints a list and returns; nothing to interrupt",
	"serve":     "a server: TestServeLoad interrupts it under load and wants 130",
	"capacity":  "exact integers for at most 4,000 values of N: milliseconds, nothing to interrupt",
	"limits vc": "at most 64 linear programs of six points: milliseconds",
}

// TestWriteFailures makes the --record write after epoch 1 fail (a named
// pipe stands where its file goes) and checks that the failure is reported
// at once, that training goes on unless told to stop, and that the final
// machine is saved either way, with exit status 1.
func TestWriteFailures(t *testing.T) {
	tests := []struct {
		name   string
		flags  []string
		epochs int // epochs in the saved machine
		msg    string
	}{
		{"go on", nil, 3, "training goes on"},
		{"stop", []string{"--stop-on-write-error"}, 1, "training stopped after epoch 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			os.Mkdir(filepath.Join(dir, "rec"), 0o755)
			if err := mkfifo(filepath.Join(dir, "rec", "epoch-0001.json")); err != nil {
				t.Fatal(err)
			}
			args := append([]string{"train", "--task", "shapes", "--n", "10", "--epochs", "3", "--quiet", "--record", "rec", "--out", "m.json"}, tt.flags...)
			code, _, errs := run(t, dir, args...)
			if code != 1 || !strings.Contains(errs, "--record after epoch 1") || !strings.Contains(errs, tt.msg) {
				t.Errorf("exit %d, stderr %q; want 1, the failure and %q", code, errs, tt.msg)
			}
			m, err := machine.Load(filepath.Join(dir, "m.json"))
			if err != nil {
				t.Fatalf("the final machine was not saved: %v", err)
			}
			if len(m.History) != tt.epochs {
				t.Errorf("saved machine has %d epochs; want %d", len(m.History), tt.epochs)
			}
		})
	}
}

// TestCheckpointsBesideEarlier: a new run's checkpoints go beside an
// earlier machine at --out, and once the run ends its machine replaces
// that one and the checkpoint file is gone.
func TestCheckpointsBesideEarlier(t *testing.T) {
	dir := t.TempDir()
	if code, _, errs := run(t, dir, "train", "--task", "leftright", "--n", "10", "--quiet", "--out", "m.json"); code != 0 {
		t.Fatal(errs)
	}
	earlier, _ := os.ReadFile(filepath.Join(dir, "m.json"))
	code, out, errs := run(t, dir, "train", "--task", "shapes", "--n", "10", "--epochs", "3", "--checkpoint-every", "1", "--out", "m.json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "checkpoint: saved epoch 1 to m.interrupted.json") {
		t.Errorf("the checkpoints were not saved beside the earlier machine:\n%s", out)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "m.json")); bytes.Equal(b, earlier) {
		t.Error("the finished run did not replace the earlier machine")
	}
	if _, err := os.Stat(filepath.Join(dir, "m.interrupted.json")); err == nil {
		t.Error("the finished run left its checkpoint m.interrupted.json")
	}
}

// cancelAt is a standard-error writer that cancels a command's context
// once what was written contains at.
type cancelAt struct {
	mu     sync.Mutex
	b      bytes.Buffer
	at     string
	cancel context.CancelFunc
}

func (c *cancelAt) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, err := c.b.Write(p)
	if strings.Contains(c.b.String(), c.at) {
		c.cancel()
	}
	return n, err
}

// runCancelAt runs a command in dir and cancels it once its standard error
// says at.
func runCancelAt(t *testing.T, dir, at string, args ...string) (code int, stderr string) {
	t.Helper()
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := &cancelAt{at: at, cancel: cancel}
	code = Main(ctx, args, strings.NewReader(""), io.Discard, w)
	w.mu.Lock()
	defer w.mu.Unlock()
	return code, w.b.String()
}
