package motors

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Config describes the potentiometers and their motors. The zero value is an
// ideal bank: no end stops, a step of 1, continuous values, no backlash,
// noise, drift or stuck pots, motors that take no time.
type Config struct {
	// Limit puts the end stops at ±Limit; 0 means none (unbounded).
	Limit float64 `json:"limit"`
	// Step is the travel of one pulse; 0 means 1.
	Step float64 `json:"step"`
	// Levels quantizes the readable value to this many evenly spaced levels
	// from −Limit to +Limit (needs Limit > 0); 0 means continuous.
	Levels int `json:"levels"`
	// Backlash is the travel lost each time a pot's direction reverses.
	Backlash float64 `json:"backlash"`
	// StepNoise is the relative standard deviation of each pulse's travel.
	StepNoise float64 `json:"step_noise"`
	// Drift is the standard deviation of a pot's random-walk drift over one
	// second of simulated time (it grows as the square root of time).
	Drift float64 `json:"drift"`
	// Stuck is the fraction of pots whose motor never moves them.
	Stuck float64 `json:"stuck"`
	// PulseSeconds is how long one pulse runs a motor.
	PulseSeconds float64 `json:"pulse_seconds"`
	// Serial makes motors run one after another; by default each pot's
	// motor runs at the same time as the others, so a set of moves takes as
	// long as the longest.
	Serial bool `json:"serial"`
	// Initial is every pot's starting position (before quantization).
	Initial float64 `json:"initial"`
}

// StepSize returns the travel of one pulse with the default applied.
func (c Config) StepSize() float64 {
	if c.Step == 0 {
		return 1
	}
	return c.Step
}

// Ideal reports whether the bank is exactly the textbook weight vector:
// unbounded, continuous, noiseless, no backlash, drift or stuck pots.
func (c Config) Ideal() bool {
	return c.Limit == 0 && c.Levels == 0 && c.Backlash == 0 && c.StepNoise == 0 && c.Drift == 0 && c.Stuck == 0
}

// Exact reports whether the bank keeps every pot at a whole number of steps
// and its sums exact: an Ideal bank whose Initial position is a whole number
// of steps. Pulses then move a pot by exactly ±n steps, and Weights gives the
// positions in steps, so that a sum of positions is an exact integer times
// the step: the machine's decisions, ties included, are those of an integer
// perceptron, at any step size. Fractional moves (Move, as the γ value
// system makes) and Fail leave fractions of a step, and with them rounding.
func (c Config) Exact() bool {
	if !c.Ideal() {
		return false
	}
	k := c.Initial / c.StepSize()
	return k == math.Trunc(k) && k*c.StepSize() == c.Initial && math.Abs(k) < 1<<52
}

// Read returns the value the R-units see for a pot at physical position p:
// p itself, or with Levels the nearest of the evenly spaced levels from
// −Limit to +Limit. It is the one rule for a pot's quantization.
func (c Config) Read(p float64) float64 {
	if c.Levels == 0 {
		return p
	}
	lim := c.Limit
	q := (c.Levels - 1)
	k := math.Round((p + lim) / (2 * lim) * float64(q))
	return -lim + 2*lim*k/float64(q)
}

// maxMagnitude bounds the sizes in a Config: far beyond any pot.
const maxMagnitude = 1e6

// Validate reports a setting out of range as a *FieldError.
func (c Config) Validate() error {
	bad := func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) || v < 0 }
	// Sizes beyond maxMagnitude cannot be physical, and would let the
	// positions overflow to infinity in a long run (a machine with such
	// values could not even be saved).
	for _, f := range []struct {
		name string
		v    float64
	}{{"limit", c.Limit}, {"step", c.Step}, {"backlash", c.Backlash}, {"drift", c.Drift}, {"initial", c.Initial}, {"pulse_seconds", c.PulseSeconds}} {
		if math.Abs(f.v) > maxMagnitude {
			return fieldErr(f.name, f.v, nil, "[-%g, %g]", maxMagnitude, maxMagnitude)
		}
	}
	switch {
	case bad(c.Limit):
		return fieldErr("limit", c.Limit, nil, "a number ≥ 0 (0 = no end stops)")
	case bad(c.Step):
		if c.Limit > 0 {
			return fieldErr("step", c.Step, nil, "a number > 0, at most %g, the travel between the end stops (2 × limit)", 2*c.Limit)
		}
		return fieldErr("step", c.Step, nil, "a number > 0")
	case c.Limit > 0 && c.StepSize() > 2*c.Limit:
		return fieldErr("step", c.Step, []string{"limit"}, "at most %g, the travel between the end stops (2 × limit = 2 × %g)", 2*c.Limit, c.Limit)
	case c.Levels < 0 || c.Levels == 1 || c.Levels > 1<<24:
		return fieldErr("levels", c.Levels, nil, "0 (continuous) or 2 to 16777216")
	case c.Levels > 0 && c.Limit == 0:
		return fieldErr("levels", c.Levels, []string{"limit"}, "0 (continuous) without end stops: quantization to levels needs a limit > 0")
	case bad(c.Stuck) || c.Stuck > 1:
		return fieldErr("stuck", c.Stuck, nil, "a fraction in [0, 1]")
	case bad(c.StepNoise) || c.StepNoise > 1:
		return fieldErr("step_noise", c.StepNoise, nil, "[0, 1], a relative standard deviation")
	case math.IsNaN(c.Initial):
		return fieldErr("initial", c.Initial, nil, "a number")
	case c.Limit > 0 && math.Abs(c.Initial) > c.Limit:
		return fieldErr("initial", c.Initial, []string{"limit"}, "[%g, %g], the end stops", -c.Limit, c.Limit)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"backlash", c.Backlash}, {"drift", c.Drift}, {"pulse_seconds", c.PulseSeconds}} {
		if bad(f.v) {
			return fieldErr(f.name, f.v, nil, "[0, %g]", maxMagnitude)
		}
	}
	return nil
}

