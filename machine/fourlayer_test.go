package machine_test

import (
	"bytes"
	"encoding/json"
	"errors"
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
