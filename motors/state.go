package motors

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// State is everything about a bank that changes as it runs, in a form that
// encodes to JSON: with its Config it restores the bank exactly, including
// the noise stream, so an interrupted run resumes bit for bit.
type State struct {
	Positions   []float64 `json:"positions"`
	Direction   []int8    `json:"direction,omitempty"`
	Slack       []float64 `json:"slack,omitempty"`
	Stuck       []int     `json:"stuck,omitempty"` // indices of stuck pots
	Noisy       []int     `json:"noisy,omitempty"` // indices of pots with a noisy drive
	Seconds     float64   `json:"seconds"`
	Pulses      int64     `json:"pulses"`
	Saturations int64     `json:"saturations"`
	Noise       []byte    `json:"noise_state"` // the PCG generator's state
}

// State returns a copy of the bank's changing state.
func (b *Bank) State() State {
	st := State{
		Positions:   append([]float64(nil), b.pos...),
		Seconds:     b.clock,
		Pulses:      b.pulses,
		Saturations: b.saturations,
	}
	if b.cfg.Backlash > 0 {
		st.Direction = append([]int8(nil), b.dir...)
		st.Slack = append([]float64(nil), b.slack...)
	}
	for i, s := range b.stuck {
		if s {
			st.Stuck = append(st.Stuck, i)
		}
	}
	for i, s := range b.noisy {
		if s {
			st.Noisy = append(st.Noisy, i)
		}
	}
	st.Noise, _ = b.src.MarshalBinary() // PCG's MarshalBinary cannot fail
	return st
}

// Restore rebuilds a bank from its configuration and a saved state.
func Restore(cfg Config, st State) (*Bank, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	n := len(st.Positions)
	if n == 0 {
		return nil, fmt.Errorf("motors: saved state has no pots")
	}
	if (st.Direction != nil && len(st.Direction) != n) || (st.Slack != nil && len(st.Slack) != n) {
		return nil, fmt.Errorf("motors: saved state has %d positions but %d directions and %d slacks", n, len(st.Direction), len(st.Slack))
	}
	b := &Bank{
		cfg:         cfg,
		pos:         append([]float64(nil), st.Positions...),
		val:         make([]float64, n),
		dir:         make([]int8, n),
		slack:       make([]float64, n),
		stuck:       make([]bool, n),
		noisy:       make([]bool, n),
		src:         &rand.PCG{},
		clock:       st.Seconds,
		pulses:      st.Pulses,
		saturations: st.Saturations,
	}
	if err := b.src.UnmarshalBinary(st.Noise); err != nil {
		return nil, fmt.Errorf("motors: saved noise state: %w", err)
	}
	b.rng = rand.New(b.src)
	copy(b.dir, st.Direction)
	copy(b.slack, st.Slack)
	for i, p := range b.pos {
		if math.IsNaN(p) || math.IsInf(p, 0) || (cfg.Limit > 0 && math.Abs(p) > cfg.Limit) {
			return nil, fmt.Errorf("motors: pot %d at %v is beyond its end stops", i, p)
		}
		b.val[i] = b.read(p)
	}
	for _, i := range st.Stuck {
		if i < 0 || i >= n {
			return nil, fmt.Errorf("motors: stuck pot %d does not exist", i)
		}
		b.stuck[i] = true
	}
	for _, i := range st.Noisy {
		if i < 0 || i >= n {
			return nil, fmt.Errorf("motors: noisy pot %d does not exist", i)
		}
		b.noisy[i] = true
	}
	b.initSteps()
	return b, nil
}
