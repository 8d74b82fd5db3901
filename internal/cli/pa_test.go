package cli

import (
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func TestPa(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := run(t, dir, "pa", "--task", "leftright", "--n", "10", "--png", "pa.png")
	if code != 0 {
		t.Fatalf("pa: exit %d: %s", code, errs)
	}
	for _, want := range []string{"20 cards", "x=5, y=5, θ=2", "P_a measured", "1958 model", "P_c", "Drew P_a",
		"criterion P_c12 < P_a < P_c11", "measured:   P_c12", ": holds"} {
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

// TestPairwiseLines: train and eval print the 1958 pairwise P_r and P_g
// beside the accuracies (for four classes, above them), and train's P_a
// line says it is measured on the held-out cards.
func TestPairwiseLines(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := run(t, dir, "train", "--task", "shapes", "--n", "10", "--epochs", "3", "--quiet", "--out", "m.json")
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, errs)
	}
	pr := regexp.MustCompile(`P_r, on the cards it was trained on:\s+([0-9.]+)%`).FindStringSubmatch(out)
	pw := regexp.MustCompile(`P_r and P_g pairwise, 1958:\s+([0-9.]+)%, ([0-9.]+)%`).FindStringSubmatch(out)
	if pr == nil || pw == nil || !strings.Contains(out, "P_a, on the held-out cards") {
		t.Fatalf("train output lacks the pairwise or held-out P_a line:\n%s", out)
	}
	a, _ := strconv.ParseFloat(pr[1], 64)
	b, _ := strconv.ParseFloat(pw[1], 64)
	if b < a {
		t.Errorf("pairwise P_r %v below the all-classes P_r %v", b, a)
	}
	code, out, errs = run(t, dir, "eval", "--machine", "m.json", "--task", "shapes", "--n", "10", "--json")
	if code != 0 {
		t.Fatalf("eval: exit %d: %s", code, errs)
	}
	var e struct{ Accuracy, Pairwise float64 }
	if err := json.Unmarshal([]byte(out), &e); err != nil || e.Pairwise < e.Accuracy || e.Pairwise == 0 {
		t.Errorf("eval --json: accuracy %v, pairwise %v (%v)", e.Accuracy, e.Pairwise, err)
	}
}