// Bank is a row of motor-driven potentiometers and the clock of the machine
// they belong to. Values holds what the R-units read.
type Bank struct {
	cfg   Config
	pos   []float64 // physical positions
	val   []float64 // readable values (quantized positions)
	dir   []int8    // last direction moved: -1, 0, +1
	slack []float64 // backlash still to take up before the pot moves
	stuck []bool
	noisy []bool // pots with a worn, erratic drive (NoisyStepNoise)
	// steps holds each position in steps in an Exact bank (nil otherwise):
	// pos[i] is always steps[i]·Step, rounded once.
	steps []float64

	src *rand.PCG // noise stream; saved with the machine for exact resumes
	rng *rand.Rand

	clock       float64 // simulated seconds
	pulses      int64   // pulses sent
	saturations int64   // pulses that pushed against an end stop
	cycleMax    float64 // longest motor run since the last Settle, in pulses
	cycleSum    float64 // total motor run since the last Settle, in pulses
}

// NewBank returns n pots at their initial position. seed draws the stuck pots
// and starts the noise stream.
func NewBank(n int, cfg Config, seed uint64) (*Bank, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if n < 1 {
		return nil, fmt.Errorf("motors: a bank needs at least one pot, got %d", n)
	}
	b := &Bank{
		cfg:   cfg,
		pos:   make([]float64, n),
		val:   make([]float64, n),
		dir:   make([]int8, n),
		slack: make([]float64, n),
		stuck: make([]bool, n),
		noisy: make([]bool, n),
		src:   rand.NewPCG(seed, 0x3070),
	}
	b.rng = rand.New(b.src)
	for i := range n {
		b.pos[i] = cfg.Initial
		b.val[i] = b.read(cfg.Initial)
		if cfg.Stuck > 0 && b.rng.Float64() < cfg.Stuck {
			b.stuck[i] = true
		}
	}
	b.initSteps()
	return b, nil
}

// initSteps sets up the positions in steps of an Exact bank from pos.
func (b *Bank) initSteps() {
	if !b.cfg.Exact() {
		b.steps = nil
		return
	}
	b.steps = make([]float64, len(b.pos))
	for i, p := range b.pos {
		b.steps[i] = math.Round(p / b.cfg.StepSize())
		if b.steps[i]*b.cfg.StepSize() != p {
			b.steps[i] = p / b.cfg.StepSize() // not a whole number of steps (a failed pot)
		}
	}
}

// Weights returns the pots' values in a unit of the given size: the values
// themselves in unit 1, or, for an Exact bank, the positions in steps with
// the unit Step. A sum of weights times the unit is a sum of values; for an
// Exact bank the sum of weights is exact. The slice is the bank's own: read
// it, do not write it.
func (b *Bank) Weights() (w []float64, unit float64) {
	if b.steps != nil {
		return b.steps, b.cfg.StepSize()
	}
	return b.val, 1
}

// Config returns the bank's configuration.
func (b *Bank) Config() Config { return b.cfg }

// Len returns the number of pots.
func (b *Bank) Len() int { return len(b.pos) }

// Values returns the readable value of every pot. The slice is the bank's
// own: read it, do not write it; it changes as pots move.
func (b *Bank) Values() []float64 { return b.val }

// Position returns pot i's physical (unquantized) position.
func (b *Bank) Position(i int) float64 { return b.pos[i] }

// Stuck reports whether pot i's motor cannot move it.
func (b *Bank) Stuck(i int) bool { return b.stuck[i] }

// SetStuck makes pot i stuck or frees it (a fault injected from outside).
func (b *Bank) SetStuck(i int, stuck bool) { b.stuck[i] = stuck }

// NoisyStepNoise is the relative standard deviation of each pulse's travel
// on a noisy pot (see SetNoisy): a worn drive whose travel per pulse varies
// by half its nominal value, whatever the bank's StepNoise.
const NoisyStepNoise = 0.5

// Noisy reports whether pot i has a noisy drive.
func (b *Bank) Noisy(i int) bool { return b.noisy[i] }

