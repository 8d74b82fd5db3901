package compare

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"

	"mark1/learning"
	"mark1/machine"
	"mark1/memistors"
)

// MemistorName is the learner name of Widrow and Hoff's ADALINE (1960)
// with memistor weights, the second 1960 row beside the Mark I.
const MemistorName = "memistor-adaline"

// DefaultMemistorAlpha is the α-LMS step of the memistor ADALINE when the
// options give none: a guess (docs/record.md, "ADALINE's weights (1960)").
const DefaultMemistorAlpha = 0.1

// MemistorAdaline is Widrow and Hoff's ADALINE as hardware, a
// learning.Learner: the LMS rule of learning.Adaline (α-LMS with Alpha > 0,
// else μ-LMS with Mu; the step divided by 1 + Decay·(e−1) in epoch e; one
// machine per class against the rest, one for two classes), its weights —
// the bias the weight of a constant input 1 — held by a memistors.Bank of
// configuration Memistors instead of exact numbers. Every card's
// commanded changes, for every machine, are one adaptation (one plating
// pulse to every memistor at once); each presentation then takes
// PresentSeconds on the bank's clock, over which the weights leak.
//
// With an ideal bank (memistors.Config's zero value, or only a fast Rate)
// and UntilRight false it is learning.Adaline: the same weights from the
// same data, order and options.
type MemistorAdaline struct {
	Label     string // the learner's name; "" means MemistorName
	Memistors memistors.Config
	Alpha     float64 // α-LMS's α when positive
	Mu        float64 // μ-LMS's μ (Alpha 0); 0 means 0.01
	Decay     float64
	NoBias    bool
	MaxEpochs int     // 0 means 100
	Tol       float64 // learning.Adaline's rule on the commanded moves; 0 means 1e-12
	// UntilRight stops after the first epoch in which every card's answer
	// was right before its adaptation: the Mark I's stopping rule.
	UntilRight bool
	// InOrder presents the cards in data order, else in a fresh order each
	// epoch drawn from Seed.
	InOrder bool
	Seed    uint64 // the order's stream and the memistors' noise stream
	// PresentSeconds is the time one card's presentation takes on the
	// clock.
	PresentSeconds float64
	// Test, if not nil and not empty, is held-out data P_g is measured on
	// after every epoch (AdalineModel.PgCurve), as for the Mark I; it is
	// never trained on.
	Test *learning.Data
}

var _ learning.Learner = MemistorAdaline{}

// Name returns the learner's label.
func (a MemistorAdaline) Name() string {
	if a.Label == "" {
		return MemistorName
	}
	return a.Label
}

// Fit trains the ADALINE's memistors on d. rec, if not nil, is told of
// every epoch; an error from it stops the run after that epoch.
func (a MemistorAdaline) Fit(ctx context.Context, d *learning.Data, rec learning.Recorder) (*learning.Result, error) {
	if d.Len() == 0 {
		return nil, fmt.Errorf("%s: no training data", a.Name())
	}
	if !(a.Mu >= 0) || math.IsInf(a.Mu, 0) || !(a.Alpha >= 0) || !(a.Decay >= 0) || math.IsInf(a.Alpha, 0) {
		return nil, fmt.Errorf("%s: μ %v, α %v, decay %v out of range", a.Name(), a.Mu, a.Alpha, a.Decay)
	}
	dim := d.Features().Dim()
	machines, in := d.Classes, dim
	if machines == 2 {
		machines = 1
	}
	if !a.NoBias {
		in++
	}
	var bank *memistors.Bank
	var pg []float64
	lms := learning.Adaline{Mu: a.Mu, Alpha: a.Alpha, Decay: a.Decay, NoBias: a.NoBias, MaxEpochs: a.MaxEpochs, Tol: a.Tol,
		InOrder: a.InOrder, Seed: a.Seed, PresentSeconds: a.PresentSeconds, UntilRight: a.UntilRight,
		Bank: func(n int) (learning.WeightBank, error) {
			var err error
			bank, err = memistors.NewBank(n, a.Memistors, a.Seed)
			return bank, err
		}}
	watch := learning.RecorderFunc(func(e learning.Epoch) error {
		if a.Test != nil && a.Test.Len() > 0 {
			pg = append(pg, a.model(d, dim, in, machines, bank, false).accuracy(a.Test))
		}
		if rec != nil {
			return rec.Record(e)
		}
		return nil
	})
	res, err := lms.Fit(ctx, d, watch)
	if res == nil || bank == nil {
		return res, err
	}
	m := a.model(d, dim, in, machines, bank, res.Status != learning.Diverged)
	m.PgCurve = pg
	if res.Status == learning.Diverged {
		for k := range m.W { // no answer rather than a NaN
			m.W[k], m.B[k] = make([]float64, dim), 0
		}
	}
	res.Model = m
	if a.UntilRight && res.Status == learning.Converged && res.Curve[len(res.Curve)-1].Mistakes == 0 {
		res.Summary = fmt.Sprintf("every card right in epoch %d", res.Epochs)
	}
	return res, err
}

