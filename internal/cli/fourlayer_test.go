package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"mark1/machine"
)

// TestTrainFourLayers: --layers 4 --eta 0 trains as the three-layer
// machine (the same epochs, line for line) and says it has four layers;
// the machine file records them and --resume keeps them.
func TestTrainFourLayers(t *testing.T) {
	dir := t.TempDir()
	args := []string{"train", "--task", "leftright", "--n", "20", "--epochs", "4"}
	code, three, errOut := run(t, dir, append(args, "--out", "three.json")...)
	if code != 0 {
		t.Fatalf("three layers: exit %d: %s", code, errOut)
	}
	code, four, errOut := run(t, dir, append(args, "--out", "four.json", "--layers", "4", "--eta", "0", "--delta", "0.1")...)
	if code != 0 {
		t.Fatalf("four layers: exit %d: %s", code, errOut)
	}
	var kept []string
	for _, line := range strings.Split(four, "\n") {
		if strings.HasPrefix(line, "  Four layers: 512 A_II units learned couplings from A_I over 50 cards in sequence (η = 0, δ = 0.1)") {
			continue
		}
		kept = append(kept, line)
	}
	if got := strings.Join(kept, "\n"); strings.ReplaceAll(got, "four.json", "three.json") != three && !sameButTime(got, three) {
		t.Errorf("--layers 4 --eta 0 printed\n%s\nwant, but for its line on the four layers,\n%s", four, three)
	}
	m, err := machine.Load(filepath.Join(dir, "four.json"))
	if err != nil {
		t.Fatal(err)
	}
	if m.Config.Layers != 4 || m.Config.Coupling.Delta != 0.1 || m.Couplings == nil || m.Couplings.Steps != 50 {
		t.Errorf("the file records layers %d, coupling %+v, couplings %v", m.Config.Layers, m.Config.Coupling, m.Couplings)
	}
	if code, _, errOut := run(t, dir, "train", "--resume", "four.json", "--epochs", "6", "--quiet"); code != 0 {
		t.Fatalf("resume: exit %d: %s", code, errOut)
	}
	if m, err = machine.Load(filepath.Join(dir, "four.json")); err != nil || m.Couplings == nil || m.Couplings.Steps != 50 {
		t.Errorf("resumed: %v, couplings %v", err, m.Couplings)
	}
	if code, _, errOut := run(t, dir, "train", "--task", "leftright", "--layers", "4", "--resume", "four.json"); code != 2 || !strings.Contains(errOut, "--layers") {
		t.Errorf("--layers with --resume: exit %d: %s", code, errOut)
	}
}

// sameButTime reports whether a and b differ only in their "this run took"
// durations and the file named.
func sameButTime(a, b string) bool {
	norm := func(s string) string {
		var out []string
		for _, l := range strings.Split(s, "\n") {
			if i := strings.Index(l, "this run took"); i >= 0 {
				l = l[:i]
			}
			out = append(out, strings.ReplaceAll(l, "four.json", "three.json"))
		}
		return strings.Join(out, "\n")
	}
	return norm(a) == norm(b)
}
