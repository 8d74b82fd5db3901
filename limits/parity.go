package limits

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// ParityResult is the order of parity on K points (Minsky and Papert 1969, Theorem 3.1): the
// smallest j such that parity is a linear threshold function of the masks (conjunctions) of at
// most j points, with the proof both ways.
type ParityResult struct {
	K     int `json:"k"`
	Order int `json:"order"`
	// Feasible[j] says whether the linear program with masks of size ≤ j is feasible, j = 0…K.
	Feasible []bool `json:"feasible"`
	// Coefficients are the constructive integer coefficients of the masks of size ≤ Order,
	// indexed by the mask's bit set: a_S = −(−2)^|S|, so Σ_{S⊆X} a_S = −(−1)^|X|, which is +1
	// on odd sets and −1 on even ones. They are checked exactly on all 2^K inputs.
	Coefficients []int64 `json:"coefficients"`
	// Dual is a Farkas certificate that order Order−1 is impossible: y ≥ 0 over the 2^K
	// inputs, Σ y = 1, with Σ_X y_X·s_X·[S ⊆ X] = 0 for every mask S of size < Order, where
	// s_X = ±1 is the wanted sign. It is found by linear programming, rounded to rationals
	// and checked exactly in big.Rat. Empty when Order is 0.
	Dual []string `json:"dual"`
	// Checked says the feasible coefficients and the dual were verified exactly.
	Checked bool `json:"checked"`
}

// paritySign is +1 for an odd set, −1 for an even one.
func paritySign(x uint) int {
	if bits.OnesCount(x)%2 == 1 {
		return 1
	}
	return -1
}

// masksUpTo returns the subsets of {0…k−1} of size at most j, as bit sets in increasing order.
func masksUpTo(k, j int) []uint {
	var m []uint
	for s := uint(0); s < 1<<k; s++ {
		if bits.OnesCount(s) <= j {
			m = append(m, s)
		}
	}
	return m
}

// constructive returns the integer coefficients −(−2)^|S| of the masks of
// at most j of k points, indexed by the mask's bit set (0 for the others).
func constructive(k, j int) []int64 {
	a := make([]int64, 1<<k)
	for _, s := range masksUpTo(k, j) {
		c := int64(1) << bits.OnesCount(s)
		if bits.OnesCount(s)%2 == 0 {
			c = -c
		}
		a[s] = c
	}
	return a
}

// lpParityMax is the largest k whose orders are searched by linear programming.
const lpParityMax = 6

// ParityOrder finds the order of parity on k points, 1 ≤ k ≤ 10, by linear programming for
// j = 0…k, and proves it: the constructive coefficients at j = k are checked exactly in
// integers, and the infeasibility at j = k − 1 by a Farkas vector checked in big.Rat.
func ParityOrder(k int) (ParityResult, error) {
	if k < 1 || k > 10 {
		return ParityResult{}, fmt.Errorf("limits: parity on k = %d points: want 1 to 10", k)
	}
	r := ParityResult{K: k, Order: -1, Feasible: make([]bool, k+1)}
	inputs := 1 << k
	sign := make([]int, inputs)
	for x := range sign {
		sign[x] = paritySign(uint(x))
	}
	if k > lpParityMax {
		// gonum's dense simplex does not finish in reasonable time past 2^6 inputs; the
		// order is then proved by the exact certificates alone: the uniform Farkas vector
		// at order k − 1 (which rules out every smaller order, whose masks are a subset)
		// and the constructive coefficients at order k.
		r.Order = k
		r.Feasible[k] = true
		r.Coefficients = constructive(k, k)
		if err := checkParityCoefficients(k, r.Coefficients); err != nil {
			return r, err
		}
		y := make([]*big.Rat, inputs)
		for x := range y {
			y[x] = big.NewRat(1, int64(inputs))
		}
		if err := checkParityDual(k, k-1, y); err != nil {
			return r, err
		}
		for _, v := range y {
			r.Dual = append(r.Dual, v.RatString())
		}
		r.Checked = true
		return r, nil
	}
	for j := 0; j <= k; j++ {
		masks := masksUpTo(k, j)
		rows := make([][]float64, inputs)
		for x := range rows {
			rows[x] = make([]float64, len(masks))
			for i, s := range masks {
				if uint(x)&s == s {
					rows[x][i] = 1
				}
			}
		}
		ok, _, err := strictFeasible(rows, sign)
		if err != nil {
			return r, fmt.Errorf("limits: parity k = %d, order %d: %w", k, j, err)
		}
		r.Feasible[j] = ok
		if ok && r.Order < 0 {
			r.Order = j
		}
	}
	if r.Order < 0 {
		return r, fmt.Errorf("limits: parity k = %d: no order up to k is feasible", k)
	}
	r.Coefficients = constructive(k, r.Order)
	if err := checkParityCoefficients(k, r.Coefficients); err != nil {
		return r, err
	}
	if r.Order > 0 {
		y, err := parityDual(k, r.Order-1)
		if err != nil {
			return r, err
		}
		if err := checkParityDual(k, r.Order-1, y); err != nil {
			return r, err
		}
		for _, v := range y {
			r.Dual = append(r.Dual, v.RatString())
		}
	}
	r.Checked = true
	return r, nil
}

