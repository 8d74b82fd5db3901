package learning

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
)

// Perceptron is Rosenblatt's error-correction rule (Rosenblatt 1958; Principles
// of Neurodynamics, 1962) in its modern form: stochastic gradient descent on
// the perceptron risk
//
//	R(w) = Σ_{i misclassified} −y_i (w·x_i + b),   y_i = ±1,
//
// one example at a time. Each epoch presents the rows in a fresh random order;
// whenever y_i (w·x_i + b) ≤ 0 (a mistake; points on the boundary count, so
// that the zero start learns) it sets
//
//	w ← w + ε y_i x_i,   b ← b + ε y_i,
//
// the bias b being the weight of a fictitious input that is always 1 (lecture
// notes 001). A run stops after an epoch without mistakes (Converged) or after
// MaxEpochs epochs. On linearly separable data with margin γ and radius R the
// number of mistakes is at most (R/γ)² (Novikoff 1962; see MistakeBound), so
// the run converges; on other data it ends at the epoch limit with a Status
// that says so. With more than two classes one binary machine per class is
// trained one-vs-rest, all in the same pass (see the package's multi-class
// notes in multiclass.go); with two classes there is a single machine.
//
// The zero value (plus a Seed) is ready to use. Result.Curve has one entry per
// epoch whose Mistakes counts the updates of all machines and whose Risk is
// NaN (the risk is not computed; see BatchGD). The model is a *LinearModel.
// Fit allocates O(n + M·d) memory up front and nothing per example.
//
// Fit panics on invalid settings (negative or non-finite numbers).
type Perceptron struct {
	// Step is the step size ε; 0 means 1. From the zero start ε only scales
	// w and b in exact arithmetic, so it changes nothing but the size of the
	// weights there; in floating point a step that is not a power of two
	// rounds the sums, and a tie (w·x = 0) can then fall on either side, so
	// the mistakes can differ from ε = 1's. (The machine's ideal pots avoid
	// this by keeping whole steps: see motors.Config.Exact.)
	Step float64
	// NoBias drops the always-on extra input, so the separator passes
	// through the origin.
	NoBias bool
	// MaxEpochs bounds the number of passes; 0 means 100.
	MaxEpochs int
	// InitScale is 0 for the zero start (the textbook rule); a positive
	// value draws every starting weight and bias uniformly from
	// [−InitScale, InitScale] with a generator seeded by Seed.
	InitScale float64
	// InOrder presents the rows in data order in every epoch instead of a
	// fresh permutation (for comparisons with a fixed presentation order).
	InOrder bool
	// Seed seeds the PCG generators (math/rand/v2) for the presentation
	// order and the random start; each has its own stream.
	Seed uint64
	// Watch, if not nil, is called after every presentation of a row, with
	// the weights after it (for step-by-step traces; see Visit).
	Watch func(Visit)
	// Start, if not nil, is the starting point instead of zero: the
	// weights followed by the bias (without NoBias), the same for every
	// one-vs-rest machine. It excludes InitScale.
	Start []float64
}

var _ Learner = Perceptron{}

// Name returns "perceptron".
func (Perceptron) Name() string { return "perceptron" }

// Fit trains on d; see the type's documentation.
func (p Perceptron) Fit(ctx context.Context, d *Data, rec Recorder) (*Result, error) {
	return fitOnline(ctx, d, rec, p.settings("perceptron"), plainVariant)
}

// settings are the run's settings for fitOnline, under a learner's name.
func (p Perceptron) settings(name string) onlineSettings {
	return onlineSettings{
		name: name, step: p.Step, bias: !p.NoBias, maxEpochs: p.MaxEpochs,
		initScale: p.InitScale, inOrder: p.InOrder, seed: p.Seed, watch: p.Watch, start: p.Start,
	}
}

// Defaults and the generator streams shared by the learners.
const (
	defaultMaxEpochs = 100
	orderStream      = 0x6f72646572 // "order"
	initStream       = 0x696e6974   // "init"
)

type variant int

const (
	plainVariant variant = iota
	averagedVariant
	votedVariant
	pocketVariant
)

// onlineSettings are the settings of the online perceptron family, with
// defaults applied by check.
type onlineSettings struct {
	name      string
	step      float64
	bias      bool
	maxEpochs int
	initScale float64
	inOrder   bool
	seed      uint64
	ratchet   bool        // pocket only
	watch     func(Visit) // plain perceptron only
	start     []float64   // a given starting point (weights, then the bias)
}

func (s *onlineSettings) check() {
	if !(s.step >= 0) || math.IsInf(s.step, 0) {
		panic(fmt.Sprintf("learning: %s: step %v is not a finite number ≥ 0", s.name, s.step))
	}
	if s.step == 0 {
		s.step = 1
	}
	if s.maxEpochs < 0 {
		panic(fmt.Sprintf("learning: %s: negative MaxEpochs %d", s.name, s.maxEpochs))
	}
	if s.maxEpochs == 0 {
		s.maxEpochs = defaultMaxEpochs
	}
	if !(s.initScale >= 0) || math.IsInf(s.initScale, 0) {
		panic(fmt.Sprintf("learning: %s: InitScale %v is not a finite number ≥ 0", s.name, s.initScale))
	}
}

