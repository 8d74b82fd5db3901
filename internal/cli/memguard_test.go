package cli

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"mark1/images"
)

// TestMemoryGuard: a data file the reader's budget admits, fitted by a
// learner whose working memory (here the kernel SVM's cache of kernel
// rows, 100 MiB by default) would pass --max-memory, is stopped with a
// message naming the flag, writes no model, and keeps the heap near the
// budget; a learner that needs less succeeds within the same budget.
func TestMemoryGuard(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "train.libsvm"))
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	rng := rand.New(rand.NewPCG(1, 2))
	const rows, dim = 60_000, 20 // the reader keeps 16 B a row + 12 a value: 15 MB
	for i := range rows {
		fmt.Fprintf(w, "%d", i%2)
		for j := 1; j <= dim; j++ {
			fmt.Fprintf(w, " %d:%.3f", j, rng.Float64())
		}
		w.WriteString("\n")
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()

	const budget = 80 << 20 // the linear SVM peaks near 30 MB of heap; the kernel cache alone may take 100 MiB
	runtime.GC()
	heap := sampleHeap()
	code, _, errs := run(t, dir, "fit", "--data", "train.libsvm", "--quiet", "--max-memory", fmt.Sprint(budget), "--model", "m.json")
	peak := heap.Peak()
	t.Logf("stopped: %q; peak heap %.0f MB", errs, float64(peak)/1e6)
	if code != 1 || !strings.Contains(errs, "fit: stopped") || !strings.Contains(errs, "over --max-memory 83886080 (84 MB); raise it with --max-memory") || strings.Count(errs, "\n") != 1 {
		t.Errorf("exit %d, %q; want exit 1 and one line naming --max-memory", code, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "m.json")); err == nil {
		t.Error("the stopped fit wrote its model")
	}
	if peak > 2*budget {
		t.Errorf("peak heap %d bytes, over twice the budget %d", peak, budget)
	}
	// The same data and budget with a learner whose working memory fits.
	if code, _, errs := run(t, dir, "fit", "--data", "train.libsvm", "--quiet", "--max-memory", fmt.Sprint(budget), "--learner", "linear-svm", "--model", "m.json"); code != 0 {
		t.Errorf("a fit within the budget: exit %d, %q", code, errs)
	}
}

// TestHoldMemory: a command's --max-memory is Go's soft memory limit while
// it runs (parse checks it and sets it), unless GOMEMLIMIT is set or the
// value is out of range, and the limit before the command is back once it
// ends.
func TestHoldMemory(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(before)
	for _, c := range []struct {
		name     string
		env      string // GOMEMLIMIT
		flag     bool   // the command has --max-memory
		args     []string
		want     int64
		parseErr bool
	}{
		{"the flag's default", "", true, nil, images.DefaultMaxBytes, false},
		{"a value given", "", true, []string{"--max-memory", "5000000"}, 5000000, false},
		{"GOMEMLIMIT wins", "1GiB", true, []string{"--max-memory", "5000000"}, before, false},
		{"out of range: refused by parse, naming the flag", "", true, []string{"--max-memory", "5"}, before, true},
		{"no such flag", "", false, nil, before, false},
		{"a flag error", "", true, []string{"--max-memory", "x"}, before, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("GOMEMLIMIT", c.env)
			defer debug.SetMemoryLimit(before)
			fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
			fs.SetOutput(io.Discard)
			if c.flag {
				memoryFlag(fs)
			}
			if err := parse(fs, c.args); (err != nil) != c.parseErr {
				t.Fatalf("parse: %v", err)
			}
			if got := debug.SetMemoryLimit(-1); got != c.want {
				t.Errorf("soft limit %d, want %d", got, c.want)
			}
		})
	}
	// Run gives the limit back when the command ends.
	t.Setenv("GOMEMLIMIT", "")
	if code, _, errs := run(t, t.TempDir(), "train", "--task", "leftright", "--n", "5", "--epochs", "1", "--quiet", "--max-memory", "300000000"); code != 0 {
		t.Fatalf("train: exit %d: %s", code, errs)
	}
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("after the command the soft limit is %d, want %d as before it", got, before)
	}
}
