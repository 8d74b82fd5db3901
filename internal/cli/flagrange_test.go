package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFlagRanges holds the rule of the issue "hostile use": a flag value
// out of range exits with status 2 and one line naming the flag, the bad
// value and the range, before any data are read or any work is done; a bad
// value in a --config file is the file's fault (exit 1) and names the file
// and the member. Values in range still work.
func TestFlagRanges(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"d.libsvm":   "0 1:1 2:0\n1 1:0 2:1\n0 1:1 2:1\n1 1:0 2:0\n",
		"big.json":   `{"associator": {"excitatory": 1000000000}}`,
		"limit.json": `{"motors": {"limit": 0.01}}`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fit := func(args ...string) []string {
		return append([]string{"fit", "--data", "d.libsvm", "--model", "m.json", "--quiet"}, args...)
	}
	pa := func(args ...string) []string {
		return append([]string{"pa", "--task", "leftright", "--n", "2"}, args...)
	}
	train := func(args ...string) []string {
		return append([]string{"train", "--task", "leftright", "--n", "2", "--epochs", "1", "--out", "t.json"}, args...)
	}
	ablate := func(args ...string) []string { // refused before the machine file, which does not exist, is read
		return append([]string{"ablate", "--machine", "none.json"}, args...)
	}
	compare := func(args ...string) []string {
		return append([]string{"compare", "--task", "leftright", "--n", "2", "--epochs", "1", "--learners", "perceptron", "--no-theory", "--quiet"}, args...)
	}
	tests := []struct {
		name string
		args []string
		code int
		want []string // in the one line of stderr
	}{
		// fit: refused before the data are read, naming the flag.
		{"fit --tol Inf", fit("--tol", "Inf"), 2, []string{"--tol Inf", "out of range", "≥ 0"}},
		{"fit --eps 0", fit("--eps", "0"), 2, []string{"--eps 0", "out of range", "> 0"}},
		{"fit --cache-mb NaN", fit("--cache-mb", "NaN"), 2, []string{"--cache-mb NaN", "out of range"}},
		{"sweep run --cache-mb NaN", []string{"sweep", "run", "--plan", "none.json", "--out", "r", "--task", "0", "--cache-mb", "NaN"}, 2, []string{"--cache-mb NaN", "out of range"}},
		{"sweep run --cache-mb 0", []string{"sweep", "run", "--plan", "none.json", "--out", "r", "--task", "0", "--cache-mb", "0"}, 2, []string{"--cache-mb 0", "out of range"}},
		{"fit --bias NaN", fit("--learner", "linear-svm", "--bias", "NaN"), 2, []string{"--bias NaN", "out of range"}},
		{"fit --bias Inf", fit("--learner", "linear-svm", "--bias", "Inf"), 2, []string{"--bias Inf", "out of range"}},
		{"fit --gamma 1e308", fit("--kernel", "rbf", "--gamma", "1e308"), 2, []string{"--gamma 1e+308", "out of range", "[5e-301, 5e+299]"}},
		{"fit --model empty", fit("--model", ""), 2, []string{"--model", "empty"}},
		{"fit --gamma 0.5 works", fit("--kernel", "rbf", "--gamma", "0.5"), 0, nil},
		{"fit --bias -1 (none) works", fit("--learner", "linear-svm", "--bias", "-1"), 0, nil},
		// Machine flags: the part's rule, blamed on the flag that broke it
		// (its field error's field, by the field → flag table).
		{"train --cell-noise 2", train("--cell-noise", "2"), 2, []string{"--cell-noise 2", "out of range", "[0, 1]"}},
		{"compare --cell-spread 2", compare("--cell-spread", "2"), 2, []string{"--cell-spread 2", "out of range", "[0, 1]"}},
		{"pa --dead-cells 2", pa("--dead-cells", "2"), 2, []string{"--dead-cells 2", "out of range", "[0, 1]"}},
		{"pa --backlash -1", pa("--backlash", "-1"), 2, []string{"--backlash -1", "out of range", "[0, 1e+06]"}},
		{"train --step-noise -1", train("--step-noise", "-1"), 2, []string{"--step-noise -1", "[0, 1]"}},
		{"pa --drift -1", pa("--drift", "-1"), 2, []string{"--drift -1", "out of range", "[0, 1e+06]"}},
		{"compare --pulse-seconds -1", compare("--pulse-seconds", "-1"), 2, []string{"--pulse-seconds -1", "out of range", "[0, 1e+06]"}},
		{"pa --limit -1", pa("--limit", "-1"), 2, []string{"--limit -1", "≥ 0"}},
		{"train --step -1", train("--step", "-1"), 2, []string{"--step -1", "> 0"}},
		{"pa --levels -1", pa("--levels", "-1"), 2, []string{"--levels -1", "out of range", "2 to 16777216"}},
		{"compare --stuck -1", compare("--stuck", "-1"), 2, []string{"--stuck -1", "out of range", "[0, 1]"}},
		{"pa --initial NaN", pa("--initial", "NaN"), 2, []string{"--initial NaN", "out of range", "want a number"}},
		{"train --present-seconds -1", train("--present-seconds", "-1"), 2, []string{"--present-seconds -1", "out of range", "[0, 1e+06]"}},
		{"pa --initial beyond the end stops", pa("--initial", "2"), 2, []string{"--initial 2", "out of range", "[-1, 1]"}},
		{"pa --x 0", pa("--x", "0"), 2, []string{"--x 0", "origin points", "x in range [2, 395]"}},
		{"compare --x 0", compare("--x", "0"), 2, []string{"--x 0:", "x in range [2, 395]"}},
		{"the bad flag of two", pa("--x", "0", "--cell-noise", "2"), 2, []string{"mark1: --cell-noise 2 out of range", "[0, 1]"}},
		{"a bad combination names both flags", pa("--limit", "0.01", "--step", "0.05"), 2, []string{"--step 0.05 out of range with --limit 0.01", "at most 0.02"}},
		{"a bad --config member is the file's", pa("--config", "big.json"), 1, []string{"big.json", "associator.excitatory 1000000000", "out of range"}},
		{"a range other flags set names them", pa("--retina-width", "2", "--retina-height", "2"), 2, []string{"--retina-width 2 --retina-height 2: associator.excitatory 5", "4 cells"}},
		{"--omega with the full layout", pa("--layout", "full", "--omega", "0.5"), 2, []string{"--omega 0.5 out of range with --layout full"}},
		{"--step 0 is none, not the default", pa("--step", "0"), 2, []string{"--step 0 out of range", "> 0"}},
		{"--a-units 0 is none, not the default", pa("--a-units", "0"), 2, []string{"--a-units 0 out of range", "[1, 1048576]"}},
		{"a flag against a --config member", pa("--config", "limit.json", "--step", "0.05"), 2, []string{"--step 0.05 out of range", "at most 0.02"}},
		{"train --pulses 0", train("--pulses", "0"), 2, []string{"--pulses 0 out of range", "[1, 1000]"}},
		{"train --epochs 0", train("--epochs", "0"), 2, []string{"--epochs 0 out of range", "[1, 1000000]"}},
		{"train --checkpoint-every 1000001 (machine.SavePlan's range)", train("--checkpoint-every", "1000001"), 2, []string{"--checkpoint-every 1000001 out of range", "[0, 1000000]"}},
		{"train --checkpoint-every -1", train("--checkpoint-every", "-1"), 2, []string{"--checkpoint-every -1 out of range", "[0, 1000000]"}},
		{"train --feedback without a monovalent rule", train("--feedback", "2"), 2, []string{"--feedback 2 out of range", "monovalent"}},
		{"--card-size 0 is none, not the default", train("--card-size", "0"), 2, []string{"--card-size 0 out of range", "[8, 4096]"}},
		{"--test-split checked even with --test", train("--test", "d.libsvm", "--test-split", "NaN"), 2, []string{"--test-split NaN out of range"}},
		// compare on numeric data checks the data flags too: --test-split 1
		// panicked in the split.
		{"compare numeric --test-split 1", []string{"compare", "--data", "d.libsvm", "--learners", "perceptron", "--no-theory", "--quiet", "--test-split", "1"}, 2, []string{"--test-split 1 out of range", "[0, 1)"}},
		{"pa --cell-noise 0.1 works", pa("--cell-noise", "0.1"), 0, nil},
		{"train --x 0 --theta 0 works", train("--x", "0", "--theta", "0"), 0, nil},
		{"levels set with the end stops they need work", pa("--preset", "ideal", "--levels", "5", "--limit", "1"), 0, nil},
		// --threads: one rule and one message in every command.
		{"compare --threads -1", compare("--threads", "-1"), 2, []string{"--threads -1", "out of range [0, 1024]"}},
		{"compare --threads 0 works", compare("--threads", "0"), 0, nil},
		{"train --threads -1 without --seeds", train("--threads", "-1"), 2, []string{"--threads -1", "out of range [0, 1024]"}},
		// fit's --threads is the fit's cores without --cv (it was ignored)
		{"fit --threads 5000 without --cv", fit("--threads", "5000"), 2, []string{"--threads 5000", "out of range [0, 1024]"}},
		{"fit --threads 1 works", fit("--threads", "1"), 0, nil},
		// Flags the run would not use are checked all the same.
		{"lab --format junk without --data", []string{"lab", "--format", "junk"}, 2, []string{"--format", "junk"}},
		{"lab --delay 0", []string{"lab", "--delay", "0"}, 2, []string{"--delay 0", "out of range [1, 6000]"}},
		{"fit --degree -5 with the rbf kernel", fit("--degree", "-5"), 2, []string{"--degree -5", "out of range", "[1, 20]"}},
		// dials --every: dials.AnimateOptions.Validate's range, checked
		// without --animate too.
		{"dials --every 0 without --animate", []string{"dials", "--machine", "t.json", "--every", "0"}, 2, []string{"--every 0 out of range: want a whole number in [1, 1000000]"}},
		{"dials --every -3", []string{"dials", "--machine", "t.json", "--every", "-3"}, 2, []string{"--every -3 out of range: want a whole number in [1, 1000000]"}},
		{"dials --every 1000001", []string{"dials", "--machine", "t.json", "--every", "1000001"}, 2, []string{"--every 1000001 out of range: want a whole number in [1, 1000000]"}},
		// dials --bins, --delay, --width and --height: dials.ValidateBins'
		// and AnimateOptions.Validate's ranges (the CLI had its own, one
		// message for all five flags); dials read a negative bin count,
		// delay or size as the default, and drew any size or bin count.
		{"dials --bins 0", []string{"dials", "--machine", "t.json", "--bins", "0"}, 2, []string{"--bins 0 out of range: want a whole number in [1, 1000]"}},
		{"dials --bins 1001", []string{"dials", "--machine", "t.json", "--bins", "1001"}, 2, []string{"--bins 1001 out of range: want a whole number in [1, 1000]"}},
		{"dials --delay 0 without --animate", []string{"dials", "--machine", "t.json", "--delay", "0"}, 2, []string{"--delay 0 out of range: want a whole number in [1, 6000] (hundredths of a second)"}},
		{"dials --delay -5", []string{"dials", "--machine", "t.json", "--delay", "-5"}, 2, []string{"--delay -5 out of range: want a whole number in [1, 6000]"}},
		{"dials --delay 6001", []string{"dials", "--machine", "t.json", "--delay", "6001"}, 2, []string{"--delay 6001 out of range: want a whole number in [1, 6000]"}},
		{"dials --width -1", []string{"dials", "--machine", "t.json", "--width", "-1"}, 2, []string{"--width -1 out of range: want a whole number of pixels in [0, 20000] (0 for the default)"}},
		{"dials --height 20001", []string{"dials", "--machine", "t.json", "--height", "20001"}, 2, []string{"--height 20001 out of range: want a whole number of pixels in [0, 20000]"}},
		{"dials --top -1", []string{"dials", "--machine", "t.json", "--top", "-1"}, 2, []string{"--top -1: want 0 (every pot) or more"}},
		{"dials --test-split NaN with no view of data", []string{"dials", "--machine", "t.json", "--test-split", "NaN"}, 2, []string{"--test-split NaN", "out of range"}},
		// ablate: ablation.Spec.Validate's ranges, the one check (the CLI
		// had its own, narrower for --retrain, wider for --draws).
		{"ablate --draws 5000 (the library took it)", ablate("--draws", "5000"), 2, []string{"--draws 5000 out of range", "[1, 1000]"}},
		{"ablate --draws 0 is none, not one", ablate("--draws", "0"), 2, []string{"--draws 0 out of range", "[1, 1000]"}},
		{"ablate --retrain -1", ablate("--retrain", "-1"), 2, []string{"--retrain -1 out of range", "[0, 1000000]"}},
		{"ablate --retrain 20000 is in range (the CLI refused it)", ablate("--retrain", "20000"), 1, []string{"none.json"}},
		{"ablate --fractions NaN", ablate("--fractions", "0,NaN"), 2, []string{"--fractions 0,NaN out of range", "[0, 1]"}},
		// The experiments' registries (levels.Settings, curves.Settings,
		// machine.ParitySettings and FourSettings): 0 asks for none, and a
		// refusal names the flag, not the field.
		{"levels --epochs 0 is none, not the default", []string{"levels", "--epochs", "0"}, 2, []string{"--epochs 0 out of range", "[1, 100000]"}},
		{"curves --max-n 0 is none, not the default", []string{"curves", "--figure", "rt58-5", "--max-n", "0"}, 2, []string{"--max-n 0 out of range", "[1, 10000]"}},
		{"limits parity --on-retina --epochs 0", []string{"limits", "parity", "--on-retina", "--epochs", "0"}, 2, []string{"mark1: --epochs 0 out of range", "[1, 1000000]"}},
		{"limits figures --epochs 0", []string{"limits", "figures", "--epochs", "0"}, 2, []string{"mark1: --epochs 0 out of range", "[1, 1000000]"}},
		{"limits figures --length 30", []string{"limits", "figures", "--length", "30"}, 2, []string{"mark1: --length 30 out of range", "cells of the 20-cell grid"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(t, dir, tt.args...)
			if code != tt.code {
				t.Fatalf("exit %d; want %d (stderr %q)", code, tt.code, stderr)
			}
			if tt.code == 0 {
				return
			}
			if stdout != "" {
				t.Errorf("refused, yet printed %q", stdout)
			}
			if strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, "\n") {
				t.Fatalf("stderr is not one line: %q", stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("message %q lacks %q", stderr, w)
				}
			}
		})
	}
	// The same --threads message whichever command refuses it.
	_, _, c := run(t, dir, compare("--threads", "-1")...)
	_, _, a := run(t, dir, "ablate", "--machine", "none.json", "--threads", "-1")
	if c != a {
		t.Errorf("compare and ablate refuse --threads -1 differently:\n%s%s", c, a)
	}
	// The data's rule for --max-pixels (images.Source.Validate) in every
	// command that reads pictures, with or without the data flags:
	// predict and serve checked it themselves.
	for _, v := range []string{"0", "-5"} {
		want := "mark1: --max-pixels " + v + " out of range: want a positive number of pixels\n"
		for _, args := range [][]string{
			train("--max-pixels", v),
			{"predict", "--machine", "none.json", "--max-pixels", v, "none.png"},
			{"serve", "--machine", "none.json", "--max-pixels", v},
			{"dials", "--machine", "none.json", "--max-pixels", v},
		} {
			if code, _, errs := run(t, dir, args...); code != 2 || errs != want {
				t.Errorf("%s: exit %d, %q; want exit 2, %q", strings.Join(args, " "), code, errs, want)
			}
		}
	}
}
