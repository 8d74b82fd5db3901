package associator

import (
	"fmt"
	"math"
)

// Model is Rosenblatt's 1958 probability model of one A-unit ("The
// Perceptron: a probabilistic model…", Psychological Review 65(6)): x
// excitatory and y inhibitory origin points placed at random on the retina,
// and a threshold θ. The unit fires when e − i ≥ θ, where e of its
// excitatory and i of its inhibitory origin points are lit. P_a is the
// probability that it fires for a stimulus; P_c the probability that a unit
// firing for one stimulus also fires for another that overlaps it.
//
// The model comes in two forms, and both are exact sums over the possible
// counts of lit origin points (no approximation beyond float64 rounding):
//
//   - the binomial form (Pa, Pc), the 1958 paper's: every origin point lands
//     on a lit cell independently with probability R, the fraction of the
//     retina lit — origin points drawn with replacement from an infinite
//     retina, or equally a retina whose cells light independently;
//   - the finite form (PaFinite, PcFinite): a retina of n cells, exactly lit
//     of them lit, and the x+y origin points of a unit distinct cells drawn
//     without replacement — exactly how Wire draws them. P_a is then a
//     hypergeometric sum. On a 400-cell retina the two forms differ by a few
//     tenths of a percentage point; the tests compare Wire against the
//     finite form, the one it realises.
type Model struct {
	X, Y, Theta int
}

// ModelOf returns the model of a wiring configuration (defaults applied).
func ModelOf(c Config) Model {
	c = c.Defaults()
	return Model{X: c.Excitatory, Y: c.Inhibitory, Theta: c.Threshold}
}

func (m Model) String() string { return fmt.Sprintf("x=%d, y=%d, θ=%d", m.X, m.Y, m.Theta) }

// check panics on a model no wiring could have (misuse).
func (m Model) check() {
	if m.X < 0 || m.Y < 0 || m.X+m.Y < 1 || m.X > 64 || m.Y > 64 {
		panic(fmt.Sprintf("associator: model %v: need 0 ≤ x, y ≤ 64 and x+y ≥ 1", m))
	}
}

// Pa returns P_a in the binomial form: the probability that the unit fires
// when each origin point is lit independently with probability r, that is
//
//	P_a = Σ_{e−i ≥ θ} C(x,e) r^e (1−r)^(x−e) · C(y,i) r^i (1−r)^(y−i).
//
// It panics if r is outside [0, 1].
func (m Model) Pa(r float64) float64 {
	m.check()
	if !(r >= 0 && r <= 1) {
		panic(fmt.Sprintf("associator: Pa: fraction lit %v outside [0, 1]", r))
	}
	var p float64
	for e := 0; e <= m.X; e++ {
		pe := binomialPMF(m.X, e, r)
		for i := 0; i <= m.Y && e-i >= m.Theta; i++ {
			p += pe * binomialPMF(m.Y, i, r)
		}
	}
	return p
}

// PaFinite returns P_a in the finite form: the probability that a unit whose
// x+y origin points are distinct cells drawn uniformly from a retina of n
// cells fires when exactly lit of the cells are lit:
//
//	P_a = Σ_{e−i ≥ θ} C(lit,e)·C(lit−e,i)·C(n−lit,x−e)·C(n−lit−x+e,y−i) / (C(n,x)·C(n−x,y)).
//
// It panics if lit is outside [0, n] or x+y > n.
func (m Model) PaFinite(n, lit int) float64 {
	m.check()
	if lit < 0 || lit > n || m.X+m.Y > n {
		panic(fmt.Sprintf("associator: PaFinite: %d lit of %d cells with %v", lit, n, m))
	}
	total := choose(n, m.X) * choose(n-m.X, m.Y)
	var p float64
	for e := 0; e <= m.X; e++ {
		for i := 0; i <= m.Y && e-i >= m.Theta; i++ {
			p += choose(lit, e) * choose(lit-e, i) * choose(n-lit, m.X-e) * choose(n-lit-(m.X-e), m.Y-i)
		}
	}
	return p / total
}

