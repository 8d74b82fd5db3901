package machine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"mark1/associator"
	"mark1/motors"
	"mark1/retina"
)

// Faults are parts of the machine that have failed, each given as a rate.
// Rosenblatt (1958) argued that a perceptron degrades gracefully when parts
// fail, since what it learned is spread over many A-units; these let one
// test that. The zero value is a machine without faults.
//
// Which parts fail is drawn from Seeds.Faults, one independent stream per
// kind of fault, one uniform draw per part: the failed parts at a rate are a
// subset of those at any higher rate, and changing one rate leaves the other
// kinds' draws alone. New applies them; the machine file records the
// result (dead and stuck cells, the broken plugboard, stuck and noisy pots).
type Faults struct {
	// DeadCells is the fraction of photocells that never respond, on top
	// of the retina's own Dead rate.
	DeadCells float64 `json:"dead_cells,omitempty"`
	// StuckCells is the fraction of photocells stuck on: they read light
	// on every card (see retina.Retina.StickOn).
	StuckCells float64 `json:"stuck_cells,omitempty"`
	// BrokenWires is the fraction of plugboard wires (origin points) that
	// are broken; an A-unit that loses all its wires is dead.
	BrokenWires float64 `json:"broken_wires,omitempty"`
	// DeadA is the fraction of A-units that never fire.
	DeadA float64 `json:"dead_a,omitempty"`
	// StuckPots is the fraction of pots whose motor cannot move them, on
	// top of the motors' own Stuck rate.
	StuckPots float64 `json:"stuck_pots,omitempty"`
	// NoisyPots is the fraction of pots with a worn drive whose travel per
	// pulse varies by motors.NoisyStepNoise (relative standard deviation).
	NoisyPots float64 `json:"noisy_pots,omitempty"`
	// Drift is extra random-walk drift of every pot, a standard deviation
	// per √second of simulated time, added to the motors' own Drift.
	Drift float64 `json:"drift,omitempty"`
}

// faultKind is one kind of fault: its name in the ParseFaults syntax,
// its field in the machine file, its rate and the largest rate allowed.
type faultKind struct {
	name, field string
	v           *float64
	max         float64
}

// check returns the rate out of range as a *FieldError named
// "faults.field", or nil.
func (k faultKind) check() *FieldError {
	if v := *k.v; !(v >= 0 && v <= k.max) || math.IsInf(v, 0) {
		return &FieldError{Field: "faults." + k.field, Value: v, Range: fmt.Sprintf("[0, %v]", k.max)}
	}
	return nil
}

// faultKinds names the faults in the ParseFaults syntax, in order, with
// their fields. A function, so that there is no package-level mutable
// state.
func faultKinds(f *Faults) []faultKind {
	return []faultKind{
		{"dead-cells", "dead_cells", &f.DeadCells, 1},
		{"stuck-cells", "stuck_cells", &f.StuckCells, 1},
		{"broken-wires", "broken_wires", &f.BrokenWires, 1},
		{"dead-a", "dead_a", &f.DeadA, 1},
		{"stuck-pots", "stuck_pots", &f.StuckPots, 1},
		{"noisy-pots", "noisy_pots", &f.NoisyPots, 1},
		{"drift", "drift", &f.Drift, 10},
	}
}

// FaultNames lists the names ParseFaults accepts.
func FaultNames() []string {
	var f Faults
	var out []string
	for _, k := range faultKinds(&f) {
		out = append(out, k.name)
	}
	return out
}

// ParseFaults reads a comma-separated list of NAME=RATE, such as
// "dead-cells=0.05,broken-wires=0.1,drift=0.001" (names from FaultNames;
// each at most once). The empty string and "none" mean no faults.
func ParseFaults(s string) (Faults, error) {
	var f Faults
	if strings.TrimSpace(s) == "none" {
		return f, nil
	}
	kinds := faultKinds(&f)
	seen := map[string]bool{}
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		name, val, ok := strings.Cut(item, "=")
		if !ok {
			return Faults{}, fmt.Errorf("fault %q: want NAME=RATE (names: %s)", item, strings.Join(FaultNames(), ", "))
		}
		name = strings.TrimSpace(name)
		i := -1
		for j, k := range kinds {
			if k.name == name {
				i = j
			}
		}
		if i < 0 {
			return Faults{}, fmt.Errorf("unknown fault %q (want %s)", name, strings.Join(FaultNames(), ", "))
		}
		if seen[name] {
			return Faults{}, fmt.Errorf("fault %q given twice", name)
		}
		seen[name] = true
		v, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
		if err != nil {
			return Faults{}, fmt.Errorf("fault %s: rate %q is not a number", name, val)
		}
		*kinds[i].v = v
	}
	for _, k := range kinds {
		if err := k.check(); err != nil {
			return Faults{}, fmt.Errorf("fault %s=%v out of range: want %s", k.name, *k.v, err.Range)
		}
	}
	return f, nil
}

// String writes the faults in the form ParseFaults reads, leaving out the
// zero ones; no faults is "none".
func (f Faults) String() string {
	var parts []string
	for _, k := range faultKinds(&f) {
		if *k.v != 0 {
			parts = append(parts, k.name+"="+strconv.FormatFloat(*k.v, 'g', -1, 64))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ",")
}

// IsZero reports whether there are no faults.
func (f Faults) IsZero() bool { return f == Faults{} }

// Validate reports a rate out of range (fractions in [0, 1], drift in
// [0, 10]) as a *FieldError named "faults.dead_a", "faults.drift", ….
func (f Faults) Validate() error {
	for _, k := range faultKinds(&f) {
		if err := k.check(); err != nil {
			return err
		}
	}
	return nil
}

// motors returns the motors' configuration with the fault's extra drift.
func (c Config) motors() motors.Config {
	mc := c.Motors
	mc.Drift += c.Faults.Drift
	return mc
}

// The streams of Seeds.Faults, one per kind of fault.
const (
	streamDeadCells = iota + 1
	streamStuckCells
	streamBrokenWires
	streamDeadA
	streamStuckPots
	streamNoisyPots
)

// applyFaults breaks the parts that f says, drawing them from seed. The
// plugboard is changed in place: New gives it a copy.
func applyFaults(f Faults, seed uint64, ret *retina.Retina, plug *associator.Plugboard, bank *motors.Bank) {
	each := func(stream uint64, n int, rate float64, do func(i int)) {
		if rate == 0 {
			return
		}
		rng := rand.New(rand.NewPCG(seed, stream))
		for i := range n {
			if rng.Float64() < rate {
				do(i)
			}
		}
	}
	each(streamDeadCells, ret.Cells(), f.DeadCells, ret.Kill)
	each(streamStuckCells, ret.Cells(), f.StuckCells, func(i int) {
		if !ret.Dead(i) {
			ret.StickOn(i)
		}
	})
	if f.BrokenWires > 0 {
		rng := rand.New(rand.NewPCG(seed, streamBrokenWires))
		broken := func() bool { return rng.Float64() < f.BrokenWires }
		for u := range plug.Units {
			plug.BreakWires(u, broken)
		}
	}
	each(streamDeadA, len(plug.Units), f.DeadA, plug.Kill)
	each(streamStuckPots, bank.Len(), f.StuckPots, func(i int) { bank.SetStuck(i, true) })
	each(streamNoisyPots, bank.Len(), f.NoisyPots, func(i int) { bank.SetNoisy(i, true) })
}
