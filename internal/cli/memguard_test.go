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
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"mark1/images"
	"mark1/internal/base/memguard"
)

// TestMemoryGuard: a data file the reader's budget admits, fitted by a
// learner whose working memory (here the kernel SVM's cache of kernel
// rows, 100 MiB by default) would pass what --max-memory leaves beside the
// data, is refused before the learner allocates it, with a message naming
// the learner's need, the budget and the flag; it writes no model and the
// heap stays within the budget. A learner that needs less succeeds within
// the same budget.
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
	t.Logf("refused: %q; peak heap %.0f MB", errs, float64(peak)/1e6)
	for _, want := range []string{"fit: train.libsvm: svm: 2 classes in 1 one-vs-one pairs over 60000 rows need", "over the budget of", "--max-memory 83886080 less the", "raise it with --max-memory"} {
		if !strings.Contains(errs, want) {
			t.Errorf("message %q lacks %q", errs, want)
		}
	}
	if code != 1 || strings.Count(errs, "\n") != 1 {
		t.Errorf("exit %d, %q; want exit 1 and one line", code, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "m.json")); err == nil {
		t.Error("the refused fit wrote its model")
	}
	if peak > budget {
		t.Errorf("peak heap %d bytes, over the budget %d", peak, budget)
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
			if err := (&Env{}).parse(fs, c.args); (err != nil) != c.parseErr {
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

// TestGuardWithinBudget: work the learners cannot count ahead (here a
// loop that keeps every megabyte it allocates, as a growing model would)
// is stopped by the live guard with the heap within 10 % of --max-memory,
// at a fast learner's growth (200 MB/s) and five times faster (1 GB/s:
// issue 26 measured 14 % over). On a loaded machine one run in ten may
// pass 10 % (the guard waits for a core), so each rate is run five times
// and the median is held to 10 %.
func TestGuardWithinBudget(t *testing.T) {
	for _, tt := range []struct {
		name  string
		pause time.Duration // between megabytes
		procs int           // GOMAXPROCS for the run; 0 leaves it
	}{
		{"200 MB/s", 5 * time.Millisecond, 0},
		{"1 GB/s", time.Millisecond, 0},
		// One CPU, as a one-CPU job-array task: the guard's own goroutine
		// runs only when the work lets it, and the work's own asks of its
		// context read the heap (guardedContext).
		{"1 GB/s, GOMAXPROCS 1", time.Millisecond, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.procs > 0 {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(tt.procs))
			}
			// The median of five (it was of three, and came out 10.2 % over
			// once under a full go test on a loaded machine).
			var over []float64
			for range 5 {
				over = append(over, growUntilStopped(t, tt.pause))
			}
			slices.Sort(over)
			if over[2] > 0.1 {
				t.Errorf("median peak heap %+.1f%% over --max-memory (runs %.3f); want at most 10%%", 100*over[2], over)
			}
		})
	}
}

// growUntilStopped keeps a megabyte every pause (on average) under a
// 64 MiB guard until the guard stops it, and returns how far the peak heap
// went over the budget, as a fraction.
func growUntilStopped(t *testing.T, pause time.Duration) float64 {
	const limit = 64 << 20
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	memguard.HoldLimit(limit)
	runtime.GC()
	heap := sampleHeap()
	ctx, finish := guardMemory(t.Context(), "test", limit)
	var kept [][]byte
	start := time.Now()
	for ctx.Err() == nil && len(kept) < 1000 {
		b := make([]byte, 1<<20)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		kept = append(kept, b)
		// The work between allocations, paced to the rate on average (a
		// sleep is often longer than asked), but never a burst with no
		// work between: after the process waited for a core, catching up
		// at full speed grew the heap many times faster than the rate
		// named (the median went 10.2 % over under a full go test). The
		// least pause holds "1 GB/s" to 0.55-0.8 GB/s on the idle 2-core
		// machine; the log gives the rate of each run.
		time.Sleep(max(time.Until(start.Add(time.Duration(len(kept))*pause)), pause/10))
	}
	rate := float64(len(kept)<<20) / time.Since(start).Seconds()
	err := finish(ctx.Err())
	peak := heap.Peak()
	over := float64(peak)/limit - 1
	t.Logf("%.0f MB/s; %d MB kept; peak heap %.1f MB against %.1f MB (%+.1f%%); %v", rate/1e6, len(kept), float64(peak)/1e6, float64(limit)/1e6, 100*over, err)
	if err == nil || !strings.Contains(err.Error(), "--max-memory") {
		t.Errorf("err = %v; want the guard's message naming --max-memory", err)
	}
	runtime.KeepAlive(kept)
	return over
}

// TestParseBytes: --max-memory as people write sizes.
func TestParseBytes(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"536870912", 536870912, true}, {"0x100000", 1 << 20, true}, {"2e9", 2e9, true}, {"512MB", 512e6, true},
		{"512M", 512e6, true}, {"2GiB", 2 << 30, true}, {"1.5GB", 1.5e9, true}, {"8e9", 8e9, true},
		{"2X", 0, false}, {"-1GB", 0, false}, {"1.5", 0, false}, {"NaN", 0, false}, {"GB", 0, false}, {"1e30", 0, false},
	} {
		got, err := parseBytes(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("parseBytes(%q) = %d, %v; want %d (ok %v)", tt.in, got, err, tt.want, tt.ok)
		}
	}
}
