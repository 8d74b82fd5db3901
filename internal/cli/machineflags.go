package cli

import (
	"errors"
	"fmt"
	"slices"
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
	// listings: --wiring may also name a plugboard listing (train), which
	// is then listing, and the configuration's wiring random.
	listings bool
	listing  string
	// fourLayer registers --layers, --eta and --delta (train, compare, serve).
	fourLayer bool

	memory *budget       // bounds the --config file
	flags  []machineFlag // the flags registered, in the order they apply
	fields fieldFlags    // the configuration's fields → the flags that set them
}

// register registers the machine flags on fs; memory, the command's
// --max-memory, bounds the --config file.
func (m *machineFlags) register(fs *pflag.FlagSet, memory *budget) {
	m.memory = memory
	fs.StringVar(&m.preset, "preset", "mark1", "machine preset: mark1, ideal, full or worn (see mark1 tasks)")
	fs.StringVar(&m.config, "config", "", "JSON file with a machine configuration (as in a machine file's \"config\")")
	fs.Uint64Var(&m.seed, "seed", 1, "master seed: wiring, cards, split, order and noise all derive from it")
	m.flags = m.table()
	for _, f := range m.flags {
		f.register(fs)
	}
	m.fields = machineFields()
}

// machineFields is the table of the machine flags: the configuration's
// fields (machine.Config's JSON paths) → the flags that set them.
func machineFields() fieldFlags {
	t := fieldFlags{}
	t.add("preset", "preset")
	for _, f := range (&machineFlags{fourLayer: true}).table() {
		for _, field := range f.fields {
			t.add(field, f.name)
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
	for _, f := range m.flags {
		if _, ok := given[f.name]; !ok {
			continue
		}
		if err := f.apply(m, &cfg); err != nil {
			return cfg, usagef("--%s: %v", f.name, err)
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

// A machineFlag is one machine flag: its name, the configuration's fields
// it sets (their paths in machine.Config's JSON, as its field errors name
// them), how it registers itself keeping its value, and how that value
// sets the fields.
type machineFlag struct {
	name     string
	fields   []string
	register func(fs *pflag.FlagSet)
	apply    func(m *machineFlags, c *machine.Config) error
}

// flagOf returns the machine flag name of type T with its default and
// help, setting the comma-separated fields with set.
func flagOf[T int | float64 | bool | string](name, fields string, def T, help string, set func(m *machineFlags, c *machine.Config, v T) error) machineFlag {
	v := new(T)
	register := func(fs *pflag.FlagSet) {
		switch p := any(v).(type) {
		case *int:
			fs.IntVar(p, name, any(def).(int), help)
		case *float64:
			fs.Float64Var(p, name, any(def).(float64), help)
		case *bool:
			fs.BoolVar(p, name, any(def).(bool), help)
		case *string:
			fs.StringVar(p, name, any(def).(string), help)
		}
	}
	return machineFlag{name, strings.Split(fields, ","), register, func(m *machineFlags, c *machine.Config) error { return set(m, c, *v) }}
}

// sets is a flag's setting that cannot fail.
func sets[T any](f func(c *machine.Config, v T)) func(*machineFlags, *machine.Config, T) error {
	return func(_ *machineFlags, c *machine.Config, v T) error { f(c, v); return nil }
}

// parsed is a flag's setting by a part's parser.
func parsed[T any](parse func(string) (T, error), f func(c *machine.Config) *T) func(*machineFlags, *machine.Config, string) error {
	return func(_ *machineFlags, c *machine.Config, s string) (err error) { *f(c), err = parse(s); return err }
}

// table returns the machine flags in the order they are listed and apply.
// A part reads 0 in some sizes as its default (a retina 20 cells wide, 8
// R-units, a step of 1); given as a flag, 0 asks for none at all, and the
// flag sets a value the part refuses in its own words (-1, or
// associator.Config's -1 for 0).
func (m *machineFlags) table() []machineFlag {
	zero, zerof := explicitZero[int], explicitZero[float64]
	type mc = machine.Config
	wiringHelp := "where an A-unit's origin points lie: random (anywhere on the retina, 1958) or local:D\n(all inside one D×D window placed at random: Minsky and Papert's diameter-limited perceptron)"
	if m.listings {
		wiringHelp += ",\nor a plugboard listing file (from mark1 wiring) to wire the machine exactly"
	}
	t := []machineFlag{
		flagOf("retina-width", "retina.width", 20, "S-units across (Mark I: 20) [history]", sets(func(c *mc, v int) { c.Retina.Width = zero(v) })),
		flagOf("retina-height", "retina.height", 20, "S-units down (Mark I: 20) [history]", sets(func(c *mc, v int) { c.Retina.Height = zero(v) })),
		flagOf("crop", "retina.crop", false, "fit the figure's bounding box instead of the whole card (loses position)", sets(func(c *mc, v bool) { c.Retina.Crop = v })),
		flagOf("polarity", "retina.polarity", "auto", "which pixels are figure: auto (differs from the border), dark or light",
			parsed(retina.ParsePolarity, func(c *mc) *retina.Polarity { return &c.Retina.Polarity })),
		flagOf("cell-threshold", "retina.threshold,retina.adaptive", "otsu", "photocell light threshold: otsu (automatic per card, for printed cards), adaptive\n(each cell against the light around it, for photos lit unevenly), or a level in (0,1) [guess]",
			func(_ *machineFlags, c *mc, v string) (err error) {
				c.Retina.Threshold, c.Retina.Adaptive, err = retina.ParseThreshold(v)
				return err
			}),
		flagOf("analog", "retina.analog", false, "S-units output their light level instead of on/off [guess]", sets(func(c *mc, v bool) { c.Retina.Analog = v })),
		flagOf("cell-spread", "retina.spread", 0.0, "std. dev. of per-cell threshold offsets [guess]", sets(func(c *mc, v float64) { c.Retina.Spread = v })),
		flagOf("cell-noise", "retina.noise", 0.0, "probability a cell reading flips on a presentation [guess]", sets(func(c *mc, v float64) { c.Retina.Noise = v })),
		flagOf("dead-cells", "retina.dead", 0.0, "fraction of dead photocells [guess]", sets(func(c *mc, v float64) { c.Retina.Dead = v })),
		// associator.Config: 0 means the default, -1 means zero.
		flagOf("a-units", "associator.units", 512, "association units (Mark I: 512) [history]", sets(func(c *mc, v int) { c.Associator.Units = zero(v) })),
		flagOf("x", "associator.excitatory", 5, "excitatory origin points per A-unit [guess: 1958 used x=5, y=5; mean P_a 5–16% on the built-in tasks, see mark1 pa]",
			sets(func(c *mc, v int) { c.Associator.Excitatory = zero(v) })),
		flagOf("y", "associator.inhibitory", 5, "inhibitory origin points per A-unit; 0 for none [guess: 1958]", sets(func(c *mc, v int) { c.Associator.Inhibitory = zero(v) })),
		flagOf("theta", "associator.threshold", 2, "A-unit threshold θ: fires when excitatory − inhibitory ≥ θ [guess]", sets(func(c *mc, v int) { c.Associator.Threshold = zero(v) })),
		flagOf("wiring", "associator.window", "random", wiringHelp, func(m *machineFlags, c *mc, v string) (err error) {
			c.Associator.Window, err = associator.ParseWiring(v)
			if err != nil && m.listings && !strings.HasPrefix(v, "local:") {
				m.listing, err = v, nil
			}
			return err
		}),
		flagOf("r-units", "response.units", 8, "response units (Mark I: 8) [history]", sets(func(c *mc, v int) { c.Response.Units = zero(v) })),
		flagOf("layout", "response.layout", "source-sets", "values: source-sets (one per A-unit, 1958 theory) or full (one per A→R pair)",
			parsed(response.ParseLayout, func(c *mc) *response.Layout { return &c.Response.Layout })),
		flagOf("source-sets", "response.source_sets", "used", "with --layout source-sets: used (the A-units divided among the R-units the code\nuses: 1 set of 512 for 2 classes, 5 of ~102 for 26 letters) or fixed (8 sets of 64,\nused or not; only the sets of R-units in use take part)",
			parsed(response.ParseSets, func(c *mc) *response.Sets { return &c.Response.Sets })),
		flagOf("code", "response.code", "binary", "class code on the R-units: binary (one bit each) or one-per-class",
			parsed(response.ParseCode, func(c *mc) *response.Code { return &c.Response.Code })),
		flagOf("bias", "response.bias", false, "add a bias value per R-unit (an always-on input)", sets(func(c *mc, v bool) { c.Response.Bias = v })),
		flagOf("omega", "response.omega", 0.0, "PR58's ω: the fraction of the source-sets each A-unit feeds with its one value, in [0, 1];\nneighbouring sets then overlap (0 = disjoint sets, ω = 1/sets)",
			sets(func(c *mc, v float64) { c.Response.Omega = v })),
		flagOf("decision", "response.decision", "sum", "what an R-unit compares: sum (Σ, 1958's sum of its active A-units' values) or mean (μ,\ntheir mean; PR58 prefers it for the alpha and beta value systems)",
			parsed(response.ParseDecision, func(c *mc) *response.Decision { return &c.Response.Decision })),
		flagOf("limit", "motors.limit", 1.0, "pot end stops at ±limit; 0 = none [guess]", sets(func(c *mc, v float64) { c.Motors.Limit = v })),
		flagOf("step", "motors.step", 0.02, "pot travel per motor pulse [guess]", sets(func(c *mc, v float64) { c.Motors.Step = zerof(v) })),
		flagOf("levels", "motors.levels", 0, "readable levels of a pot between its stops; 0 = continuous [guess]", sets(func(c *mc, v int) { c.Motors.Levels = v })),
		flagOf("backlash", "motors.backlash", 0.005, "travel lost when a pot reverses [guess]", sets(func(c *mc, v float64) { c.Motors.Backlash = v })),
		flagOf("step-noise", "motors.step_noise", 0.1, "relative std. dev. of each pulse's travel [guess]", sets(func(c *mc, v float64) { c.Motors.StepNoise = v })),
		flagOf("drift", "motors.drift", 0.0, "pot drift, std. dev. per √second [guess]", sets(func(c *mc, v float64) { c.Motors.Drift = v })),
		flagOf("stuck", "motors.stuck", 0.0, "fraction of stuck pots [guess]", sets(func(c *mc, v float64) { c.Motors.Stuck = v })),
		flagOf("initial", "motors.initial", 0.0, "starting position of every pot", sets(func(c *mc, v float64) { c.Motors.Initial = v })),
		flagOf("pulse-seconds", "motors.pulse_seconds", 0.1, "time one motor pulse takes [guess]", sets(func(c *mc, v float64) { c.Motors.PulseSeconds = v })),
		flagOf("serial-motors", "motors.serial", false, "motors run one at a time instead of together", sets(func(c *mc, v bool) { c.Motors.Serial = v })),
		flagOf("present-seconds", "present_seconds", 3.0, "time to present one card (a 1960 account: ~3 s) [weak history]", sets(func(c *mc, v float64) { c.PresentSeconds = v })),
		flagOf("faults", "faults", "", "failed parts, each a rate drawn from the seed, e.g.\ndead-cells=0.05,stuck-cells=0.01,broken-wires=0.1,dead-a=0.1,stuck-pots=0.05,noisy-pots=0.1,drift=0.001",
			parsed(machine.ParseFaults, func(c *mc) *machine.Faults { return &c.Faults })),
	}
	if !m.fourLayer {
		return t
	}
	// --layers 4 brings the couplings with --eta's and --delta's defaults,
	// which those flags, applied after it, override; --layers 3 takes them
	// away.
	return append(t,
		flagOf("layers", "layers", 3, "3 (the Mark I) or 4: Rosenblatt's four-layer series-coupled perceptron (1962), whose second\nA-layer learns from the training cards in sequence, in the data's order, before the R-units\nlearn (docs/four-layer.md)",
			func(_ *machineFlags, c *mc, v int) error {
				switch v {
				case 3:
					c.Layers, c.Coupling = 0, coupling.Config{}
				case 4:
					c.Layers, c.Coupling = 4, coupling.Config{Eta: coupling.DefaultEta}.Defaults()
				default:
					return fmt.Errorf("%d: want 3 (the Mark I) or 4 (the series-coupled A_I → A_II)", v)
				}
				return nil
			}),
		flagOf("eta", "coupling.eta,coupling", coupling.DefaultEta, "with --layers 4: η, how fast the couplings A_I → A_II grow, per card shown [guess]", sets(func(c *mc, v float64) { c.Coupling.Eta = v })),
		flagOf("delta", "coupling.delta", coupling.DefaultDelta, "with --layers 4: δ, how fast they decay, per card shown, in [0.001, 1]; the sequence is\nshown for 5/δ cards [guess]",
			sets(func(c *mc, v float64) { c.Coupling.Delta = zerof(v) })))
}

// readConfig reads the --config file over the preset base. A file that
// breaks a part's rule is a bad file (exit 1), named with the member
// (the field error's path in the configuration).
func (m *machineFlags) readConfig(base machine.Config) (machine.Config, error) {
	b, err := atomicfile.ReadFile(m.config, m.memory.bytes(), "--max-memory")
	if err != nil {
		return base, fmt.Errorf("reading configuration: %w", err)
	}
	cfg, err := machine.DecodeConfig(b, base)
	if err != nil {
		return cfg, fmt.Errorf("%s: %w", m.config, err)
	}
	return cfg, nil
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

// refuse returns err, a part's refusal of a value, as a usage error
// naming the given flags behind its field (blame), else as it is; nil for
// nil.
func (t fieldFlags) refuse(err error, given givenFlags) error {
	if err == nil {
		return nil
	}
	if msg, ok := t.blame(err, given); ok {
		return usageError{errors.New(msg)}
	}
	return usageError{err}
}

// usageGiven returns err as a usage error naming the given flags behind
// its field (blame); err unchanged when no given flag set it.
func (t fieldFlags) usageGiven(err error, given givenFlags) error {
	if msg, ok := t.blame(err, given); ok {
		return usageError{errors.New(msg)}
	}
	return err
}
