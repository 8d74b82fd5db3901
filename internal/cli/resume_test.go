package cli

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"mark1/machine"
)

// countdown is a context that is cancelled after its Err has been asked a
// given number of times: hardware training asks once per presentation, so
// it interrupts a run at an exact card, the same one on every run (the
// readers of data watch Done instead, atomicfile.Done, so they do not
// count). Once the count runs out it cancels itself, so contexts derived
// from it (a command's memory guard) are cancelled too; it only counts the
// asks made of it, not of those contexts.
type countdown struct {
	context.Context
	cancel context.CancelFunc
	left   atomic.Int64
}

func (c *countdown) Err() error {
	if c.left.Add(-1) < 0 {
		c.cancel()
		return context.Canceled
	}
	return nil
}

// interruptAfter returns a countdown that answers n asks and is cancelled
// from the next on; with n <= 0 it is cancelled from the start.
func interruptAfter(n int64) *countdown {
	c := interruptAt(n)
	if n <= 0 {
		c.cancel()
	}
	return c
}

// interruptAt is interruptAfter that is never cancelled before an ask:
// interruptAt(0) lets the data be read and stops at the first card.
func interruptAt(n int64) *countdown {
	ctx, cancel := context.WithCancel(context.Background())
	c := &countdown{Context: ctx, cancel: cancel}
	c.left.Store(n)
	return c
}

