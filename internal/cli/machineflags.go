package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/pflag"

	"mark1/internal/atomicfile"
	"mark1/machine"
	"mark1/response"
	"mark1/retina"
)

// machineFlags build a machine configuration: a preset, then a config file,
// then individual flags, each overriding the one before.
type machineFlags struct {
	preset, config string
	seed           uint64

	retinaW, retinaH    int
	crop, analog        bool
	polarity            string
	threshold           string
	spread, noise, dead float64

	aUnits, x, y, theta int

	rUnits       int
	layout, code string
	sets         string
	bias         bool

	limit, step, backlash, stepNoise, drift, stuck, pulseSec, initial float64
	levels                                                            int
	serial                                                            bool

	presentSec float64
	faults     string
}

func (m *machineFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&m.preset, "preset", "mark1", "machine preset: mark1, ideal, full or worn (see mark1 tasks)")
	fs.StringVar(&m.config, "config", "", "JSON file with a machine configuration (as in a machine file's \"config\")")
	fs.Uint64Var(&m.seed, "seed", 1, "master seed: wiring, cards, split, order and noise all derive from it")

	fs.IntVar(&m.retinaW, "retina-width", 20, "S-units across (Mark I: 20) [history]")
	fs.IntVar(&m.retinaH, "retina-height", 20, "S-units down (Mark I: 20) [history]")
	fs.BoolVar(&m.crop, "crop", false, "fit the figure's bounding box instead of the whole card (loses position)")
	fs.StringVar(&m.polarity, "polarity", "auto", "which pixels are figure: auto (differs from the border), dark or light")
	fs.StringVar(&m.threshold, "cell-threshold", "otsu", "photocell light threshold: otsu (automatic per card, for printed cards), adaptive\n(each cell against the light around it, for photos lit unevenly), or a level in (0,1) [guess]")
	fs.BoolVar(&m.analog, "analog", false, "S-units output their light level instead of on/off [guess]")
	fs.Float64Var(&m.spread, "cell-spread", 0, "std. dev. of per-cell threshold offsets [guess]")
	fs.Float64Var(&m.noise, "cell-noise", 0, "probability a cell reading flips on a presentation [guess]")
	fs.Float64Var(&m.dead, "dead-cells", 0, "fraction of dead photocells [guess]")

	fs.IntVar(&m.aUnits, "a-units", 512, "association units (Mark I: 512) [history]")
	fs.IntVar(&m.x, "x", 5, "excitatory origin points per A-unit [guess: 1958 used x=5, y=5; mean P_a 5–16% on the built-in tasks, see mark1 pa]")
	fs.IntVar(&m.y, "y", 5, "inhibitory origin points per A-unit; 0 for none [guess: 1958]")
	fs.IntVar(&m.theta, "theta", 2, "A-unit threshold θ: fires when excitatory − inhibitory ≥ θ [guess]")

	fs.IntVar(&m.rUnits, "r-units", 8, "response units (Mark I: 8) [history]")
	fs.StringVar(&m.layout, "layout", "source-sets", "values: source-sets (one per A-unit, 1958 theory) or full (one per A→R pair)")
	fs.StringVar(&m.sets, "source-sets", "used", "with --layout source-sets: used (the A-units divided among the R-units the code\nuses: 1 set of 512 for 2 classes, 5 of ~102 for 26 letters) or fixed (8 sets of 64,\nused or not; only the sets of R-units in use take part)")
	fs.StringVar(&m.code, "code", "binary", "class code on the R-units: binary (one bit each) or one-per-class")
	fs.BoolVar(&m.bias, "bias", false, "add a bias value per R-unit (an always-on input)")

	fs.Float64Var(&m.limit, "limit", 1, "pot end stops at ±limit; 0 = none [guess]")
	fs.Float64Var(&m.step, "step", 0.02, "pot travel per motor pulse [guess]")
	fs.IntVar(&m.levels, "levels", 0, "readable levels of a pot between its stops; 0 = continuous [guess]")
	fs.Float64Var(&m.backlash, "backlash", 0.005, "travel lost when a pot reverses [guess]")
	fs.Float64Var(&m.stepNoise, "step-noise", 0.1, "relative std. dev. of each pulse's travel [guess]")
	fs.Float64Var(&m.drift, "drift", 0, "pot drift, std. dev. per √second [guess]")
	fs.Float64Var(&m.stuck, "stuck", 0, "fraction of stuck pots [guess]")
	fs.Float64Var(&m.initial, "initial", 0, "starting position of every pot")
	fs.Float64Var(&m.pulseSec, "pulse-seconds", 0.1, "time one motor pulse takes [guess]")
	fs.BoolVar(&m.serial, "serial-motors", false, "motors run one at a time instead of together")
	fs.Float64Var(&m.presentSec, "present-seconds", 3, "time to present one card (a 1960 account: ~3 s) [weak history]")
	fs.StringVar(&m.faults, "faults", "", "failed parts, each a rate drawn from the seed, e.g.\ndead-cells=0.05,stuck-cells=0.01,broken-wires=0.1,dead-a=0.1,stuck-pots=0.05,noisy-pots=0.1,drift=0.001")
}

