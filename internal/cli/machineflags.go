package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"mark1/associator"
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
	decision     string
	omega        float64
	sets         string
	bias         bool

	limit, step, backlash, stepNoise, drift, stuck, pulseSec, initial float64
	levels                                                            int
	serial                                                            bool

	presentSec float64
	faults     string

	memory *budget // bounds the --config file
}

// register registers the machine flags on fs; memory, the command's
// --max-memory, bounds the --config file.
func (m *machineFlags) register(fs *pflag.FlagSet, memory *budget) {
	m.memory = memory
	fs.StringVar(&m.preset, "preset", "mark1", "machine preset: mark1, ideal, full or worn (see mark1 tasks)")
	fs.StringVar(&m.config, "config", "", "JSON file with a machine configuration (as in a machine file's \"config\")")
	inputFlags(fs, "config")
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
}

// build returns the configuration the flags describe. A configuration that
// breaks a part's rule is refused naming where the bad value came from: the
// flags that set it (a usage error, exit 2), or the --config file and its
// members (a bad file, exit 1). The rules themselves are the parts' own
// (machine.Config.Validate, and checkParts for the association units).
func (m *machineFlags) build(fs *pflag.FlagSet) (machine.Config, error) {
	base, err := machine.Preset(m.preset)
	if err != nil {
		return base, usageError{err}
	}
	if m.config != "" {
		if base, err = m.readConfig(fs, base); err != nil {
			return base, err
		}
	}
	if err := m.flagRanges(fs); err != nil {
		return base, err
	}
	var changed []machineStep
	cfg := base
	for _, s := range machineSteps() {
		if !fs.Changed(s.name) {
			continue
		}
		if err := s.apply(m, &cfg); err != nil {
			return cfg, usagef("--%s: %v", s.name, err)
		}
		changed = append(changed, s)
	}
	if cfg.Motors.Step == 0 && fs.Changed("step") { // 0 would mean the default step
		return cfg, usagef("--step 0 out of range: the step must be > 0, at most the travel between the end stops (2 × --limit)")
	}
	if err := checkParts(cfg); err != nil {
		return cfg, usageError{blameFlags(fs, m, base, changed, err)}
	}
	return cfg, nil
}

// machineStep applies one machine flag to a configuration.
type machineStep struct {
	name  string
	apply func(m *machineFlags, c *machine.Config) error
}

// machineSteps are the machine flags in the order they apply.
func machineSteps() []machineStep {
	none := func(f func(m *machineFlags, c *machine.Config)) func(*machineFlags, *machine.Config) error {
		return func(m *machineFlags, c *machine.Config) error { f(m, c); return nil }
	}
	sentinel := func(v int) int { // associator.Config: 0 means default, -1 means zero
		if v == 0 {
			return -1
		}
		return v
	}
	type mc = machine.Config
	type mf = machineFlags
	return []machineStep{
		{"retina-width", none(func(m *mf, c *mc) { c.Retina.Width = m.retinaW })},
		{"retina-height", none(func(m *mf, c *mc) { c.Retina.Height = m.retinaH })},
		{"crop", none(func(m *mf, c *mc) { c.Retina.Crop = m.crop })},
		{"polarity", func(m *mf, c *mc) (err error) { c.Retina.Polarity, err = retina.ParsePolarity(m.polarity); return }},
		{"cell-threshold", func(m *mf, c *mc) (err error) {
			c.Retina.Threshold, c.Retina.Adaptive, err = parseCellThreshold(m.threshold)
			return
		}},
		{"analog", none(func(m *mf, c *mc) { c.Retina.Analog = m.analog })},
		{"cell-spread", none(func(m *mf, c *mc) { c.Retina.Spread = m.spread })},
		{"cell-noise", none(func(m *mf, c *mc) { c.Retina.Noise = m.noise })},
		{"dead-cells", none(func(m *mf, c *mc) { c.Retina.Dead = m.dead })},
		{"a-units", none(func(m *mf, c *mc) { c.Associator.Units = m.aUnits })},
		{"x", none(func(m *mf, c *mc) { c.Associator.Excitatory = sentinel(m.x) })},
		{"y", none(func(m *mf, c *mc) { c.Associator.Inhibitory = sentinel(m.y) })},
		{"theta", none(func(m *mf, c *mc) { c.Associator.Threshold = sentinel(m.theta) })},
		{"r-units", none(func(m *mf, c *mc) { c.Response.Units = m.rUnits })},
		{"layout", func(m *mf, c *mc) (err error) { c.Response.Layout, err = response.ParseLayout(m.layout); return }},
		{"code", func(m *mf, c *mc) (err error) { c.Response.Code, err = response.ParseCode(m.code); return }},
		{"source-sets", func(m *mf, c *mc) (err error) { c.Response.Sets, err = response.ParseSets(m.sets); return }},
		{"bias", none(func(m *mf, c *mc) { c.Response.Bias = m.bias })},
		{"omega", none(func(m *mf, c *mc) { c.Response.Omega = m.omega })},
		{"decision", func(m *mf, c *mc) (err error) { c.Response.Decision, err = response.ParseDecision(m.decision); return }},
		{"limit", none(func(m *mf, c *mc) { c.Motors.Limit = m.limit })},
		{"step", none(func(m *mf, c *mc) { c.Motors.Step = m.step })},
		{"levels", none(func(m *mf, c *mc) { c.Motors.Levels = m.levels })},
		{"backlash", none(func(m *mf, c *mc) { c.Motors.Backlash = m.backlash })},
		{"step-noise", none(func(m *mf, c *mc) { c.Motors.StepNoise = m.stepNoise })},
		{"drift", none(func(m *mf, c *mc) { c.Motors.Drift = m.drift })},
		{"stuck", none(func(m *mf, c *mc) { c.Motors.Stuck = m.stuck })},
		{"initial", none(func(m *mf, c *mc) { c.Motors.Initial = m.initial })},
		{"pulse-seconds", none(func(m *mf, c *mc) { c.Motors.PulseSeconds = m.pulseSec })},
		{"serial-motors", none(func(m *mf, c *mc) { c.Motors.Serial = m.serial })},
		{"present-seconds", none(func(m *mf, c *mc) { c.PresentSeconds = m.presentSec })},
		{"faults", func(m *mf, c *mc) (err error) { c.Faults, err = machine.ParseFaults(m.faults); return }},
	}
}

