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
	if code != 0 || !strings.Contains(out, `"part": "pots"`) || strings.Contains(out, "retrained") || strings.Contains(out, "a-units") {
		t.Errorf("ablate --json: exit %d: %s%s", code, out, errs)
	}
}