// runCtx is run with a context.
func runCtx(t *testing.T, ctx context.Context, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	code = Main(ctx, args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// A run interrupted at any card, once or several times, and resumed each
// time, ends with the same machine file, byte for byte, as a run that was
// never interrupted: pots, motor noise, reading noise, clock, history.
func TestResumeBitForBit(t *testing.T) {
	dir := t.TempDir()
	if code, _, errs := run(t, dir, "stimuli", "--task", "e-f", "--n", "12", "--out", "cards"); code != 0 {
		t.Fatal(errs)
	}
	setups := []struct {
		name string
		args []string
	}{
		// The worn preset has reading noise, motor noise, drift and stuck
		// pots: every random stream is in play.
		{"worn task with faults", []string{"--task", "shapes", "--n", "15", "--preset", "worn", "--epochs", "9",
			"--faults", "dead-a=0.1,broken-wires=0.1,stuck-cells=0.02,noisy-pots=0.2,drift=0.01"}},
		{"folder, gamma, forced", []string{"--data", "cards", "--test-split", "0.25", "--rule", "forced", "--values", "gamma", "--epochs", "6", "--cell-noise", "0.02"}},
	}
	for _, s := range setups {
		base := append([]string{"train", "--quiet"}, s.args...)
		if code, _, errs := run(t, dir, append(base, "--out", "whole.json")...); code != 0 {
			t.Fatalf("%s: uninterrupted run: exit %d: %s", s.name, code, errs)
		}
		whole, _ := os.ReadFile(filepath.Join(dir, "whole.json"))
		m, err := machine.Decode(bytes.NewReader(whole), "whole.json")
		if err != nil {
			t.Fatal(err)
		}
		perEpoch := int64(m.History[0].Presentations)
		for _, stops := range [][]int64{
			{0},                         // before the first card
			{1},                         // after one card
			{perEpoch},                  // exactly at the end of epoch 1
			{perEpoch*2 + 7},            // in the middle of epoch 3
			{5, perEpoch + 3, perEpoch}, // three times
		} {
			name := fmt.Sprintf("%s, stopped at %v", s.name, stops)
			out := filepath.Join(dir, "part.json")
			os.Remove(out)
			args := append(base, "--out", "part.json")
			for i, n := range stops {
				code, _, errs := runCtx(t, interruptAt(n), dir, args...)
				if code == 0 && n >= perEpoch {
					break // training ended before the card it was to stop at
				}
				if code != 130 || !strings.Contains(errs, "--resume part.json") || !strings.Contains(errs, "saved the machine as of epoch") {
					t.Fatalf("%s: interruption %d: exit %d; want 130 and how to resume: %s", name, i, code, errs)
				}
				if _, err := machine.Load(out); err != nil {
					t.Fatalf("%s: the checkpoint does not load: %v", name, err)
				}
				args = []string{"train", "--resume", "part.json", "--quiet"}
			}
			code, stdout, errs := run(t, dir, args...)
			if code != 0 {
				t.Fatalf("%s: resume: exit %d: %s%s", name, code, stdout, errs)
			}
			got, _ := os.ReadFile(out)
			if !bytes.Equal(got, whole) {
				t.Errorf("%s: the resumed machine file differs from the uninterrupted one", name)
			}
		}
	}

	// Periodic checkpoints do not change the result; resuming a finished
	// run does nothing; --resume refuses flags the file decides.
	args := append([]string{"train", "--quiet", "--out", "cp.json", "--checkpoint-every", "2"}, setups[0].args...)
	if code, _, errs := run(t, dir, args...); code != 0 {
		t.Fatal(errs)
	}
	cp, _ := os.ReadFile(filepath.Join(dir, "cp.json"))
	code, _, _ := run(t, dir, append([]string{"train", "--quiet", "--out", "whole.json"}, setups[0].args...)...)
	whole, _ := os.ReadFile(filepath.Join(dir, "whole.json"))
	if code != 0 || !bytes.Equal(cp, whole) {
		t.Error("--checkpoint-every changed the trained machine")
	}
	if code, stdout, _ := run(t, dir, "train", "--resume", "cp.json"); code != 0 || !strings.Contains(stdout, "nothing to do") {
		t.Errorf("resuming a finished run: exit %d: %s", code, stdout)
	}
	if code, _, errs := run(t, dir, "train", "--resume", "cp.json", "--task", "leftright"); code != 2 || !strings.Contains(errs, "--task") {
		t.Errorf("--resume with --task: exit %d: %s", code, errs)
	}
	// A longer limit on resume continues from where the file stopped.
	if code, stdout, errs := run(t, dir, "train", "--resume", "cp.json", "--epochs", "11", "--quiet"); code != 0 || !strings.Contains(stdout, "after epoch 9 of at most 11") {
		t.Errorf("resume with more epochs: exit %d: %s%s", code, stdout, errs)
	}
}

// TestChildTrain is not a test: TestInterruptSignal runs the test binary
// again as a child process that runs the command line as main does, with
// the signals wired to the context.
func TestChildTrain(t *testing.T) {
	args := os.Getenv("MARK1_CHILD_ARGS")
	if args == "" {
		t.Skip("run only as a child of TestInterruptSignal")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := Main(ctx, strings.Fields(args), os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// SIGINT and SIGTERM sent to a real process in the middle of training save
// a checkpoint from which --resume ends where an uninterrupted run does.
func TestInterruptSignal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs child processes")
	}
	dir := t.TempDir()
	common := "train --task letters1 --n 40 --preset worn --epochs 12 --quiet"
	if code, _, errs := run(t, dir, append(strings.Fields(common), "--out", "whole.json")...); code != 0 {
		t.Fatal(errs)
	}
	whole, _ := os.ReadFile(filepath.Join(dir, "whole.json"))
	for _, sig := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
		os.Remove(filepath.Join(dir, "part.json"))
		// Without --quiet the child prints each epoch: signal it after the
		// first, so training is surely under way.
		cmd := exec.Command(os.Args[0], "-test.run=^TestChildTrain$")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "MARK1_CHILD_ARGS="+strings.Replace(common, "--quiet", "--out part.json", 1))
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if f := strings.Fields(sc.Text()); len(f) > 1 && f[0] == "1" {
				break
			}
		}
		cmd.Process.Signal(sig)
		go func() {
			for sc.Scan() {
			}
		}()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err = <-done:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("%v: the child did not stop", sig)
		}
		code := cmd.ProcessState.ExitCode()
		switch {
		case code == 0:
			t.Logf("%v: training ended before the signal arrived", sig)
		case code != 130 || !strings.Contains(stderr.String(), "Continue with: mark1 train --resume part.json"):
			t.Fatalf("%v: child exit %d (%v); want 130 and how to resume: %s", sig, code, err, stderr.String())
		}
		if code, _, errs := run(t, dir, "train", "--resume", "part.json", "--quiet"); code != 0 {
			t.Fatalf("%v: resume: exit %d: %s", sig, code, errs)
		}
		got, _ := os.ReadFile(filepath.Join(dir, "part.json"))
		if !bytes.Equal(got, whole) {
			t.Errorf("%v: interrupted and resumed, the machine differs from the uninterrupted one", sig)
		}
	}
}
