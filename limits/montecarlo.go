package limits

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
)

// CapacityMC is a Monte-Carlo estimate of Cover's fraction: of Trials random labelings (±1,
// each with probability 1/2) of N points drawn afresh from the standard Gaussian in d
// dimensions, the share separable by a hyperplane through the origin, decided by linear
// programming.
type CapacityMC struct {
	D, N, Trials int
	Seed         uint64
	Separable    int     `json:"separable"`
	Fraction     float64 `json:"fraction"`
	// StdErr is the binomial standard error sqrt(p(1−p)/Trials) of Fraction.
	StdErr float64 `json:"std_err"`
	// Exact is Cover's fraction for the same d and N.
	Exact float64 `json:"exact"`
}

// EstimateCapacity runs the Monte-Carlo check of Cover's count with a PCG stream from seed.
func EstimateCapacity(ctx context.Context, d, n, trials int, seed uint64) (CapacityMC, error) {
	if d < 1 || n < 1 || trials < 1 {
		return CapacityMC{}, fmt.Errorf("limits: Monte-Carlo capacity: d = %d, N = %d, trials = %d: each must be at least 1", d, n, trials)
	}
	rng := rand.New(rand.NewPCG(seed, 0x636f766572))
	r := CapacityMC{D: d, N: n, Trials: trials, Seed: seed}
	x := make([][]float64, n)
	for i := range x {
		x[i] = make([]float64, d)
	}
	y := make([]int, n)
	for t := 0; t < trials; t++ {
		if err := ctx.Err(); err != nil {
			return r, err
		}
		for i := range x {
			for j := range x[i] {
				x[i][j] = rng.NormFloat64()
			}
			y[i] = 1
			if rng.IntN(2) == 0 {
				y[i] = -1
			}
		}
		ok, _, err := strictFeasible(x, y)
		if err != nil {
			return r, err
		}
		if ok {
			r.Separable++
		}
	}
	r.Fraction = float64(r.Separable) / float64(trials)
	r.StdErr = math.Sqrt(r.Fraction * (1 - r.Fraction) / float64(trials))
	r.Exact, _ = CoverFraction(n, d).Float64()
	return r, nil
}