// startAt sets every machine's weights and bias (M machines of dim weights
// in w, one bias each in b) to start, the weights followed by the bias when
// bias is set. It panics, as misuse, if start has the wrong length or a
// non-finite value, or if a random start was asked for too.
func startAt(w, b, start []float64, dim int, bias bool, initScale float64, who string) {
	if start == nil {
		return
	}
	want := dim
	if bias {
		want++
	}
	if len(start) != want {
		panic(fmt.Sprintf("learning: %s: Start has %d values; want %d (the weights, then the bias if there is one)", who, len(start), want))
	}
	if initScale != 0 {
		panic(fmt.Sprintf("learning: %s: Start and InitScale both set", who))
	}
	for _, v := range start {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			panic(fmt.Sprintf("learning: %s: Start holds %v", who, v))
		}
	}
	for k := range b {
		copy(w[k*dim:(k+1)*dim], start[:dim])
		if bias {
			b[k] = start[dim]
		}
	}
}

// initWeights fills w and b with the starting point: zero, or uniform in
// [−scale, scale] from the init stream of seed.
func initWeights(w, b []float64, scale float64, bias bool, seed uint64) {
	clear(w)
	clear(b)
	if scale == 0 {
		return
	}
	r := rand.New(rand.NewPCG(seed, initStream))
	for i := range w {
		w[i] = scale * (2*r.Float64() - 1)
	}
	if bias {
		for i := range b {
			b[i] = scale * (2*r.Float64() - 1)
		}
	}
}

// nextOrder sets perm to the order of the next epoch: the identity when
// inOrder, else a fresh permutation drawn from r.
func nextOrder(perm []int, r *rand.Rand, inOrder bool) {
	for i := range perm {
		perm[i] = i
	}
	if !inOrder {
		r.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	}
}

// closeEpoch counts an online epoch into res (its epochs, updates and
// curve) and tells rec; an error from rec is returned, with res's Summary
// saying so, for the caller to finish the run as Stopped.
func (res *Result) closeEpoch(epoch, mistakes int, rec Recorder) error {
	res.Epochs = epoch
	res.Updates += mistakes
	e := Epoch{Epoch: epoch, Mistakes: mistakes, Risk: math.NaN()}
	res.Curve = append(res.Curve, e)
	if rec == nil {
		return nil
	}
	if err := rec.Record(e); err != nil {
		res.Summary = fmt.Sprintf("stopped by its recorder after %d epochs: %v", res.Epochs, err)
		return err
	}
	return nil
}

// limitStatus is the Status of a run that met no stopping rule.
func limitStatus(epochs, last int) string {
	return fmt.Sprintf("no error-free epoch in %d epochs (last epoch: %d mistakes); the data may not be linearly separable", epochs, last)
}

