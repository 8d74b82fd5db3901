package limits

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
)

// LFDResult is the Learning From Data perceptron experiment (Abu-Mostafa et al. 2012,
// exercise 1.4, homework 1): a random target line f through two uniform points of [−1,1]², N
// uniform points labelled by it, the perceptron from w = 0 updating on a random misclassified
// point each step; mean iterations to converge and mean P[f ≠ g], the latter estimated on
// Test fresh points a run, each with a 95% normal confidence half-width.
type LFDResult struct {
	N, Runs, Test      int
	Seed               uint64
	MeanIterations     float64 `json:"mean_iterations"`
	IterationsHalf95   float64 `json:"iterations_half95"`
	MeanDisagreement   float64 `json:"mean_disagreement"`
	DisagreementHalf95 float64 `json:"disagreement_half95"`
}

// LFDPerceptron runs the experiment with a PCG stream from seed.
func LFDPerceptron(ctx context.Context, n, runs, test int, seed uint64) (LFDResult, error) {
	if n < 1 || runs < 2 || test < 1 {
		return LFDResult{}, fmt.Errorf("limits: LFD experiment: N = %d, runs = %d, test points = %d: want N ≥ 1, runs ≥ 2, test ≥ 1", n, runs, test)
	}
	rng := rand.New(rand.NewPCG(seed, 0x6c6664))
	u := func() float64 { return 2*rng.Float64() - 1 }
	r := LFDResult{N: n, Runs: runs, Test: test, Seed: seed}
	var si, si2, sd, sd2 float64
	xs := make([][3]float64, n)
	ys := make([]float64, n)
	var bad []int
	for run := 0; run < runs; run++ {
		if err := ctx.Err(); err != nil {
			return r, err
		}
		x1, y1, x2, y2 := u(), u(), u(), u()
		f := func(p [3]float64) float64 { // sign of the cross product: which side of the line
			if (x2-x1)*(p[2]-y1)-(y2-y1)*(p[1]-x1) > 0 {
				return 1
			}
			return -1
		}
		for i := range xs {
			xs[i] = [3]float64{1, u(), u()}
			ys[i] = f(xs[i])
		}
		var w [3]float64
		it := 0
		for {
			bad = bad[:0]
			for i, p := range xs {
				s := w[0]*p[0] + w[1]*p[1] + w[2]*p[2]
				if (s > 0) != (ys[i] > 0) || s == 0 {
					bad = append(bad, i)
				}
			}
			if len(bad) == 0 {
				break
			}
			i := bad[rng.IntN(len(bad))]
			for j := range w {
				w[j] += ys[i] * xs[i][j]
			}
			it++
		}
		miss := 0
		for t := 0; t < test; t++ {
			p := [3]float64{1, u(), u()}
			s := w[0] + w[1]*p[1] + w[2]*p[2]
			if (s > 0) != (f(p) > 0) {
				miss++
			}
		}
		d := float64(miss) / float64(test)
		si += float64(it)
		si2 += float64(it) * float64(it)
		sd += d
		sd2 += d * d
	}
	m := float64(runs)
	half := func(s, s2 float64) float64 {
		v := (s2 - s*s/m) / (m - 1)
		return 1.96 * math.Sqrt(math.Max(v, 0)/m)
	}
	r.MeanIterations, r.IterationsHalf95 = si/m, half(si, si2)
	r.MeanDisagreement, r.DisagreementHalf95 = sd/m, half(sd, sd2)
	return r, nil
}
