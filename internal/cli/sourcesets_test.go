package cli

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"mark1/machine"
)

// --source-sets chooses how the A-units are divided, and the machine file
// records it.
func TestSourceSetsFlag(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		flag  string
		sizes []int
	}{
		{"fixed", []int{64, 64, 64, 64, 64, 64, 64, 64}},
		{"used", []int{512, 0, 0, 0, 0, 0, 0, 0}},
	} {
		out := tt.flag + ".json"
		if code, _, errs := run(t, dir, "train", "--task", "leftright", "--n", "5", "--epochs", "1", "--quiet", "--source-sets", tt.flag, "--out", out); code != 0 {
			t.Fatalf("--source-sets %s: exit %d: %s", tt.flag, code, errs)
		}
		f, err := os.Open(filepath.Join(dir, out))
		if err != nil {
			t.Fatal(err)
		}
		m, err := machine.Decode(f, out)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Layer.SourceSetSizes(); !slices.Equal(got, tt.sizes) {
			t.Errorf("--source-sets %s: source-sets of %v A-units, want %v", tt.flag, got, tt.sizes)
		}
	}
	if code, _, _ := run(t, dir, "train", "--source-sets", "some"); code != 2 {
		t.Errorf("--source-sets some: exit %d, want 2", code)
	}
}
