package machine_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"mark1/images"
	"mark1/machine"
)

// withChecksum wraps a machine body in a file header with its true
// checksum, so that fuzzing reaches the checks behind the checksum.
func withChecksum(body []byte) []byte {
	sum := sha256.Sum256(body)
	return fmt.Appendf(nil, "{\"format\": %q, \"version\": %d, \"checksum\": \"sha256:%s\", \"machine\": %s}",
		machine.Format, machine.Version, hex.EncodeToString(sum[:]), body)
}

// FuzzDecodeBody fuzzes the "machine" member of a file whose checksum is
// right: configuration, faults, plugboard, pots and their state must be
// checked one by one, with an error naming the file, never a panic.
func FuzzDecodeBody(f *testing.F) {
	small := func(preset string, faults machine.Faults) []byte {
		cfg, err := machine.Preset(preset)
		if err != nil {
			f.Fatal(err)
		}
		cfg.Associator.Units = 12
		cfg.Retina.Width, cfg.Retina.Height = 5, 4
		cfg.Faults = faults
		m, err := machine.New(cfg, []string{"a", "b", "c"}, machine.SeedsFrom(2), nil)
		if err != nil {
			f.Fatal(err)
		}
		m.Bank.Pulse(1, 3)
		b := encode(f, m)
		_, body, _ := strings.Cut(string(b), `"machine": `)
		return []byte(strings.TrimSuffix(strings.TrimSpace(body), "}"))
	}
	f.Add(small("mark1", machine.Faults{}))
	f.Add(small("worn", machine.Faults{DeadCells: 0.2, StuckCells: 0.2, BrokenWires: 0.3, DeadA: 0.2, StuckPots: 0.2, NoisyPots: 0.3, Drift: 0.1}))
	f.Add(small("full", machine.Faults{BrokenWires: 1}))
	odd := func() []byte { // strings that look like number arrays (a bug once rewrote them)
		cfg, _ := machine.Preset("ideal")
		cfg.Associator.Units = 4
		cfg.Retina.Width, cfg.Retina.Height = 4, 4
		m, err := machine.New(cfg, []string{"[1, 2]", "a ]", "x"}, machine.SeedsFrom(3), nil)
		if err != nil {
			f.Fatal(err)
		}
		m.Recipe = &machine.Recipe{Data: images.Source{Path: "cards [3, 4]"}, Values: machine.Gamma}
		b := encode(f, m)
		_, body, _ := strings.Cut(string(b), `"machine": `)
		return []byte(strings.TrimSuffix(strings.TrimSpace(body), "}"))
	}
	f.Add(odd())
	f.Fuzz(func(t *testing.T, body []byte) {
		m, back := decodeRoundTrip(t, withChecksum(body))
		if m == nil {
			return
		}
		// The values, not only the bytes: what was read is what is saved.
		for _, c := range []struct {
			name string
			a, b any
		}{
			{"classes", m.Classes, back.Classes}, {"recipe", m.Recipe, back.Recipe}, {"history", m.History, back.History},
			{"config", m.Config, back.Config}, {"seeds", m.Seeds, back.Seeds}, {"wiring", m.Wiring, back.Wiring},
			{"plugboard", m.Plugboard, back.Plugboard}, {"pots", m.Bank.State(), back.Bank.State()},
		} {
			if !reflect.DeepEqual(c.a, c.b) {
				t.Fatalf("round trip changed the %s: %v, then %v", c.name, c.a, c.b)
			}
		}
		var r machine.Response
		m.Present(&r, make([]float32, m.Retina.Cells()), nil)
	})
}
