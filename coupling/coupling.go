package coupling

import (
	"fmt"
	"math"
)

// Config is how the couplings learn. The zero value is filled in by
// Defaults.
type Config struct {
	// Eta is the learning rate η, per unit of time: a guess (see Defaults).
	Eta float64 `json:"eta"`
	// Delta is the decay rate δ, per unit of time: a guess (see Defaults).
	Delta float64 `json:"delta"`
	// Duration is how long the sequences are shown, in units of 1/δ: the
	// couplings are then within e^−Duration of their fixed point.
	Duration float64 `json:"duration"`
}

// The defaults are guesses, not figures from the paper, which leaves η and
// δ free. The unit of time Δt is one presentation.
const (
	// DefaultEta: one transition j→k between stimuli sharing 20 A_I units
	// raises an A_II unit's coupled input γ by θ = 1 (20 × 0.05).
	DefaultEta = 0.05
	// DefaultDelta: the couplings forget over about 100 presentations.
	DefaultDelta = 0.01
	// DefaultDuration: five time constants, e^−5 ≈ 0.7 % from the fixed point.
	DefaultDuration = 5
	// MaxUnits bounds the A-units of a four-layer machine: the couplings
	// are a dense MaxUnits² matrix (16,777,216 values, 128 MiB).
	MaxUnits = 4096
)

// Defaults fills in a zero Delta (DefaultDelta) and a zero Duration
// (DefaultDuration). Eta is never filled in: η = 0 is a machine whose
// couplings never learn (front ends offer DefaultEta).
func (c Config) Defaults() Config {
	if c.Delta == 0 {
		c.Delta = DefaultDelta
	}
	if c.Duration == 0 {
		c.Duration = DefaultDuration
	}
	return c
}

// Validate checks the settings (after Defaults).
func (c Config) Validate() error {
	if !(c.Eta >= 0 && c.Eta <= 10) {
		return fieldErr("eta", c.Eta, nil, "[0, 10] per presentation")
	}
	if !(c.Delta >= 1e-3 && c.Delta <= 1) {
		return fieldErr("delta", c.Delta, nil, "[0.001, 1] per presentation")
	}
	if !(c.Duration > 0 && c.Duration <= 50) {
		return fieldErr("duration", c.Duration, nil, "(0, 50] time constants 1/δ")
	}
	return nil
}

// Steps returns the number of transitions, of Δt = 1 each, that the
// sequences are shown for: ⌈Duration/δ⌉.
func (c Config) Steps() int { return int(math.Ceil(c.Duration/c.Delta - 1e-9)) }

// Layer is A_II with its couplings from A_I.
type Layer struct {
	// Units is the number of A_I units, and of A_II units.
	Units int
	// Theta is θ: what an active A_I unit sends its partner, and A_II's
	// threshold.
	Theta float64
	// V holds υ_μν at V[μ*Units+ν].
	V []float64
	// Steps counts the transitions learned.
	Steps int
}

// New returns an A_II of units units, threshold theta, and couplings 0.
func New(units int, theta float64) (*Layer, error) {
	if units < 1 || units > MaxUnits {
		return nil, fmt.Errorf("coupling: %d A-units; want [1, %d]", units, MaxUnits)
	}
	if !(theta > 0) || math.IsInf(theta, 0) {
		return nil, fmt.Errorf("coupling: θ = %v; want > 0", theta)
	}
	return &Layer{Units: units, Theta: theta, V: make([]float64, units*units)}, nil
}

// Input fills alpha (reused if long enough) with α_ν = θ·e_ν + Σ_μ e_μ·υ_μν
// for every A_II unit ν, active listing the A_I units that fire.
func (l *Layer) Input(alpha []float64, active []int) []float64 {
	if cap(alpha) < l.Units {
		alpha = make([]float64, l.Units)
	}
	alpha = alpha[:l.Units]
	clear(alpha)
	for _, mu := range active {
		row := l.V[mu*l.Units : (mu+1)*l.Units]
		for nu, v := range row {
			alpha[nu] += v
		}
	}
	for _, mu := range active {
		alpha[mu] += l.Theta
	}
	return alpha
}

