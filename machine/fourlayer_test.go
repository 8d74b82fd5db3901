package machine_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"mark1/coupling"
	"mark1/machine"
)

// fourLayer returns a copy of the three-layer machine m's setting with the
// fourth layer, built on the same seeds and task.
func fourLayer(t *testing.T, m *machine.Machine, c coupling.Config) *machine.Machine {
	t.Helper()
	cfg := m.Config
	cfg.Layers, cfg.Coupling = 4, c.Defaults()
	m4, err := machine.New(cfg, m.Classes, m.Seeds, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m4
}

// fileMembers decodes a machine file's "machine" member, leaving out the
// members that record the fourth layer.
func fileMembers(t *testing.T, m *machine.Machine) map[string]any {
	t.Helper()
	var f struct {
		Machine map[string]any `json:"machine"`
	}
	if err := json.Unmarshal(encode(t, m), &f); err != nil {
		t.Fatal(err)
	}
	delete(f.Machine, "couplings")
	cfg := f.Machine["config"].(map[string]any)
	delete(cfg, "layers")
	delete(cfg, "coupling")
	return f.Machine
}

// TestFourLayersEtaZero: with η = 0 the couplings stay 0, A_II fires
// exactly where A_I does, and the machine trains exactly as the
// three-layer machine on the same wiring: the same pots, wiring, history
// (every P_r and P_g, mistakes, clock) and file, but for the members that
// record the fourth layer. The worn preset has reading noise (no cache)
// and faults.
func TestFourLayersEtaZero(t *testing.T) {
	for _, preset := range []string{"mark1", "worn", "full"} {
		m3, tr, te := setup(t, preset, "leftright", 20, 3)
		m4 := fourLayer(t, m3, coupling.Config{Eta: 0, Delta: 0.05})
		run(t, m3, machine.Recipe{MaxEpochs: 6}, tr, te)
		run(t, m4, machine.Recipe{MaxEpochs: 6}, tr, te)
		if m4.Couplings == nil || m4.Couplings.Steps != m4.Config.Coupling.Steps() {
			t.Fatalf("%s: couplings %+v; want %d steps learned", preset, m4.Couplings, m4.Config.Coupling.Steps())
		}
		if slices.ContainsFunc(m4.Couplings.V, func(v float64) bool { return v != 0 }) {
			t.Errorf("%s: a coupling moved with η = 0", preset)
		}
		if !reflect.DeepEqual(m3.Bank.State(), m4.Bank.State()) {
			t.Errorf("%s: the pots differ", preset)
		}
		if !reflect.DeepEqual(m3.Wiring, m4.Wiring) || !reflect.DeepEqual(m3.Plugboard, m4.Plugboard) {
			t.Errorf("%s: the wiring differs", preset)
		}
		if len(m3.History) == 0 || !reflect.DeepEqual(m3.History, m4.History) {
			t.Errorf("%s: histories differ:\n%+v\n%+v", preset, m3.History, m4.History)
		}
		if !reflect.DeepEqual(fileMembers(t, m3), fileMembers(t, m4)) {
			t.Errorf("%s: the files differ beyond the fourth layer", preset)
		}
	}
}

// TestFourLayersLearn: with η > 0 the couplings learn from the sequence,
// A_II fires on cards where A_I does not, the couplings are frozen while
// the R-units learn, and the machine file keeps them: a copy answers the
// same, and a resumed session does not learn them again.
func TestFourLayersLearn(t *testing.T) {
	m3, tr, te := setup(t, "mark1", "leftright", 20, 4)
	m4 := fourLayer(t, m3, coupling.Config{Eta: coupling.DefaultEta})
	s, err := machine.NewSession(m4, machine.Recipe{MaxEpochs: 3}, tr, te)
	if err != nil {
		t.Fatal(err)
	}
	learned := slices.Clone(m4.Couplings.V)
	if !slices.ContainsFunc(learned, func(v float64) bool { return v != 0 }) {
		t.Fatal("no coupling learned")
	}
	more := 0
	var r machine.Response
	for _, x := range tr.X {
		m4.Present(&r, x, nil)
		if len(r.Active) < len(r.AI) {
			t.Fatalf("A_II fired %d units, A_I %d: A_II must fire wherever A_I does", len(r.Active), len(r.AI))
		}
		more += len(r.Active) - len(r.AI)
	}
	if more == 0 {
		t.Error("A_II never fired beyond A_I")
	}
	if _, err := s.Run(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(learned, m4.Couplings.V) {
		t.Error("the couplings moved while the R-units learned")
	}
	c, err := m4.Clone()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.Couplings.V, m4.Couplings.V) || c.Couplings.Steps != m4.Couplings.Steps {
		t.Error("the file did not keep the couplings")
	}
	if a, b := m4.Accuracy(te.X, te.Y), c.Accuracy(te.X, te.Y); a != b {
		t.Errorf("a copy answers %v, the machine %v", b, a)
	}
	steps := c.Couplings.Steps
	if _, err := machine.NewSession(c, machine.Recipe{MaxEpochs: 5}, tr, te); err != nil {
		t.Fatal(err)
	}
	if c.Couplings.Steps != steps || !slices.Equal(c.Couplings.V, learned) {
		t.Error("a resumed session learned the couplings again")
	}
}

func TestFourLayersConfig(t *testing.T) {
	base, _ := machine.Preset("mark1")
	for _, tc := range []struct {
		name  string
		edit  func(*machine.Config)
		field string
	}{
		{"layers 3", func(c *machine.Config) { c.Layers = 3 }, "layers"},
		{"couplings on three layers", func(c *machine.Config) { c.Coupling.Eta = 1 }, "coupling"},
		{"no δ", func(c *machine.Config) { c.Layers = 4 }, "coupling.delta"},
		{"negative η", func(c *machine.Config) { c.Layers, c.Coupling = 4, coupling.Config{Eta: -1}.Defaults() }, "coupling.eta"},
		{"too many A-units", func(c *machine.Config) {
			c.Layers, c.Coupling = 4, coupling.Config{}.Defaults()
			c.Associator.Units = coupling.MaxUnits + 1
		}, "associator.units"},
	} {
		c := base
		tc.edit(&c)
		var fe *machine.FieldError
		if err := c.Validate(); !errors.As(err, &fe) || fe.Field != tc.field {
			t.Errorf("%s: %v; want an error about %s", tc.name, err, tc.field)
		}
	}
	c := base
	c.Layers, c.Coupling = 4, coupling.Config{}.Defaults()
	if err := c.Validate(); err != nil {
		t.Error(err)
	}
	// A file that gives a three-layer machine couplings is refused.
	m := newMachine(t, "mark1")
	var b bytes.Buffer
	if err := m.Encode(&b); err != nil {
		t.Fatal(err)
	}
	var f map[string]json.RawMessage
	json.Unmarshal(b.Bytes(), &f)
	var body map[string]json.RawMessage
	json.Unmarshal(f["machine"], &body)
	body["couplings"] = json.RawMessage(`{"steps":1,"from":[],"to":[],"value":[]}`)
	raw, _ := json.Marshal(body)
	if _, err := machine.Decode(bytes.NewReader(withChecksum(raw)), "x"); err == nil || !strings.Contains(err.Error(), "couplings on a three-layer machine") {
		t.Errorf("a three-layer machine given couplings: %v", err)
	}
}

// TestFourLayersFixedPoint holds the machine's sequence phase, Φ free to
// change with the couplings, to the paper's equilibrium (12),
//
//	γ_ν^i = (η/δ)·Σ_jk f_jk·n_ij·Φ[β_ν^k + γ_ν^k],
//
// and to the minimal solution its iteration (13) reaches from γ = 0. The
// cards are shown round and round for 45/δ, a whole number of passes, so
// that e^−45 of the start is left; then two more passes are shown as
// LearnSequence shows them. As in coupling's TestMeanField the settled γ
// repeats a pass-long ripple. The test asks:
//
//   - that Φ is the same in both passes (the settled state is periodic);
//   - that the pass mean of γ solves (12) to 1e-9 relative with Φ as the
//     machine used it (the periodic solution of (5) summed over a pass);
//   - where Φ as used is Φ at the pass mean, β + γ̄ (the ripple does not
//     cross θ), for every card of a unit ν (γ_ν depends only on ν's Φ), the
//     mean solves (12) itself, and that solution is the minimal one (13)
//     reaches. The units whose ripple does cross θ are the discrete
//     machine's departure from (12), whose Δt → 0 limit has no ripple;
//     they are counted, and must be few (at most 5 % of the units whose
//     couplings moved). The ripple is about δ times the cards in a pass
//     (here 12 × 0.01); with 30 cards and δ = 0.05, 295 of 351 units
//     cross θ within a pass and (12) no longer describes the machine.
func TestFourLayersFixedPoint(t *testing.T) {
	m3, tr, _ := setup(t, "mark1", "leftright", 8, 5)
	n := tr.Len()
	const delta = 0.01
	cfg := m3.Config
	cfg.Layers = 4
	cfg.Coupling = coupling.Config{Eta: 0.05, Delta: delta, Duration: delta * float64(n*int(45/delta/float64(n)+1))}
	m, err := machine.New(cfg, m3.Classes, m3.Seeds, nil)
	if err != nil {
		t.Fatal(err)
	}
	if steps := cfg.Coupling.Steps(); steps%n != 0 || float64(steps)*delta < 45 {
		t.Fatalf("%d steps for %d cards", steps, n)
	}
	if !m.LearnSequence(tr.X) {
		t.Fatal("nothing learned")
	}
	l, units, eta := m.Couplings.Clone(), m.Couplings.Units, cfg.Coupling.Eta
	fired := make([][]int, n)
	var s []float64
	for i, x := range tr.X {
		s = m.Retina.Expose(s, x, nil)
		fired[i] = m.Plugboard.Active(nil, s)
	}
	// Two more passes, as LearnSequence shows them: Φ of every card k and
	// unit ν as used in each, and the second pass's mean of every γ_ν^i.
	var phi [2][][]float64
	mean := make([][]float64, n)
	for i := range mean {
		mean[i] = make([]float64, units)
	}
	var alpha []float64
	for pass := range 2 {
		phi[pass] = make([][]float64, n)
		for step := range n {
			j, k := step, (step+1)%n
			alpha = l.Input(alpha, fired[k])
			phi[pass][k] = make([]float64, units)
			for nu, a := range alpha {
				phi[pass][k][nu] = coupling.Phi(a, l.Theta)
			}
			l.Learn(fired[j], phi[pass][k], eta, delta, 1)
			if pass == 1 {
				for i := range n {
					for nu := range units {
						mean[i][nu] += l.Gamma(fired[i], nu) / float64(n)
					}
				}
			}
		}
	}
	used := phi[1]
	if !reflect.DeepEqual(phi[0], phi[1]) {
		t.Fatal("Φ differs between two passes after 45/δ: the settled state is not periodic")
	}
	nn := make([][]float64, n) // n_ij
	for i := range n {
		nn[i] = make([]float64, n)
		for j := range n {
			for _, a := range fired[i] {
				if slices.Contains(fired[j], a) {
					nn[i][j]++
				}
			}
		}
	}
	beta := func(k, nu int) float64 {
		if slices.Contains(fired[k], nu) {
			return l.Theta
		}
		return 0
	}
	// The right side of (12), f_jk = 1/n for each card j and its successor k.
	rhs := func(i, nu int, phiOf func(k int) float64) float64 {
		sum := 0.0
		for j := range n {
			sum += nn[i][j] * phiOf((j+1)%n) / float64(n)
		}
		return eta / delta * sum
	}
	worst, moved, rippled, exact, beyond := 0.0, 0, 0, 0, 0
	for nu := range units {
		any, crosses := false, false
		for i := range n {
			want := rhs(i, nu, func(k int) float64 { return used[k][nu] })
			if want == 0 {
				if mean[i][nu] != 0 {
					t.Fatalf("γ_%d^%d = %v where (12) gives 0", nu, i, mean[i][nu])
				}
				continue
			}
			any = true
			worst = max(worst, math.Abs(mean[i][nu]-want)/want)
		}
		if !any {
			continue
		}
		moved++
		for k := range n {
			crosses = crosses || used[k][nu] != coupling.Phi(beta(k, nu)+mean[k][nu], l.Theta)
			if used[k][nu] == 1 && beta(k, nu) == 0 {
				beyond++
			}
		}
		if crosses {
			rippled++
			continue
		}
		// (13) from γ = 0 reaches the minimal solution in at most n steps
		// (Φ only rises, one card at least each step until it stops).
		g := make([]float64, n)
		for range n + 1 {
			next := make([]float64, n)
			for i := range n {
				next[i] = rhs(i, nu, func(k int) float64 { return coupling.Phi(beta(k, nu)+g[k], l.Theta) })
			}
			g = next
		}
		for k := range n {
			if got := coupling.Phi(beta(k, nu)+g[k], l.Theta); got != used[k][nu] {
				t.Errorf("unit %d, card %d: the minimal solution of (12) has Φ = %v, the machine %v", nu, k, got, used[k][nu])
			}
		}
		exact++
	}
	t.Logf("%d cards; %d units with couplings: %d solve (12) with the minimal solution's Φ, %d ripple across θ; worst relative distance of the pass mean from (12) with Φ as used %.2g; A_II fires %d (card, unit) pairs beyond A_I",
		n, moved, exact, rippled, worst, beyond)
	if worst > 1e-9 || moved == 0 {
		t.Errorf("the pass mean of γ is %.3g from (12), relative; want ≤ 1e-9", worst)
	}
	if beyond == 0 {
		t.Error("A_II never fires beyond A_I: (12)'s Φ is untested")
	}
	if float64(rippled) > 0.05*float64(moved) {
		t.Errorf("%d of %d units ripple across θ; want at most 5 %%", rippled, moved)
	}
}
