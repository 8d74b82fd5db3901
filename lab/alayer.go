package lab

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strings"
)

// ALayer is the registry's learner that only the lab traces: the Mark I's
// random A-layer on the plane (issue 37). Units random threshold units
// (A-units) each fire on a half-plane; the classic perceptron (the
// R-unit, with a bias) learns from their 0/1 outputs only.
const ALayer = "a-layer"

// AUnit is one A-unit: it fires (outputs 1) where W·x ≥ Theta, a
// half-plane of the plane, and is silent (0) elsewhere.
type AUnit struct {
	W     [2]float64 `json:"w"`
	Theta float64    `json:"theta"`
}

// Fires reports whether the unit fires at x (the first two features).
func (u AUnit) Fires(x []float64) bool { return u.W[0]*x[0]+u.W[1]*x[1] >= u.Theta }

// RandomUnits draws n A-units for e from seed: each has a direction W at
// an angle uniform in [0, 2π) and its line W·x = Theta through a point
// uniform in the bounding box of e's points, so that every unit cuts the
// data's range. The same seed draws the same units on every machine.
func RandomUnits(e Example, n int, seed uint64) []AUnit {
	x0, x1, y0, y1 := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, x := range e.X {
		x0, x1 = min(x0, x[0]), max(x1, x[0])
		y0, y1 = min(y0, x[1]), max(y1, x[1])
	}
	rng := rand.New(rand.NewPCG(seed, 0xa1a7e5))
	units := make([]AUnit, n)
	for i := range units {
		s, c := math.Sincos(2 * math.Pi * rng.Float64())
		px, py := x0+(x1-x0)*rng.Float64(), y0+(y1-y0)*rng.Float64()
		units[i] = AUnit{W: [2]float64{c, s}, Theta: c*px + s*py}
	}
	return units
}

// AVector returns the A-layer's outputs at x: 1 where a unit fires, else 0.
func AVector(units []AUnit, x []float64) []float64 {
	a := make([]float64, len(units))
	for j, u := range units {
		if u.Fires(x) {
			a[j] = 1
		}
	}
	return a
}

// ALayerOptions are the settings of an A-layer run. The zero values of
// Units, Eps and MaxEpochs mean 16, 1 and 100.
type ALayerOptions struct {
	Units     int     `json:"units"`
	Seed      uint64  `json:"seed"` // draws the units (and the shuffled order)
	Eps       float64 `json:"eps"`
	Shuffle   bool    `json:"shuffle"`
	MaxEpochs int     `json:"max_epochs"`
}

// ALayerTrace is an A-layer run: the units, every sample as the R-unit
// sees it (its A-vector), and the perceptron's trace over the A-vectors
// with the bias trick: each step's W holds the weights on the A-units,
// then b.
type ALayerTrace struct {
	Learner string        `json:"learner"`
	Example string        `json:"example"`
	Options ALayerOptions `json:"options"`
	Units   []AUnit       `json:"units"`
	// A holds the A-vectors: A[i][j] is 1 where unit j+1 fires at
	// sample i+1, else 0.
	A [][]float64 `json:"a"`
	// Perceptron is the R-unit's run on the A-vectors (its steps' x are
	// the A-vectors).
	Perceptron *PerceptronTrace `json:"perceptron"`
	// Right counts the samples the final R-unit classifies right
	// (y·(w·a + b) > 0); PR is their fraction, the training accuracy P_r.
	Right int     `json:"right"`
	PR    float64 `json:"p_r"`

	ex Example
}

// aSpace returns e as the R-unit sees it through units: the A-vectors,
// with e's labels.
func aSpace(e Example, units []AUnit) Example {
	a := Example{Name: e.Name + " through " + fmt.Sprint(len(units)) + " A-units", X: make([][]float64, len(e.X)), Y: e.Y}
	for i, x := range e.X {
		a.X[i] = AVector(units, x)
	}
	return a
}