// Pc returns P_c in the binomial form: the probability that a unit firing
// for stimulus 1 also fires for stimulus 2, when stimulus 1 lights a
// fraction r1 of the retina, stimulus 2 a fraction r2, and a fraction both
// is lit by both (their overlap). Each origin point falls independently in
// one of four regions — lit by both, by 1 only, by 2 only, by neither — with
// probabilities both, r1−both, r2−both, 1−r1−r2+both, and
//
//	P_c = P(fires for 1 and for 2) / P_a(r1),
//
// the joint probability summed exactly over the multinomial counts of
// excitatory and inhibitory origin points in the four regions. It returns
// NaN when P_a(r1) is 0 (no unit fires for stimulus 1), and panics if the
// fractions are not those of two sets on one retina.
func (m Model) Pc(r1, r2, both float64) float64 {
	m.check()
	q := [4]float64{both, r1 - both, r2 - both, 1 - r1 - r2 + both}
	for _, v := range q {
		if !(v >= -1e-12 && v <= 1+1e-12) {
			panic(fmt.Sprintf("associator: Pc: fractions r1=%v r2=%v both=%v are not two sets on one retina", r1, r2, both))
		}
	}
	for k := range q {
		q[k] = min(max(q[k], 0), 1)
	}
	weight := func(e, i [4]int) float64 {
		return multinomialPMF(m.X, e, q) * multinomialPMF(m.Y, i, q)
	}
	return m.overlap(weight)
}

// PcFinite returns P_c in the finite form: a retina of n cells, stimulus 1
// lighting lit1 cells, stimulus 2 lit2 cells, both of them lighting both
// cells, and the unit's x+y origin points distinct cells drawn uniformly
// (as Wire draws them). It returns NaN when no unit can fire for stimulus 1
// and panics if the counts are not those of two sets of n cells.
func (m Model) PcFinite(n, lit1, lit2, both int) float64 {
	m.check()
	s := [4]int{both, lit1 - both, lit2 - both, n - lit1 - lit2 + both}
	for _, v := range s {
		if v < 0 || m.X+m.Y > n {
			panic(fmt.Sprintf("associator: PcFinite: %d and %d lit with %d in common on %d cells is not two sets on one retina (%v)", lit1, lit2, both, n, m))
		}
	}
	total := choose(n, m.X) * choose(n-m.X, m.Y)
	weight := func(e, i [4]int) float64 {
		w := 1.0
		for r := range s {
			w *= choose(s[r], e[r]) * choose(s[r]-e[r], i[r])
		}
		return w / total
	}
	return m.overlap(weight)
}

// overlap sums weight over every way of placing the excitatory (e) and
// inhibitory (i) origin points in the four regions (both, 1 only, 2 only,
// neither) and returns P(fires for 2 | fires for 1).
func (m Model) overlap(weight func(e, i [4]int) float64) float64 {
	var p1, p12 float64
	for _, e := range compositions4(m.X) {
		for _, i := range compositions4(m.Y) {
			fires1 := (e[0]+e[1])-(i[0]+i[1]) >= m.Theta
			if !fires1 {
				continue
			}
			w := weight(e, i)
			p1 += w
			if (e[0]+e[2])-(i[0]+i[2]) >= m.Theta {
				p12 += w
			}
		}
	}
	if p1 == 0 {
		return math.NaN()
	}
	return p12 / p1
}

// compositions4 returns every way of writing k as an ordered sum of four
// non-negative integers.
func compositions4(k int) [][4]int {
	var out [][4]int
	for a := 0; a <= k; a++ {
		for b := 0; a+b <= k; b++ {
			for c := 0; a+b+c <= k; c++ {
				out = append(out, [4]int{a, b, c, k - a - b - c})
			}
		}
	}
	return out
}

// choose returns the binomial coefficient C(n, k) as a float64 (0 outside
// 0 ≤ k ≤ n), by the multiplicative formula: exact up to 2^53 and within
// a few ulps beyond.
func choose(n, k int) float64 {
	if k < 0 || k > n {
		return 0
	}
	k = min(k, n-k)
	c := 1.0
	for j := 1; j <= k; j++ {
		c = c * float64(n-k+j) / float64(j)
	}
	return c
}

// binomialPMF returns C(n,k) p^k (1−p)^(n−k), with 0^0 = 1 (as math.Pow has it).
func binomialPMF(n, k int, p float64) float64 {
	return choose(n, k) * math.Pow(p, float64(k)) * math.Pow(1-p, float64(n-k))
}

// multinomialPMF returns n!/(Π c_r!) Π q_r^c_r for counts c summing to n.
func multinomialPMF(n int, c [4]int, q [4]float64) float64 {
	w := 1.0
	left := n
	for r := range c {
		w *= choose(left, c[r]) * math.Pow(q[r], float64(c[r]))
		left -= c[r]
	}
	return w
}
