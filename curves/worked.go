package curves

import (
	"context"
	"math"

	"mark1/response"
)

// Environment is a differentiated environment seen through PR58's Eq. 11
// (Differentiated) at N_e A-units per set: its similarity statistics, the
// constants they give, and the limit Φ(c₁/√c₃) that P_r and P_g both tend
// to. c₃ has two parts: VarS, the variance of P_c over the test stimuli,
// which no number of A-units averages away, and VarA/(P_a N_e), the
// variance over the units, which falls as 1/N_e; Ceiling, Φ(c₁/√VarS), is
// the limit with infinitely many units (1 when VarS is 0).
type Environment struct {
	Ne      float64 `json:"n_e"`
	Pa      float64 `json:"p_a"`
	Pc11    float64 `json:"p_c11"`
	Pc12    float64 `json:"p_c12"`
	C1      float64 `json:"c1"`    // P_c11 − P_c12
	VarS    float64 `json:"var_s"` // σ_s²(P_c11) + σ_s²(P_c12)
	VarA    float64 `json:"var_a"` // σ_a²(P_c11) + σ_a²(P_c12)
	C3      float64 `json:"c3"`    // VarS + VarA/(P_a N_e)
	Limit   float64 `json:"limit"`
	Ceiling float64 `json:"ceiling"`
	// Criterion says whether PR58's P_c12 < P_a < P_c11 holds.
	Criterion bool `json:"criterion"`
}

// EnvironmentOf returns the environment of statistics s at P_a = pa and
// N_e = ne.
func EnvironmentOf(s PcStats, pa, ne float64) Environment {
	c := Differentiated(s, pa, ne)
	e := Environment{Ne: ne, Pa: pa, Pc11: s.Pc11, Pc12: s.Pc12, C1: c.C1, VarS: s.VarS11 + s.VarS12, VarA: s.VarA11 + s.VarA12,
		C3: c.C3, Limit: c.Limit(), Ceiling: 1, Criterion: s.Pc12 < pa && pa < s.Pc11}
	if e.VarS > 0 {
		e.Ceiling = phi(e.C1 / math.Sqrt(e.VarS))
	}
	return e
}

// RT58Environment returns a differentiated environment that gives RT58's
// worked point through Eq. 11 (Differentiated) at P_a = pa, N_e = 100: the
// P_c11, P_c12 and σ_a² whose constants are those solved from the paper
// (solveWorked, up to the common scale Z does not see), with σ_s² = 0 —
// RT58's stimuli vary over no parameter the units see unequally, which is
// what PR58 says makes the variance over stimuli vanish. RT58 states no
// P_a, and the three numbers fix the environment at any P_a: with
// ρ₂ = c₂/c₁ and ρ₄ = c₄/c₁² of the solved constants, c₁ = (1 − P_c11)/ρ₂,
// P_c12 = P_c11 − c₁, P_c11 the root of
//
//	[P_c11(1 − P_c11) + P_c12(1 − P_c12)]/(P_a N_e) = ρ₄ c₁²,
//
// and σ_a²(P_c11) + σ_a²(P_c12) = (c₃/c₁²)·c₁²·P_a N_e, split evenly.
func RT58Environment(pa float64) PcStats {
	c := solveWorked()
	r2, r3, r4 := c.C2/c.C1, c.C3/(c.C1*c.C1), c.C4/(c.C1*c.C1)
	ne := Worked.Ne
	split := func(p float64) (c1, q float64) { c1 = (1 - p) / r2; return c1, p - c1 }
	g := func(p float64) float64 {
		c1, q := split(p)
		return (p*(1-p)+q*(1-q))/(pa*ne) - r4*c1*c1
	}
	// g rises with P_c11 from P_c12 = 0 (P_c11 = 1/(1 + ρ₂)) to 1/2.
	lo, hi := 1/(1+r2), 0.5
	for range 100 {
		mid := (lo + hi) / 2
		if g(mid) < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	p := (lo + hi) / 2
	c1, q := split(p)
	va := r3 * c1 * c1 * pa * ne
	return PcStats{Pc11: p, Pc12: q, VarA11: va / 2, VarA12: va / 2}
}

// RT58CriterionPa returns the P_a at which RT58Environment's P_c11 equals
// P_a: above it the environments that give RT58's worked point fail PR58's
// criterion P_c12 < P_a < P_c11, and still give P_g = 0.85.
func RT58CriterionPa() float64 {
	lo, hi := 0.01, 0.5
	for range 100 {
		mid := (lo + hi) / 2
		if RT58Environment(mid).Pc11 > mid {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// WorkedPa is the P_a at which the worked point's environment is shown:
// RT58 states none, and at this one P_c11 = 0.1098 < P_a.
const WorkedPa = 0.1125

// WorkedMachine measures the similarity statistics of the machine at
// RT58's worked point — 100 A-units per set, μ decision, 100 squares and
// 100 circles, square-circle — on the fresh cards of seeds 1…seeds
// (averaged), and returns them with the machine's mean P_a and the
// environment they make (EnvironmentOf at N_e = 100).
func WorkedMachine(ctx context.Context, seeds int) (Environment, PcStats, error) {
	var sum PcStats
	var pa float64
	f := 1 / float64(seeds)
	for s := 1; s <= seeds; s++ {
		m, err := run{task: "square-circle", ne: int(Worked.Ne), n: int(Worked.N), decision: response.Mean, seed: uint64(s)}.do(ctx, true)
		if err != nil {
			return Environment{}, PcStats{}, err
		}
		pa += m.pa * f
		sum.Pc11 += m.pc.Pc11 * f
		sum.Pc12 += m.pc.Pc12 * f
		sum.VarS11 += m.pc.VarS11 * f
		sum.VarS12 += m.pc.VarS12 * f
		sum.VarA11 += m.pc.VarA11 * f
		sum.VarA12 += m.pc.VarA12 * f
	}
	return EnvironmentOf(sum, pa, Worked.Ne), sum, nil
}
