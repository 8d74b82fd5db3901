package cli

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/spf13/pflag"
)

// maxSeeds bounds a --seeds list.
const maxSeeds = 10_000

// parseSeeds reads a --seeds value: a range A-B (inclusive) or a
// comma-separated list, e.g. "1-10" or "1,4,9".
func parseSeeds(s string) ([]uint64, error) {
	var out []uint64
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if a, b, ok := strings.Cut(part, "-"); ok {
			lo, err1 := strconv.ParseUint(a, 10, 64)
			hi, err2 := strconv.ParseUint(b, 10, 64)
			if err1 != nil || err2 != nil || hi < lo {
				return nil, fmt.Errorf("--seeds: %q is not a range A-B with A ≤ B", part)
			}
			if hi-lo >= maxSeeds {
				return nil, fmt.Errorf("--seeds: %q has more than %d seeds", part, maxSeeds)
			}
			for v := lo; ; v++ {
				out = append(out, v)
				if v == hi {
					break
				}
			}
		} else {
			v, err := strconv.ParseUint(part, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("--seeds: %q is not a seed (want A-B or a list like 1,4,9)", part)
			}
			out = append(out, v)
		}
		if len(out) > maxSeeds {
			return nil, fmt.Errorf("--seeds: more than %d seeds", maxSeeds)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--seeds: no seeds")
	}
	return out, nil
}

// maxThreads bounds --threads.
const maxThreads = 1024

// threadsFlag registers --threads on fs for the independent work named by
// what.
func threadsFlag(fs *pflag.FlagSet, n *int, what string) {
	fs.IntVar(n, "threads", 0, fmt.Sprintf("cores for %s (0: all); the results do not depend on it", what))
}

// workers checks a --threads value and returns the number of goroutines it
// asks for: all cores for 0.
func workers(threads int) (int, error) {
	if threads < 0 || threads > maxThreads {
		return 0, usagef("--threads %d out of range [0, %d] (0: all cores)", threads, maxThreads)
	}
	if threads == 0 {
		return runtime.GOMAXPROCS(0), nil
	}
	return threads, nil
}

// forSeeds runs job once per seed, at most threads at a time, and returns
// the results in seed order: each job depends only on its seed, so the
// results are the same whatever the number of threads. The first error (in
// seed order) is returned.
func forSeeds[T any](ctx context.Context, seeds []uint64, threads int, job func(ctx context.Context, seed uint64) (T, error)) ([]T, error) {
	out := make([]T, len(seeds))
	errs := make([]error, len(seeds))
	sem := make(chan struct{}, max(threads, 1))
	var wg sync.WaitGroup
	for i, s := range seeds {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if err := ctx.Err(); err != nil {
				errs[i] = err
				return
			}
			out[i], errs[i] = job(ctx, s)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("seed %d: %w", seeds[i], err)
		}
	}
	return out, nil
}

// spread is the mean and sample standard deviation of some values,
// skipping NaNs (a quantity a run did not measure).
type spread struct {
	Mean, SD float64
	N        int
}

func spreadOf(v []float64) spread {
	var s spread
	var sum, sum2 float64
	for _, x := range v {
		if math.IsNaN(x) {
			continue
		}
		s.N++
		sum += x
		sum2 += x * x
	}
	if s.N == 0 {
		return spread{Mean: math.NaN(), SD: math.NaN()}
	}
	n := float64(s.N)
	s.Mean = sum / n
	if s.N > 1 {
		s.SD = math.Sqrt(max(0, (sum2-sum*sum/n)/(n-1)))
	}
	return s
}

// pctSpread formats a spread of fractions as "71.9 ± 3.1%".
func (s spread) pct() string {
	if math.IsNaN(s.Mean) {
		return "-"
	}
	return fmt.Sprintf("%.1f ± %.1f%%", 100*s.Mean, 100*s.SD)
}

// num formats a spread of counts as "59 ± 15".
func (s spread) count() string {
	if math.IsNaN(s.Mean) {
		return "-"
	}
	return fmt.Sprintf("%.1f ± %.1f", s.Mean, s.SD)
}
