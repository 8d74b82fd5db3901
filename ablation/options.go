package ablation

import (
	"strconv"
	"strings"

	"mark1/internal/base/param"
)

// SpecOptions returns the settings of a Spec that a front end offers by
// name (mark1 ablate's flags), with their defaults: the parts that fail
// and the fractions failed, each a comma-separated list (ParseParts,
// ParseFractions), the epochs of retraining and the fault draws. Given 0,
// draws asks for none (param.None), which Validate refuses, where Spec
// reads 0 as one draw.
func SpecOptions() []param.Option[Spec] {
	fractions := make([]string, 0, len(DefaultFractions()))
	for _, f := range DefaultFractions() {
		fractions = append(fractions, strconv.FormatFloat(f, 'g', -1, 64))
	}
	return []param.Option[Spec]{
		param.Setting("fail", "parts", AUnits.String()+","+Pots.String(), "what fails, comma-separated: a-units, pots",
			func(s *Spec, v string) (err error) { s.Parts, err = ParseParts(list(v)); return err }),
		param.Setting("fractions", "fractions", strings.Join(fractions, ","), "fractions of the parts that fail, comma-separated, each in [0, 1]",
			func(s *Spec, v string) (err error) { s.Fractions, err = ParseFractions(list(v)); return err }),
		param.Setting("retrain", "retrain", 3, "epochs of retraining after each failure (0 = none)", param.To(func(s *Spec, v int) { s.Retrain = v })),
		param.Setting("draws", "draws", 5, "independent fault draws per fraction, averaged (mean ± standard deviation); run on all cores",
			param.To(func(s *Spec, v int) { s.Draws = param.None(v) })),
	}
}

// list returns the items of a comma-separated list, trimmed, empty ones
// left out.
func list(s string) []string {
	var items []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			items = append(items, f)
		}
	}
	return items
}
