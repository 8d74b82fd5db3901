package coupling

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestMeanField holds the simulated couplings to the paper's mean-field
// equation, with Φ held fixed (Block, Knight and Rosenblatt 1962; the
// equations as numbered there, read through a 2017 reader's derivation,
// docs/four-layer.md):
//
//	(3)  γ_ν^i(t) = Σ_μ υ_μν(t)·e_μi
//	(5)  υ_μν(t+Δt) − υ_μν(t) = ηΔt·e_μj·Φ[α_ν^k(t)] − δΔt·υ_μν(t)   (j followed by k)
//	(10) dγ_ν^i/dt = Σ_jk η·f_jk·Φ[α_ν^k(t)]·n_ij − δ·γ_ν^i(t)
//
// with n_ij = Σ_μ e_μi·e_μj (A_I units common to i and j) and f_jk = F_jk/M,
// F_jk the number of times j is followed by k in a sequence of M
// transitions. With Φ fixed, (10) is linear; from γ(0) = 0 it gives
//
//	γ_ν^i(t) = γ*·(1 − e^{−δt}),   γ* = (η/δ)·Σ_jk f_jk·Φ_νk·n_ij.
//
// The simulation shows a fixed sequence of M transitions round and round
// (as the machine does), one step of (5) each. Two deviations from (10),
// both explained by (10) being the average over the sequence in the limit
// Δt → 0 (the paper's step from (8) to (9)):
//
//   - Within one pass γ moves in steps whose order the sequence sets, so the
//     simulated γ follows (10) only at the end of each whole pass, where
//     every pair (j, k) has occurred F_jk times; there it must be within 2 %
//     of (10) for t ∈ [0, 5/δ]. Between ends of passes it must stay within
//     2 % of γ* of (10).
//   - Once settled, the simulated γ does not stand still at γ* but repeats
//     the same pass-long ripple for ever: a periodic solution of (5). Its
//     mean over one pass is exactly γ* (sum the periodic solution
//     γ_p = ηΔt·Σ_s (1−δΔt)^s·u_{p−1−s}, u_m = Φ_{ν,k_m}·n_{i,j_m}, over a
//     pass: ηΔt·M·ū/(δΔt) = (η/δ)·Σ_jk f_jk·Φ_νk·n_ij); that mean must
//     equal γ* to 1e-9 relative after 40/δ (e^−40 of the start left).
func TestMeanField(t *testing.T) {
	const (
		units, stimuli, M = 40, 5, 12
		eta, delta, dt    = 0.3, 0.02, 0.05
	)
	rng := rand.New(rand.NewPCG(37, 4))
	// e_μk: each stimulus fires about a quarter of the A_I units.
	fires := make([][]int, stimuli)
	for k := range fires {
		for mu := range units {
			if rng.Float64() < 0.25 {
				fires[k] = append(fires[k], mu)
			}
		}
	}
	// Φ_νk, held fixed: whether A_II unit ν fires for stimulus k, and a
	// graded value on some, as the paper's Φ need not be 0 or 1.
	phi := make([][]float64, stimuli)
	for k := range phi {
		phi[k] = make([]float64, units)
		for nu := range phi[k] {
			switch r := rng.Float64(); {
			case r < 0.4:
				phi[k][nu] = 1
			case r < 0.5:
				phi[k][nu] = 0.5
			}
		}
	}
	// The sequence: M transitions, seq[m] followed by seq[(m+1)%M].
	seq := make([]int, M)
	for m := range seq {
		seq[m] = rng.IntN(stimuli)
	}
	n := func(i, j int) float64 { // n_ij
		in := map[int]bool{}
		for _, mu := range fires[i] {
			in[mu] = true
		}
		c := 0
		for _, mu := range fires[j] {
			if in[mu] {
				c++
			}
		}
		return float64(c)
	}
	// γ* of (10) for every (i, ν), from f_jk = F_jk/M.
	f := make([][]float64, stimuli)
	for j := range f {
		f[j] = make([]float64, stimuli)
	}
	for m := range M {
		f[seq[m]][seq[(m+1)%M]] += 1.0 / M
	}
	star := make([][]float64, stimuli)
	for i := range star {
		star[i] = make([]float64, units)
		for nu := range units {
			s := 0.0
			for j := range stimuli {
				for k := range stimuli {
					s += f[j][k] * phi[k][nu] * n(i, j)
				}
			}
			star[i][nu] = eta / delta * s
		}
	}

	l, err := New(units, 1)
	if err != nil {
		t.Fatal(err)
	}
	meanField := func(i, nu int, t float64) float64 { return star[i][nu] * (1 - math.Exp(-delta*t)) }
	steps := int(math.Round(5 / delta / dt))
	worstEnd, worstAny := 0.0, 0.0
	for s := 1; s <= steps; s++ {
		m := (s - 1) % M
		l.Learn(fires[seq[m]], phi[seq[(m+1)%M]], eta, delta, dt)
		tm := float64(s) * dt
		for i := range stimuli {
			for nu := range units {
				if star[i][nu] == 0 {
					if g := l.Gamma(fires[i], nu); g != 0 {
						t.Fatalf("γ_%d^%d = %v where (10) keeps it 0", nu, i, g)
					}
					continue
				}
				g, mf := l.Gamma(fires[i], nu), meanField(i, nu, tm)
				worstAny = max(worstAny, math.Abs(g-mf)/star[i][nu])
				if s%M == 0 {
					worstEnd = max(worstEnd, math.Abs(g-mf)/mf)
				}
			}
		}
	}
	t.Logf("over t ∈ [0, 5/δ]: worst |γ − (10)|/(10) at the end of a pass %.4f, worst |γ − (10)|/γ* %.4f", worstEnd, worstAny)
	if worstEnd > 0.02 {
		t.Errorf("at the end of a pass γ is %.2f%% from (10); want ≤ 2%%", 100*worstEnd)
	}
	if worstAny > 0.02 {
		t.Errorf("γ strays %.2f%% of γ* from (10); want ≤ 2%%", 100*worstAny)
	}

	// Run on to 40/δ, ending on a whole pass, then average one more pass.
	total := (int(40/delta/dt) + M - 1) / M * M
	for s := steps + 1; s <= total; s++ {
		m := (s - 1) % M
		l.Learn(fires[seq[m]], phi[seq[(m+1)%M]], eta, delta, dt)
	}
	mean := make([][]float64, stimuli)
	for i := range mean {
		mean[i] = make([]float64, units)
	}
	for m := range M {
		l.Learn(fires[seq[m]], phi[seq[(m+1)%M]], eta, delta, dt)
		for i := range stimuli {
			for nu := range units {
				mean[i][nu] += l.Gamma(fires[i], nu) / M
			}
		}
	}
	worst, checked := 0.0, 0
	for i := range stimuli {
		for nu := range units {
			if star[i][nu] == 0 {
				continue
			}
			checked++
			worst = max(worst, math.Abs(mean[i][nu]-star[i][nu])/star[i][nu])
		}
	}
	t.Logf("fixed point: %d values of γ*, worst relative error of the pass mean %.2g", checked, worst)
	if checked < stimuli*units/2 || worst > 1e-9 {
		t.Errorf("the pass mean of γ is %.3g from (η/δ)·Σ f·Φ·n relative (%d values); want ≤ 1e-9", worst, checked)
	}
}