// Fire returns in dst (reused) the A_II units that fire, in increasing
// order, when the A_I units in active fire; alpha is scratch space.
// With couplings 0 they are exactly active (sorted).
func (l *Layer) Fire(dst []int, alpha []float64, active []int) ([]int, []float64) {
	alpha = l.Input(alpha, active)
	dst = dst[:0]
	for nu, a := range alpha {
		if a >= l.Theta {
			dst = append(dst, nu)
		}
	}
	return dst, alpha
}

// Phi is Φ: 1 when the A_II input alpha reaches theta (the unit fires),
// else 0, the paper's Φ as a 2017 derivation of its equations reads it
// (docs/four-layer.md). Layer.Learn takes any non-negative Φ values.
func Phi(alpha, theta float64) float64 {
	if alpha >= theta {
		return 1
	}
	return 0
}

// Learn applies one step of the rule for stimulus j followed by stimulus
// k: from lists the A_I units stimulus j fires (e_μj = 1), phi holds
// Φ[α_ν^k(t)] for every ν:
//
//	υ_μν ← υ_μν + η·Δt·e_μj·phi_ν − δ·Δt·υ_μν.
//
// δ·Δt must be at most 1.
func (l *Layer) Learn(from []int, phi []float64, eta, delta, dt float64) {
	if len(phi) != l.Units {
		panic(fmt.Sprintf("coupling: %d values of Φ for %d units", len(phi), l.Units))
	}
	if keep := 1 - delta*dt; keep != 1 {
		for i := range l.V {
			l.V[i] *= keep
		}
	}
	if g := eta * dt; g != 0 {
		for _, mu := range from {
			row := l.V[mu*l.Units : (mu+1)*l.Units]
			for nu, p := range phi {
				row[nu] += g * p
			}
		}
	}
	l.Steps++
}

// Gamma returns γ_ν^i = Σ_μ e_μi·υ_μν: what the couplings bring A_II unit
// ν when the A_I units in active (stimulus i's) fire.
func (l *Layer) Gamma(active []int, nu int) float64 {
	g := 0.0
	for _, mu := range active {
		g += l.V[mu*l.Units+nu]
	}
	return g
}

// Clone returns an independent copy.
func (l *Layer) Clone() *Layer {
	c := *l
	c.V = append([]float64(nil), l.V...)
	return &c
}

// State is what a Layer has learned, as a machine file keeps it: the
// transitions learned and the couplings that are not 0, listed by μ then
// ν (From[i] = μ, To[i] = ν, Value[i] = υ_μν).
type State struct {
	Steps int       `json:"steps"`
	From  []int     `json:"from"`
	To    []int     `json:"to"`
	Value []float64 `json:"value"`
}

// State returns the layer's state.
func (l *Layer) State() State {
	s := State{Steps: l.Steps, From: []int{}, To: []int{}, Value: []float64{}}
	for i, v := range l.V {
		if v != 0 {
			s.From = append(s.From, i/l.Units)
			s.To = append(s.To, i%l.Units)
			s.Value = append(s.Value, v)
		}
	}
	return s
}

// Restore returns a layer of units units and threshold theta in state s.
func Restore(units int, theta float64, s State) (*Layer, error) {
	l, err := New(units, theta)
	if err != nil {
		return nil, err
	}
	if s.Steps < 0 {
		return nil, fmt.Errorf("coupling: %d steps learned; want ≥ 0", s.Steps)
	}
	if len(s.To) != len(s.From) || len(s.Value) != len(s.From) {
		return nil, fmt.Errorf("coupling: %d from, %d to and %d values; want as many", len(s.From), len(s.To), len(s.Value))
	}
	last := -1
	for i, mu := range s.From {
		nu, v := s.To[i], s.Value[i]
		if mu < 0 || mu >= units || nu < 0 || nu >= units {
			return nil, fmt.Errorf("coupling: υ_%d,%d is outside %d units", mu, nu, units)
		}
		if k := mu*units + nu; k <= last {
			return nil, fmt.Errorf("coupling: υ_%d,%d is out of order or listed twice", mu, nu)
		} else {
			last = k
		}
		if !(v > 0) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("coupling: υ_%d,%d = %v; want a positive finite value", mu, nu, v)
		}
		l.V[mu*units+nu] = v
	}
	l.Steps = s.Steps
	return l, nil
}
