package machine

import (
	"mark1/coupling"
)

// Theta is θ of the four-layer machine: what an active A_I unit sends its
// A_II partner, and A_II's threshold. It sets the scale of the couplings υ
// (and of η, which is in units of θ per presentation).
const Theta = 1.0

// LearnSequence is the four-layer machine's first phase: the couplings
// from A_I to A_II learn from the training cards shown in sequence, in
// the order given (a data file's order, not an epoch's shuffled order).
// Card i is followed by card i+1, and the last by the first, for
// Config.Coupling.Steps() transitions of one presentation each (Δt = 1):
// the sequence is shown round and round for Duration/δ presentations. For
// each transition j → k every coupling moves by the rule of package
// coupling, Φ being 1 where A_II fires for card k with the couplings as
// they stand. The cards are seen without reading noise; the machine's
// clock, its noise streams and its pots are untouched, so that a machine
// with η = 0 then trains exactly as the three-layer machine on the same
// wiring.
//
// It does nothing on a three-layer machine, on one whose couplings have
// already learned (Couplings.Steps > 0: a resumed run), or for fewer than
// two cards. It reports whether it learned.
func (m *Machine) LearnSequence(fields [][]float32) bool {
	l := m.Couplings
	if l == nil || l.Steps > 0 || len(fields) < 2 {
		return false
	}
	cfg := m.Config.Coupling
	n := len(fields)
	fired := make([][]int, n)
	var s []float64
	for i, x := range fields {
		s = m.Retina.Expose(s, x, nil)
		fired[i] = m.Plugboard.Active(nil, s)
	}
	var alpha []float64
	phi := make([]float64, l.Units)
	for t := range cfg.Steps() {
		j, k := t%n, (t+1)%n
		alpha = l.Input(alpha, fired[k])
		for nu, a := range alpha {
			phi[nu] = coupling.Phi(a, l.Theta)
		}
		l.Learn(fired[j], phi, cfg.Eta, cfg.Delta, 1)
	}
	return true
}
