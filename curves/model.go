// Package curves computes Rosenblatt's 1958 learning curves from the
// papers' equations and measures the same quantities on the simulated
// machine: RT58's Fig. 5 (P_r and P_g against stimuli per class for 100,
// 200 and 500 A-units per source-set, two classes about as similar as a
// square and a circle), PR58's Figs. 7–9 (P_r in the "ideal environment",
// random stimuli with arbitrary labels, against n_sr and against P_a),
// Fig. 10 (the α, β and γ systems with n_sr variable) and Fig. 11 (P_r and
// P_g in a differentiated environment, from P_a and P_c measured on the
// cards).
//
// PR58's general equation (its Eq. 4) is
//
//	P = P(N_ar > 0) · Φ(Z),   Z = (c₁·n_sr + c₂) / √(c₃·n_sr² + c₄·n_sr),
//	P(N_ar > 0) = 1 − (1 − P_a)^N_e,
//
// with n_sr the stimuli associated to each response, N_e the effective
// A-units of a source-set, Φ the normal integral, and for P_g the same
// constants with c₂ = 0. The public OCR of PR58 loses the constants of Eqs.
// 5 and 6 (images) and keeps Eqs. 7, 8, 10 and 11 only in fragments; what
// is read, what is derived from PR58's assumptions and what is solved from
// the papers' numbers is said where it is used (IdealSum, IdealMean, RT58,
// VariableAlpha, VariableBeta, VariableGamma, Differentiated).
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

// Overlap describes how source-sets share A-units in PR58's Fig. 10: N_R
// responses, each A-unit feeding each response independently with
// probability ω (ω = 0: disjoint sets). Seen from the pair R₁, R₂ being
// compared, an effective unit of R₁'s set (one not also in R₂'s) feeds on
// average k = (N_R − 2)ω other responses, varying from unit to unit with
// variance (N_R − 2)ω(1 − ω); with disjoint sets both are 0.
type Overlap struct {
	Responses float64 // N_R
	Omega     float64 // ω; 0 for disjoint sets
}

func (o Overlap) others() (k, v float64) {
	if o.Omega == 0 {
		return 0, 0
	}
	return (o.Responses - 2) * o.Omega, (o.Responses - 2) * o.Omega * (1 - o.Omega)
}

// VariableAlpha returns the constants of P_r for the α system with the μ
// decision when each response's n_sr is a random variable of standard
// deviation q·n̄ (PR58's Eq. 7). The OCR keeps c₁ = 0, c₂ = 1 − P_a and
// c₄ = 2(1 − P_a), and loses c₃ but for N_R, q and a bracket; so they are
// derived here under PR58's assumptions, as IdealMean is: a unit of R₁'s set
// active for the test stimulus holds 1 + Bin(n₁ − 1, P_a), one of R₂'s
// Bin(n₂, P_a), and each also Bin(n_r, P_a) from every other response r
// it feeds. The means over the N_e·P_a active units then differ by
// 1 − P_a + P_a(n₁ − n₂), whose last term, set-wide, does not average
// away (variance 2P_a²q²n̄²), and the units' other responses add their
// count's spread and their binomial noise:
//
//	c₁ = 0,  c₂ = 1 − P_a,
//	c₃ = 2P_a²q² + 2P_a·v·(1 + q²)/N_e,  c₄ = 2(1 − P_a)(1 + k)/N_e,
//
// with k and v from Overlap (0 for disjoint sets, where with q = 0 this is
// IdealMean).
func VariableAlpha(pa, ne, q float64, o Overlap) Constants {
	k, v := o.others()
	return Constants{C1: 0, C2: 1 - pa, C3: 2*pa*pa*q*q + 2*pa*v*(1+q*q)/ne, C4: 2 * (1 - pa) * (1 + k) / ne}
}

// VariableGamma returns the constants of the γ system (μ or Σ alike) with
// n_sr variable. PR58: "the constants for the γ-system, with variable n_sr,
// are identical to the constants for the alpha μ-system, with n_sr fixed
// (Equation 6)". Derived under the same assumptions: each reinforcement
// gives a set's active units +1 and takes P_a/(1 − P_a) from each inactive
// one, so a unit's value is a sum of (a − P_a)/(1 − P_a) terms of mean 0,
// whatever n₁ − n₂; the test stimulus's own +1 is the only difference of
// the means:
//
//	c₁ = 0,  c₂ = 1 − P_a,  c₃ = 0,  c₄ = 2(1 − P_a)(1 + k)/N_e,
//
// which is IdealMean for disjoint sets, as PR58 says.
func VariableGamma(pa, ne float64, o Overlap) Constants {
	k, _ := o.others()
	return Constants{C1: 0, C2: 1 - pa, C3: 0, C4: 2 * (1 - pa) * (1 + k) / ne}
}