// checkParityCoefficients verifies in exact integers that Σ_{S⊆X} a_S has the sign of parity
// on every input X.
func checkParityCoefficients(k int, a []int64) error {
	sum := new(big.Int)
	for x := uint(0); x < 1<<k; x++ {
		sum.SetInt64(0)
		for s := uint(0); s < 1<<k; s++ {
			if x&s == s && a[s] != 0 {
				sum.Add(sum, big.NewInt(a[s]))
			}
		}
		if sum.Sign() != paritySign(x) {
			return fmt.Errorf("limits: parity k = %d: coefficients give %s on input %0*b", k, sum, k, x)
		}
	}
	return nil
}

// parityDual finds y ≥ 0 with Σ y = 1 and Σ_X y_X s_X [S⊆X] = 0 for |S| ≤ j by the simplex
// method, and rounds it to rationals of small denominator.
func parityDual(k, j int) ([]*big.Rat, error) {
	masks := masksUpTo(k, j)
	inputs := 1 << k
	A := mat.NewDense(len(masks)+1, inputs, nil)
	b := make([]float64, len(masks)+1)
	for i, s := range masks {
		for x := 0; x < inputs; x++ {
			if uint(x)&s == s {
				A.Set(i, x, float64(paritySign(uint(x))))
			}
		}
	}
	for x := 0; x < inputs; x++ {
		A.Set(len(masks), x, 1)
	}
	b[len(masks)] = 1
	c := make([]float64, inputs)
	for x := range c {
		c[x] = 1
	}
	_, y, err := lp.Simplex(c, A, b, lpTol, nil)
	if err != nil {
		return nil, fmt.Errorf("limits: parity k = %d: Farkas vector at order %d: %w", k, j, err)
	}
	out := make([]*big.Rat, inputs)
	for x, v := range y {
		out[x] = rationalize(v, 1<<(k+4))
	}
	return out, nil
}

// rationalize returns the fraction nearest v with denominator at most maxDen (continued
// fractions).
func rationalize(v float64, maxDen int64) *big.Rat {
	if math.Abs(v) < 1e-12 {
		return new(big.Rat)
	}
	var h0, h1, k0, k1 int64 = 0, 1, 1, 0
	x := v
	for i := 0; i < 64; i++ {
		a := int64(math.Floor(x))
		h2, k2 := a*h1+h0, a*k1+k0
		if k2 > maxDen {
			break
		}
		h0, h1, k0, k1 = h1, h2, k1, k2
		f := x - float64(a)
		if f < 1e-12 {
			break
		}
		x = 1 / f
	}
	return big.NewRat(h1, k1)
}

// checkParityDual verifies the Farkas certificate exactly: y ≥ 0, Σ y = 1 (so y ≠ 0), and
// Σ_X y_X s_X [S ⊆ X] = 0 for every mask of size ≤ j. Then no a can satisfy
// s_X Σ_{S⊆X} a_S ≥ 1 for all X, since summing those inequalities with weights y gives 0 ≥ 1.
func checkParityDual(k, j int, y []*big.Rat) error {
	total := new(big.Rat)
	for x, v := range y {
		if v.Sign() < 0 {
			return fmt.Errorf("limits: parity k = %d: Farkas vector negative at input %d", k, x)
		}
		total.Add(total, v)
	}
	if total.Cmp(big.NewRat(1, 1)) != 0 {
		return fmt.Errorf("limits: parity k = %d: Farkas vector sums to %s, not 1", k, total.RatString())
	}
	for _, s := range masksUpTo(k, j) {
		sum := new(big.Rat)
		for x, v := range y {
			if uint(x)&s == s {
				if paritySign(uint(x)) > 0 {
					sum.Add(sum, v)
				} else {
					sum.Sub(sum, v)
				}
			}
		}
		if sum.Sign() != 0 {
			return fmt.Errorf("limits: parity k = %d: Farkas vector gives %s on mask %b", k, sum.RatString(), s)
		}
	}
	return nil
}
