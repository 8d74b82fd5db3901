package machine_test

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"mark1/machine"
)

func TestParseFaults(t *testing.T) {
	f, err := machine.ParseFaults("dead-cells=0.05, stuck-cells=0.01,broken-wires=0.1,dead-a=0.1,stuck-pots=0.05,noisy-pots=0.1,drift=0.001")
	if err != nil {
		t.Fatal(err)
	}
	want := machine.Faults{DeadCells: 0.05, StuckCells: 0.01, BrokenWires: 0.1, DeadA: 0.1, StuckPots: 0.05, NoisyPots: 0.1, Drift: 0.001}
	if f != want {
		t.Fatalf("ParseFaults = %+v; want %+v", f, want)
	}
	back, err := machine.ParseFaults(f.String())
	if err != nil || back != f {
		t.Errorf("ParseFaults(%q) = %+v, %v; want %+v", f.String(), back, err, f)
	}
	if z, err := machine.ParseFaults(""); err != nil || z != (machine.Faults{}) || z.String() != "none" {
		t.Errorf("empty: %+v %v %q", z, err, z.String())
	}
	for _, bad := range []struct{ in, want string }{
		{"dead-cells", "want NAME=RATE"},
		{"gremlins=0.1", `unknown fault "gremlins"`},
		{"dead-a=0.1,dead-a=0.2", "given twice"},
		{"dead-a=lots", "not a number"},
		{"dead-a=1.5", "out of range"},
		{"dead-a=-0.1", "out of range"},
		{"dead-a=NaN", "out of range"},
		{"drift=Inf", "out of range"},
		{"drift=11", "out of range"},
	} {
		if _, err := machine.ParseFaults(bad.in); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("ParseFaults(%q) = %v; want an error containing %q", bad.in, err, bad.want)
		}
	}
}

// Adding the fault seed must not change the seeds machines already use.
func TestSeedsStable(t *testing.T) {
	s := machine.SeedsFrom(1)
	want := machine.Seeds{Master: 1, Wiring: 0x910a2dec89025cc1, Retina: 0xbeeb8da1658eec67, Noise: 0xf893a2eefb32555e,
		Motors: 0x71c18690ee42c90b, Order: 0x71bb54d8d101b5b9, Faults: 0xc34d0bff90150280}
	if s != want {
		t.Errorf("SeedsFrom(1) = %#v; want %#v", s, want)
	}
}

