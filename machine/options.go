package machine

import (
	"fmt"

	"mark1/images"
	"mark1/internal/base/param"
)

// RecipeOptions returns the settings of a Recipe that a front end offers by
// name (mark1 train's flags), with their defaults: the rule, the value
// system, the decay, the feedback, the pulses per correction and the epoch
// limit. Given 0, pulses and epochs ask for none (param.None), which
// Validate refuses, where Recipe reads 0 as its default.
func RecipeOptions() []param.Option[Recipe] {
	return []param.Option[Recipe]{
		param.Setting("rule", "rule", ErrorCorrection.String(), "training: error-correction (change values only on a wrong answer), forced (every card,\nevery R-unit toward its wanted state: bivalent), forced-monovalent (only the forced\nresponse's set gains, PR58's learning curves), trial-and-error (the given response's set\ngains if right, loses if wrong), or spontaneous (no labels: the given response's set gains;\nthe Operators' Manual's third mode). The last three need {code} one-per-class",
			func(r *Recipe, v string) (err error) { r.Rule, err = ParseRule(v); return err }),
		param.Setting("values", "values", Alpha.String(), "value system of 1958: alpha (each active unit changes by the pulses), beta (the set's\ntotal gain is the pulses, shared among its active units) or gamma (active units gain,\nthe set's inactive units pay: its total is kept)",
			func(r *Recipe, v string) (err error) { r.Values, err = ParseValueSystem(v); return err }),
		param.Setting("decay", "decay", 0.0, "fraction of its value every pot loses after each presentation, in [0, 0.5]: RT58's\nClass C′ perceptron (0 = no decay, Class C)", param.To(func(r *Recipe, v float64) { r.Decay = v })),
		param.Setting("feedback", "feedback", 0.0, "R→A feedback of forced-monovalent and spontaneous learning (RT58): the responding\nR-unit multiplies its source-set's activity by this factor (RT58's example: 2) and every\nactive A-unit gains in proportion; 0 = none (only the responding set gains)",
			param.To(func(r *Recipe, v float64) { r.Feedback = v })),
		param.Setting("pulses", "pulses", 1, "motor pulses per correction", param.To(func(r *Recipe, v int) { r.Pulses = param.None(v) })),
		param.Setting("epochs", "max_epochs", DefaultMaxEpochs, "stop after this many epochs if not converged (in all, counting resumed runs)",
			param.To(func(r *Recipe, v int) { r.MaxEpochs = param.None(v) })),
	}
}

// ParitySettings returns the settings of ParityOptions that a front end
// offers by name beside the cells and the seeds, with their defaults: the
// epoch limit of each machine. Given 0, it asks for none (param.None),
// which the recipe's Validate refuses.
func ParitySettings() []param.Option[ParityOptions] {
	return []param.Option[ParityOptions]{
		param.Setting("epochs", "max_epochs", 200, "epoch limit of each machine", param.To(func(o *ParityOptions, v int) { o.Recipe.MaxEpochs = param.None(v) })),
	}
}

// FourSettings returns the settings of FourOptions that a front end offers
// by name beside the seeds and the rule, with their defaults: the strands'
// length and the epoch limit of each machine. Given 0, epochs asks for none
// (param.None), which the recipe's Validate refuses.
func FourSettings() []param.Option[FourOptions] {
	return []param.Option[FourOptions]{
		param.Setting("length", "length", images.FourDefaultLength, fmt.Sprintf("the strands' length L in retina cells, %d to %d", images.FourMinLength, images.FourMaxLength),
			param.To(func(o *FourOptions, v int) { o.Length = v })),
		param.Setting("epochs", "max_epochs", 100, "epoch limit of each machine", param.To(func(o *FourOptions, v int) { o.Recipe.MaxEpochs = param.None(v) })),
	}
}
