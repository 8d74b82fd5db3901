package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAblateCommand(t *testing.T) {
	dir := t.TempDir()
	if code, _, errs := run(t, dir, "train", "--task", "leftright", "--n", "20", "--quiet", "--faults", "dead-a=0.05"); code != 0 {
		t.Fatal(errs)
	}
	code, out, errs := run(t, dir, "ablate", "--fractions", "0,0.5,0.9", "--retrain", "1", "--plot", "abl.png")
	if code != 0 {
		t.Fatalf("ablate: exit %d: %s", code, errs)
	}
	for _, want := range []string{"a-units: P_g", "pots: P_g", "retrained", "90%", "Plotted to abl.png"} {
		if !strings.Contains(out, want) {
			t.Errorf("ablate output lacks %q:\n%s", want, out)
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, "abl.png")); err != nil || fi.Size() < 1000 {
		t.Errorf("ablation plot: %v", err)
	}
	code, out, errs = run(t, dir, "ablate", "--task", "leftright", "--n", "8", "--fail", "pots", "--fractions", "0.1", "--retrain", "0", "--json")
	if code != 0 || !strings.Contains(out, `"part": "pots"`) || !strings.Contains(out, `"p_g_retrained": null`) || strings.Contains(out, "a-units") {
		t.Errorf("ablate --json: exit %d: %s%s", code, out, errs)
	}
}

// Faults come from --faults or from the "faults" member of a --config file,
// and are recorded in the machine file.
func TestFaultsFromConfig(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "c.json"), []byte(`{"preset": "mark1", "faults": {"dead_a": 0.25, "stuck_cells": 0.02}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, dir, "train", "--task", "leftright", "--n", "10", "--config", "c.json", "--quiet")
	if code != 0 || !strings.Contains(out, "Faults: stuck-cells=0.02,dead-a=0.25") {
		t.Fatalf("train --config with faults: exit %d: %s%s", code, out, errs)
	}
	code, out, _ = run(t, dir, "train", "--task", "leftright", "--n", "10", "--config", "c.json", "--faults", "none", "--quiet", "--out", "healthy.json")
	if code != 0 || strings.Contains(out, "Faults:") {
		t.Errorf("--faults none after a config with faults: exit %d: %s", code, out)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "mark1.json"))
	if !strings.Contains(string(b), `"dead_a": 0.25`) || !strings.Contains(string(b), `"dead_a_units": [`) || !strings.Contains(string(b), `"stuck_cells": [`) {
		t.Error("the machine file does not record the faults")
	}
}
