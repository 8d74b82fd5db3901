package associator

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// Hand-computed values of the 1958 model.
func TestModelHandValues(t *testing.T) {
	tests := []struct {
		name string
		got  float64
		want float64
	}{
		// One excitatory point, θ=1: the unit fires exactly when its point is lit.
		{"x=1 y=0 θ=1 binomial r=0.3", Model{1, 0, 1}.Pa(0.3), 0.3},
		// x=10, y=0, θ=10: all ten points lit.
		{"x=10 y=0 θ=10 binomial r=0.5", Model{10, 0, 10}.Pa(0.5), 1.0 / 1024},
		// x=y=5, θ=2 at r=1/2: e + (5−i) ~ Bin(10, 1/2), so P(e−i ≥ 2) =
		// P(Bin(10,1/2) ≥ 7) = (120+45+10+1)/1024.
		{"x=5 y=5 θ=2 binomial r=0.5", Model{5, 5, 2}.Pa(0.5), 176.0 / 1024},
		// x=2, y=1, θ=1, r=0.4: (e,i) = (1,0): 2·.4·.6·.6 = .288; (2,0):
		// .16·.6 = .096; (2,1): .16·.4 = .064.
		{"x=2 y=1 θ=1 binomial r=0.4", Model{2, 1, 1}.Pa(0.4), 0.448},
		// The same unit on 5 cells, 2 lit, points distinct: 30 ordered
		// draws (an excitatory pair, then an inhibitory cell). Both lit
		// cells excitatory: 3 inhibitory choices, all dark, fire. One lit
		// and one dark excitatory (6 pairs): 2 of the 3 remaining cells
		// are dark, so 12 fire. 15/30.
		{"x=2 y=1 θ=1 finite 2 of 5", Model{2, 1, 1}.PaFinite(5, 2), 0.5},
		// All lit, no inhibition: the unit fires if x ≥ θ.
		{"x=3 y=0 θ=3 finite all lit", Model{3, 0, 3}.PaFinite(10, 10), 1},
		// With y inhibitory points on a fully lit retina e−i = x−y.
		{"x=5 y=5 θ=2 finite all lit", Model{5, 5, 2}.PaFinite(400, 400), 0},
		{"x=5 y=5 θ=2 binomial dark", Model{5, 5, 2}.Pa(0), 0},
		// θ=0 and nothing lit: e−i = 0 ≥ 0, every unit fires.
		{"x=5 y=5 θ=0 finite dark", Model{5, 5, 0}.PaFinite(400, 0), 1},
		// P_c for one point: the unit fires for both exactly when its point
		// is in the overlap, so P_c = both/r1.
		{"P_c x=1 θ=1", Model{1, 0, 1}.Pc(0.4, 0.3, 0.1), 0.25},
		// x=2, θ=1, two disjoint halves: fires for 1 unless both points are
		// in half 2 (3/4); for both when one point is in each half (1/2).
		{"P_c x=2 θ=1 disjoint halves", Model{2, 0, 1}.Pc(0.5, 0.5, 0), 2.0 / 3},
		// The same stimulus twice.
		{"P_c identical", Model{5, 5, 2}.Pc(0.3, 0.3, 0.3), 1},
		{"P_c finite identical", Model{5, 5, 2}.PcFinite(400, 120, 120, 120), 1},
		// Finite, x=1: P_c = both/lit1.
		{"P_c finite x=1", Model{1, 0, 1}.PcFinite(20, 8, 5, 2), 0.25},
		// Finite, x=2, θ=1, two disjoint 2-cell stimuli on 4 cells: fires
		// for 1 unless both points are stimulus 2's cells (5 of 6 pairs);
		// for both when one point is in each (4 of 6 pairs).
		{"P_c finite x=2 θ=1 disjoint", Model{2, 0, 1}.PcFinite(4, 2, 2, 0), 4.0 / 5},
	}
	for _, tt := range tests {
		if math.Abs(tt.got-tt.want) > 1e-12 {
			t.Errorf("%s: got %.15g, want %.15g", tt.name, tt.got, tt.want)
		}
	}
}

