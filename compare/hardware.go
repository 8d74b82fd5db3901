package compare

import (
	"context"
	"fmt"
	"math"
	"slices"

	"mark1/associator"
	"mark1/learning"
	"mark1/machine"
)

// Hardware is the Mark I trained by its motors, as a learning.Learner: a
// machine built from Config, Seeds and Wiring (the healthy wiring: faults
// are drawn from the seeds, once) and trained by a machine.Session with
// Recipe. Its features are fitted fields: one row per card, one light level
// per photocell, as machine.Fit gives them.
type Hardware struct {
	Label   string // the learner's name: "hardware" or "ideal"
	Config  machine.Config
	Seeds   machine.Seeds
	Classes []string
	Wiring  *associator.Plugboard // nil means wire from the seeds
	Recipe  machine.Recipe
	// Test, if not nil and not empty, is held-out data the session
	// measures P_g on after every epoch (HardwareModel.PgCurve); it is
	// never trained on.
	Test *learning.Data
}

var _ learning.Learner = Hardware{}

// Name returns the learner's label.
func (h Hardware) Name() string { return h.Label }

// Fit builds the machine and trains it on d's fields until the recipe's
// stopping rule or epoch limit. rec, if not nil, is told of every epoch.
func (h Hardware) Fit(ctx context.Context, d *learning.Data, rec learning.Recorder) (*learning.Result, error) {
	if d.Len() == 0 {
		return nil, fmt.Errorf("hardware: no training data")
	}
	m, err := machine.New(h.Config, h.Classes, h.Seeds, h.Wiring)
	if err != nil {
		return nil, err
	}
	tr := fields(d)
	var te machine.Fields
	if h.Test != nil && h.Test.Len() > 0 {
		te = fields(h.Test)
	}
	s, err := machine.NewSession(m, h.Recipe, tr, te)
	if err != nil {
		return nil, err
	}
	res := &learning.Result{}
	var pg []float64
	spont := h.Recipe.Rule == machine.Spontaneous
	_, err = s.Run(ctx, machine.RecorderFunc(func(e machine.Epoch) error {
		res.Epochs++
		ep := learning.Epoch{Epoch: e.Epoch, Mistakes: e.Mistakes, Risk: math.NaN()}
		if spont {
			// No labels: every card moves its response's pots, and a
			// response that is not the label's number is no mistake.
			// Nothing of P_g or mistakes is kept (Row.Clusters says how
			// the responses split the cards).
			res.Updates += tr.Len()
			ep.Mistakes = tr.Len()
		} else {
			if e.Pg != nil {
				pg = append(pg, *e.Pg)
			}
			res.Updates += e.Mistakes
			res.Curve = append(res.Curve, ep)
		}
		if rec != nil {
			return rec.Record(ep) // an error stops the session after this epoch
		}
		return nil
	}))
	if err != nil {
		return nil, err
	}
	res.Status, res.Summary = learnerStatus(s.Status()), s.Summary()
	res.Model = &HardwareModel{M: m, PgCurve: pg, Spontaneous: spont, margin: machineMargin(m, associationBits(m, tr))}
	return res, nil
}

// fieldRows is learning.Rows over a machine's fitted fields, used in place:
// the hardware learners' features, one light level per photocell.
type fieldRows [][]float32

// Len returns the number of fields.
func (f fieldRows) Len() int { return len(f) }

// Dim returns the number of photocells.
func (f fieldRows) Dim() int {
	if len(f) == 0 {
		return 0
	}
	return len(f[0])
}

// Dot returns x_i·w.
func (f fieldRows) Dot(i int, w []float64) float64 {
	if len(w) != len(f[i]) {
		panic("compare: fieldRows.Dot: vector of wrong length")
	}
	var s float64
	for k, v := range f[i] {
		s += float64(v) * w[k]
	}
	return s
}

// AddTo sets dst += a·x_i.
func (f fieldRows) AddTo(dst []float64, a float64, i int) {
	if len(dst) != len(f[i]) {
		panic("compare: fieldRows.AddTo: vector of wrong length")
	}
	for k, v := range f[i] {
		dst[k] += a * float64(v)
	}
}

// SqNorm returns ‖x_i‖².
func (f fieldRows) SqNorm(i int) float64 {
	var s float64
	for _, v := range f[i] {
		s += float64(v) * float64(v)
	}
	return s
}

// Row writes x_i into dst.
func (f fieldRows) Row(dst []float64, i int) []float64 {
	dst = slices.Grow(dst[:0], len(f[i]))[:len(f[i])]
	for k, v := range f[i] {
		dst[k] = float64(v)
	}
	return dst
}

