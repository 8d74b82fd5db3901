package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"mark1/associator"
	"mark1/coupling"
	"mark1/internal/base/atomicfile"
	"mark1/internal/base/param"
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
	wiring              string
	// listings: --wiring may also name a plugboard listing (train), which
	// is then listing, and the configuration's wiring random.
	listings bool
	listing  string

	rUnits       int
	layout, code string
	decision     string
	omega        float64
	sets         string
	bias         bool

	limit, step, backlash, stepNoise, drift, stuck, pulseSec, initial float64
	levels                                                            int
	serial                                                            bool

	presentSec float64
	faults     string

	// fourLayer registers --layers, --eta and --delta (train, compare, serve).
	fourLayer  bool
	layers     int
	eta, delta float64

	memory *budget    // bounds the --config file
	fields fieldFlags // the configuration's fields → the flags that set them
}

// register registers the machine flags on fs; memory, the command's
// --max-memory, bounds the --config file.
func (m *machineFlags) register(fs *pflag.FlagSet, memory *budget) {
	m.memory = memory
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
	wiringHelp := "where an A-unit's origin points lie: random (anywhere on the retina, 1958) or local:D\n(all inside one D×D window placed at random: Minsky and Papert's diameter-limited perceptron)"
	if m.listings {
		wiringHelp += ",\nor a plugboard listing file (from mark1 wiring) to wire the machine exactly"
	}
	fs.StringVar(&m.wiring, "wiring", "random", wiringHelp)

	fs.IntVar(&m.rUnits, "r-units", 8, "response units (Mark I: 8) [history]")
	fs.StringVar(&m.layout, "layout", "source-sets", "values: source-sets (one per A-unit, 1958 theory) or full (one per A→R pair)")
	fs.StringVar(&m.sets, "source-sets", "used", "with --layout source-sets: used (the A-units divided among the R-units the code\nuses: 1 set of 512 for 2 classes, 5 of ~102 for 26 letters) or fixed (8 sets of 64,\nused or not; only the sets of R-units in use take part)")
	fs.StringVar(&m.code, "code", "binary", "class code on the R-units: binary (one bit each) or one-per-class")
	fs.BoolVar(&m.bias, "bias", false, "add a bias value per R-unit (an always-on input)")
	fs.Float64Var(&m.omega, "omega", 0, "PR58's ω: the fraction of the source-sets each A-unit feeds with its one value, in [0, 1];\nneighbouring sets then overlap (0 = disjoint sets, ω = 1/sets)")
	fs.StringVar(&m.decision, "decision", "sum", "what an R-unit compares: sum (Σ, 1958's sum of its active A-units' values) or mean (μ,\ntheir mean; PR58 prefers it for the alpha and beta value systems)")

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
	if m.fourLayer {
		fs.IntVar(&m.layers, "layers", 3, "3 (the Mark I) or 4: Rosenblatt's four-layer series-coupled perceptron (1962), whose second\nA-layer learns from the training cards in sequence, in the data's order, before the R-units\nlearn (docs/four-layer.md)")
		fs.Float64Var(&m.eta, "eta", coupling.DefaultEta, "with --layers 4: η, how fast the couplings A_I → A_II grow, per card shown [guess]")
		fs.Float64Var(&m.delta, "delta", coupling.DefaultDelta, "with --layers 4: δ, how fast they decay, per card shown, in [0.001, 1]; the sequence is\nshown for 5/δ cards [guess]")
	}
	m.fields = machineFields()
}

// machineFields is the table of the machine flags: the configuration's
// fields (machine.Config's JSON paths) → the flags that set them.
func machineFields() fieldFlags {
	t := fieldFlags{}
	t.add("preset", "preset")
	for _, s := range machineSteps() {
		for _, f := range s.fields {
			t.add(f, s.name)
		}
	}
	return t
}

// build returns the configuration the flags describe, given being the
// flags given on the command line. A configuration that breaks a part's
// rule is refused naming where the bad value came from: the flags that
// set the setting and those its range depends on (a usage error, exit 2),
// found in the field → flag table (fields); else the --config file and
// its member (a bad file, exit 1). The rules are the parts' own
// (machine.Config.Validate and the stages' Validate).
func (m *machineFlags) build(given givenFlags) (machine.Config, error) {
	base, err := machine.Preset(m.preset)
	if err != nil {
		return base, usageError{err}
	}
	cfg := base
	if m.config != "" {
		if cfg, err = m.readConfig(base); err != nil {
			return cfg, err
		}
	}
	for _, s := range machineSteps() {
		if _, ok := given[s.name]; !ok {
			continue
		}
		if err := s.apply(m, &cfg); err != nil {
			return cfg, usagef("--%s: %v", s.name, err)
		}
	}
	if err := cfg.Validate(); err != nil {
		if msg, ok := m.fields.blame(err, given); ok {
			return cfg, usageError{errors.New(msg)}
		}
		if m.config != "" {
			return cfg, fmt.Errorf("%s: %w", m.config, err)
		}
		return cfg, usageError{err}
	}
	return cfg, nil
}