// The two forms agree on a large retina and P_c with full overlap is the
// P_a ratio's limit; the finite form's P_c with an empty stimulus 2 and
// θ>0 is 0.
func TestModelForms(t *testing.T) {
	m := Model{5, 5, 2}
	for _, r := range []float64{0.05, 0.2, 0.5, 0.8} {
		n := 1_000_000
		lit := int(r * float64(n))
		if d := math.Abs(m.Pa(r) - m.PaFinite(n, lit)); d > 1e-4 {
			t.Errorf("r=%v: binomial %v and finite (n=%d) %v differ by %v", r, m.Pa(r), n, m.PaFinite(n, lit), d)
		}
		// P_c against a binomial P_c on the finite retina's fractions.
		if d := math.Abs(m.Pc(r, r/2, r/4) - m.PcFinite(n, lit, lit/2, lit/4)); d > 1e-3 {
			t.Errorf("r=%v: P_c binomial and finite differ by %v", r, d)
		}
	}
	if p := m.PcFinite(400, 100, 0, 0); p != 0 {
		t.Errorf("P_c with an unlit second stimulus = %v, want 0", p)
	}
	if p := (Model{3, 0, 3}).PcFinite(400, 2, 2, 2); !math.IsNaN(p) {
		t.Errorf("P_c when no unit can fire for stimulus 1 = %v, want NaN", p)
	}
}

// randomRetina returns S-unit outputs with exactly lit of n cells lit, at
// random.
func randomRetina(rng *rand.Rand, n, lit int) []float64 {
	s := make([]float64, n)
	for _, c := range rng.Perm(n)[:lit] {
		s[c] = 1
	}
	return s
}

// TestModelMonteCarlo checks the finite form against the real associator:
// random plugboards from Wire on random retinas with exactly lit cells lit.
// Given the retina, Wire's units are independent draws, so the number that
// fire is Binomial(units, P_a) exactly: the test allows 4.5 standard errors
// (a false alarm once in ~150,000 runs; it is seeded, so it either always
// passes or always fails). On a 25-cell retina the binomial form differs
// from the finite one by many standard errors, which checks that the test
// can tell them apart.
func TestModelMonteCarlo(t *testing.T) {
	tests := []struct {
		model       Model
		w, h, lit   int
		binomialFar bool // the binomial form must be rejected (tiny retina)
	}{
		{Model{5, 5, 2}, 20, 20, 40, false},
		{Model{5, 5, 2}, 20, 20, 120, false},
		{Model{5, 5, 2}, 20, 20, 200, false},
		{Model{10, 0, 3}, 20, 20, 60, false},
		{Model{10, 0, 3}, 20, 20, 100, false},
		{Model{5, 5, 1}, 5, 5, 10, false},
		{Model{8, 0, 6}, 4, 4, 10, true}, // finite 0.304, binomial 0.370
		{Model{10, 0, 6}, 4, 4, 8, true}, // finite 0.304, binomial 0.377
	}
	const units, retinas = 4000, 10
	for k, tt := range tests {
		t.Run(fmt.Sprintf("%v_%dx%d_lit%d", tt.model, tt.w, tt.h, tt.lit), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(k), 7))
			cfg := Config{Units: units, Excitatory: sentinel(tt.model.X), Inhibitory: sentinel(tt.model.Y), Threshold: sentinel(tt.model.Theta)}
			n := tt.w * tt.h
			fired := 0
			for j := range retinas {
				p, err := Wire(cfg, tt.w, tt.h, uint64(100*k+j))
				if err != nil {
					t.Fatal(err)
				}
				fired += len(p.Active(nil, randomRetina(rng, n, tt.lit)))
			}
			trials := float64(units * retinas)
			got := float64(fired) / trials
			want := tt.model.PaFinite(n, tt.lit)
			se := math.Sqrt(want * (1 - want) / trials)
			if z := math.Abs(got-want) / se; z > 4.5 {
				t.Errorf("measured P_a %.5f, finite model %.5f: %.1f standard errors apart", got, want, z)
			}
			bin := tt.model.Pa(float64(tt.lit) / float64(n))
			zb := math.Abs(got-bin) / math.Sqrt(bin*(1-bin)/trials)
			if tt.binomialFar && zb < 10 {
				t.Errorf("binomial form %.5f is only %.1f standard errors from the measured %.5f; the test cannot tell the forms apart", bin, zb, got)
			}
		})
	}
}

// sentinel turns a count into associator.Config's convention (-1 for 0).
func sentinel(v int) int {
	if v == 0 {
		return -1
	}
	return v
}

