package machine

import (
	"fmt"

	"mark1/associator"
	"mark1/coupling"
	"mark1/internal/base/param"
	"mark1/response"
	"mark1/retina"
)

// A ConfigOption is one setting of a machine's configuration, as a front end
// offers it by name (mark1's machine flags), a param.Option of Config: the configuration's fields
// it sets (their paths in Config's JSON, as the parts' field errors name
// them), its default, what it means, and how a value written as text sets
// it. A part reads 0 in some sizes as its default (a retina 20 cells wide,
// 8 R-units, a motor step of 1); a setting given 0 asks for none at all,
// and sets the value the part refuses in its own words (-1, or
// associator.Config's -1 for 0).
type ConfigOption struct {
	param.Option[Config]
	// With is the setting of another option under which this one takes
	// part, written "name value" ("layout source-sets"); "" when always.
	With string
	// Coupling marks the settings of the four-layer machine: layers,
	// eta and delta.
	Coupling bool
}

// setting returns the setting name of type T, setting the comma-separated
// fields with set.
func setting[T int | float64 | bool | string](name, fields string, def T, doc string, set func(c *Config, v T) error) ConfigOption {
	return ConfigOption{Option: param.Setting(name, fields, def, doc, set)}
}

// to is a setting's action that cannot fail.
func to[T any](f func(c *Config, v T)) func(*Config, T) error { return param.To(f) }

// parsed is a setting's action by a part's parser into the field at.
func parsed[T any](parse func(string) (T, error), at func(c *Config) *T) func(*Config, string) error {
	return func(c *Config, s string) (err error) { *at(c), err = parse(s); return err }
}

// with returns o taking part under the setting w ("name value").
func with(w string, o ConfigOption) ConfigOption { o.With = w; return o }

// ConfigOptions returns the settings of a machine's configuration, in the order
// they are listed and set (a later one may override an earlier one's
// fields: --layers 4 brings the couplings with eta's and delta's
// defaults, which eta and delta, set after it, override).
func ConfigOptions() []ConfigOption {
	return append(append(retinaSettings(), partSettings()...), couplingSettings()...)
}

