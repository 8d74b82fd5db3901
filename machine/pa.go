package machine

import (
	"math"

	"mark1/associator"
)

// PaCard is one card as the A-units saw it, beside Rosenblatt's 1958 model:
// how many S-units it lit, how many A-units fired, and the model's P_a for a
// unit of the machine's x, y and θ wired at random on a retina with that
// many cells lit (associator.Model.PaFinite, the form the plugboard's random
// wiring realises).
type PaCard struct {
	Lit, Cells   int     // S-units lit, of Cells
	Fired, Units int     // A-units that fired, of Units
	Model        float64 // the 1958 model's P_a at Lit of Cells
}

// Fraction returns the fraction of the retina lit.
func (c PaCard) Fraction() float64 { return float64(c.Lit) / float64(c.Cells) }

// Pa returns the measured P_a, the fraction of A-units that fired.
func (c PaCard) Pa() float64 { return float64(c.Fired) / float64(c.Units) }

// MeasurePa presents each fitted field (with the evaluation reading noise)
// and returns what the A-units did on each, beside the 1958 model. A cell
// counts as lit when its output is positive; the model assumes on/off
// S-units, so with analog cells the comparison is only indicative.
func (m *Machine) MeasurePa(fields [][]float32) []PaCard {
	model := associator.ModelOf(m.Config.Associator)
	var r Response
	noise := m.EvalNoise()
	out := make([]PaCard, len(fields))
	for i, f := range fields {
		m.Present(&r, f, noise)
		lit := 0
		for _, v := range r.S {
			if v > 0 {
				lit++
			}
		}
		out[i] = PaCard{Lit: lit, Cells: len(r.S), Fired: len(r.Active), Units: len(m.Plugboard.Units),
			Model: model.PaFinite(len(r.S), lit)}
	}
	return out
}

// PaSummary summarises MeasurePa's cards: the mean lit fraction, the mean
// measured P_a and the mean model P_a, the smallest and largest measured
// P_a, and the correlation between lit fraction and measured P_a (NaN when
// either does not vary).
type PaSummary struct {
	Cards                 int
	MeanLit, Mean, Model  float64
	Min, Max, Correlation float64
}

// SummarisePa returns the summary of cards (the zero summary with NaNs for
// none).
func SummarisePa(cards []PaCard) PaSummary {
	s := PaSummary{Cards: len(cards), Min: math.Inf(1), Max: math.Inf(-1)}
	if len(cards) == 0 {
		nan := math.NaN()
		return PaSummary{MeanLit: nan, Mean: nan, Model: nan, Min: nan, Max: nan, Correlation: nan}
	}
	var sx, sy, sxx, syy, sxy float64
	for _, c := range cards {
		x, y := c.Fraction(), c.Pa()
		sx += x
		sy += y
		sxx += x * x
		syy += y * y
		sxy += x * y
		s.Model += c.Model
		s.Min = min(s.Min, y)
		s.Max = max(s.Max, y)
	}
	n := float64(len(cards))
	s.MeanLit, s.Mean, s.Model = sx/n, sy/n, s.Model/n
	vx, vy := sxx/n-s.MeanLit*s.MeanLit, syy/n-s.Mean*s.Mean
	s.Correlation = math.NaN()
	if vx > 1e-15 && vy > 1e-15 {
		s.Correlation = (sxy/n - s.MeanLit*s.Mean) / math.Sqrt(vx*vy)
	}
	return s
}
