// Package curves computes Rosenblatt's 1958 learning curves from the
// papers' equations and measures the same quantities on the simulated
// machine: RT58's Fig. 5 (P_r and P_g against stimuli per class for 100,
// 200 and 500 A-units per source-set, two classes about as similar as a
// square and a circle) and PR58's Figs. 7–9 (P_r in the "ideal
// environment", random stimuli with arbitrary labels).
//
// PR58's general equation (its Eq. 4) is
//
//	P = P(N_ar > 0) · Φ(Z),   Z = (c₁·n_sr + c₂) / √(c₃·n_sr² + c₄·n_sr),
//	P(N_ar > 0) = 1 − (1 − P_a)^N_e,
//
// with n_sr the stimuli associated to each response, N_e the effective
// A-units of a source-set, Φ the normal integral, and for P_g the same
// constants with c₂ = 0. The public OCR of PR58 loses the constants'
// formulas (its Eqs. 5–8, 10, 11 are images); what is used instead is said
// where it is used (IdealSum, IdealMean, RT58).
package curves

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Constants are the four constants of PR58's Eq. 4.
type Constants struct {
	C1, C2, C3, C4 float64
}

// Z returns (c₁n + c₂)/√(c₃n² + c₄n) at n stimuli per response.
func (c Constants) Z(n float64) float64 {
	return (c.C1*n + c.C2) / math.Sqrt(c.C3*n*n+c.C4*n)
}

// Generalisation returns the constants of P_g: c₂ = 0.
func (c Constants) Generalisation() Constants { c.C2 = 0; return c }

// Limit returns Φ(c₁/√c₃), the value Eq. 4 tends to as n grows (times
// P(N_ar > 0)); 0.5 when c₁ = 0, and NaN when c₃ = 0 and c₁ ≠ 0 (no limit
// below 1: Z grows without bound).
func (c Constants) Limit() float64 {
	if c.C3 == 0 {
		if c.C1 == 0 {
			return 0.5
		}
		return math.NaN()
	}
	return phi(c.C1 / math.Sqrt(c.C3))
}

// PNar returns P(N_ar > 0) = 1 − (1 − P_a)^N_e: the probability that at
// least one of a source-set's N_e units fires for the test stimulus.
func PNar(pa, ne float64) float64 { return 1 - math.Pow(1-pa, ne) }

// P returns P(N_ar > 0)·Φ(Z(n)).
func P(pNar float64, c Constants, n float64) float64 { return pNar * phi(c.Z(n)) }

func phi(z float64) float64 { return distuv.UnitNormal.CDF(z) }

// IdealSum returns the constants of P_r for the α system with the Σ
// decision in the ideal environment, monovalent forced learning, fixed
// n_sr and disjoint source-sets (PR58's Eq. 5 with ω_c = 0), derived here
// under PR58's own assumptions because the OCR loses Eq. 5: each of the
// N_e units of a set fires for a stimulus independently with probability
// P_a; a unit of the correct set has value 1 + Bin(n−1, P_a), one of the
// other set Bin(n, P_a). The difference of the sums over the active units
// has mean N_e P_a (1 − P_a) and variance 2 N_e P_a² (1 − P_a)(n + n² P_a),
// so
//
//	c₁ = 0,  c₂ = 1 − P_a,  c₃ = 2 P_a (1 − P_a)/N_e,  c₄ = 2 (1 − P_a)/N_e.
//
// (c₂ = 1 − P_a and c₄ = 2(1 − P_a) survive in the OCR of Eq. 7.)
func IdealSum(pa, ne float64) Constants {
	return Constants{C1: 0, C2: 1 - pa, C3: 2 * pa * (1 - pa) / ne, C4: 2 * (1 - pa) / ne}
}

// IdealMean returns the constants for the μ decision, otherwise as
// IdealSum: comparing means removes the variation of the number of active
// units from set to set, the source of c₃ ("the reduction of c₃ to zero
// gives the μ-system a definite advantage", PR58):
//
//	c₁ = 0,  c₂ = 1 − P_a,  c₃ = 0,  c₄ = 2 (1 − P_a)/N_e.
func IdealMean(pa, ne float64) Constants {
	return Constants{C1: 0, C2: 1 - pa, C3: 0, C4: 2 * (1 - pa) / ne}
}

// Worked is RT58's worked point: a perceptron with 100 A-units in each
// source-set, trained with 100 squares and 100 circles, "should have a
// probability of 0.92 of giving the correct response if it is shown one of
// the squares (or circles) that it has seen before … 0.85 … to a completely
// random square or circle … both probabilities converge to the same limit,
// in this case 0.887".
var Worked = struct{ Ne, N, Pr, Pg, Limit float64 }{Ne: 100, N: 100, Pr: 0.92, Pg: 0.85, Limit: 0.887}

// RT58 returns the constants of RT58's Fig. 5 for N_e A-units per set.
// RT58 gives no equation and PR58's for the differentiated environment
// (Eqs. 10–11) are lost in the OCR, so the constants are solved from the
// worked point: with c₁ = 1 (Z is unchanged when all four are scaled
// together) and P(N_ar > 0) = 1 (P_a is not stated; with 100 units and any
// P_a above 5% it exceeds 0.99),
//
//	c₃ = (c₁/Φ⁻¹(0.887))²,  c₄ from Φ(100/√(c₃·100² + c₄·100)) = 0.85,
//	c₂ from Φ((100 + c₂)/√(…)) = 0.92.
//
// For other N_e: PR58 says the variances of Eq. 10–11 taken over the test
// stimuli vanish when a class's stimuli are one shape spread uniformly
// over the retina, which leaves variances over the set's A-units, each
// falling as 1/N_e; so c₃ and c₄ are divided by N_e/100. This is what
// makes the limit approach 1 as N_e grows, as both papers say it does.
func RT58(ne float64) Constants {
	c := solveWorked()
	c.C3 /= ne / Worked.Ne
	c.C4 /= ne / Worked.Ne
	return c
}

func solveWorked() Constants {
	zl := distuv.UnitNormal.Quantile(Worked.Limit)
	zg := distuv.UnitNormal.Quantile(Worked.Pg)
	zr := distuv.UnitNormal.Quantile(Worked.Pr)
	n := Worked.N
	c := Constants{C1: 1}
	c.C3 = (c.C1 / zl) * (c.C1 / zl)
	den := c.C1 * n / zg // √(c₃n² + c₄n)
	c.C4 = (den*den - c.C3*n*n) / n
	c.C2 = zr*den - c.C1*n
	return c
}

// String shows the constants.
func (c Constants) String() string {
	return fmt.Sprintf("c₁ = %.4g, c₂ = %.4g, c₃ = %.4g, c₄ = %.4g", c.C1, c.C2, c.C3, c.C4)
}