// build returns the configuration the flags describe.
func (m *machineFlags) build(fs *pflag.FlagSet) (machine.Config, error) {
	cfg, err := machine.Preset(m.preset)
	if err != nil {
		return cfg, usageError{err}
	}
	if m.config != "" {
		limit, err := memoryLimit(fs)
		if err != nil {
			return cfg, err
		}
		b, err := atomicfile.ReadFile(m.config, limit, "--max-memory")
		if err != nil {
			return cfg, fmt.Errorf("reading configuration: %w", err)
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields() // a misspelt member would be ignored silently
		if err := dec.Decode(&cfg); err != nil {
			return cfg, fmt.Errorf("%s: not a machine configuration: %w", m.config, err)
		}
		if _, err := dec.Token(); err != io.EOF {
			return cfg, fmt.Errorf("%s: more after the configuration's closing brace; a configuration file holds one JSON object", m.config)
		}
		if err := cfg.Validate(); err != nil {
			return cfg, fmt.Errorf("%s: %w", m.config, err)
		}
	}
	set := func(name string, apply func() error) error {
		if !fs.Changed(name) {
			return nil
		}
		if err := apply(); err != nil {
			return usagef("--%s: %v", name, err)
		}
		return nil
	}
	none := func(f func()) func() error { return func() error { f(); return nil } }
	r, a, o, p := &cfg.Retina, &cfg.Associator, &cfg.Response, &cfg.Motors
	sentinel := func(v int) int { // associator.Config: 0 means default, -1 means zero
		if v == 0 {
			return -1
		}
		return v
	}
	steps := []struct {
		name  string
		apply func() error
	}{
		{"retina-width", none(func() { r.Width = m.retinaW })},
		{"retina-height", none(func() { r.Height = m.retinaH })},
		{"crop", none(func() { r.Crop = m.crop })},
		{"polarity", func() (err error) { r.Polarity, err = retina.ParsePolarity(m.polarity); return }},
		{"cell-threshold", func() (err error) { r.Threshold, r.Adaptive, err = parseCellThreshold(m.threshold); return }},
		{"analog", none(func() { r.Analog = m.analog })},
		{"cell-spread", none(func() { r.Spread = m.spread })},
		{"cell-noise", none(func() { r.Noise = m.noise })},
		{"dead-cells", none(func() { r.Dead = m.dead })},
		{"a-units", none(func() { a.Units = m.aUnits })},
		{"x", none(func() { a.Excitatory = sentinel(m.x) })},
		{"y", none(func() { a.Inhibitory = sentinel(m.y) })},
		{"theta", none(func() { a.Threshold = sentinel(m.theta) })},
		{"r-units", none(func() { o.Units = m.rUnits })},
		{"layout", func() (err error) { o.Layout, err = response.ParseLayout(m.layout); return }},
		{"code", func() (err error) { o.Code, err = response.ParseCode(m.code); return }},
		{"source-sets", func() (err error) { o.Sets, err = response.ParseSets(m.sets); return }},
		{"bias", none(func() { o.Bias = m.bias })},
		{"limit", none(func() { p.Limit = m.limit })},
		{"step", none(func() { p.Step = m.step })},
		{"levels", none(func() { p.Levels = m.levels })},
		{"backlash", none(func() { p.Backlash = m.backlash })},
		{"step-noise", none(func() { p.StepNoise = m.stepNoise })},
		{"drift", none(func() { p.Drift = m.drift })},
		{"stuck", none(func() { p.Stuck = m.stuck })},
		{"initial", none(func() { p.Initial = m.initial })},
		{"pulse-seconds", none(func() { p.PulseSeconds = m.pulseSec })},
		{"serial-motors", none(func() { p.Serial = m.serial })},
		{"present-seconds", none(func() { cfg.PresentSeconds = m.presentSec })},
		{"faults", func() (err error) { cfg.Faults, err = machine.ParseFaults(m.faults); return }},
	}
	for _, s := range steps {
		if err := set(s.name, s.apply); err != nil {
			return cfg, err
		}
	}
	if err := m.checkRanges(fs, cfg); err != nil {
		return cfg, err
	}
	if p.Step == 0 && fs.Changed("step") {
		return cfg, usagef("--step must be > 0")
	}
	if err := cfg.Validate(); err != nil {
		return cfg, usageError{err}
	}
	return cfg, nil
}

// parseCellThreshold reads --cell-threshold: "otsu" (or 0), "adaptive", or a
// light level in (0, 1).
func parseCellThreshold(s string) (level float64, adaptive bool, err error) {
	switch s {
	case "otsu":
		return 0, false, nil
	case "adaptive":
		return 0, true, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !(v >= 0 && v < 1) {
		return 0, false, fmt.Errorf("%q is not otsu, adaptive or a light level in (0, 1)", s)
	}
	return v, false, nil
}

// Ranges of the machine's sizes, as the parts themselves bound them.
const (
	maxRetinaSide = 1024    // retina.Config
	maxAUnits     = 1 << 20 // associator.Wire
	maxRUnits     = 1024    // response.New
)

// checkRanges refuses a size flag out of range, naming the flag and the
// range, before any default could stand in for it (0 would otherwise mean
// "the default" to the parts below). Sizes that came from --config are
// named by their flags too.
func (m *machineFlags) checkRanges(fs *pflag.FlagSet, cfg machine.Config) error {
	inRange := func(name string, v, lo, hi int) error {
		if fs.Changed(name) && (v < lo || v > hi) {
			return usagef("--%s %d out of range [%d, %d]", name, v, lo, hi)
		}
		return nil
	}
	for _, c := range []struct {
		name      string
		v, lo, hi int
	}{
		{"retina-width", m.retinaW, 1, maxRetinaSide},
		{"retina-height", m.retinaH, 1, maxRetinaSide},
		{"a-units", m.aUnits, 1, maxAUnits},
		{"r-units", m.rUnits, 1, maxRUnits},
		{"x", m.x, 0, maxRetinaSide * maxRetinaSide},
		{"y", m.y, 0, maxRetinaSide * maxRetinaSide},
		{"theta", m.theta, 0, maxRetinaSide * maxRetinaSide},
	} {
		if err := inRange(c.name, c.v, c.lo, c.hi); err != nil {
			return err
		}
	}
	// The effective values, whether from a flag, --config or the preset.
	a := cfg.Associator.Defaults()
	w, h := cfg.Retina.Size()
	switch cells := w * h; {
	case a.Units < 1 || a.Units > maxAUnits:
		return usagef("--a-units %d out of range [1, %d]", a.Units, maxAUnits)
	case a.Excitatory+a.Inhibitory == 0:
		return usagef("--x 0 --y 0: an A-unit needs at least one origin point")
	case a.Excitatory+a.Inhibitory > cells:
		return usagef("--x %d + --y %d origin points out of range: at most the %d cells of the %dx%d retina", a.Excitatory, a.Inhibitory, cells, w, h)
	case a.Threshold < 0 || a.Threshold > a.Excitatory:
		return usagef("--theta %d out of range [0, %d]: θ above x, the excitatory points, would keep the A-unit from ever firing", a.Threshold, a.Excitatory)
	}
	return nil
}
