package machine_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"mark1/machine"
)

// TestRunSaved: a new run interrupted after epoch 2 over an earlier
// machine keeps that machine, saves itself beside it as of epoch 2, and,
// resumed from there, ends with the same machine file, byte for byte, as
// a run never interrupted; checkpoints are saved every N epochs before the
// last.
func TestRunSaved(t *testing.T) {
	dir := t.TempDir()
	recipe := machine.Recipe{MaxEpochs: 5}

	// The uninterrupted run, with a checkpoint every 2 epochs.
	m, tr, te := setup(t, "mark1", "shapes", 12, 3)
	whole := filepath.Join(dir, "whole.json")
	var checkpoints []int
	res, err := session(t, m, recipe, tr, te).RunSaved(context.Background(), machine.SavePlan{Out: whole, Checkpoint: 2,
		OnCheckpoint: func(epoch int, path string) {
			if path != whole {
				t.Errorf("checkpoint to %s; want %s", path, whole)
			}
			checkpoints = append(checkpoints, epoch)
		}}, nil)
	if err != nil || res.Path != whole || res.Interrupted || !res.Checkpointed {
		t.Fatalf("uninterrupted run: %+v, %v", res, err)
	}
	if len(m.History) != 5 || !slices.Equal(checkpoints, []int{2, 4}) {
		t.Fatalf("%d epochs, checkpoints after %v; want 5 epochs, checkpoints after [2 4]", len(m.History), checkpoints)
	}

	// A new run over an earlier machine, interrupted after epoch 2.
	out := filepath.Join(dir, "out.json")
	earlier := []byte(`{"an": "earlier machine"}`)
	if err := os.WriteFile(out, earlier, 0o644); err != nil {
		t.Fatal(err)
	}
	m2, tr2, te2 := setup(t, "mark1", "shapes", 12, 3)
	ctx, cancel := context.WithCancel(context.Background())
	res, err = session(t, m2, recipe, tr2, te2).RunSaved(ctx, machine.SavePlan{Out: out}, machine.RecorderFunc(func(e machine.Epoch) error {
		if e.Epoch == 2 {
			cancel()
		}
		return nil
	}))
	partial := filepath.Join(dir, "out.interrupted.json")
	if !errors.Is(err, context.Canceled) || !res.Interrupted || res.Path != partial || res.Kept != out {
		t.Fatalf("interrupted run: %+v, %v; want context.Canceled, saved to %s, %s kept", res, err, partial, out)
	}
	if b, _ := os.ReadFile(out); !bytes.Equal(b, earlier) {
		t.Errorf("the earlier machine at %s was replaced", out)
	}

	// Resumed from the file it saved, it ends where the whole run ended.
	m3, err := machine.Load(partial)
	if err != nil {
		t.Fatal(err)
	}
	if len(m3.History) != 2 {
		t.Fatalf("saved with %d epochs; want 2", len(m3.History))
	}
	if _, err := session(t, m3, recipe, tr2, te2).RunSaved(context.Background(), machine.SavePlan{Out: partial, Resumed: partial}, nil); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(whole)
	b, _ := os.ReadFile(partial)
	if !bytes.Equal(a, b) {
		t.Error("the interrupted and resumed run's machine file differs from the uninterrupted run's")
	}
}

// TestRunSavedWriteErrors: a recorder that fails is reported and the run
// goes on, or, with StopOnWriteError, stops; either way the machine is
// saved and the error says so.
func TestRunSavedWriteErrors(t *testing.T) {
	for _, stop := range []bool{false, true} {
		dir := t.TempDir()
		m, tr, te := setup(t, "mark1", "shapes", 12, 3)
		out := filepath.Join(dir, "m.json")
		var told int
		boom := errors.New("disk full")
		res, err := session(t, m, machine.Recipe{MaxEpochs: 3}, tr, te).RunSaved(context.Background(),
			machine.SavePlan{Out: out, StopOnWriteError: stop, OnWriteError: func(error) { told++ }},
			machine.RecorderFunc(func(machine.Epoch) error { return boom }))
		if !errors.Is(err, boom) {
			t.Errorf("stop %v: error %v; want it to wrap the recorder's", stop, err)
		}
		if _, serr := os.Stat(out); serr != nil || res.Path != out {
			t.Errorf("stop %v: the machine was not saved to %s: %v", stop, out, serr)
		}
		wantEpochs, wantTold := 3, 3
		if stop {
			wantEpochs, wantTold = 1, 0
		}
		if len(m.History) != wantEpochs || told != wantTold || res.WriteFails != max(told, 1) {
			t.Errorf("stop %v: %d epochs, %d failures told, %d counted; want %d, %d", stop, len(m.History), told, res.WriteFails, wantEpochs, wantTold)
		}
		if !stop && !errors.Is(err, machine.ErrWrites) {
			t.Errorf("stop %v: error %v does not wrap ErrWrites", stop, err)
		}
	}
}

// TestSavePlanValidate: the checkpoint interval is the plan's to check, a
// field error in its words at the epoch bound, and RunSaved refuses a bad
// one before it trains or writes anything.
func TestSavePlanValidate(t *testing.T) {
	for _, tt := range []struct {
		every int
		ok    bool
	}{{0, true}, {1, true}, {machine.MaxEpochLimit, true}, {-1, false}, {machine.MaxEpochLimit + 1, false}} {
		err := machine.SavePlan{Out: "m.json", Checkpoint: tt.every}.Validate()
		var f *machine.FieldError
		if tt.ok != (err == nil) || !tt.ok && (!errors.As(err, &f) || f.Field != "checkpoint" || f.FieldValue() != strconv.Itoa(tt.every)) {
			t.Errorf("checkpoint %d: %v; want ok %v, else a field error of checkpoint", tt.every, err, tt.ok)
		}
	}
	dir := t.TempDir()
	m, tr, te := setup(t, "mark1", "shapes", 12, 3)
	out := filepath.Join(dir, "m.json")
	_, err := session(t, m, machine.Recipe{MaxEpochs: 2}, tr, te).RunSaved(context.Background(), machine.SavePlan{Out: out, Checkpoint: -1}, nil)
	var f *machine.FieldError
	if !errors.As(err, &f) || f.Field != "checkpoint" || len(m.History) != 0 {
		t.Fatalf("RunSaved with checkpoint -1: %v after %d epochs; want a field error of checkpoint, before any", err, len(m.History))
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("RunSaved with checkpoint -1 wrote %s (%v)", out, err)
	}
}
