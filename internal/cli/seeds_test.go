package cli

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"mark1/ablation"
)

// train --seeds: one row per seed, the summary, the same output with one
// thread or four, and the single runs' numbers in its rows.
func TestTrainSeeds(t *testing.T) {
	dir := t.TempDir()
	out := sameOnThreads(t, dir, []string{"train", "--task", "leftright", "--n", "15", "--seeds", "3-5"},
		"Over 3 seeds", "P_g", "last correction at trial", "pooled")
	// Seed 4's row shows what a single run with --seed 4 prints.
	_, single, _ := run(t, dir, "train", "--task", "leftright", "--n", "15", "--seed", "4", "--quiet", "--out", "s4.json")
	pr := regexp.MustCompile(`P_r, on the cards it was trained on:\s+(\S+)`).FindStringSubmatch(single)
	pg := regexp.MustCompile(`P_g, on\s+\d+ cards it never saw:\s+(\S+)`).FindStringSubmatch(single)
	row := regexp.MustCompile(`(?m)^\s+4\s+.*$`).FindString(out)
	if pr == nil || pg == nil || !strings.Contains(row, pr[1]) || !strings.Contains(row, pg[1]) {
		t.Errorf("seed 4 row %q does not show the single run's P_r %v and P_g %v", row, pr, pg)
	}
	for _, bad := range [][]string{
		{"train", "--seeds", "1-3", "--seed", "2"},
		{"train", "--seeds", "1-3", "--out", "x.json"},
		{"train", "--seeds", "3-1"},
		{"train", "--seeds", "1-3", "--threads", "-1"},
		{"train", "--seeds", "1-3", "--threads", "5000"},
	} {
		if code, _, _ := run(t, dir, bad...); code != 2 {
			t.Errorf("%v: exit %d, want 2", bad, code)
		}
	}
}

// compare --seeds: the same table with one thread or four, and the
// per-seed reports in seed order in JSON.
func TestCompareSeeds(t *testing.T) {
	dir := t.TempDir()
	sameOnThreads(t, dir, []string{"compare", "--task", "square-circle", "--n", "15", "--learners", "perceptron,ideal", "--seeds", "2,5"},
		"over 2 seeds", "perceptron", "±", "Theory, pixels")
	if code, _, _ := run(t, dir, "compare", "--seeds", "1-2", "--plot", "x.png"); code != 2 {
		t.Errorf("--seeds with --plot: exit %d, want 2", code)
	}
}

// ablate --seeds: a fresh machine per seed trained as the file's recipe
// says; seed 1 alone gives exactly the ablation of the file's own machine
// (trained with seed 1), and the pooled table is the same with one thread
// or four.
func TestAblateSeeds(t *testing.T) {
	dir := t.TempDir()
	if code, _, errs := run(t, dir, "train", "--task", "leftright", "--n", "20", "--quiet", "--out", "m.json"); code != 0 {
		t.Fatalf("train: %s", errs)
	}
	common := []string{"ablate", "--machine", "m.json", "--fractions", "0,0.5", "--retrain", "1", "--draws", "2", "--json"}
	_, own, errs := run(t, dir, common...)
	_, one, errs2 := run(t, dir, append(common, "--seeds", "1")...)
	var a []ablation.Point
	var b ablation.SeedsReport
	if err := json.Unmarshal([]byte(own), &a); err != nil {
		t.Fatalf("%v: %s %s", err, own, errs)
	}
	if err := json.Unmarshal([]byte(one), &b); err != nil {
		t.Fatalf("%v: %s %s", err, one, errs2)
	}
	if len(a) != len(b.Points) || len(a) == 0 {
		t.Fatalf("%d and %d points", len(a), len(b.Points))
	}
	for i := range a {
		if a[i].Pg != b.Points[i].Pg || *a[i].Retrained != *b.Points[i].Retrained {
			t.Errorf("point %d: the file's machine %+v, seed 1 afresh %+v", i, a[i], b.Points[i])
		}
	}
	sameOnThreads(t, dir, []string{"ablate", "--machine", "m.json", "--fractions", "0,0.5", "--retrain", "1", "--draws", "2", "--seeds", "1-3"}, "over 3 machines")
	if code, _, _ := run(t, dir, "ablate", "--machine", "m.json", "--seeds", "1-2", "--task", "shapes"); code != 2 {
		t.Errorf("--seeds with --task: exit %d, want 2", code)
	}
}

// TestAblateSeedsLimits: ablate --seeds reads a machine file's recorded
// data as plain ablate does, through the recipe and within its limits:
// pictures over --max-pixels are refused by both, with the same error
// (ablate --seeds once read them with the limits the file recorded).
func TestAblateSeedsLimits(t *testing.T) {
	dir := t.TempDir()
	if code, _, errs := run(t, dir, "stimuli", "--task", "leftright", "--n", "20", "--card-size", "100", "--out", "cards"); code != 0 {
		t.Fatalf("stimuli: %s", errs)
	}
	if code, _, errs := run(t, dir, "train", "--data", "cards", "--quiet", "--epochs", "2", "--out", "m.json"); code != 0 {
		t.Fatalf("train: %s", errs)
	}
	common := []string{"ablate", "--machine", "m.json", "--fractions", "0,0.5", "--retrain", "1", "--draws", "1"}
	if code, _, errs := run(t, dir, append(slices.Clone(common), "--seeds", "1-2")...); code != 0 {
		t.Fatalf("ablate --seeds within the limits: exit %d, %s", code, errs)
	}
	for _, limit := range [][]string{{"--max-pixels", "9999"}} { // the cards have 10,000
		_, _, plain := run(t, dir, append(slices.Clone(common), limit...)...)
		code, _, seeds := run(t, dir, append(append(slices.Clone(common), limit...), "--seeds", "1-2")...)
		if code != 1 || !strings.Contains(seeds, "larger than the data limits") {
			t.Errorf("ablate --seeds %v: exit %d, %q; want exit 1, the recorded data refused as too large", limit, code, seeds)
		}
		if want := strings.TrimPrefix(plain, "mark1: "); plain == "" || !strings.HasSuffix(seeds, want) {
			t.Errorf("ablate --seeds %v says %q; plain ablate %q", limit, seeds, plain)
		}
	}
}

// sameOnThreads runs the command args in dir with one thread and with
// four, and returns its output, which must be the same both times and
// hold every string of wants.
func sameOnThreads(t *testing.T, dir string, args []string, wants ...string) string {
	t.Helper()
	var outs []string
	for _, threads := range []string{"1", "4"} {
		code, out, errs := run(t, dir, append(args, "--threads", threads)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		outs = append(outs, out)
	}
	if outs[0] != outs[1] {
		t.Fatalf("1 and 4 threads differ:\n%s\n%s", outs[0], outs[1])
	}
	for _, want := range wants {
		if !strings.Contains(outs[0], want) {
			t.Errorf("output lacks %q:\n%s", want, outs[0])
		}
	}
	return outs[0]
}
