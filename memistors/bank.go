package memistors

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Config describes the memistors (or rheostats) of an ADALINE. The zero
// value is an ideal bank: unbounded, continuous, noiseless weights that
// move at once by exactly the change commanded and never drift. Defaults
// returns the 1960 memistors; Rheostats the hand-set knobs.
type Config struct {
	// Max bounds each weight to [−Max, Max]: the memistor's range of
	// conductance, read with the sign its input's polarity gives it;
	// 0 means unbounded. Default 1, a guess: the weights are in the units
	// of the targets ±1, and a fully plated memistor carries one input's
	// full share of them.
	Max float64 `json:"max"`
	// Rate is the most a weight moves in one second of plating, in weight
	// units; 0 means at once (no plating time). Default 0.2 = 2·Max in
	// 10 s, from Widrow (1960), Stanford TR 1553-2: a memistor "typically
	// varies in resistance from 100 ohms to 1 ohm" and "covers this range
	// in about 10 seconds with several milliamperes of plating current" —
	// taken as the whole travel from −Max to +Max, linear in plated charge.
	Rate float64 `json:"rate"`
	// PulseSeconds is the longest one adaptation's plating pulse runs: a
	// weight moves by at most Rate×PulseSeconds per adaptation, short of
	// the change commanded if that is larger; 0 means as long as the
	// largest change needs. Default 1 s, a guess (one press of the adapt
	// switch).
	PulseSeconds float64 `json:"pulse_seconds"`
	// Noise is the relative standard deviation of each move: the charge
	// plated is not exactly the charge sent. Default 0.1, a guess (the same
	// as the Mark I preset's motor step noise, so the two rows differ in
	// the weights' kind, not in the size of their noise).
	Noise float64 `json:"noise"`
	// LeakSeconds is the time constant of the weights' slow drift toward
	// 0 (the plating dissolving back) between presentations: over dt
	// seconds a weight w becomes w·exp(−dt/LeakSeconds); 0 means none.
	// Default 2.6e6 s (30 days), a guess from Widrow (1960), TR 1553-2:
	// training "will remain effective for weeks".
	LeakSeconds float64 `json:"leak_seconds"`
	// Step, when positive, is rheostat mode: each weight is a knob set by
	// hand to a whole number of steps (the change commanded is rounded to
	// the nearest setting), as in Widrow and Hoff's (1960) first,
	// manually adapted ADALINE; 0 means continuous memistors. Rheostats'
	// default 0.1 (21 settings from −1 to +1) is a guess.
	Step float64 `json:"step"`
}

// Defaults returns the memistors of the 1960 ADALINE, every figure a
// documented guess or source (see Config's fields and docs/record.md).
func Defaults() Config {
	return Config{Max: 1, Rate: 0.2, PulseSeconds: 1, Noise: 0.1, LeakSeconds: 2.6e6}
}

// Rheostats returns the hand-set ADALINE: knobs of 21 settings from −1
// to +1 that hold their setting, turned at the memistors' pace, with no
// noise in the setting (the operator reads the dial). Every figure is a
// guess.
func Rheostats() Config {
	return Config{Max: 1, Rate: 0.2, PulseSeconds: 1, Step: 0.1}
}

// Ideal reports whether the bank is exactly a software weight vector:
// unbounded, continuous, noiseless, without leak, moving at once.
func (c Config) Ideal() bool {
	return c.Max == 0 && c.Rate == 0 && c.Noise == 0 && c.LeakSeconds == 0 && c.Step == 0
}

// maxMagnitude bounds the sizes in a Config: far beyond any memistor.
// maxLeak bounds the leak's time constant: about 30 years.
const (
	maxMagnitude = 1e6
	maxLeak      = 1e9
)

// Validate reports a setting out of range as a *FieldError.
func (c Config) Validate() error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"max", c.Max}, {"rate", c.Rate}, {"pulse_seconds", c.PulseSeconds}, {"step", c.Step}} {
		if math.IsNaN(f.v) || f.v < 0 || f.v > maxMagnitude {
			return fieldErr(f.name, f.v, nil, "[0, %g]", maxMagnitude)
		}
	}
	switch {
	case math.IsNaN(c.LeakSeconds) || c.LeakSeconds < 0 || c.LeakSeconds > maxLeak:
		return fieldErr("leak_seconds", c.LeakSeconds, nil, "[0, %g] seconds (0: no leak)", maxLeak)
	case math.IsNaN(c.Noise) || c.Noise < 0 || c.Noise > 1:
		return fieldErr("noise", c.Noise, nil, "[0, 1], a relative standard deviation")
	case c.Max > 0 && c.Step > c.Max:
		return fieldErr("step", c.Step, []string{"max"}, "at most %g (max): a knob needs a setting other than 0", c.Max)
	}
	return nil
}

