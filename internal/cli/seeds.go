package cli

import (
	"fmt"
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