// fitOnline runs the perceptron family. The plain rule is the core; the
// variants add bookkeeping at the marked places.
func fitOnline(ctx context.Context, d *Data, rec Recorder, s onlineSettings, v variant) (*Result, error) {
	s.check()
	if err := d.Validate(); err != nil {
		return nil, err
	}
	rows := d.Features()
	n, dim, mach := rows.Len(), rows.Dim(), ovrMachines(d)
	copies := map[variant]int{plainVariant: 2, averagedVariant: 4, votedVariant: 2, pocketVariant: 3}[v]
	need, cause := onlineNeed(n, dim, mach, copies)
	if err := CheckMemory(ctx, s.name, need, cause); err != nil {
		return nil, err
	}
	ys := signs(nil, d)
	w := make([]float64, mach*dim)
	b := make([]float64, mach)
	initWeights(w, b, s.initScale, s.bias, s.seed)
	startAt(w, b, s.start, dim, s.bias, s.initScale, s.name)
	order := rand.New(rand.NewPCG(s.seed, orderStream))
	perm := make([]int, n)
	eps := s.step
	biasIn := 0.0 // the bias input: 1 with a bias, 0 without
	if s.bias {
		biasIn = 1
	}

	// Averaged: u accumulates c·Δw, so that the average of all weights
	// seen is w − u/c (Daumé's form of the averaged perceptron).
	var u, ub []float64
	c := 1.0
	// Voted: the weights that were replaced, with their survival counts.
	var vt *votedTrace
	// Pocket: the best weights so far and their run and error count.
	var pk *pocketState
	switch v {
	case averagedVariant:
		u, ub = make([]float64, mach*dim), make([]float64, mach)
	case votedVariant:
		vt = newVotedTrace(ctx, s.name, need, mach, dim)
	case pocketVariant:
		pk = newPocketState(d, ys, w, b, s.ratchet)
	}

	res := &Result{}
	finish := func(status Status) {
		var model Model
		switch v {
		case plainVariant:
			lm := newLinearModel(d.Classes, dim, w, b)
			lm.train = d
			model = lm
		case averagedVariant:
			aw := make([]float64, len(w))
			ab := make([]float64, len(b))
			for i := range w {
				aw[i] = w[i] - u[i]/c
			}
			for k := range b {
				ab[k] = b[k] - ub[k]/c
			}
			lm := newLinearModel(d.Classes, dim, aw, ab)
			lm.train = d
			model = lm
		case votedVariant:
			model = vt.model(d.Classes, w, b)
		case pocketVariant:
			if status == Converged {
				copy(pk.w, w)
				copy(pk.b, b)
			}
			lm := newLinearModel(d.Classes, dim, pk.w, pk.b)
			lm.train = d
			model = lm
		}
		res.Model = model
		res.Status = status
	}

	last := 0
	cycle := newCycleWatch(v == plainVariant && s.inOrder, len(w)+len(b))
	for epoch := 1; epoch <= s.maxEpochs; epoch++ {
		if err := ctx.Err(); err != nil {
			finish(Cancelled)
			res.Summary = fmt.Sprintf("cancelled after %d epochs: %v", res.Epochs, err)
			return res, err
		}
		if at, updates, ok := cycle.seen(w, b, epoch, res.Updates); ok {
			finish(Cycling)
			res.Summary = fmt.Sprintf("bounded, cycling, period %d: the weights at the start of epoch %d are those at the start of epoch %d, so the %d updates between repeat for ever and no epoch will be error-free (the data are not linearly separable)",
				res.Updates-updates, epoch, at, res.Updates-updates)
			return res, nil
		}
		nextOrder(perm, order, s.inOrder)
		mistakes := 0
		for _, i := range perm {
			yi := ys[i*mach : (i+1)*mach]
			for k, y := range yi {
				wk := w[k*dim : (k+1)*dim]
				f := rows.Dot(i, wk) + b[k]
				if !finite(f) {
					return nil, overflowError(s.name, i, f)
				}
				if y*f > 0 {
					if s.watch != nil {
						s.watch(Visit{Epoch: epoch, Row: i, Machine: k, Y: y, Score: f, W: wk, B: b[k]})
					}
					switch v {
					case votedVariant:
						vt.count[k]++
					case pocketVariant:
						pk.correct(k, w, b)
					}
					continue
				}
				mistakes++
				a := eps * y
				switch v {
				case averagedVariant:
					rows.AddTo(u[k*dim:(k+1)*dim], c*a, i)
					ub[k] += c * a * biasIn
				case votedVariant:
					if err := vt.retire(k, wk, b[k]); err != nil {
						return nil, err
					}
				case pocketVariant:
					pk.mistake(k)
				}
				rows.AddTo(wk, a, i)
				b[k] += a * biasIn
				if s.watch != nil {
					s.watch(Visit{Epoch: epoch, Row: i, Machine: k, Y: y, Score: f, Mistake: true, W: wk, B: b[k]})
				}
			}
			c++
		}
		last = mistakes
		if err := res.closeEpoch(epoch, mistakes, rec); err != nil {
			finish(Stopped)
			return res, err
		}
		if mistakes == 0 {
			finish(Converged)
			res.Summary = fmt.Sprintf("converged: epoch %d made no mistakes (%d updates in all)", epoch, res.Updates)
			return res, nil
		}
	}
	finish(EpochLimit)
	res.Summary = limitStatus(s.maxEpochs, last)
	if v == pocketVariant {
		res.Summary += fmt.Sprintf("; the pocket's weights make %d training errors", trainingErrors(d, res.Model))
	}
	return res, nil
}

// cycleWatch remembers the weights at the start of each epoch of a
// perceptron that presents the rows in the given order: as each epoch is
// then a fixed function of the weights it starts from, meeting them again
// means the run repeats itself for ever. Only runs of at most
// maxCycleWeights weights are watched (the notes' examples), each epoch's
// weights kept exactly, as their bits.
type cycleWatch struct {
	on    bool
	start map[string][2]int // weights' bits → epoch, updates before it
	key   []byte
}

// maxCycleWeights bounds the weights (and biases) of a run cycleWatch
// watches.
const maxCycleWeights = 4096

func newCycleWatch(on bool, n int) *cycleWatch {
	return &cycleWatch{on: on && n <= maxCycleWeights, start: map[string][2]int{}}
}

// seen records w and b as the start of epoch, after updates updates, and
// reports whether an earlier epoch (at, after updates) started with them.
func (c *cycleWatch) seen(w, b []float64, epoch, updates int) (at, before int, ok bool) {
	if !c.on {
		return 0, 0, false
	}
	c.key = c.key[:0]
	for _, vs := range [][]float64{w, b} {
		for _, v := range vs {
			c.key = binary.LittleEndian.AppendUint64(c.key, math.Float64bits(v+0)) // +0: −0 is 0
		}
	}
	if e, ok := c.start[string(c.key)]; ok {
		return e[0], e[1], true
	}
	c.start[string(c.key)] = [2]int{epoch, updates}
	return 0, 0, false
}

// trainingErrors counts the rows of d that m misclassifies.
func trainingErrors(d *Data, m Model) int {
	errs := 0
	rows := d.Features()
	var x []float64
	for i := range rows.Len() {
		x = rows.Row(x, i)
		if m.Predict(x) != d.Y[i] {
			errs++
		}
	}
	return errs
}
