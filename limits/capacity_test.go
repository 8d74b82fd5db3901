package limits

import (
	"context"
	"math"
	"math/big"
	"testing"
)

func TestCoverHalfAtTwiceD(t *testing.T) {
	half := big.NewRat(1, 2)
	for d := 1; d <= 30; d++ {
		if f := CoverFraction(2*d, d); f.Cmp(half) != 0 {
			t.Errorf("d = %d: C(2d, d)/2^(2d) = %s; want 1/2", d, f.RatString())
		}
		if f := CoverFraction(d, d); f.Cmp(big.NewRat(1, 1)) != 0 {
			t.Errorf("d = %d: C(d, d)/2^d = %s; want 1", d, f.RatString())
		}
	}
}

// TestCoverCountBruteForce checks C(N, d) against its recursion C(N+1, d) = C(N, d) + C(N, d−1)
// with C(1, d) = 2 and C(N, 1) = 2 (Cover 1965, eq. 5), computed independently.
func TestCoverCountRecursion(t *testing.T) {
	memo := map[[2]int]*big.Int{}
	var rec func(n, d int) *big.Int
	rec = func(n, d int) *big.Int {
		if n == 1 || d == 1 {
			return big.NewInt(2)
		}
		k := [2]int{n, d}
		if v, ok := memo[k]; ok {
			return v
		}
		v := new(big.Int).Add(rec(n-1, d), rec(n-1, d-1))
		memo[k] = v
		return v
	}
	for d := 1; d <= 12; d++ {
		for n := 1; n <= 50; n++ {
			if got, want := CoverCount(n, d), rec(n, d); got.Cmp(want) != 0 {
				t.Fatalf("C(%d, %d) = %s; recursion gives %s", n, d, got, want)
			}
		}
	}
}

func TestCapacityTable(t *testing.T) {
	r, err := Capacity(10, 40)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		n    int
		want float64
	}{{15, 0.9102}, {20, 0.5}, {25, 0.1537}} {
		if got := r.Points[tc.n-1].Fraction; math.Abs(got-tc.want) > 5e-5 {
			t.Errorf("d = 10, N = %d: fraction %.5f; want %.4f", tc.n, got, tc.want)
		}
	}
	if _, err := Capacity(0, 5); err == nil {
		t.Error("Capacity(0, 5): no error")
	}
}

// TestCapacityMonteCarlo draws 2,000 labelings at N = 20 and 700 at N = 15 and 25 (seed 1, not
// chosen; fewer there to keep the test near a second) and asks for the exact fraction within
// ±0.02 at N = 20 (about 1.8 binomial standard errors at p = 1/2) and within three standard
// errors of the exact fraction elsewhere.
func TestCapacityMonteCarlo(t *testing.T) {
	for _, tc := range []struct{ n, trials int }{{15, 700}, {20, 2000}, {25, 700}} {
		n := tc.n
		r, err := EstimateCapacity(context.Background(), 10, n, tc.trials, 1)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("d = 10, N = %d: %d of %d separable, %.4f ± %.4f; exact %.4f", n, r.Separable, tc.trials, r.Fraction, r.StdErr, r.Exact)
		tol := 0.02
		if tc.trials != 2000 {
			tol = 3 * math.Sqrt(r.Exact*(1-r.Exact)/float64(tc.trials))
		}
		if math.Abs(r.Fraction-r.Exact) > tol {
			t.Errorf("d = 10, N = %d: Monte Carlo %.4f; exact %.4f (tolerance %.4f)", n, r.Fraction, r.Exact, tol)
		}
	}
}
