package machine

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"

	"mark1/associator"
	"mark1/coupling"
	"mark1/images"
	"mark1/motors"
	"mark1/response"
	"mark1/retina"
)

// Machine is one simulated Mark I: its hardware, the state of its pots, the
// classes it was trained on, and its training history.
type Machine struct {
	Config  Config
	Seeds   Seeds
	Classes []string
	Retina  *retina.Retina
	// Wiring is the healthy plugboard, as wired (or as listed by hand),
	// before any fault; Plugboard is the one the machine runs on: Wiring
	// with the broken wires and dead A-units of Config.Faults. They are kept
	// apart so that rebuilding a machine (New with Wiring) never draws the
	// faults twice. Without faults they are equal.
	Wiring    *associator.Plugboard
	Plugboard *associator.Plugboard
	Layer     *response.Layer
	Bank      *motors.Bank
	// Couplings is the fourth layer A_II with its couplings from the
	// plugboard's A-units (A_I), for Config.Layers 4; nil for three layers.
	// They learn once, from the first session's training cards in
	// sequence (LearnSequence), and are then frozen.
	Couplings *coupling.Layer
	// History has one record per training epoch, across resumed runs.
	History []Epoch
	// Recipe is how the machine is trained, or nil if that is not known
	// (a machine never trained, or loaded from a version-1 file that did
	// not record it).
	Recipe *Recipe

	noise *rand.PCG // reading-noise stream used in training
}

// Epoch records one pass of training.
type Epoch struct {
	Epoch         int      `json:"epoch"`
	Presentations int      `json:"presentations"` // presentations so far
	Mistakes      int      `json:"mistakes"`      // presentations this epoch that needed a correction
	Pr            float64  `json:"p_r"`           // accuracy on the training set after the epoch
	Pg            *float64 `json:"p_g,omitempty"` // accuracy on held-out data, if any
	Seconds       float64  `json:"seconds"`       // simulated machine time so far
	Pulses        int64    `json:"pulses"`        // motor pulses so far
	Saturations   int64    `json:"saturations"`   // pushes against end stops so far
}

// New builds a machine for the given classes. A nil wiring means wire the
// plugboard from the seeds; otherwise a copy of wiring is used (a machine's
// healthy Wiring, or a hand-edited plugboard), which must fit the retina.
// The faults of cfg.Faults are then drawn from seeds.Faults and applied:
// dead and stuck cells, broken wires and dead A-units (on a copy of the
// wiring: Machine.Plugboard), stuck and noisy pots, drift. The same
// configuration, seeds and wiring always give the same machine, faults
// included.
func New(cfg Config, classes []string, seeds Seeds, wiring *associator.Plugboard) (*Machine, error) {
	if wiring != nil {
		wiring = wiring.Clone()
	}
	m, err := build(cfg, classes, seeds, wiring)
	if err != nil {
		return nil, err
	}
	m.Wiring = m.Plugboard
	if !cfg.Faults.IsZero() {
		m.Plugboard = m.Wiring.Clone()
	}
	applyFaults(cfg.Faults, seeds.Faults, m.Retina, m.Plugboard, m.Bank)
	return m, nil
}

// build assembles a machine from healthy parts and the given plugboard
// (used as is), without drawing faults.
func build(cfg Config, classes []string, seeds Seeds, plug *associator.Plugboard) (*Machine, error) {
	if err := cfg.validate(plug != nil); err != nil {
		return nil, err
	}
	ret, err := retina.New(cfg.Retina, seeds.Retina)
	if err != nil {
		return nil, err
	}
	w, h := ret.Size()
	if plug == nil {
		plug, err = associator.Wire(cfg.Associator, w, h, seeds.Wiring)
		if err != nil {
			return nil, err
		}
	} else {
		// The rule a machine file is read by: the unit count, then the
		// plugboard itself.
		if err := validateUnits(cfg, plug); err != nil {
			return nil, err
		}
		if plug.Width != w || plug.Height != h {
			return nil, fmt.Errorf("plugboard is wired for a %dx%d retina; the machine's is %dx%d", plug.Width, plug.Height, w, h)
		}
	}
	layer, err := response.New(cfg.Response, len(plug.Units), len(classes))
	if err != nil {
		return nil, err
	}
	bank, err := motors.NewBank(layer.Pots(), cfg.motors(), seeds.Motors)
	if err != nil {
		return nil, err
	}
	var couplings *coupling.Layer
	if cfg.FourLayers() {
		if couplings, err = coupling.New(len(plug.Units), Theta); err != nil {
			return nil, err
		}
	}
	return &Machine{
		Couplings: couplings,
		Config:    cfg,
		Seeds:     seeds,
		Classes:   append([]string(nil), classes...),
		Retina:    ret,
		Plugboard: plug,
		Layer:     layer,
		Bank:      bank,
		noise:     rand.NewPCG(seeds.Noise, 0x9015e),
	}, nil
}