func faulty(t testing.TB, f machine.Faults) *machine.Machine {
	t.Helper()
	cfg, err := machine.Preset("mark1")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Faults = f
	m, err := machine.New(cfg, []string{"a", "b", "c"}, machine.SeedsFrom(7), nil)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

type faultCounts struct{ dead, stuck, wires, deadA, stuckPots, noisyPots int }

func count(m *machine.Machine) faultCounts {
	var c faultCounts
	for i := range m.Retina.Cells() {
		if m.Retina.Dead(i) {
			c.dead++
		}
		if m.Retina.StuckOn(i) {
			c.stuck++
		}
	}
	for _, u := range m.Plugboard.Units {
		c.wires += len(u.Excitatory) + len(u.Inhibitory)
		if u.Dead {
			c.deadA++
		}
	}
	for i := range m.Bank.Len() {
		if m.Bank.Stuck(i) {
			c.stuckPots++
		}
		if m.Bank.Noisy(i) {
			c.noisyPots++
		}
	}
	return c
}

func TestFaultsApplied(t *testing.T) {
	healthy := count(faulty(t, machine.Faults{}))
	if healthy != (faultCounts{wires: 512 * 10}) {
		t.Fatalf("healthy machine has faults: %+v", healthy)
	}
	f := machine.Faults{DeadCells: 0.1, StuckCells: 0.05, BrokenWires: 0.2, DeadA: 0.1, StuckPots: 0.1, NoisyPots: 0.2, Drift: 0.01}
	m := faulty(t, f)
	c := count(m)
	near := func(name string, got, n int, rate float64) {
		t.Helper()
		mean := rate * float64(n)
		if sd := math.Sqrt(mean * (1 - rate)); math.Abs(float64(got)-mean) > 5*sd {
			t.Errorf("%s: %d of %d; want about %.0f", name, got, n, mean)
		}
	}
	near("dead cells", c.dead, 400, 0.1)
	near("stuck cells", c.stuck, 400*0.9, 0.05)
	near("wires left", c.wires, 5120, 0.8)
	near("dead A-units", c.deadA, 512, 0.1)
	near("stuck pots", c.stuckPots, 512, 0.1)
	near("noisy pots", c.noisyPots, 512, 0.2)
	if d := m.Bank.Config().Drift; d != 0.01 {
		t.Errorf("bank drift %v; want 0.01", d)
	}

	// Faults drawn at a rate are a subset of those at a higher rate.
	more := faulty(t, machine.Faults{DeadA: 0.3})
	for u, unit := range faulty(t, machine.Faults{DeadA: 0.1}).Plugboard.Units {
		if unit.Dead && !more.Plugboard.Units[u].Dead {
			t.Fatalf("A-unit %d dead at 10%% but not at 30%%", u)
		}
	}

	// A dead A-unit never fires; a stuck cell always reads light.
	var r machine.Response
	field := make([]float32, 400)
	for i := range field {
		field[i] = float32(i%7) / 6
	}
	m.Present(&r, field, nil)
	for _, a := range r.Active {
		if m.Plugboard.Units[a].Dead {
			t.Fatalf("dead A-unit %d fired", a)
		}
	}
	for i, s := range r.S {
		if m.Retina.StuckOn(i) && s != 1 {
			t.Fatalf("stuck cell %d reads %v", i, s)
		}
		if m.Retina.Dead(i) && s != 0 {
			t.Fatalf("dead cell %d reads %v", i, s)
		}
	}

	// The file records the faults: loading does not draw them again.
	a := encode(t, m)
	back, err := machine.Decode(bytes.NewReader(a), "f.json")
	if err != nil {
		t.Fatal(err)
	}
	if got := count(back); got != c {
		t.Errorf("faults after loading %+v; want %+v", got, c)
	}
	if !bytes.Equal(a, encode(t, back)) {
		t.Error("decode → encode changed a faulty machine's file")
	}
	if !strings.Contains(string(a), `"broken_wires": 0.2`) || !strings.Contains(string(a), `"faults":`) {
		t.Error("the machine file does not record the fault rates and seed")
	}
	if strings.Contains(string(encode(t, faulty(t, machine.Faults{}))), `"dead_a"`) {
		t.Error("a machine without faults records fault rates")
	}
}

// A plugboard passed to New is copied, not broken in place.
func TestFaultsCopyPlugboard(t *testing.T) {
	m := faulty(t, machine.Faults{})
	plug := m.Plugboard.Clone()
	cfg := m.Config
	cfg.Faults = machine.Faults{BrokenWires: 1}
	broken, err := machine.New(cfg, m.Classes, m.Seeds, plug)
	if err != nil {
		t.Fatal(err)
	}
	if broken.Plugboard.Dead() != len(plug.Units) {
		t.Errorf("all wires broken: %d dead A-units; want all %d", broken.Plugboard.Dead(), len(plug.Units))
	}
	if plug.Dead() != 0 || len(plug.Units[0].Excitatory) != 5 {
		t.Error("New broke the caller's plugboard")
	}
}

func FuzzParseFaults(f *testing.F) {
	f.Add("dead-cells=0.05,stuck-cells=0.01,broken-wires=0.1,dead-a=0.1,stuck-pots=0.05,noisy-pots=0.1,drift=0.001")
	f.Add("")
	f.Add("drift=1e-3,,")
	f.Add("dead-a=0x1p-3")
	f.Fuzz(func(t *testing.T, s string) {
		fl, err := machine.ParseFaults(s)
		if err != nil {
			if fl != (machine.Faults{}) {
				t.Fatalf("error %v with non-zero faults %+v", err, fl)
			}
			return
		}
		if err := fl.Validate(); err != nil {
			t.Fatalf("ParseFaults(%q) accepted invalid faults: %v", s, err)
		}
		back, err := machine.ParseFaults(fl.String())
		if err != nil || back != fl {
			t.Fatalf("round trip %q → %q → %+v, %v; want %+v", s, fl.String(), back, err, fl)
		}
	})
}
