package machine

import (
	"context"
	"encoding/json"
	"math"

	"mark1/associator"
	"mark1/internal/base/jsonnum"
	"mark1/learning"
)

// A CardsReport is what a machine's A-units do on a set of cards, beside
// Rosenblatt's 1958 model (MeasureCards): P_a on every card and by lit
// area, P_c between cards of the same class and of different classes, and
// PR58's criterion for generalisation.
type CardsReport struct {
	// Cards are the cards as the A-units saw them, in the order given.
	Cards []PaCard `json:"-"`
	// Summary summarises them; Over20 counts the cards with P_a above 20%.
	Summary PaSummary `json:"summary"`
	Over20  int       `json:"over_20"`
	// Bins are the cards by lit area, in tenths of the retina (the empty
	// ones left out).
	Bins []PaBin `json:"bins"`
	// Same and Other are P_c between a card and the next card of its class
	// and of another class (nil when the cards give no such pair).
	Same  *PcMean `json:"pc_same"`
	Other *PcMean `json:"pc_other"`
	// Criterion is PR58's sufficient condition for generalisation above
	// chance, P_c12 < P_a < P_c11, measured and by the model (nil without
	// both P_c).
	Criterion *Criterion `json:"criterion"`
	// SourceSets describes PR58's ω and N_e (nil with fewer than two
	// R-units in use).
	SourceSets *SourceSets `json:"source_sets"`
	// ModelAt is the model's P_a at some lit fractions of the retina.
	ModelAt []ModelPoint `json:"model_at"`
}

// A PaBin is the cards whose lit area falls in [Lo, Hi) of the retina.
type PaBin struct {
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
	Cards int     `json:"cards"`
	Mean  float64 `json:"mean"`
	Model float64 `json:"model"`
}

// A PcMean is the mean P_c over Pairs pairs of cards, measured and by the
// 1958 model.
type PcMean struct {
	Pairs    int     `json:"pairs"`
	Measured float64 `json:"measured"`
	Model    float64 `json:"model"`
}

// Criterion is PR58's condition P_c12 < P_a < P_c11, measured and by the
// 1958 model.
type Criterion struct {
	Measured bool `json:"measured"`
	Model    bool `json:"model"`
}

// SourceSets is PR58's ω (the fraction of the source-sets each A-unit
// feeds), the A-units in R0's set, and N_e, those of them not feeding R1.
type SourceSets struct {
	Omega     float64 `json:"omega"`
	InR0      int     `json:"in_r0"`
	Effective int     `json:"effective"`
}

// A ModelPoint is the 1958 model's P_a with a fraction Lit of the retina lit.
type ModelPoint struct {
	Lit float64 `json:"lit"`
	Pa  float64 `json:"pa"`
}

// maxPcPairs bounds the pairs of cards P_c is measured on, of each kind.
const maxPcPairs = 200

// MeasureCards shows each fitted field (interleaved by class, as a task's
// cards are: card i+classes is the next card of card i's class) to m with
// the evaluation reading noise and reports what the A-units did beside
// the 1958 model. It looks at ctx every 1,024 cards and returns its error
// once it is cancelled.
func MeasureCards(ctx context.Context, m *Machine, fields [][]float32, classes int) (*CardsReport, error) {
	r := &CardsReport{}
	for from := 0; from < len(fields); from += 1024 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r.Cards = append(r.Cards, m.MeasurePa(fields[from:min(from+1024, len(fields))])...)
	}
	r.Summary = SummarisePa(r.Cards)
	bins := make([][]PaCard, 10)
	for _, c := range r.Cards {
		if c.Pa() > 0.20 {
			r.Over20++
		}
		k := min(int(10*c.Fraction()), 9)
		bins[k] = append(bins[k], c)
	}
	for b, in := range bins {
		if len(in) > 0 {
			s := SummarisePa(in)
			r.Bins = append(r.Bins, PaBin{Lo: float64(b) / 10, Hi: float64(b+1) / 10, Cards: len(in), Mean: s.Mean, Model: s.Model})
		}
	}
	r.Same, r.Other = meanPc(m, fields, classes), meanPc(m, fields, 1)
	if r.Same != nil && r.Other != nil {
		holds := func(c12, pa, c11 float64) bool { return c12 < pa && pa < c11 }
		r.Criterion = &Criterion{Measured: holds(r.Other.Measured, r.Summary.Mean, r.Same.Measured),
			Model: holds(r.Other.Model, r.Summary.Model, r.Same.Model)}
	}
	if l := m.Layer; l.Used() >= 2 {
		per := l.Associators()
		if sizes := l.SourceSetSizes(); sizes != nil {
			per = sizes[0]
		}
		r.SourceSets = &SourceSets{Omega: l.Omega(), InR0: per, Effective: l.Effective(0, 1)}
	}
	own, cells := associator.ModelOf(m.Config.Associator), m.Retina.Cells()
	for _, lit := range []float64{0.05, 0.1, 0.2, 0.3, 0.5, 0.7} {
		r.ModelAt = append(r.ModelAt, ModelPoint{Lit: lit, Pa: own.PaFinite(cells, int(math.Round(lit*float64(cells))))})
	}
	return r, nil
}

// meanPc is the mean P_c between card i and card i+step, over the first
// maxPcPairs pairs where both the measure and the model are defined; nil
// when there is none.
func meanPc(m *Machine, fields [][]float32, step int) *PcMean {
	var meas, model []float64
	for i := 0; i+step < len(fields) && len(meas) < maxPcPairs; i++ {
		pc := m.MeasurePc(fields[i], fields[i+step])
		if !math.IsNaN(pc.Pc()) && !math.IsNaN(pc.Model) {
			meas, model = append(meas, pc.Pc()), append(model, pc.Model)
		}
	}
	if len(meas) == 0 {
		return nil
	}
	return &PcMean{Pairs: len(meas), Measured: learning.SpreadOf(meas).Mean, Model: learning.SpreadOf(model).Mean}
}

// MarshalJSON writes s with snake_case names, NaN as null.
func (s PaSummary) MarshalJSON() ([]byte, error) {
	return json.Marshal(map[string]any{"cards": s.Cards, "mean_lit": jsonnum.Of(s.MeanLit), "mean": jsonnum.Of(s.Mean),
		"model": jsonnum.Of(s.Model), "min": jsonnum.Of(s.Min), "max": jsonnum.Of(s.Max), "correlation": jsonnum.Of(s.Correlation)})
}