// Clone returns an independent copy of the machine, exactly as saving and
// loading it would give.
func (m *Machine) Clone() (*Machine, error) {
	var b bytes.Buffer
	if err := m.Encode(&b); err != nil {
		return nil, err
	}
	return Decode(&b, "machine copy")
}

// TrainingNoise returns the generator for the retina's reading noise during
// training. Its state is saved with the machine.
func (m *Machine) TrainingNoise() *rand.Rand { return rand.New(m.noise) }

// EvalNoise returns a fresh generator for the retina's reading noise when
// measuring: every measurement of the same machine sees the same noise.
func (m *Machine) EvalNoise() *rand.Rand { return rand.New(rand.NewPCG(m.Seeds.Noise, 0xe5a1)) }

// Response is the machine's state for one presentation. Reuse one across
// presentations to avoid allocation.
type Response struct {
	S []float64 // S-unit outputs
	// Active lists the A-units that fired, the ones the R-units see: on a
	// four-layer machine those of A_II (A_I's are AI).
	Active []int
	// AI lists the A_I units that fired on a four-layer machine.
	AI    []int
	alpha []float64 // A_II's inputs
	Sums  []float64 // sum of each R-unit in use
	Class int       // decoded class, or -1 if the R-units show none
}

// Pa returns the fraction of A-units that fired.
func (r *Response) Pa(m *Machine) float64 {
	return float64(len(r.Active)) / float64(len(m.Plugboard.Units))
}

// Present shows a fitted field to the machine and fills r: S-units, A-units,
// R-unit sums and the decoded class. noise draws the photocells' reading
// noise (nil for none).
func (m *Machine) Present(r *Response, field []float32, noise *rand.Rand) {
	r.S = m.Retina.Expose(r.S, field, noise)
	m.Associate(r)
	m.respond(r)
}

// Associate sets r.Active to the A-units that the S-unit outputs r.S fire
// and the R-units see: the plugboard's, or on a four-layer machine A_II's
// (A_I's then in r.AI).
func (m *Machine) Associate(r *Response) {
	if m.Couplings == nil {
		r.Active = m.Plugboard.Active(r.Active, r.S)
		return
	}
	r.AI = m.Plugboard.Active(r.AI, r.S)
	r.Active, r.alpha = m.Couplings.Fire(r.Active, r.alpha, r.AI)
}

// respond fills r's R-unit sums and decoded class from its active A-units
// and the pots as they stand.
func (m *Machine) respond(r *Response) {
	w, unit := m.Bank.Weights()
	r.Sums = m.Layer.Sums(r.Sums, r.Active, w)
	if unit != 1 {
		// An exact bank's sums are whole numbers of steps: scale once, so
		// that a sum is zero, or has its sign, exactly when the integer
		// perceptron's does.
		for i := range r.Sums {
			r.Sums[i] *= unit
		}
	}
	r.Class = m.Layer.Decode(r.Sums)
}

// memoryError is an error over the memory budget: its message gives the
// numbers, and it wraps images.ErrMemory (and so dataset.ErrTooLarge)
// without repeating their words.
type memoryError struct{ msg string }

func (e *memoryError) Error() string { return e.msg }
func (e *memoryError) Unwrap() error { return images.ErrMemory }

// CheckSize reports an error wrapping images.ErrMemory if a machine of
// configuration c for classes classes would itself take more than limit
// bytes: about 48 bytes a pot
// (its motor's state and the R-unit's reference to it) and 112 bytes an
// A-unit plus 8 an origin point (measured: 1,048,576 A-units and 4,194,304
// pots take 335 MiB). Call it before New when the configuration or the
// classes came from the user: flags in range can still ask for a billion
// pots (--a-units 1048576 --layout full --r-units 1024 and 1,024 classes).
func (c Config) CheckSize(classes int, limit int64) error {
	a := c.Associator.Defaults()
	pots, err := response.Pots(c.Response, a.Units, classes)
	if err != nil {
		return err
	}
	need := int64(pots)*48 + int64(a.Units)*(112+8*int64(a.Excitatory+a.Inhibitory))
	if c.FourLayers() {
		need += 8 * int64(a.Units) * int64(a.Units) // the couplings υ_μν
	}
	if need > limit || need < 0 {
		return &memoryError{fmt.Sprintf("a machine of %d A-units and %d pots would take about %d bytes of memory, over the limit of %d; fewer A-units or R-units take less",
			a.Units, pots, need, limit)}
	}
	return nil
}

// CheckFit reports an error wrapping images.ErrMemory if fitting cards cards (Fit) on a machine of
// configuration c and training on them would take more than limit bytes: a
// float32 per retina cell and a slice header per card, and a Session's bit
// per cell and per A-unit. Call it before Fit on data that came from a
// file: a small file can declare millions of cards.
func (c Config) CheckFit(cards int, limit int64) error {
	w, h := c.Retina.Size()
	cells := int64(w) * int64(h)
	perCard := cells*4 + 24 + 8*int64(cacheWords(int(cells), c.Associator.Units))
	if need := int64(cards) * perCard; need > limit || need < 0 || perCard < 0 {
		return &memoryError{fmt.Sprintf("fitting %d cards onto the %d-cell retina would take %d bytes of memory, over the limit of %d",
			cards, cells, need, limit)}
	}
	return nil
}