// TraceALayer draws o.Units A-units for e (RandomUnits) and trains the
// perceptron with a bias on their outputs, writing down every step. e
// must have two features.
func TraceALayer(ctx context.Context, e Example, o ALayerOptions) (*ALayerTrace, error) {
	needValid(e)
	if e.Dim() != 2 {
		return nil, fmt.Errorf("%s: the A-layer's units are half-planes of the plane: it takes 2 features and the example has %d", e.Name, e.Dim())
	}
	if o.Units == 0 {
		o.Units = 16
	}
	if o.Units < 0 {
		return nil, fmt.Errorf("units %d: want at least 1", o.Units)
	}
	units := RandomUnits(e, o.Units, o.Seed)
	a := aSpace(e, units)
	p, err := TracePerceptron(ctx, a, PerceptronOptions{Bias: true, Eps: o.Eps, Shuffle: o.Shuffle, Seed: o.Seed, MaxEpochs: o.MaxEpochs})
	if err != nil {
		return nil, err
	}
	p.Example = e.Name
	o.Eps, o.MaxEpochs = p.Options.Eps, p.Options.MaxEpochs
	t := &ALayerTrace{Learner: ALayer, Example: e.Name, Options: o, Units: units, A: a.X, Perceptron: p, ex: e}
	w := p.Start
	if n := len(p.Steps); n > 0 {
		w = p.Steps[n-1].W
	}
	for i, x := range a.X {
		if float64(e.Y[i])*(dot(w[:o.Units], x)+w[o.Units]) > 0 {
			t.Right++
		}
	}
	t.PR = float64(t.Right) / float64(len(e.X))
	return t, nil
}

// bits writes an A-vector as 0s and 1s.
func bits(a []float64) string {
	var b strings.Builder
	for _, v := range a {
		if v != 0 {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	}
	return b.String()
}

// decision returns the R-unit's f(x) = w·a(x) + b with the weights w (b
// last).
func (t *ALayerTrace) decision(w []float64) func([]float64) float64 {
	n := len(t.Units)
	return func(x []float64) float64 { return dot(w[:n], AVector(t.Units, x)) + w[n] }
}

// WriteText writes the run: the units, the A-vectors, and the
// perceptron's steps with its weights on the A-units after each.
func (t *ALayerTrace) WriteText(w io.Writer) error {
	o, p := t.Options, t.Perceptron
	ew := &errWriter{w: w}
	ew.printf("a-layer on %s: %d random A-units (seed %d), then the perceptron with a bias on their 0/1 outputs: ε = %s, %s\n",
		t.Example, len(t.Units), o.Seed, Num(o.Eps), orderText(o.Shuffle, o.Seed))
	ew.printf("A-unit j fires (a_j = 1) where w_j·x ≥ θ_j; the R-unit predicts + iff w·a + b ≥ 0, and on a mistake (w, b) ← (w, b) + ε·y·(a, 1)\n\n")
	ew.printf("%4s  %-18s %9s\n", "unit", "w_j", "θ_j")
	for j, u := range t.Units {
		ew.printf("%4d  %-18s %9s\n", j+1, Vec(u.W[:]), Num(u.Theta))
	}
	ew.printf("\nthe samples as the R-unit sees them (a₁ … a%s):\n", Sub(len(t.Units)))
	for i, a := range t.A {
		ew.printf("%6d  %-16s %s  %s\n", i+1, Vec(t.ex.X[i]), sign(t.ex.Y[i]), bits(a))
	}
	ew.printf("\n%5s %5s %6s  %-*s %2s %9s  %-7s %s\n", "step", "epoch", "sample", len(t.Units), "a", "y", "w·a + b", "mistake", "(w on the A-units, b) after")
	for _, s := range p.Steps {
		ew.printf("%5d %5d %6d  %-*s %2s %9s  %-7s %s\n", s.Step, s.Epoch, s.Sample, len(t.Units), bits(s.X), sign(s.Y), Num(s.Score), yesNo(s.Mistake), Vec(s.W))
	}
	ew.printf("\n%s\n", p.Status)
	ew.printf("P_r = %d of %d training samples right = %s%%\n", t.Right, len(t.A), Num(100*t.PR))
	return ew.err
}
