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
// (A-units) each fire on a half-plane (HalfPlanes) or, wired to the plane
// rasterised into a small retina, where their excitatory origin cells
// lit less their inhibitory ones reach a threshold (Raster); the classic
// perceptron (the R-unit, with a bias) learns from their 0/1 outputs only.
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
	x0, x1, y0, y1 := bounds(e)
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

// RasterVector returns the raster A-layer's outputs at x on the retina r:
// 1 where a unit fires, else 0.
func RasterVector(r Retina, units []RasterUnit, x []float64) []float64 {
	a := make([]float64, len(units))
	at := r.Cell(x)
	for j, u := range units {
		if u.Fires(r, at) {
			a[j] = 1
		}
	}
	return a
}

// ALayerOptions are the settings of an A-layer run. The zero values of
// Units, Eps and MaxEpochs mean 16, 1 and 100; an empty Kind means
// HalfPlanes.
type ALayerOptions struct {
	Units int `json:"units"`
	// Kind is HalfPlanes or Raster (a trace of half-planes writes it
	// empty).
	Kind      string  `json:"kind,omitempty"`
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
	// Units are the half-plane units; Retina and Raster the raster
	// units and their retina instead.
	Units  []AUnit      `json:"units,omitempty"`
	Retina *Retina      `json:"retina,omitempty"`
	Raster []RasterUnit `json:"raster,omitempty"`
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

// size returns the number of A-units.
func (t *ALayerTrace) size() int {
	if t.Retina != nil {
		return len(t.Raster)
	}
	return len(t.Units)
}

// vector returns the A-vector at x: 1 where a unit fires, else 0.
func (t *ALayerTrace) vector(x []float64) []float64 {
	if t.Retina != nil {
		return RasterVector(*t.Retina, t.Raster, x)
	}
	return AVector(t.Units, x)
}

// TraceALayer draws o.Units A-units of o.Kind for e (RandomUnits, or
// RandomRaster on e's NewRetina) and trains the perceptron with a bias
// on their outputs, writing down every step. e must have two features.
func TraceALayer(ctx context.Context, e Example, o ALayerOptions) (*ALayerTrace, error) {
	needValid(e)
	if e.Dim() != 2 {
		return nil, fmt.Errorf("%s: the A-layer's units are on the plane: it takes 2 features and the example has %d", e.Name, e.Dim())
	}
	if o.Units == 0 {
		o.Units = 16
	}
	if o.Units < 0 {
		return nil, fmt.Errorf("units %d: want at least 1", o.Units)
	}
	t := &ALayerTrace{Learner: ALayer, Example: e.Name, ex: e}
	switch o.Kind {
	case "", HalfPlanes:
		o.Kind = ""
		t.Units = RandomUnits(e, o.Units, o.Seed)
	case Raster:
		r := NewRetina(e)
		t.Retina, t.Raster = &r, RandomRaster(r, o.Units, o.Seed)
	default:
		return nil, fmt.Errorf("unit kind %q: want %s or %s", o.Kind, HalfPlanes, Raster)
	}
	a := Example{Name: fmt.Sprintf("%s through %d A-units", e.Name, o.Units), X: make([][]float64, len(e.X)), Y: e.Y}
	for i, x := range e.X {
		a.X[i] = t.vector(x)
	}
	p, err := TracePerceptron(ctx, a, PerceptronOptions{Bias: true, Eps: o.Eps, Shuffle: o.Shuffle, Seed: o.Seed, MaxEpochs: o.MaxEpochs})
	if err != nil {
		return nil, err
	}
	p.Example = e.Name
	o.Eps, o.MaxEpochs = p.Options.Eps, p.Options.MaxEpochs
	t.Options, t.A, t.Perceptron = o, a.X, p
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
	n := t.size()
	return func(x []float64) float64 { return dot(w[:n], t.vector(x)) + w[n] }
}

// WriteText writes the run: the units, the A-vectors, and the
// perceptron's steps with its weights on the A-units after each.
func (t *ALayerTrace) WriteText(w io.Writer) error {
	o, p := t.Options, t.Perceptron
	ew := &errWriter{w: w}
	nu := t.size()
	ew.printf("a-layer on %s: %d random A-units%s (seed %d), then the perceptron with a bias on their 0/1 outputs: ε = %s, %s\n",
		t.Example, nu, t.kindText(), o.Seed, Num(o.Eps), orderText(o.Shuffle, o.Seed))
	if r := t.Retina; r != nil {
		ew.printf("the plane is a retina of %d×%d cells over [%s, %s] × [%s, %s], cell (c, r) in column c and row r from the bottom left;\n",
			r.Side, r.Side, Num(r.Box[0]), Num(r.Box[1]), Num(r.Box[2]), Num(r.Box[3]))
		ew.printf("a point lights the %d×%d square of cells around its own. A-unit j fires (a_j = 1) where its excitatory cells lit less its inhibitory cells lit reach θ_j;\n", 2*r.Spot+1, 2*r.Spot+1)
		ew.printf("the R-unit predicts + iff w·a + b ≥ 0, and on a mistake (w, b) ← (w, b) + ε·y·(a, 1)\n\n")
		ew.printf("%4s  %-*s  %-*s %3s\n", "unit", 7*RasterExcitatory, "excitatory cells", 7*RasterInhibitory, "inhibitory cells", "θ_j")
		for j, u := range t.Raster {
			ew.printf("%4d  %-*s  %-*s %3d\n", j+1, 7*RasterExcitatory, r.cells(u.Excitatory), 7*RasterInhibitory, r.cells(u.Inhibitory), u.Theta)
		}
	} else {
		ew.printf("A-unit j fires (a_j = 1) where w_j·x ≥ θ_j; the R-unit predicts + iff w·a + b ≥ 0, and on a mistake (w, b) ← (w, b) + ε·y·(a, 1)\n\n")
		ew.printf("%4s  %-18s %9s\n", "unit", "w_j", "θ_j")
		for j, u := range t.Units {
			ew.printf("%4d  %-18s %9s\n", j+1, Vec(u.W[:]), Num(u.Theta))
		}
	}
	ew.printf("\nthe samples as the R-unit sees them (a₁ … a%s):\n", Sub(nu))
	for i, a := range t.A {
		ew.printf("%6d  %-16s %s  %s\n", i+1, Vec(t.ex.X[i]), sign(t.ex.Y[i]), bits(a))
	}
	ew.printf("\n%5s %5s %6s  %-*s %2s %9s  %-7s %s\n", "step", "epoch", "sample", nu, "a", "y", "w·a + b", "mistake", "(w on the A-units, b) after")
	for _, s := range p.Steps {
		ew.printf("%5d %5d %6d  %-*s %2s %9s  %-7s %s\n", s.Step, s.Epoch, s.Sample, nu, bits(s.X), sign(s.Y), Num(s.Score), yesNo(s.Mistake), Vec(s.W))
	}
	ew.printf("\n%s\n", p.Status)
	ew.printf("P_r = %d of %d training samples right = %s%%\n", t.Right, len(t.A), Num(100*t.PR))
	return ew.err
}

// kindText names the units' kind for a caption: nothing for half-planes.
func (t *ALayerTrace) kindText() string {
	if r := t.Retina; r != nil {
		return fmt.Sprintf(" on a retina of %d×%d cells", r.Side, r.Side)
	}
	return ""
}

// cells writes cells of the retina as (column, row) pairs from 1.
func (r Retina) cells(ks []int) string {
	var b strings.Builder
	for i, k := range ks {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "(%d,%d)", k%r.Side+1, k/r.Side+1)
	}
	return b.String()
}