// Fit projects every sample of d onto the retina: the optics, done once.
func (m *Machine) Fit(d *images.Dataset) [][]float32 {
	out, _ := m.FitContext(context.Background(), d)
	return out
}

// FitContext is Fit stopped by ctx: it returns ctx's error once ctx is
// cancelled (looked at every 1,024 samples).
func (m *Machine) FitContext(ctx context.Context, d *images.Dataset) ([][]float32, error) {
	out := make([][]float32, len(d.Samples))
	n := m.Retina.Cells()
	buf := make([]float32, n*len(d.Samples))
	for i, s := range d.Samples {
		if i%1024 == 1023 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		out[i] = m.Retina.Fit(buf[i*n:(i+1)*n:(i+1)*n], s.Image)
	}
	return out, nil
}

// Accuracy returns the fraction of fields the machine classifies as labelled,
// with the weights frozen and fresh evaluation noise.
func (m *Machine) Accuracy(fields [][]float32, labels []int) float64 {
	noise := m.EvalNoise()
	return fractionRight(labels, func(r *Response, i int) { m.Present(r, fields[i], noise) })
}

// Pairwise returns Rosenblatt's 1958 pairwise measure on the fields: the
// fraction of (card, other class) pairs for which the machine prefers the
// card's class to the other one (response.Layer.Score, strictly: a tie is
// no preference) — PR58's P_r or P_g, "a bias in favour of the proper
// response rather than any one alternative" — with the weights frozen and
// fresh evaluation noise. For two classes it equals Accuracy; with more it
// is at least as high, as Accuracy asks for the card's class over all the
// others at once (1958's P_R). It is 0 for no fields.
func (m *Machine) Pairwise(fields [][]float32, labels []int) float64 {
	k := len(m.Classes)
	if len(fields) == 0 || k < 2 {
		return 0
	}
	noise := m.EvalNoise()
	var r Response
	right := 0
	for i, f := range fields {
		m.Present(&r, f, noise)
		own := m.Layer.Score(r.Sums, labels[i])
		for c := range k {
			if c != labels[i] && own > m.Layer.Score(r.Sums, c) {
				right++
			}
		}
	}
	return float64(right) / float64(len(fields)*(k-1))
}

// fractionRight returns the fraction of the cards whose labels are given
// that the machine classifies right, answer(r, i) filling r with its
// response to card i; 0 for no cards.
func fractionRight(labels []int, answer func(r *Response, i int)) float64 {
	if len(labels) == 0 {
		return 0
	}
	var r Response
	right := 0
	for i, y := range labels {
		answer(&r, i)
		if r.Class == y {
			right++
		}
	}
	return float64(right) / float64(len(labels))
}

// Confusion returns counts[true][predicted]; predictions of no class are
// counted in an extra last column.
func (m *Machine) Confusion(fields [][]float32, labels []int) [][]int {
	k := len(m.Classes)
	c := make([][]int, k)
	for i := range c {
		c[i] = make([]int, k+1)
	}
	var r Response
	noise := m.EvalNoise()
	for i, f := range fields {
		m.Present(&r, f, noise)
		p := r.Class
		if p < 0 {
			p = k
		}
		c[labels[i]][p]++
	}
	return c
}

// Labels returns the labels of d's samples.
func Labels(d *images.Dataset) []int {
	y := make([]int, len(d.Samples))
	for i, s := range d.Samples {
		y[i] = s.Label
	}
	return y
}

// Snapshot is what training changes in a machine — the pots with their
// motors' noise stream and clock, the reading-noise stream, the length of
// the history — copied in memory so that training can go back to it.
type Snapshot struct {
	pots    motors.State
	noise   []byte
	history int
}

// Snapshot returns a copy of the machine's changing state. It is cheap
// (a copy of the pot positions) next to encoding the machine.
func (m *Machine) Snapshot() Snapshot {
	s := Snapshot{pots: m.Bank.State(), history: len(m.History)}
	s.noise, _ = m.noise.MarshalBinary() // PCG's MarshalBinary cannot fail
	return s
}

// Epochs returns the number of training epochs the snapshot had recorded.
func (s Snapshot) Epochs() int { return s.history }

// Rollback returns the machine to a snapshot taken from it: an interrupted
// epoch is undone, and the machine is as it was when the snapshot was
// taken. Generators obtained from TrainingNoise before must not be used
// after.
func (m *Machine) Rollback(s Snapshot) error {
	if s.history > len(m.History) {
		panic("machine: snapshot is from another machine")
	}
	bank, err := motors.Restore(m.Bank.Config(), s.pots)
	if err != nil {
		return fmt.Errorf("rolling back: %w", err)
	}
	if err := m.noise.UnmarshalBinary(s.noise); err != nil {
		return fmt.Errorf("rolling back: %w", err)
	}
	m.Bank, m.History = bank, m.History[:s.history]
	return nil
}