// couplingSettings are the settings of the four-layer machine (Coupling).
func couplingSettings() []ConfigOption {
	s := []ConfigOption{
		setting("layers", "layers", 3, "3 (the Mark I) or 4: Rosenblatt's four-layer series-coupled perceptron (1962), whose second\nA-layer learns from the training cards in sequence, in the data's order, before the R-units\nlearn (docs/four-layer.md)",
			func(c *Config, v int) error {
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
		with("layers 4", setting("eta", "coupling.eta,coupling", coupling.DefaultEta, "η, how fast the couplings A_I → A_II grow, per card shown [guess]", to(func(c *Config, v float64) { c.Coupling.Eta = v }))),
		with("layers 4", setting("delta", "coupling.delta", coupling.DefaultDelta, "δ, how fast they decay, per card shown, in [0.001, 1]; the sequence is\nshown for 5/δ cards [guess]",
			to(func(c *Config, v float64) { c.Coupling.Delta = param.None(v) }))),
	}
	for i := range s {
		s[i].Coupling = true
	}

	return s
}

// retinaSettings are the settings of the retina and the A-units.
func retinaSettings() []ConfigOption {
	return []ConfigOption{
		setting("retina-width", "retina.width", 20, "S-units across (Mark I: 20) [history]", to(func(c *Config, v int) { c.Retina.Width = param.None(v) })),
		setting("retina-height", "retina.height", 20, "S-units down (Mark I: 20) [history]", to(func(c *Config, v int) { c.Retina.Height = param.None(v) })),
		setting("crop", "retina.crop", false, "fit the figure's bounding box instead of the whole card (loses position)", to(func(c *Config, v bool) { c.Retina.Crop = v })),
		setting("polarity", "retina.polarity", "auto", "which pixels are figure: auto (differs from the border), dark or light",
			parsed(retina.ParsePolarity, func(c *Config) *retina.Polarity { return &c.Retina.Polarity })),
		setting("cell-threshold", "retina.threshold,retina.adaptive", "otsu", "photocell light threshold: otsu (automatic per card, for printed cards), adaptive\n(each cell against the light around it, for photos lit unevenly), or a level in (0,1) [guess]",
			func(c *Config, v string) (err error) {
				c.Retina.Threshold, c.Retina.Adaptive, err = retina.ParseThreshold(v)
				return err
			}),
		setting("analog", "retina.analog", false, "S-units output their light level instead of on/off [guess]", to(func(c *Config, v bool) { c.Retina.Analog = v })),
		setting("cell-spread", "retina.spread", 0.0, "std. dev. of per-cell threshold offsets [guess]", to(func(c *Config, v float64) { c.Retina.Spread = v })),
		setting("cell-noise", "retina.noise", 0.0, "probability a cell reading flips on a presentation [guess]", to(func(c *Config, v float64) { c.Retina.Noise = v })),
		setting("dead-cells", "retina.dead", 0.0, "fraction of dead photocells [guess]", to(func(c *Config, v float64) { c.Retina.Dead = v })),
		// associator.Config: 0 means the default, -1 means zero.
		setting("a-units", "associator.units", 512, "association units (Mark I: 512) [history]", to(func(c *Config, v int) { c.Associator.Units = param.None(v) })),
		setting("x", "associator.excitatory", 5, "excitatory origin points per A-unit [guess: 1958 used x=5, y=5; mean P_a 5–16% on the built-in tasks, see mark1 pa]",
			to(func(c *Config, v int) { c.Associator.Excitatory = param.None(v) })),
		setting("y", "associator.inhibitory", 5, "inhibitory origin points per A-unit; 0 for none [guess: 1958]", to(func(c *Config, v int) { c.Associator.Inhibitory = param.None(v) })),
		setting("theta", "associator.threshold", 2, "A-unit threshold θ: fires when excitatory − inhibitory ≥ θ [guess]", to(func(c *Config, v int) { c.Associator.Threshold = param.None(v) })),
		setting("wiring", "associator.window", "random", "where an A-unit's origin points lie: random (anywhere on the retina, 1958) or local:D\n(all inside one D×D window placed at random: Minsky and Papert's diameter-limited perceptron)",
			parsed(associator.ParseWiring, func(c *Config) *int { return &c.Associator.Window })),
	}
}

// partSettings are the settings of the R-units, the motors and the faults.
func partSettings() []ConfigOption {
	return []ConfigOption{
		setting("r-units", "response.units", 8, "response units (Mark I: 8) [history]", to(func(c *Config, v int) { c.Response.Units = param.None(v) })),
		setting("layout", "response.layout", "source-sets", "values: source-sets (one per A-unit, 1958 theory) or full (one per A→R pair)",
			parsed(response.ParseLayout, func(c *Config) *response.Layout { return &c.Response.Layout })),
		with("layout source-sets", setting("source-sets", "response.source_sets", "used", "used (the A-units divided among the R-units the code\nuses: 1 set of 512 for 2 classes, 5 of ~102 for 26 letters) or fixed (8 sets of 64,\nused or not; only the sets of R-units in use take part)",
			parsed(response.ParseSets, func(c *Config) *response.Sets { return &c.Response.Sets }))),
		setting("code", "response.code", "binary", "class code on the R-units: binary (one bit each) or one-per-class",
			parsed(response.ParseCode, func(c *Config) *response.Code { return &c.Response.Code })),
		setting("bias", "response.bias", false, "add a bias value per R-unit (an always-on input)", to(func(c *Config, v bool) { c.Response.Bias = v })),
		setting("omega", "response.omega", 0.0, "PR58's ω: the fraction of the source-sets each A-unit feeds with its one value, in [0, 1];\nneighbouring sets then overlap (0 = disjoint sets, ω = 1/sets)",
			to(func(c *Config, v float64) { c.Response.Omega = v })),
		setting("decision", "response.decision", "sum", "what an R-unit compares: sum (Σ, 1958's sum of its active A-units' values) or mean (μ,\ntheir mean; PR58 prefers it for the alpha and beta value systems)",
			parsed(response.ParseDecision, func(c *Config) *response.Decision { return &c.Response.Decision })),
		setting("limit", "motors.limit", 1.0, "pot end stops at ±limit; 0 = none [guess]", to(func(c *Config, v float64) { c.Motors.Limit = v })),
		setting("step", "motors.step", 0.02, "pot travel per motor pulse [guess]", to(func(c *Config, v float64) { c.Motors.Step = param.None(v) })),
		setting("levels", "motors.levels", 0, "readable levels of a pot between its stops; 0 = continuous [guess]", to(func(c *Config, v int) { c.Motors.Levels = v })),
		setting("backlash", "motors.backlash", 0.005, "travel lost when a pot reverses [guess]", to(func(c *Config, v float64) { c.Motors.Backlash = v })),
		setting("step-noise", "motors.step_noise", 0.1, "relative std. dev. of each pulse's travel [guess]", to(func(c *Config, v float64) { c.Motors.StepNoise = v })),
		setting("drift", "motors.drift", 0.0, "pot drift, std. dev. per √second [guess]", to(func(c *Config, v float64) { c.Motors.Drift = v })),
		setting("stuck", "motors.stuck", 0.0, "fraction of stuck pots [guess]", to(func(c *Config, v float64) { c.Motors.Stuck = v })),
		setting("initial", "motors.initial", 0.0, "starting position of every pot", to(func(c *Config, v float64) { c.Motors.Initial = v })),
		setting("pulse-seconds", "motors.pulse_seconds", 0.1, "time one motor pulse takes [guess]", to(func(c *Config, v float64) { c.Motors.PulseSeconds = v })),
		setting("serial-motors", "motors.serial", false, "motors run one at a time instead of together", to(func(c *Config, v bool) { c.Motors.Serial = v })),
		setting("present-seconds", "present_seconds", 3.0, "time to present one card (a 1960 account: ~3 s) [weak history]", to(func(c *Config, v float64) { c.PresentSeconds = v })),
		setting("faults", "faults", "", "failed parts, each a rate drawn from the seed, e.g.\ndead-cells=0.05,stuck-cells=0.01,broken-wires=0.1,dead-a=0.1,stuck-pots=0.05,noisy-pots=0.1,drift=0.001",
			parsed(ParseFaults, func(c *Config) *Faults { return &c.Faults })),
	}
}