// target is machine k's target ±1 for a card of class c of classes.
func target(c, k, classes int) float64 {
	if (classes == 2 && c == 1) || (classes != 2 && c == k) {
		return 1
	}
	return -1
}

// model returns the bank's weights as an AdalineModel, with its margin on
// d if margin is true.
func (a MemistorAdaline) model(d *learning.Data, dim, in, machines int, bank *memistors.Bank, margin bool) *AdalineModel {
	w := bank.Weights()
	m := &AdalineModel{W: make([][]float64, machines), B: make([]float64, machines), Classes: d.Classes,
		Seconds: bank.Seconds(), Adaptations: bank.Adaptations(), Saturations: bank.Saturations(), margin: math.Inf(1)}
	for k := range machines {
		m.W[k] = append([]float64(nil), w[k*in:k*in+dim]...)
		if !a.NoBias {
			m.B[k] = w[k*in+dim]
		}
		if !margin {
			continue
		}
		bin := &learning.Data{X: d.X, Rows: d.Rows, Y: make([]int, len(d.Y)), Classes: 2}
		for i, c := range d.Y {
			if target(c, k, d.Classes) > 0 {
				bin.Y[i] = 1
			}
		}
		m.margin = min(m.margin, learning.GeometricMargin(bin, m.W[k], m.B[k]))
	}
	if math.IsInf(m.margin, 1) {
		m.margin = math.NaN()
	}
	return m
}

// AdalineModel is a trained memistor ADALINE: machine k answers with
// W[k]·x + B[k] as learning.LinearModel's machines do (the sign for two
// classes, the largest for more), and the bank's clock and counts.
type AdalineModel struct {
	W       [][]float64
	B       []float64
	Classes int
	// Seconds is the simulated time of the training, presentations and
	// plating; Adaptations the plating pulses; Saturations the moves a
	// memistor's bound cut short.
	Seconds     float64
	Adaptations int64
	Saturations int64
	// PgCurve is P_g after each epoch, on MemistorAdaline.Test; nil
	// without held-out data.
	PgCurve []float64
	margin  float64
}

var (
	_ learning.Scorer   = (*AdalineModel)(nil)
	_ learning.Margined = (*AdalineModel)(nil)
)

func (m *AdalineModel) decision(k int, x []float64) float64 {
	return floats.Dot(m.W[k], x) + m.B[k]
}

// Predict returns the class of x.
func (m *AdalineModel) Predict(x []float64) int {
	if len(m.W) == 1 {
		if m.decision(0, x) > 0 {
			return 1
		}
		return 0
	}
	best, bv := 0, math.Inf(-1)
	for k := range m.W {
		if v := m.decision(k, x); v > bv {
			best, bv = k, v
		}
	}
	return best
}

// Scores writes one score per class into dst (grown as needed) and
// returns it: (−f_0(x), f_0(x)) for two classes, f_k(x) otherwise.
func (m *AdalineModel) Scores(dst, x []float64) []float64 {
	dst = dst[:0]
	if len(m.W) == 1 {
		v := m.decision(0, x)
		return append(dst, -v, v)
	}
	for k := range m.W {
		dst = append(dst, m.decision(k, x))
	}
	return dst
}

// accuracy returns the fraction of d's rows m classifies right.
func (m *AdalineModel) accuracy(d *learning.Data) float64 {
	rows := d.Features()
	var x []float64
	right := 0
	for i := range rows.Len() {
		x = rows.Row(x, i)
		if m.Predict(x) == d.Y[i] {
			right++
		}
	}
	return float64(right) / float64(rows.Len())
}

// Margin is the smallest geometric margin over the machines of the
// separators the memistors hold, on the training data.
func (m *AdalineModel) Margin() float64 { return m.margin }

// memistorAdaline is the memistor ADALINE of spec, presenting cards at the
// pace of m's Mark I (m nil: raw data, no presentation time).
func memistorAdaline(spec Spec, m *machine.Machine) MemistorAdaline {
	cfg := memistors.Defaults()
	if spec.Memistors != nil {
		cfg = *spec.Memistors
	}
	alpha := spec.Options.Alpha
	if alpha == 0 {
		alpha = DefaultMemistorAlpha
	}
	a := MemistorAdaline{Memistors: cfg, Alpha: alpha, Decay: spec.Options.Decay, NoBias: spec.Options.Bias < 0,
		MaxEpochs: spec.Options.Epochs, UntilRight: true, InOrder: spec.Options.Order == "given", Seed: spec.Seed}
	if m != nil {
		a.PresentSeconds = m.Config.PresentSeconds
	}
	return a
}
