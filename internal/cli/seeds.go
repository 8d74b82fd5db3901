package cli

import (
	"fmt"
	"math"
	"runtime"

	"github.com/spf13/pflag"

	"mark1/machine"
)

// parseSeeds reads a --seeds value (machine.ParseSeeds): a range A-B
// (inclusive) or a comma-separated list, e.g. "1-10" or "1,4,9".
func parseSeeds(s string) ([]uint64, error) {
	seeds, err := machine.ParseSeeds(s)
	if err != nil {
		return nil, fmt.Errorf("--seeds: %w", err)
	}
	return seeds, nil
}

// threadsFlag registers --threads on fs for the independent work named by
// what.
func threadsFlag(fs *pflag.FlagSet, n *int, what string) {
	fs.IntVar(n, "threads", 0, fmt.Sprintf("cores for %s (0: all); the results do not depend on it", what))
}

// workers checks a --threads value and returns the number of goroutines it
// asks for: all cores for 0.
func workers(threads int) (int, error) {
	if threads < 0 || threads > machine.MaxThreads {
		return 0, usagef("--threads %d out of range [0, %d] (0: all cores)", threads, machine.MaxThreads)
	}
	if threads == 0 {
		return runtime.GOMAXPROCS(0), nil
	}
	return threads, nil
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