// SetNoisy gives pot i a noisy drive, or a normal one (a fault injected
// from outside): its pulses travel with relative standard deviation
// max(StepNoise, NoisyStepNoise).
func (b *Bank) SetNoisy(i int, noisy bool) { b.noisy[i] = noisy }

// Fail breaks pot i: its wiper comes to rest at pos (clamped to the end
// stops) and its motor no longer moves it (a fault injected from outside,
// as when a motor ran away and burnt out).
func (b *Bank) Fail(i int, pos float64) {
	if lim := b.cfg.Limit; lim > 0 {
		pos = min(max(pos, -lim), lim)
	}
	b.pos[i] = pos
	b.val[i] = b.read(pos)
	b.slack[i] = 0
	b.stuck[i] = true
	if b.steps != nil {
		b.steps[i] = pos / b.cfg.StepSize()
	}
}

// AtStop reports whether pot i rests against an end stop.
func (b *Bank) AtStop(i int) bool {
	return b.cfg.Limit > 0 && math.Abs(b.pos[i]) >= b.cfg.Limit
}

// Seconds returns the simulated time on the machine's clock.
func (b *Bank) Seconds() float64 { return b.clock }

// Pulses returns the number of motor pulses sent so far.
func (b *Bank) Pulses() int64 { return b.pulses }

// Saturations returns the number of pulses that pushed a pot against an end
// stop (the pot moved less than asked, or not at all).
func (b *Bank) Saturations() int64 { return b.saturations }

// Pulse runs pot i's motor for n pulses, up if n > 0, down if n < 0.
func (b *Bank) Pulse(i, n int) {
	if n == 0 {
		return
	}
	b.move(i, float64(n)*b.cfg.StepSize(), math.Abs(float64(n)), float64(n))
}

// Move turns pot i by delta (a travel, positive is up), as a motor run of
// |delta|/Step pulse lengths; the γ value system uses fractional runs.
func (b *Bank) Move(i int, delta float64) {
	if delta == 0 {
		return
	}
	b.move(i, delta, math.Abs(delta)/b.cfg.StepSize(), delta/b.cfg.StepSize())
}

// move turns pot i by delta, a motor run of runs pulse lengths; steps is
// delta in steps, exact for whole pulses.
func (b *Bank) move(i int, delta, runs, steps float64) {
	b.pulses += int64(math.Ceil(runs))
	b.cycleMax = max(b.cycleMax, runs)
	b.cycleSum += runs
	if b.stuck[i] {
		return
	}
	if b.steps != nil {
		// An Exact bank has no noise, backlash or end stops.
		b.steps[i] += steps
		b.pos[i] = b.steps[i] * b.cfg.StepSize()
		b.val[i] = b.pos[i]
		return
	}
	var d int8 = 1
	if delta < 0 {
		d = -1
	}
	if sn := b.cfg.StepNoise; sn > 0 || b.noisy[i] {
		if b.noisy[i] {
			sn = max(sn, NoisyStepNoise)
		}
		delta *= 1 + sn*b.rng.NormFloat64()
		if delta*float64(d) < 0 {
			delta = 0 // noise never runs a motor backwards
		}
	}
	if b.cfg.Backlash > 0 {
		if b.dir[i] != 0 && b.dir[i] != d {
			b.slack[i] = b.cfg.Backlash
		}
		take := min(b.slack[i], math.Abs(delta))
		b.slack[i] -= take
		delta -= float64(d) * take
	}
	b.dir[i] = d
	p := b.pos[i] + delta
	if lim := b.cfg.Limit; lim > 0 {
		if p > lim || p < -lim || (math.Abs(b.pos[i]) >= lim && b.pos[i]*float64(d) > 0) {
			b.saturations++
		}
		p = min(max(p, -lim), lim)
	}
	b.pos[i] = p
	b.val[i] = b.read(p)
}

// read converts a position to the value the R-units see.
func (b *Bank) read(p float64) float64 { return b.cfg.Read(p) }

// Settle ends a set of motor moves: it advances the clock by the time the
// motors ran (the longest run if motors run together, the sum if serially)
// and returns that time in seconds.
func (b *Bank) Settle() float64 {
	runs := b.cycleMax
	if b.cfg.Serial {
		runs = b.cycleSum
	}
	b.cycleMax, b.cycleSum = 0, 0
	dt := runs * b.cfg.PulseSeconds
	b.Advance(dt)
	return dt
}

// Advance moves the clock on by dt seconds, during which every pot drifts.
func (b *Bank) Advance(dt float64) {
	if dt <= 0 {
		return
	}
	b.clock += dt
	if b.cfg.Drift == 0 {
		return
	}
	sd := b.cfg.Drift * math.Sqrt(dt)
	lim := b.cfg.Limit
	for i, p := range b.pos {
		p += sd * b.rng.NormFloat64()
		if lim > 0 {
			p = min(max(p, -lim), lim)
		}
		b.pos[i] = p
		b.val[i] = b.read(p)
	}
}