// blameFlags names the flags behind err, the failure of the configuration
// the changed flags make from base: those without which the configuration
// fails otherwise, or not at all. A single bad value is named alone
// ("--cell-noise 2: retina: noise 2 out of range [0, 1]"); a bad
// combination by all its flags ("--limit 0.01 --step 0.05: ...").
func blameFlags(fs *pflag.FlagSet, m *machineFlags, base machine.Config, changed []machineStep, err error) error {
	var named []string
	for i, s := range changed {
		c := base
		for j, o := range changed {
			if j != i {
				o.apply(m, &c) // each applied once already, without error
			}
		}
		if e := checkParts(c); e == nil || e.Error() != err.Error() {
			named = append(named, "--"+s.name+" "+fs.Lookup(s.name).Value.String())
		}
	}
	if len(named) == 0 { // each of several flags alone makes the same failure
		for _, s := range changed {
			named = append(named, "--"+s.name+" "+fs.Lookup(s.name).Value.String())
		}
	}
	return fmt.Errorf("%s: %w", strings.Join(named, " "), err)
}

// readConfig reads the --config file over the preset base. A file that
// breaks a part's rule is a bad file (exit 1), named with the members
// behind the failure, found as blameFlags finds flags: those whose removal
// (leaving the preset's value) changes the failure.
func (m *machineFlags) readConfig(fs *pflag.FlagSet, base machine.Config) (machine.Config, error) {
	b, err := atomicfile.ReadFile(m.config, m.memory.bytes(), "--max-memory")
	if err != nil {
		return base, fmt.Errorf("reading configuration: %w", err)
	}
	decode := func(b []byte) (machine.Config, error) {
		cfg := base
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields() // a misspelt member would be ignored silently
		if err := dec.Decode(&cfg); err != nil {
			return cfg, fmt.Errorf("%s: not a machine configuration: %w", m.config, err)
		}
		if _, err := dec.Token(); err != io.EOF {
			return cfg, fmt.Errorf("%s: more after the configuration's closing brace; a configuration file holds one JSON object", m.config)
		}
		return cfg, nil
	}
	cfg, err := decode(b)
	if err != nil {
		return cfg, err
	}
	bad := checkParts(cfg)
	if bad == nil {
		return cfg, nil
	}
	var tree any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if dec.Decode(&tree) != nil {
		return cfg, fmt.Errorf("%s: %w", m.config, bad)
	}
	var named []string
	for _, leaf := range jsonLeaves(tree, nil) {
		less, err := json.Marshal(withoutLeaf(tree, leaf.path))
		if err != nil {
			continue
		}
		c, err := decode(less)
		if err != nil {
			continue
		}
		if e := checkParts(c); e == nil || e.Error() != bad.Error() {
			v, _ := json.Marshal(leaf.value)
			named = append(named, strings.Join(leaf.path, ".")+" "+string(v))
		}
	}
	if len(named) == 0 {
		return cfg, fmt.Errorf("%s: %w", m.config, bad)
	}
	return cfg, fmt.Errorf("%s: %s: %w", m.config, strings.Join(named, ", "), bad)
}

