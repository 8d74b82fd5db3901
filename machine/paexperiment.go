package machine

import (
	"context"
	"fmt"
	"io"
	"strings"

	"mark1/associator"
	"mark1/images"
)

// PaOptions are a measurement of P_a and P_c on a card set (MeasurePaCards):
// a fresh machine of Config with Seeds shown Cards, beside the 1958 model
// of its own wiring and further Models.
type PaOptions struct {
	Config Config
	Seeds  Seeds
	Cards  *images.Dataset
	// Models are further 1958 model curves drawn beside the machine's own;
	// those equal to it are dropped.
	Models []associator.Model
	// MaxBytes, if positive, bounds the machine and the cards fitted onto
	// its retina (Config.CheckData), checked before the machine is made.
	MaxBytes int64
}

// A PaResult is what MeasurePaCards found: the cards' report, and the
// machine and the model curves it was measured with.
type PaResult struct {
	*CardsReport
	Data   string           // the card set's name
	Cells  int              // S-units of the retina
	Units  int              // A-units
	Seed   uint64           // the master seed
	Own    associator.Model // the 1958 model of the machine's wiring
	Curves []associator.Model
}

// A PaModelError is a model curve with more origin points than the
// retina has cells.
type PaModelError struct {
	Model associator.Model
	Cells int
}

func (e *PaModelError) Error() string {
	return fmt.Sprintf("%v has more origin points than the %d S-units", e.Model, e.Cells)
}

// MeasurePaCards builds an untrained machine of o.Config and measures what
// its A-units do on o.Cards (MeasureCards), with the model curves to draw
// beside them: the machine's own, then o.Models that differ from it. A
// model with more origin points than the retina has cells is a
// *PaModelError.
func MeasurePaCards(ctx context.Context, o PaOptions) (*PaResult, error) {
	if o.MaxBytes > 0 {
		if err := o.Config.CheckData(o.MaxBytes, o.Cards); err != nil {
			return nil, err
		}
	}
	m, err := New(o.Config, o.Cards.Classes, o.Seeds, nil)
	if err != nil {
		return nil, err
	}
	own := associator.ModelOf(o.Config.Associator)
	r := &PaResult{Data: o.Cards.Name, Cells: m.Retina.Cells(), Units: len(m.Plugboard.Units), Seed: o.Seeds.Master, Own: own, Curves: []associator.Model{own}}
	for _, c := range o.Models {
		if c != own {
			r.Curves = append(r.Curves, c)
		}
	}
	for _, c := range r.Curves {
		if c.X+c.Y > r.Cells {
			return nil, &PaModelError{c, r.Cells}
		}
	}
	if r.CardsReport, err = MeasureCards(ctx, m, m.Fit(o.Cards), len(o.Cards.Classes)); err != nil {
		return nil, err
	}
	return r, nil
}

// DrawTitle is the title of the picture of P_a against the lit area.
func (r *PaResult) DrawTitle() string {
	return fmt.Sprintf("P_a against lit area: %s, %d A-units, seed %d", r.Data, r.Units, r.Seed)
}

// WriteText writes the measurement as mark1 pa prints it: P_a, by lit
// area, beside the 1958 model; P_c of cards of one class and of two; the
// source-sets; and PR58's criterion for generalisation.
func (r *PaResult) WriteText(w io.Writer) error {
	b := &strings.Builder{}
	s := r.Summary
	fmt.Fprintf(b, "%s: %d cards on a %d-cell retina, %d A-units with %v (seed %d).\n", r.Data, len(r.Cards), r.Cells, r.Units, r.Own, r.Seed)
	fmt.Fprintf(b, "  lit area: mean %.1f%% of the retina\n", 100*s.MeanLit)
	fmt.Fprintf(b, "  P_a measured: mean %.1f%%, smallest %.1f%%, largest %.1f%%; correlation with lit area %.2f\n",
		100*s.Mean, 100*s.Min, 100*s.Max, s.Correlation)
	fmt.Fprintf(b, "  P_a of the 1958 model at each card's lit area: mean %.1f%%; cards above 20%%: %d\n", 100*s.Model, r.Over20)
	fmt.Fprintf(b, "\n  %-12s %6s %12s %12s\n", "lit area", "cards", "P_a measured", "P_a model")
	for _, bin := range r.Bins {
		fmt.Fprintf(b, "  %3.0f–%3.0f%%     %6d %11.1f%% %11.1f%%\n", 100*bin.Lo, 100*bin.Hi, bin.Cards, 100*bin.Mean, 100*bin.Model)
	}
	for _, pc := range []struct {
		which string
		m     *PcMean
	}{{"of the same class", r.Same}, {"of different classes", r.Other}} {
		if pc.m != nil {
			fmt.Fprintf(b, "  P_c, units firing for a card that also fire for the next card %s (%d pairs): measured %.1f%%, 1958 model %.1f%%\n",
				pc.which, pc.m.Pairs, 100*pc.m.Measured, 100*pc.m.Model)
		}
	}
	if ss := r.SourceSets; ss != nil {
		fmt.Fprintf(b, "  source-sets: ω = %.3g (the fraction of the sets each A-unit feeds), %d A-units in R0's set, N_e = %d of them\n    not feeding R1 (PR58's effective units: those in common add equally to both sides)\n",
			ss.Omega, ss.InR0, ss.Effective)
	}
	if c := r.Criterion; c != nil {
		holds := map[bool]string{true: "holds", false: "does not hold"}
		fmt.Fprintf(b, "  PR58's generalisation criterion P_c12 < P_a < P_c11 (other class < any card < same class;\n    sufficient for P_g above chance, not necessary):\n")
		fmt.Fprintf(b, "    measured:   P_c12 %.1f%%, P_a %.1f%%, P_c11 %.1f%%: %s\n", 100*r.Other.Measured, 100*s.Mean, 100*r.Same.Measured, holds[c.Measured])
		fmt.Fprintf(b, "    1958 model: P_c12 %.1f%%, P_a %.1f%%, P_c11 %.1f%%: %s\n", 100*r.Other.Model, 100*s.Model, 100*r.Same.Model, holds[c.Model])
	}
	fmt.Fprintf(b, "\n  the 1958 model (%v) by lit area: ", r.Own)
	for _, p := range r.ModelAt {
		fmt.Fprintf(b, "%.0f%% → %.1f%%  ", 100*p.Lit, 100*p.Pa)
	}
	fmt.Fprintln(b)
	_, err := io.WriteString(w, b.String())
	return err
}
