package ablation

import (
	"fmt"
	"io"

	"mark1/images"
	"mark1/machine"
)

// WriteRun writes Run's points as mark1 ablate prints them: what was
// ablated (the machine named name, its A-units and pots, the held-out
// cards test and, when spec retrains, the training cards train), then the
// Table.
func WriteRun(w io.Writer, name string, m *machine.Machine, train, test *images.Dataset, spec Spec, points []Point) error {
	retrained := ""
	if spec.Retrain > 0 {
		retrained = fmt.Sprintf(", then after %d epochs of retraining (%s) on %d cards", spec.Retrain, spec.Recipe.Rule, train.Len())
	}
	_, err := fmt.Fprintf(w, "%s on %s (%d held-out cards; %d A-units, %d pots): P_g as parts fail%s.\n\n%s",
		name, test.Name, test.Len(), len(m.Plugboard.Units), m.Bank.Len(), retrained, Table(points))
	return err
}

// WriteText writes the report as mark1 ablate --seeds prints it: the fresh
// machines like the one named name, retrained as spec says with rule, then
// the Table of their means.
func (r *SeedsReport) WriteText(w io.Writer, name string, spec Spec, rule machine.Rule) error {
	retrained := ""
	if spec.Retrain > 0 {
		retrained = fmt.Sprintf(", then after %d epochs of retraining (%s)", spec.Retrain, rule)
	}
	_, err := fmt.Fprintf(w, "%d fresh machines like %s (seeds %d to %d), each trained as its recipe says on %d cards and tested on %d held-out cards: P_g as parts fail%s.\n\n%s",
		len(r.Seeds), name, r.Seeds[0], r.Seeds[len(r.Seeds)-1], r.Train, r.Test, retrained, Table(r.Points))
	return err
}