type jsonLeaf struct {
	path  []string
	value any
}

// jsonLeaves lists the members of a decoded JSON value that are not
// objects, by their paths, in a fixed order.
func jsonLeaves(v any, path []string) []jsonLeaf {
	obj, ok := v.(map[string]any)
	if !ok {
		if len(path) == 0 {
			return nil
		}
		return []jsonLeaf{{append([]string(nil), path...), v}}
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []jsonLeaf
	for _, k := range keys {
		out = append(out, jsonLeaves(obj[k], append(path, k))...)
	}
	return out
}

// withoutLeaf returns v without the member at path, copying only the
// objects on the path.
func withoutLeaf(v any, path []string) any {
	obj, ok := v.(map[string]any)
	if !ok || len(path) == 0 {
		return v
	}
	out := make(map[string]any, len(obj))
	for k, x := range obj {
		out[k] = x
	}
	if len(path) == 1 {
		delete(out, path[0])
	} else {
		out[path[0]] = withoutLeaf(obj[path[0]], path[1:])
	}
	return out
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

// Ranges of the machine's sizes: the parts' own bounds.
const (
	maxRetinaSide = retina.MaxSide
	maxAUnits     = associator.MaxUnits
	maxRUnits     = response.MaxUnits
)

// flagRanges refuses a size flag out of range, naming the flag and the
// range, before any default could stand in for it (0 would otherwise mean
// "the default" to the parts below).
func (m *machineFlags) flagRanges(fs *pflag.FlagSet) error {
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
		if fs.Changed(c.name) && (c.v < c.lo || c.v > c.hi) {
			return usagef("--%s %d out of range [%d, %d]", c.name, c.v, c.lo, c.hi)
		}
	}
	return nil
}

// checkParts checks a configuration by its parts' rules: machine.Config's
// own, then the sizes of the association and response units, as
// associator.Wire and response.New bound them (with defaults applied).
// Its messages name no flag: build and readConfig say where a value came
// from.
func checkParts(cfg machine.Config) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	a := cfg.Associator.Defaults()
	w, h := cfg.Retina.Size()
	cells := w * h
	switch {
	case a.Units < 1 || a.Units > maxAUnits:
		return fmt.Errorf("associator: %d A-units out of range [1, %d]", a.Units, maxAUnits)
	case a.Excitatory < 0 || a.Inhibitory < 0 || a.Excitatory+a.Inhibitory < 1 || a.Excitatory+a.Inhibitory > cells:
		return fmt.Errorf("associator: x + y = %d + %d origin points out of range [1, %d]: at least one, at most the %d cells of the %dx%d retina",
			a.Excitatory, a.Inhibitory, cells, cells, w, h)
	case a.Threshold < 0 || (a.Threshold > a.Excitatory && a.Threshold > cells-a.Inhibitory):
		return fmt.Errorf("associator: θ = %d out of range [0, x = %d]: above x the A-unit could never fire", a.Threshold, a.Excitatory)
	case a.Threshold > a.Excitatory:
		return fmt.Errorf("associator: θ = %d above x = %d excitatory origin points, so the A-unit could never fire: want x in range [%d, %d] (θ to the %d cells less y = %d) or θ in range [0, %d]",
			a.Threshold, a.Excitatory, a.Threshold, cells-a.Inhibitory, cells, a.Inhibitory, a.Excitatory)
	}
	if u := cfg.Response.Units; u < 0 || u > maxRUnits { // 0 means the default, 8
		return fmt.Errorf("response: %d R-units out of range [1, %d]", u, maxRUnits)
	}
	if _, err := response.Pots(cfg.Response, a.Units, 2); err != nil && (cfg.Response.Omega != 0) {
		return err // ω out of range or with the full layout: the layer's own message
	}
	return nil
}