// machineStep applies one machine flag to a configuration: the flag sets
// the fields (their paths in machine.Config's JSON, as its field errors
// name them).
type machineStep struct {
	name   string
	fields []string
	apply  func(m *machineFlags, c *machine.Config) error
}

// none is a machine step that cannot fail.
func none(f func(m *machineFlags, c *machine.Config)) func(*machineFlags, *machine.Config) error {
	return func(m *machineFlags, c *machine.Config) error { f(m, c); return nil }
}

// machineSteps are the machine flags in the order they apply. A part reads
// 0 in some sizes as its default (a retina 20 cells wide, 8 R-units, a step
// of 1); given as a flag, 0 asks for none at all, and the flag sets a value
// the part refuses in its own words (-1, or associator.Config's -1 for 0).
func machineSteps() []machineStep {
	zero := explicitZero[int]
	type mc = machine.Config
	type mf = machineFlags
	return append([]machineStep{
		{"retina-width", []string{"retina.width"}, none(func(m *mf, c *mc) { c.Retina.Width = zero(m.retinaW) })},
		{"retina-height", []string{"retina.height"}, none(func(m *mf, c *mc) { c.Retina.Height = zero(m.retinaH) })},
		{"crop", []string{"retina.crop"}, none(func(m *mf, c *mc) { c.Retina.Crop = m.crop })},
		{"polarity", []string{"retina.polarity"}, func(m *mf, c *mc) (err error) { c.Retina.Polarity, err = retina.ParsePolarity(m.polarity); return }},
		{"cell-threshold", []string{"retina.threshold", "retina.adaptive"}, func(m *mf, c *mc) (err error) {
			c.Retina.Threshold, c.Retina.Adaptive, err = parseCellThreshold(m.threshold)
			return
		}},
		{"analog", []string{"retina.analog"}, none(func(m *mf, c *mc) { c.Retina.Analog = m.analog })},
		{"cell-spread", []string{"retina.spread"}, none(func(m *mf, c *mc) { c.Retina.Spread = m.spread })},
		{"cell-noise", []string{"retina.noise"}, none(func(m *mf, c *mc) { c.Retina.Noise = m.noise })},
		{"dead-cells", []string{"retina.dead"}, none(func(m *mf, c *mc) { c.Retina.Dead = m.dead })},
		// associator.Config: 0 means the default, -1 means zero.
		{"a-units", []string{"associator.units"}, none(func(m *mf, c *mc) { c.Associator.Units = zero(m.aUnits) })},
		{"x", []string{"associator.excitatory"}, none(func(m *mf, c *mc) { c.Associator.Excitatory = zero(m.x) })},
		{"y", []string{"associator.inhibitory"}, none(func(m *mf, c *mc) { c.Associator.Inhibitory = zero(m.y) })},
		{"theta", []string{"associator.threshold"}, none(func(m *mf, c *mc) { c.Associator.Threshold = zero(m.theta) })},
		{"wiring", []string{"associator.window"}, func(m *mf, c *mc) (err error) {
			c.Associator.Window, err = associator.ParseWiring(m.wiring)
			if err != nil && m.listings && !strings.HasPrefix(m.wiring, "local:") {
				m.listing, err = m.wiring, nil
			}
			return
		}},
	}, responseSteps()...)
}

// responseSteps are the machine flags of the R-units, the motors and the
// faults, in the order they apply (machineSteps).
func responseSteps() []machineStep {
	zero := explicitZero[int]
	zerof := explicitZero[float64]
	type mc = machine.Config
	type mf = machineFlags
	return []machineStep{
		{"r-units", []string{"response.units"}, none(func(m *mf, c *mc) { c.Response.Units = zero(m.rUnits) })},
		{"layout", []string{"response.layout"}, func(m *mf, c *mc) (err error) { c.Response.Layout, err = response.ParseLayout(m.layout); return }},
		{"code", []string{"response.code"}, func(m *mf, c *mc) (err error) { c.Response.Code, err = response.ParseCode(m.code); return }},
		{"source-sets", []string{"response.source_sets"}, func(m *mf, c *mc) (err error) { c.Response.Sets, err = response.ParseSets(m.sets); return }},
		{"bias", []string{"response.bias"}, none(func(m *mf, c *mc) { c.Response.Bias = m.bias })},
		{"omega", []string{"response.omega"}, none(func(m *mf, c *mc) { c.Response.Omega = m.omega })},
		{"decision", []string{"response.decision"}, func(m *mf, c *mc) (err error) { c.Response.Decision, err = response.ParseDecision(m.decision); return }},
		{"limit", []string{"motors.limit"}, none(func(m *mf, c *mc) { c.Motors.Limit = m.limit })},
		{"step", []string{"motors.step"}, none(func(m *mf, c *mc) { c.Motors.Step = zerof(m.step) })},
		{"levels", []string{"motors.levels"}, none(func(m *mf, c *mc) { c.Motors.Levels = m.levels })},
		{"backlash", []string{"motors.backlash"}, none(func(m *mf, c *mc) { c.Motors.Backlash = m.backlash })},
		{"step-noise", []string{"motors.step_noise"}, none(func(m *mf, c *mc) { c.Motors.StepNoise = m.stepNoise })},
		{"drift", []string{"motors.drift"}, none(func(m *mf, c *mc) { c.Motors.Drift = m.drift })},
		{"stuck", []string{"motors.stuck"}, none(func(m *mf, c *mc) { c.Motors.Stuck = m.stuck })},
		{"initial", []string{"motors.initial"}, none(func(m *mf, c *mc) { c.Motors.Initial = m.initial })},
		{"pulse-seconds", []string{"motors.pulse_seconds"}, none(func(m *mf, c *mc) { c.Motors.PulseSeconds = m.pulseSec })},
		{"serial-motors", []string{"motors.serial"}, none(func(m *mf, c *mc) { c.Motors.Serial = m.serial })},
		{"present-seconds", []string{"present_seconds"}, none(func(m *mf, c *mc) { c.PresentSeconds = m.presentSec })},
		{"faults", []string{"faults"}, func(m *mf, c *mc) (err error) { c.Faults, err = machine.ParseFaults(m.faults); return }},
		// --layers 4 brings the couplings with --eta's and --delta's values
		// (their defaults if not given); --layers 3 takes them away.
		{"layers", []string{"layers"}, func(m *mf, c *mc) error {
			switch m.layers {
			case 3:
				c.Layers, c.Coupling = 0, coupling.Config{}
			case 4:
				c.Layers, c.Coupling = 4, coupling.Config{Eta: m.eta, Delta: m.delta}.Defaults()
			default:
				return fmt.Errorf("%d: want 3 (the Mark I) or 4 (the series-coupled A_I → A_II)", m.layers)
			}
			return nil
		}},
		{"eta", []string{"coupling.eta", "coupling"}, none(func(m *mf, c *mc) { c.Coupling.Eta = m.eta })},
		{"delta", []string{"coupling.delta"}, none(func(m *mf, c *mc) { c.Coupling.Delta = explicitZero(m.delta) })},
	}
}

