package limits

import (
	"fmt"
	"math/big"
)

// CapacityPoint is Cover's count for one N: C(N, d) = 2·Σ_{k<d} binom(N−1, k), the number of
// labelings of N points in general position in d dimensions that a linear threshold unit
// through the origin (d weights, no separate bias) can realise, and its fraction of all 2^N.
type CapacityPoint struct {
	N int `json:"n"`
	// Count is C(N, d) as a decimal integer string (exact).
	Count string `json:"count"`
	// Fraction is Count/2^N as an exact rational "p/q" and as a float.
	Exact    string  `json:"fraction_exact"`
	Fraction float64 `json:"fraction"`
}

// CapacityResult is the table of C(N, d)/2^N for N = 1…MaxN.
type CapacityResult struct {
	D      int             `json:"d"`
	Points []CapacityPoint `json:"points"`
}

// CoverCount returns C(N, d) = 2·Σ_{k=0}^{d−1} binom(N−1, k) exactly (Cover 1965, Theorem 1).
// It panics if n < 1 or d < 1.
func CoverCount(n, d int) *big.Int {
	if n < 1 || d < 1 {
		panic(fmt.Sprintf("limits: CoverCount(%d, %d): n and d must be at least 1", n, d))
	}
	sum := new(big.Int)
	b := new(big.Int)
	for k := 0; k < d && k <= n-1; k++ {
		sum.Add(sum, b.Binomial(int64(n-1), int64(k)))
	}
	return sum.Lsh(sum, 1)
}

// CoverFraction returns C(N, d)/2^N as an exact rational.
func CoverFraction(n, d int) *big.Rat {
	den := new(big.Int).Lsh(big.NewInt(1), uint(n))
	return new(big.Rat).SetFrac(CoverCount(n, d), den)
}

// Capacity returns Cover's fraction for N = 1…maxN in d dimensions. It is exactly 1 for N ≤ d
// and exactly 1/2 at N = 2d, the capacity of a threshold unit with d weights.
func Capacity(d, maxN int) (CapacityResult, error) {
	if d < 1 || d > 1000 {
		return CapacityResult{}, fmt.Errorf("limits: dimension d = %d: want 1 to 1000", d)
	}
	if maxN < 1 || maxN > 10000 {
		return CapacityResult{}, fmt.Errorf("limits: largest N = %d: want 1 to 10000", maxN)
	}
	r := CapacityResult{D: d, Points: make([]CapacityPoint, 0, maxN)}
	for n := 1; n <= maxN; n++ {
		f := CoverFraction(n, d)
		fl, _ := f.Float64()
		r.Points = append(r.Points, CapacityPoint{N: n, Count: CoverCount(n, d).String(), Exact: f.RatString(), Fraction: fl})
	}
	return r, nil
}

// Curve returns the table as a curve: N and the fraction in percent.
func (r CapacityResult) Curve() (n, percent []float64) {
	for _, p := range r.Points {
		n, percent = append(n, float64(p.N)), append(percent, 100*p.Fraction)
	}
	return n, percent
}
