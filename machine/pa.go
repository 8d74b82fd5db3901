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

// PcPair is two cards as the A-units saw them, beside the 1958 model's P_c:
// the fraction of the A-units firing for the first that also fire for the
// second, and the model's P_c for the machine's x, y, θ given how many
// cells each card lit and how many both lit (associator.Model.PcFinite).
type PcPair struct {
	Fired1, Both int     // A-units firing for card 1, and for both
	Model        float64 // the 1958 model's P_c; NaN if no unit can fire for card 1
}

// Pc returns the measured P_c, Both/Fired1 (NaN when no unit fired for
// card 1).
func (p PcPair) Pc() float64 {
	if p.Fired1 == 0 {
		return math.NaN()
	}
	return float64(p.Both) / float64(p.Fired1)
}

// MeasurePc presents two fitted fields (with the evaluation reading noise,
// fresh for each) and returns what the A-units did beside the 1958 model.
func (m *Machine) MeasurePc(a, b []float32) PcPair {
	model := associator.ModelOf(m.Config.Associator)
	var ra, rb Response
	m.Present(&ra, a, m.EvalNoise())
	m.Present(&rb, b, m.EvalNoise())
	lit1, lit2, both := 0, 0, 0
	for i := range ra.S {
		on1, on2 := ra.S[i] > 0, rb.S[i] > 0
		if on1 {
			lit1++
		}
		if on2 {
			lit2++
		}
		if on1 && on2 {
			both++
		}
	}
	in2 := make(map[int]bool, len(rb.Active))
	for _, u := range rb.Active {
		in2[u] = true
	}
	p := PcPair{Fired1: len(ra.Active), Model: model.PcFinite(len(ra.S), lit1, lit2, both)}
	for _, u := range ra.Active {
		if in2[u] {
			p.Both++
		}
	}
	return p
}
