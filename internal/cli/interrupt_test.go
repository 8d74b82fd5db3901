package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
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
	tests := []struct {
		name    string
		after   int64 // cancel after the context's Err is asked this often
		args    []string
		keep    []string // files that must be left as they were
		made    []string // files the interrupted command must leave (and no others)
		errHave string
	}{
		{"stimuli", 20, []string{"stimuli", "--task", "shapes", "--n", "200", "--out", "cards"}, nil, nil, "interrupted"},
		{"new train run over an earlier machine", 300,
			[]string{"train", "--task", "shapes", "--n", "20", "--out", "earlier.json"},
			[]string{"earlier.json"}, []string{"earlier.interrupted.json"}, "earlier.json holds an earlier machine"},
		{"compare", 50, []string{"compare", "--task", "leftright", "--n", "20", "--plot", "c.png"}, nil, nil, "interrupted"},
		{"ablate", 50, []string{"ablate", "--machine", "earlier.json", "--plot", "a.png"}, nil, nil, "interrupted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := listing(t, dir)
			code, _, errs := runCtx(t, interruptAfter(tt.after), dir, tt.args...)
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
