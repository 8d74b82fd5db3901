package machine

import (
	"fmt"
	"sort"
	"strings"

	"mark1/associator"
	"mark1/coupling"
	"mark1/motors"
	"mark1/response"
	"mark1/retina"
)

// Config is the complete description of a machine's hardware.
type Config struct {
	// Preset names the preset the configuration started from.
	Preset     string            `json:"preset"`
	Retina     retina.Config     `json:"retina"`
	Associator associator.Config `json:"associator"`
	Response   response.Config   `json:"response"`
	Motors     motors.Config     `json:"motors"`
	// PresentSeconds is the time one card takes to present: about 3 s is
	// the only figure found for the Mark I (mark1-facts.md, confidence L).
	PresentSeconds float64 `json:"present_seconds"`
	// Faults are failed parts, drawn from Seeds.Faults; zero means none.
	Faults Faults `json:"faults,omitzero"`
	// Layers is 4 for Rosenblatt's four-layer series-coupled perceptron,
	// S → A_I → A_II → R (Block, Knight and Rosenblatt 1962; package
	// coupling): the plugboard's A-units are A_I, and the R-units see A_II.
	// 0 is the Mark I's three layers.
	Layers int `json:"layers,omitempty"`
	// Coupling is how the A_I → A_II couplings learn from the training
	// cards in sequence, before the R-units learn; zero unless Layers is 4
	// (coupling.Config.Defaults fills in δ and the duration).
	Coupling coupling.Config `json:"coupling,omitzero"`
}

// FourLayers reports whether the machine has the fourth layer A_II.
func (c Config) FourLayers() bool { return c.Layers == 4 }

// Validate checks every part, and returns a setting out of range as a
// *FieldError named by its path in the configuration ("retina.noise",
// "associator.threshold", "motors.step", "faults.dead_a").
func (c Config) Validate() error { return c.validate(false) }

// validate is Validate; wired leaves out the association units, which a
// machine given its plugboard takes from it (checked with it).
func (c Config) validate(wired bool) error {
	if _, ok := presets()[c.Preset]; !ok && c.Preset != "" {
		var names []string
		for _, p := range Presets() {
			names = append(names, p.Name)
		}
		return fieldErr("preset", fmt.Sprintf("%.40q", c.Preset), "one of mark1's presets (%s)", strings.Join(names, ", "))
	}
	if err := c.Retina.Validate(); err != nil {
		return nested("retina", err, nil)
	}
	w, h := c.Retina.Size()
	cells := map[string][]string{"cells": {"retina.width", "retina.height"}}
	if err := c.Associator.Validate(w, h); err != nil && !wired {
		return nested("associator", err, cells)
	}
	if err := c.Response.Validate(); err != nil {
		return nested("response", err, nil)
	}
	if err := c.Motors.Validate(); err != nil {
		return nested("motors", err, nil)
	}
	if !(c.PresentSeconds >= 0) || c.PresentSeconds > 1e6 {
		return fieldErr("present_seconds", c.PresentSeconds, "[0, 1e+06] seconds")
	}
	if err := c.Faults.Validate(); err != nil {
		return err
	}
	if err := c.validateLayers(); err != nil {
		return err
	}
	if err := c.motors().Validate(); err != nil {
		return &FieldError{Field: "faults.drift", Value: c.Faults.Drift, With: []string{"motors.drift"},
			Range: fmt.Sprintf("a drift that the motors' own can take: %v", err)}
	}
	return nil
}

// PresetInfo describes a preset.
type PresetInfo struct {
	Name, Description string
}

// presets are functions so that no package-level value can be mutated.
func presets() map[string]func() Config {
	mark1 := func() Config {
		return Config{
			Preset:     "mark1",
			Associator: associator.Config{Units: 512, Excitatory: 5, Inhibitory: 5, Threshold: 2},
			Response:   response.Config{Units: 8, Layout: response.SourceSets, Code: response.Binary},
			Motors: motors.Config{
				Limit:        1,
				Step:         0.02, // 100 steps from stop to stop, as coarse as Tobermory's ~100 levels
				Backlash:     0.005,
				StepNoise:    0.1,
				PulseSeconds: 0.1,
			},
			PresentSeconds: 3,
		}
	}
	return map[string]func() Config{
		"mark1": mark1,
		"ideal": func() Config {
			c := mark1()
			c.Preset = "ideal"
			c.Motors = motors.Config{Step: c.Motors.Step, PulseSeconds: c.Motors.PulseSeconds}
			return c
		},
		"full": func() Config {
			c := mark1()
			c.Preset = "full"
			c.Response.Layout = response.Full
			c.Response.Bias = true
			return c
		},
		"worn": func() Config {
			c := mark1()
			c.Preset = "worn"
			c.Motors.Levels = 41
			c.Motors.Backlash = 0.02
			c.Motors.StepNoise = 0.3
			c.Motors.Drift = 0.002
			c.Motors.Stuck = 0.05
			c.Retina.Noise = 0.01
			c.Retina.Dead = 0.02
			return c
		},
	}
}

