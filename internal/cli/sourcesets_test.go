package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
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

// TestOwnDataExtraClass: a machine trained on the user's folder, given a
// class the folder lacks (an edit the checksum cannot tell from a machine
// built that way), is refused wherever its recorded data are made again,
// naming the difference, and eval says which of its classes the data lack.
func TestOwnDataExtraClass(t *testing.T) {
	dir := t.TempDir()
	if code, _, errs := run(t, dir, "stimuli", "--task", "leftright", "--n", "4", "--out", "lr"); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := run(t, dir, "train", "--data", "lr", "--quiet", "--epochs", "2", "--out", "m.json"); code != 0 {
		t.Fatal(errs)
	}
	m, err := machine.Load(filepath.Join(dir, "m.json"))
	if err != nil {
		t.Fatal(err)
	}
	m.Classes = append(m.Classes, "extra")
	if err := m.Save(filepath.Join(dir, "extra.json")); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"train", "--resume", "extra.json", "--out", "more.json", "--quiet"},
		{"ablate", "--machine", "extra.json"},
	} {
		code, _, errs := run(t, dir, args...)
		if code != 1 || !strings.Contains(errs, "extra.json: the data changed since training") || !strings.Contains(errs, "has 2 classes but extra.json has 3") {
			t.Errorf("%v: exit %d, %q; want exit 1 naming the changed classes", args, code, errs)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "more.json")); err == nil {
		t.Error("the refused resume wrote more.json")
	}
	code, out, errs := run(t, dir, "eval", "--machine", "extra.json", "--data", "lr")
	if code != 0 || !strings.Contains(out, "Note: lr has no cards of the machine's class(es) extra") {
		t.Errorf("eval: exit %d, %q %q; want a note naming the class the data lack", code, out, errs)
	}
	if _, out, _ := run(t, dir, "eval", "--machine", "m.json", "--data", "lr"); strings.Contains(out, "Note:") {
		t.Errorf("eval of the machine as trained has a note: %q", out)
	}
}
