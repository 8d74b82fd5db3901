package cli

import (
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPa(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := run(t, dir, "pa", "--task", "leftright", "--n", "10", "--png", "pa.png")
	if code != 0 {
		t.Fatalf("pa: exit %d: %s", code, errs)
	}
	for _, want := range []string{"20 cards", "x=5, y=5, θ=2", "P_a measured", "1958 model", "Drew P_a"} {
		if !strings.Contains(out, want) {
			t.Errorf("pa output lacks %q:\n%s", want, out)
		}
	}
	f, err := os.Open(filepath.Join(dir, "pa.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Errorf("pa.png: %v", err)
	}
	for _, bad := range [][]string{
		{"pa", "--models", "5:5"},
		{"pa", "--models", "5:x:1"},
		{"pa", "--analog"},
		{"pa", "extra"},
	} {
		if code, _, errs := run(t, dir, bad...); code != 2 || !strings.Contains(errs, "pa") {
			t.Errorf("%v: exit %d, %q; want 2 naming the command", bad, code, errs)
		}
	}
}