// Presets lists the presets.
func Presets() []PresetInfo {
	desc := map[string]string{
		"mark1": "the 1958 machine as best known: 400 S, 512 A, 8 R, bounded noisy pots; one value per A-unit, the A-units divided into source-sets among the R-units the class code uses (1 set of 512 for 2 classes, 5 of ~102 for 26 letters; fixed source-sets for 8 × 64) (default)",
		"ideal": "the same wiring with ideal pots: unbounded, continuous, noiseless (the textbook perceptron)",
		"full":  "one pot per A→R pair (the modern reading, 512 × R pots) and a bias value per R-unit",
		"worn":  "an aged machine: 41 readable levels, backlash, noisy and drifting pots, 5% stuck, noisy and dead cells",
	}
	var out []PresetInfo
	for name := range presets() {
		out = append(out, PresetInfo{Name: name, Description: desc[name]})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Name == "mark1" || out[j].Name == "mark1" {
			return out[i].Name == "mark1"
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// Preset returns the configuration of a named preset.
func Preset(name string) (Config, error) {
	f, ok := presets()[name]
	if !ok {
		var names []string
		for _, p := range Presets() {
			names = append(names, p.Name)
		}
		return Config{}, fmt.Errorf("unknown preset %q (want %s)", name, strings.Join(names, ", "))
	}
	return f(), nil
}

// Seeds are the seeds of the machine's independent random streams.
type Seeds struct {
	Master uint64 `json:"master"` // the seed the others were derived from
	Wiring uint64 `json:"wiring"` // plugboard
	Retina uint64 `json:"retina"` // dead cells and threshold spread
	Noise  uint64 `json:"noise"`  // photocell reading noise
	Motors uint64 `json:"motors"` // stuck pots and motor noise
	Order  uint64 `json:"order"`  // presentation order
	Faults uint64 `json:"faults"` // which parts fail (Config.Faults)
}

// SeedsFrom derives independent stream seeds from one master seed
// (SplitMix64, so nearby master seeds give unrelated streams). Seeds added
// later are drawn after the older ones, so those never change.
func SeedsFrom(master uint64) Seeds {
	x := master
	next := func() uint64 {
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		return z ^ (z >> 31)
	}
	return Seeds{Master: master, Wiring: next(), Retina: next(), Noise: next(), Motors: next(), Order: next(), Faults: next()}
}

// IdealPots returns the configuration with ideal pots (unbounded,
// continuous, noiseless, no backlash, drift or stuck pots) and the same
// step and pulse time: the textbook perceptron on the same wiring. The
// preset's name becomes "ideal".
func (c Config) IdealPots() Config {
	c.Motors = motors.Config{Step: c.Motors.Step, PulseSeconds: c.Motors.PulseSeconds}
	c.Preset = "ideal"
	return c
}

// validateLayers checks Layers and Coupling.
func (c Config) validateLayers() error {
	switch c.Layers {
	case 0:
		if c.Coupling != (coupling.Config{}) {
			return &FieldError{Field: "coupling", Value: fmt.Sprintf("%+v", c.Coupling), With: []string{"layers"},
				Range: "none on a three-layer machine (layers 4 has couplings)"}
		}
		return nil
	case 4:
	default:
		return fieldErr("layers", c.Layers, "0 (the Mark I's three) or 4 (the series-coupled A_I → A_II)")
	}
	if u := c.Associator.Units; u > coupling.MaxUnits {
		return &FieldError{Field: "associator.units", Value: fmt.Sprint(u), With: []string{"layers"},
			Range: fmt.Sprintf("at most %d A-units with layers 4 (the couplings are a dense square)", coupling.MaxUnits)}
	}
	if err := c.Coupling.Validate(); err != nil {
		return nested("coupling", err, nil)
	}
	return nil
}
