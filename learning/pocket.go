package learning

import "context"

// Pocket is Gallant's pocket algorithm with ratchet (S. I. Gallant,
// "Perceptron-based learning algorithms", IEEE Trans. Neural Networks 1(2),
// 1990), the perceptron for data that are not linearly separable. It runs the
// Perceptron rule and keeps "in its pocket" the weights that have survived the
// longest run of consecutive correct answers; the ratchet (on by default)
// accepts a longer-lived candidate only if it also misclassifies fewer
// training examples than the pocket, so the pocket's training error never
// grows. The model is the pocket, not the last iterate; when an epoch is
// error-free the last iterate is perfect and goes into the pocket.
//
// Training errors are counted as the perceptron counts mistakes, y f(x) ≤ 0,
// so a point on the boundary is an error even where Predict happens to give
// its class. For each machine the ratchet counts the training errors of a candidate at
// most once per weight vector (an O(n·d) pass), and only when its run beats
// the pocket's, so the cost is at most one extra pass per mistake.
//
// The settings, stopping rule and Curve are the Perceptron's; a run that hits
// the epoch limit says how many training errors the pocket makes.
type Pocket struct {
	// Step is the step size ε; 0 means 1.
	Step float64
	// NoBias drops the always-on extra input.
	NoBias bool
	// MaxEpochs bounds the number of passes; 0 means 100.
	MaxEpochs int
	// InitScale is 0 for the zero start, else the half-width of a uniform
	// random start.
	InitScale float64
	// InOrder presents the rows in data order in every epoch.
	InOrder bool
	// NoRatchet replaces the pocket on a longer run alone, as in Gallant's
	// plain pocket algorithm.
	NoRatchet bool
	// Seed seeds the presentation order and the random start.
	Seed uint64
}

var _ Learner = Pocket{}

// Name returns "pocket".
func (Pocket) Name() string { return "pocket" }

// Fit trains on d; see the type's documentation.
func (p Pocket) Fit(ctx context.Context, d *Data, rec Recorder) (*Result, error) {
	return fitOnline(ctx, d, rec, onlineSettings{
		name: "pocket", step: p.Step, bias: !p.NoBias, maxEpochs: p.MaxEpochs,
		initScale: p.InitScale, inOrder: p.InOrder, seed: p.Seed, ratchet: !p.NoRatchet,
	}, pocketVariant)
}

// pocketState is the pocket of each machine.
type pocketState struct {
	d        *Data
	ys       []float64
	dim      int
	ratchet  bool
	w, b     []float64 // the pocket weights, M×dim and M
	run      []int     // current run of correct answers per machine
	best     []int     // the pocket's run
	errs     []int     // the pocket's training errors (ratchet)
	candErrs []int     // training errors of the current weights, or -1
	held     []bool    // the pocket holds the current weights
}

func newPocketState(d *Data, ys, w, b []float64, ratchet bool) *pocketState {
	mach, dim := len(b), d.Features().Dim()
	p := &pocketState{
		d: d, ys: ys, dim: dim, ratchet: ratchet,
		w: append([]float64(nil), w...), b: append([]float64(nil), b...),
		run: make([]int, mach), best: make([]int, mach), errs: make([]int, mach),
		candErrs: make([]int, mach), held: make([]bool, mach),
	}
	for k := range mach {
		p.errs[k] = p.errors(k, w, b)
		p.candErrs[k] = p.errs[k]
		p.held[k] = true
	}
	return p
}

// errors counts the rows that machine k with weights (w, b) gets wrong.
func (p *pocketState) errors(k int, w, b []float64) int {
	mach, dim := len(b), p.dim
	wk := w[k*dim : (k+1)*dim]
	n := 0
	rows := p.d.Features()
	for i := range rows.Len() {
		if p.ys[i*mach+k]*(rows.Dot(i, wk)+b[k]) <= 0 {
			n++
		}
	}
	return n
}

// mistake notes that machine k is about to be updated.
func (p *pocketState) mistake(k int) {
	p.run[k] = 0
	p.candErrs[k] = -1
	p.held[k] = false
}

// correct notes a correct answer of machine k and pockets its weights when
// their run is the longest yet (and, with the ratchet, they make fewer
// training errors).
func (p *pocketState) correct(k int, w, b []float64) {
	p.run[k]++
	if p.run[k] <= p.best[k] {
		return
	}
	if p.held[k] {
		p.best[k] = p.run[k]
		return
	}
	if p.ratchet {
		if p.candErrs[k] < 0 {
			p.candErrs[k] = p.errors(k, w, b)
		}
		if p.candErrs[k] >= p.errs[k] {
			return
		}
		p.errs[k] = p.candErrs[k]
	}
	p.best[k] = p.run[k]
	p.held[k] = true
	dim := p.dim
	copy(p.w[k*dim:(k+1)*dim], w[k*dim:(k+1)*dim])
	p.b[k] = b[k]
}