// TestModelMonteCarloBinomial checks the binomial form on retinas whose
// cells light independently with probability r: then every origin point is
// lit with probability r independently of the others, exactly the 1958
// assumption. Units on one retina are correlated through it, so the
// standard error comes from the spread of the per-retina fractions.
func TestModelMonteCarloBinomial(t *testing.T) {
	for k, tt := range []struct {
		model Model
		r     float64
	}{{Model{5, 5, 2}, 0.3}, {Model{10, 0, 4}, 0.25}, {Model{5, 5, 1}, 0.5}} {
		rng := rand.New(rand.NewPCG(uint64(k), 11))
		const units, retinas, cells = 500, 400, 400
		cfg := Config{Units: units, Excitatory: sentinel(tt.model.X), Inhibitory: sentinel(tt.model.Y), Threshold: sentinel(tt.model.Theta)}
		var sum, sum2 float64
		for j := range retinas {
			p, err := Wire(cfg, 20, 20, uint64(1000*k+j))
			if err != nil {
				t.Fatal(err)
			}
			s := make([]float64, cells)
			for c := range s {
				if rng.Float64() < tt.r {
					s[c] = 1
				}
			}
			f := float64(len(p.Active(nil, s))) / units
			sum += f
			sum2 += f * f
		}
		mean := sum / retinas
		se := math.Sqrt((sum2/retinas - mean*mean) / (retinas - 1))
		want := tt.model.Pa(tt.r)
		if z := math.Abs(mean-want) / se; z > 4.5 {
			t.Errorf("%v, r=%v: measured P_a %.5f ± %.5f, binomial model %.5f (%.1f SE)", tt.model, tt.r, mean, se, want, z)
		}
	}
}

// TestPcMonteCarlo checks P_c on two overlapping stimuli: among the units
// that fire for stimulus 1, each fires for stimulus 2 independently with
// probability P_c.
func TestPcMonteCarlo(t *testing.T) {
	for k, tt := range []struct {
		model                  Model
		lit1, lit2, both, n, w int
	}{
		{Model{5, 5, 2}, 120, 100, 60, 400, 20},
		{Model{10, 0, 3}, 80, 80, 20, 400, 20},
		{Model{3, 2, 1}, 10, 9, 5, 25, 5},
	} {
		// Stimulus 1 lights cells [0, lit1); stimulus 2 lights
		// [lit1−both, lit1−both+lit2). Wire places points uniformly, so
		// which cells they are does not matter.
		s1, s2 := make([]float64, tt.n), make([]float64, tt.n)
		for c := range tt.lit1 {
			s1[c] = 1
		}
		for c := tt.lit1 - tt.both; c < tt.lit1-tt.both+tt.lit2; c++ {
			s2[c] = 1
		}
		cfg := Config{Units: 50000, Excitatory: sentinel(tt.model.X), Inhibitory: sentinel(tt.model.Y), Threshold: sentinel(tt.model.Theta)}
		p, err := Wire(cfg, tt.w, tt.n/tt.w, uint64(k+1))
		if err != nil {
			t.Fatal(err)
		}
		a1 := p.Active(nil, s1)
		on2 := map[int]bool{}
		for _, u := range p.Active(nil, s2) {
			on2[u] = true
		}
		both := 0
		for _, u := range a1 {
			if on2[u] {
				both++
			}
		}
		got := float64(both) / float64(len(a1))
		want := tt.model.PcFinite(tt.n, tt.lit1, tt.lit2, tt.both)
		se := math.Sqrt(want * (1 - want) / float64(len(a1)))
		if z := math.Abs(got-want) / se; z > 4.5 {
			t.Errorf("%v: measured P_c %.4f over %d units, model %.4f (%.1f SE)", tt.model, got, len(a1), want, z)
		}
	}
}

func ExampleModel() {
	m := Model{X: 5, Y: 5, Theta: 2}
	fmt.Printf("P_a at half the retina lit: %.4f (binomial), %.4f (400 cells, 200 lit)\n", m.Pa(0.5), m.PaFinite(400, 200))
	fmt.Printf("P_c for two stimuli each lighting 30%%, sharing 15%%: %.3f\n", m.Pc(0.3, 0.3, 0.15))
	// Output:
	// P_a at half the retina lit: 0.1719 (binomial), 0.1722 (400 cells, 200 lit)
	// P_c for two stimuli each lighting 30%, sharing 15%: 0.276
}