// VariableBeta returns PR58's Eq. 8, the β system with the μ decision and
// n_sr variable, as its OCR reads: c₁ = 0, c₂ = (1 − P_a)N_e,
// c₃ = 2(P_a·N_e·q·ω·N_R)², and c₄ = 2(1 − …, broken off. c₄ is completed
// as 2(1 − P_a)N_e, Eq. 7's c₄ on Eq. 8's scale (c₂ is N_e times Eq. 7's);
// at Fig. 10's parameters c₃n² is over 800 times c₄n from n_sr = 1 on, so
// dropping c₄ or tripling it moves the curve by less than 0.001
// (TestFig10Text). For
// disjoint sets ω·N_R = 1 and Eq. 8 is VariableAlpha's set-wide term: the
// β machine, whose set gains a constant total per reinforcement, differs
// from α only by the spread of the number of active units.
func VariableBeta(pa, ne, q float64, o Overlap) Constants {
	wn := 1.0
	if o.Omega > 0 {
		wn = o.Omega * o.Responses
	}
	x := pa * ne * q * wn
	return Constants{C1: 0, C2: (1 - pa) * ne, C3: 2 * x * x, C4: 2 * (1 - pa) * ne}
}

// Differentiated returns PR58's Eq. 11: the α system with the μ decision
// in a differentiated environment, n_sr fixed, two classes and disjoint
// sets of N_e units, for a test stimulus of class 1. The OCR keeps
// c₁ = P_c11 − P_c12 and c₄ = Σ_{r=1,2} [P_c1r − P_c1r²]/(P_a N_e), and of c₃
// a sum over r of variances; c₂ is read from Eq. 10 (Σ), P_a N_e (1 − P_c11),
// over the P_a N_e active units. Derived under PR58's assumptions it is
//
//	c₁ = P_c11 − P_c12,  c₂ = 1 − P_c11,
//	c₃ = Σ_r [σ_s²(P_c1r) + σ_a²(P_c1r)/(P_a N_e)],
//	c₄ = Σ_r P_c1r(1 − P_c1r)/(P_a N_e),
//
// a unit of R₁'s set active for the test stimulus holding 1 + Bin(n − 1, p)
// and one of R₂'s Bin(n, p′), p and p′ the unit's rates for the two
// classes (mean P_c11 and P_c12, variance σ_a² over units), their means
// over the test stimuli varying with σ_s². The ideal environment
// (P_c11 = P_c12 = P_a, no variances) gives back IdealMean. The limit,
// Φ(c₁/√c₃), is the same for P_r and P_g (PR58's Eq. 9).
func Differentiated(s PcStats, pa, ne float64) Constants {
	m := pa * ne
	return Constants{
		C1: s.Pc11 - s.Pc12,
		C2: 1 - s.Pc11,
		C3: s.VarS11 + s.VarS12 + (s.VarA11+s.VarA12)/m,
		C4: (s.Pc11*(1-s.Pc11) + s.Pc12*(1-s.Pc12)) / m,
	}
}

// VariableAlphaSeries is VariableAlpha (disjoint sets) as P_r is measured:
// over the cards of the learning series, where a response with more cards
// has more of them, so the test stimulus's response has the size-biased
// n₁: n₁ − n₂ has mean q²n̄ and variance (2q² − q⁴)n̄² (n normal of
// standard deviation q·n̄). PR58 takes n₁ and n₂ alike; the difference gives
// c₁ = P_a q², and a limit Φ(q/√(2 − q²)) above chance:
//
//	c₁ = P_a q²,  c₂ = 1 − P_a,  c₃ = P_a²(2q² − q⁴),  c₄ = 2(1 − P_a)/N_e.
func VariableAlphaSeries(pa, ne, q float64) Constants {
	return Constants{C1: pa * q * q, C2: 1 - pa, C3: pa * pa * (2*q*q - q*q*q*q), C4: 2 * (1 - pa) / ne}
}