// readConfig reads the --config file over the preset base. A file that
// breaks a part's rule is a bad file (exit 1), named with the member
// (the field error's path in the configuration).
func (m *machineFlags) readConfig(base machine.Config) (machine.Config, error) {
	b, err := atomicfile.ReadFile(m.config, m.memory.bytes(), "--max-memory")
	if err != nil {
		return base, fmt.Errorf("reading configuration: %w", err)
	}
	cfg := base
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

// blame says err, a field error, in the words of the given flags that set
// its field and the settings its range depends on (FieldsWith): "--cell-noise
// 2 out of range: want …", "--step 0.05 out of range with --limit 0.01:
// want …", or, when only a setting it depends on was given, "--x 0:
// associator.threshold 2 out of range: want …". ok is false when no given
// flag set any of them.
func (t fieldFlags) blame(err error, given givenFlags) (msg string, ok bool) {
	f := param.As(err)
	if f == nil {
		return "", false
	}
	fields := []string{f.FieldName()}
	var w interface{ FieldsWith() []string }
	if errors.As(err, &w) {
		fields = append(fields, w.FieldsWith()...)
	}
	var named []string
	first := false // the field's own flag was given, and sets the field itself
	for i, field := range fields {
		flag, rest, ok := t.flag(field)
		if !ok {
			continue
		}
		v, ok := given[strings.TrimPrefix(flag, "--")]
		if !ok || slices.Contains(named, flag+" "+v) {
			continue
		}
		named = append(named, flag+" "+v)
		first = first || i == 0 && rest == ""
	}
	switch {
	case len(named) == 0:
		return "", false
	case first && len(named) == 1:
		return fmt.Sprintf("%s out of range: want %s", named[0], f.FieldRange()), true
	case first:
		return fmt.Sprintf("%s out of range with %s: want %s", named[0], strings.Join(named[1:], ", "), f.FieldRange()), true
	}
	return fmt.Sprintf("%s: %v", strings.Join(named, " "), f), true
}

// givenFlags are the flags given on a command line, by name, with their
// values as text: what helpers need to know of the command line once it
// is parsed.
type givenFlags map[string]string

// given returns the flags given to fs.
func given(fs *pflag.FlagSet) givenFlags {
	g := givenFlags{}
	fs.Visit(func(f *pflag.Flag) { g[f.Name] = f.Value.String() })
	return g
}

// has reports whether any of the named flags was given.
func (g givenFlags) has(names ...string) bool {
	for _, n := range names {
		if _, ok := g[n]; ok {
			return true
		}
	}
	return false
}

// explicitZero returns v, or -1 for 0: a flag's 0 asks for none at all
// where a part reads 0 as its default (machine.Recipe's pulses and epochs,
// a retina's size, a motor's step), and the part refuses -1 in its own
// words. associator.Config reads -1 as 0.
func explicitZero[T ~int | ~int64 | float64](v T) T {
	if v == 0 {
		return -1
	}
	return v
}

// usageGiven returns err as a usage error naming the given flags behind
// its field (blame); err unchanged when no given flag set it.
func (t fieldFlags) usageGiven(err error, given givenFlags) error {
	if msg, ok := t.blame(err, given); ok {
		return usageError{errors.New(msg)}
	}
	return err
}