// fields returns d's rows as the machine's fields: in place if they are
// fieldRows (as compare makes them), else converted from float64.
func fields(d *learning.Data) machine.Fields {
	if fr, ok := d.Rows.(fieldRows); ok {
		return machine.Fields{X: fr, Y: d.Y}
	}
	rows := d.Features()
	f := machine.Fields{X: make([][]float32, rows.Len()), Y: d.Y}
	var x []float64
	for i := range f.X {
		x = rows.Row(x, i)
		v := make([]float32, len(x))
		for j, l := range x {
			v[j] = float32(l)
		}
		f.X[i] = v
	}
	return f
}

// associationBits returns the A-units' outputs for the fields of f
// (Machine.FiredBits) as bit rows.
func associationBits(m *machine.Machine, f machine.Fields) *learning.Data {
	_, w := m.FiredBits(f.X)
	b, err := learning.BitsOf(len(m.Plugboard.Units), w)
	if err != nil {
		panic(err) // FiredBits lays out words as Bits does
	}
	return &learning.Data{Rows: b, Y: f.Y, Classes: len(m.Classes)}
}

// HardwareModel is a trained machine as a learning.Model over fitted
// fields given as float64 rows.
type HardwareModel struct {
	M *machine.Machine
	// PgCurve is P_g after each epoch, measured by the session on
	// Hardware.Test; nil without held-out data, or for Spontaneous.
	PgCurve []float64
	// Spontaneous says the machine was trained without labels: its
	// responses are measured as clusters (Clusters), not by accuracy.
	Spontaneous bool
	margin      float64
}

// Clusters measures how the machine's responses split d's fields against
// their labels, which spontaneous learning never saw (machine.ClustersOf).
func (hm *HardwareModel) Clusters(d *learning.Data) machine.Clusters {
	f := fields(d)
	return hm.M.ClustersOf(f.X, f.Y)
}

// Predict returns the class the machine shows for field x (with fresh
// evaluation noise), or -1 for no class.
func (hm *HardwareModel) Predict(x []float64) int {
	f := make([]float32, len(x))
	for i, v := range x {
		f[i] = float32(v)
	}
	var r machine.Response
	hm.M.Present(&r, f, hm.M.EvalNoise())
	return r.Class
}

// Accuracy is the machine's own measure on d's fields (machine.Accuracy):
// weights frozen, one evaluation-noise stream over the cards.
func (hm *HardwareModel) Accuracy(d *learning.Data) float64 {
	f := fields(d)
	return hm.M.Accuracy(f.X, f.Y)
}

// Pairwise is the machine's 1958 pairwise measure on d's fields
// (machine.Pairwise).
func (hm *HardwareModel) Pairwise(d *learning.Data) float64 {
	f := fields(d)
	return hm.M.Pairwise(f.X, f.Y)
}

// Margin is the smallest geometric margin over the R-units in use of the
// separators their pots hold, on the training cards' association features.
func (hm *HardwareModel) Margin() float64 { return hm.margin }

// machineMargin is the smallest geometric margin over the R-units in use of
// the separator their pots hold, on association features d.
func machineMargin(m *machine.Machine, d *learning.Data) float64 {
	vals := m.Bank.Values()
	margin := math.Inf(1)
	for u := range m.Layer.Used() {
		w := make([]float64, len(m.Plugboard.Units))
		for _, in := range m.Layer.Inputs(u) {
			w[in.A] = vals[in.Pot]
		}
		var b float64
		if p := m.Layer.BiasPot(u); p >= 0 {
			b = vals[p]
		}
		bin := &learning.Data{X: d.X, Rows: d.Rows, Y: make([]int, len(d.Y)), Classes: 2}
		for i, c := range d.Y {
			if m.Layer.Want(u, c) {
				bin.Y[i] = 1
			}
		}
		margin = min(margin, learning.GeometricMargin(bin, w, b))
	}
	if math.IsInf(margin, 1) {
		return math.NaN()
	}
	return margin
}

// learnerStatus is a training session's status as a learner's.
func learnerStatus(s machine.Status) learning.Status {
	switch s {
	case machine.Converged, machine.Recognized:
		return learning.Converged
	case machine.EpochLimitReached:
		return learning.EpochLimit
	case machine.Cancelled:
		return learning.Cancelled
	case machine.Stopped:
		return learning.Stopped
	}
	return learning.Running
}