// Bank is a row of adaptive weights and the clock of the ADALINE they
// belong to.
type Bank struct {
	cfg Config
	w   []float64
	rng *rand.Rand // noise stream

	clock       float64 // simulated seconds
	adaptations int64   // plating pulses (adaptations) applied
	saturations int64   // moves cut short by a bound
}

// NewBank returns n weights at 0. seed starts the noise stream.
func NewBank(n int, cfg Config, seed uint64) (*Bank, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if n < 1 {
		return nil, fmt.Errorf("memistors: a bank needs at least one weight, got %d", n)
	}
	return &Bank{cfg: cfg, w: make([]float64, n), rng: rand.New(rand.NewPCG(seed, 0x6d656d))}, nil
}

// Config returns the bank's configuration.
func (b *Bank) Config() Config { return b.cfg }

// Len returns the number of weights.
func (b *Bank) Len() int { return len(b.w) }

// Weights returns the weights. The slice is the bank's own: read it, do
// not write it; it changes as the bank adapts and leaks.
func (b *Bank) Weights() []float64 { return b.w }

// Seconds returns the simulated time on the bank's clock.
func (b *Bank) Seconds() float64 { return b.clock }

// Adaptations returns the number of adaptations (plating pulses, each to
// every weight at once) applied so far.
func (b *Bank) Adaptations() int64 { return b.adaptations }

// Saturations returns the number of weight moves a bound cut short.
func (b *Bank) Saturations() int64 { return b.saturations }

// Adapt commands weight i to change by delta[i], all weights at once (one
// plating pulse): the pulse runs as long as the largest change needs at
// Rate, at most PulseSeconds, and each weight moves toward its change by at
// most Rate times that time, with noise (never backwards), within
// [−Max, Max], and in rheostat mode to the nearest setting. The clock
// advances by the pulse's time, which Adapt returns. It panics if delta
// has the wrong length.
func (b *Bank) Adapt(delta []float64) float64 {
	if len(delta) != len(b.w) {
		panic(fmt.Sprintf("memistors: Adapt: %d changes for %d weights", len(delta), len(b.w)))
	}
	b.adaptations++
	reach := math.Inf(1) // the most any weight moves in this pulse
	secs := 0.0
	if r := b.cfg.Rate; r > 0 {
		need := 0.0
		for _, d := range delta {
			need = max(need, math.Abs(d))
		}
		secs = need / r
		if p := b.cfg.PulseSeconds; p > 0 && secs > p {
			secs = p
			reach = r * p
		}
	}
	for i, d := range delta {
		if d == 0 {
			continue
		}
		if math.Abs(d) > reach {
			d = math.Copysign(reach, d)
		}
		if n := b.cfg.Noise; n > 0 {
			m := d * (1 + n*b.rng.NormFloat64())
			if m*d < 0 {
				m = 0 // noise never plates backwards
			}
			d = m
		}
		b.w[i] = b.set(b.w[i] + d)
	}
	b.clock += secs
	return secs
}

// set returns the weight that a commanded value v leaves: v within the
// bounds (counting a saturation when cut), on a knob's nearest setting in
// rheostat mode.
func (b *Bank) set(v float64) float64 {
	if s := b.cfg.Step; s > 0 {
		v = s * math.Round(v/s)
	}
	if m := b.cfg.Max; m > 0 && (v > m || v < -m) {
		b.saturations++
		top := m
		if s := b.cfg.Step; s > 0 {
			top = s * math.Floor(m/s) // the last setting inside the range
		}
		v = math.Copysign(top, v)
	}
	return v
}

// Advance moves the clock on by dt seconds (a presentation, a rest),
// during which every weight leaks toward 0.
func (b *Bank) Advance(dt float64) {
	if !(dt > 0) {
		return
	}
	b.clock += dt
	if b.cfg.LeakSeconds == 0 {
		return
	}
	f := math.Exp(-dt / b.cfg.LeakSeconds)
	for i := range b.w {
		b.w[i] *= f
	}
}

// Kinds lists the banks Kind names: the 1960 memistors (Defaults), the
// hand-set knobs (Rheostats) and exact weights (the zero Config).
func Kinds() []string { return []string{"memistors", "rheostats", "ideal"} }

// Kind returns the bank a name of Kinds names.
func Kind(name string) (Config, error) {
	switch name {
	case "memistors":
		return Defaults(), nil
	case "rheostats":
		return Rheostats(), nil
	case "ideal":
		return Config{}, nil
	}
	return Config{}, fmt.Errorf("memistors: no bank %q: want memistors, rheostats or ideal", name)
}
