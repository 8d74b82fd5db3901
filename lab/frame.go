package lab

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strings"
)

// DualLine is a sample's line {w : x·w + b = 0} of the dual chart (b = 0
// without the bias trick, the current b with it); w must lie on the side
// where Y·(Normal·w + C) ≥ 0.
type DualLine struct {
	Sample int        `json:"sample"` // 1-based
	Normal [2]float64 `json:"normal"` // x
	C      float64    `json:"c"`      // b
	Y      int        `json:"y"`
}

// Grid is a function sampled on an N×N grid over Box, row by row from
// the bottom (Z[r*N+c] at x = X0 + (c+½)·(X1−X0)/N, y likewise).
type Grid struct {
	N   int        `json:"n"`
	Box [4]float64 `json:"box"` // x0, x1, y0, y1
	Z   []float64  `json:"z"`
	Max float64    `json:"max"`
}

// Frame is everything a picture of one frame of a run shows, as data: the
// lab page draws it in the browser. Coordinates are the first two features.
type Frame struct {
	Frame   int         `json:"frame"`
	Frames  int         `json:"frames"`
	Caption string      `json:"caption"`
	Points  [][]float64 `json:"points"`
	Labels  []int       `json:"labels"`
	XBox    [4]float64  `json:"xbox"`
	// Linear learners: the weights now (ending in b with the bias) and
	// their path, the sample just presented and whether it was a mistake.
	W       []float64   `json:"w,omitempty"`
	Path    [][]float64 `json:"path,omitempty"`
	Mark    int         `json:"mark"` // 0-based, −1 for none
	Mistake bool        `json:"mistake"`
	Bias    bool        `json:"bias"`
	// The dual chart (linear learners, two features).
	WBox     [4]float64   `json:"wbox"`
	Dual     []DualLine   `json:"dual,omitempty"`
	Feasible [][2]float64 `json:"feasible"`
	Risk     *Grid        `json:"risk,omitempty"`
	// Decision values f(x) over XBox (every learner), and the samples to
	// ring: support vectors, stored samples.
	Decision *Grid `json:"decision,omitempty"`
	Ringed   []int `json:"ringed"`
	Band     bool  `json:"band"` // draw f = ±1 (the SVM)
	// Pair holds the two samples (0-based) whose α's the SVM's SMO step
	// moved, and Margin the margin 1/‖w‖ after it (null while w = 0).
	Pair   []int    `json:"pair,omitempty"`
	Margin *float64 `json:"margin,omitempty"`
	// Gradient descent on a loss: the line to draw in x-space (a·x₁ +
	// b·x₂ + c = 0: the separator, or the fitted line of the squared
	// loss), the names of w-space's axes, the loss, R now, and every loss
	// side by side at this step.
	Line       *[3]float64 `json:"line,omitempty"`
	WAxes      [2]string   `json:"waxes"`
	Loss       string      `json:"loss,omitempty"`
	Regression bool        `json:"regression,omitempty"`
	RiskNow    float64     `json:"risk_now"`
	Losses     []LossPanel `json:"losses,omitempty"`
	// More than two classes (MultiRun.Frame): Labels hold class indices
	// into Classes; Rules are the classes each rule gives over XBox, and
	// Lines the one-vs-rest separators a·x₁ + b·x₂ + c = 0 of the linear
	// learners, one per class.
	Classes []string     `json:"classes,omitempty"`
	Rules   []RuleGrid   `json:"rules,omitempty"`
	Lines   [][3]float64 `json:"lines,omitempty"`
	// The A-layer (a-layer): its units (each fires where w·x ≥ θ) or its
	// raster units, their retina, and where each fires (RasterUnit.FireMap);
	// the samples' A-vectors as the R-unit sees them, and the R-unit's
	// weights on the A-units (then b) in W; its score on each sample
	// now, w·a + b, in Scores.
	Units  []AUnit      `json:"units,omitempty"`
	Retina *Retina      `json:"retina,omitempty"`
	Raster []RasterUnit `json:"raster,omitempty"`
	Fires  []string     `json:"fires,omitempty"`
	A      [][]float64  `json:"a,omitempty"`
	Scores []float64    `json:"scores,omitempty"`
	// Text is the whole trace as the notes write it (the page marks the
	// table's line of this frame).
	Text string `json:"text"`
	// Counters, each what its name says: Epoch is the pass the frame's
	// step belongs to (0 at the start; batch GD and the SVM have none);
	// Mistakes the online learners' mistakes so far (each one an update
	// of w or a stored sample; 0 for batch GD and the SVM, which make
	// none); Misclassified the samples with y·f(x) ≤ 0 at the frame.
	Epoch         int     `json:"epoch"`
	Mistakes      int     `json:"mistakes"`
	Misclassified int     `json:"misclassified"`
	Bound         float64 `json:"bound"` // (R/γ)², 0 when there is none
	Status        string  `json:"status"`
	Converged     bool    `json:"converged"`
}

// frameBox returns a frame's x-space view of e: XBox, or ±minHalf when
// that is wider.
func frameBox(e Example, minHalf float64) Box {
	if xb := XBox(e); minHalf <= xb.X1 {
		return xb
	}
	return square(minHalf)
}

// window shortens a long trace for the page: the lines before the table,
// the table's rows of steps f−k to f+k, and the last five lines; elisions
// are marked "…". A short trace is returned whole.
func window(text string, f, k int) string {
	lines := strings.Split(text, "\n")
	if len(lines) <= 4*k {
		return text
	}
	head := 0 // the table's header line
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimLeft(l, " "), "step ") {
			head = i
			break
		}
	}
	lo, hi := head+1+max(f-k, 1)-1, min(head+1+f+k, len(lines)-5)
	var out []string
	out = append(out, lines[:head+1]...)
	if lo > head+1 {
		out = append(out, "  …")
	}
	if lo < hi {
		out = append(out, lines[lo:hi]...)
	}
	out = append(out, "  …")
	out = append(out, lines[len(lines)-5:]...)
	return strings.Join(out, "\n")
}

// Frame returns frame f (−1: the last) of the run as data, with grids of
// n×n points (n in [8, 200]) and an x-space view of at least ±minHalf
// (a page where points are placed by clicking keeps its scale). The run's
// example must have two features.
func (r *Run) Frame(f, n int, minHalf float64) (*Frame, error) {
	e := r.Example
	if err := need2D(e, "the lab page"); err != nil {
		return nil, err
	}
	if n < 8 || n > 200 {
		panic(fmt.Sprintf("lab: Frame: grid size %d not in [8, 200]", n))
	}
	f = r.clampFrame(f)
	fr := &Frame{Frame: f, Frames: r.Frames(), Points: e.X, Labels: e.Y, Mark: -1, Bias: r.Setup.Bias, Feasible: [][2]float64{}, Ringed: []int{}}
	fr.Caption = e.Name + " · " + r.setupText()
	if t := r.frameTitle(f); t != "" {
		fr.Caption += " · " + t
	}
	xb := frameBox(e, minHalf)
	fr.XBox = [4]float64{xb.X0, xb.X1, xb.Y0, xb.Y1}
	var buf bytes.Buffer
	if err := r.WriteText(&buf); err != nil {
		return nil, err
	}
	fr.Text = window(buf.String(), f, 100)
	fr.Mark, fr.Mistake = r.mark(f)
	fr.WAxes = [2]string{"w₁", "w₂"}
	switch {
	case r.Loss != nil:
		t := r.Loss
		o := t.Options
		p, err := newLossProblem(e, o.Loss, o.Bias)
		if err != nil {
			return nil, err
		}
		path := r.Path(f)
		fr.Path, fr.W = path, path[len(path)-1]
		fr.Loss, fr.Regression, fr.WAxes = o.Loss, o.Loss == "squared", waxes(o.Loss)
		fr.Bias = o.Bias && !fr.Regression
		line := lossLine(o.Loss, fr.W, o.Bias)
		fr.Line = &line
		wb := WBox(r.Path(-1))
		fr.WBox = [4]float64{wb.X0, wb.X1, wb.Y0, wb.Y1}
		b := 0.0
		if fr.Bias {
			b = fr.W[2]
		}
		if !fr.Regression {
			for i, x := range e.X {
				fr.Dual = append(fr.Dual, DualLine{Sample: i + 1, Normal: [2]float64{x[0], x[1]}, C: b, Y: e.Y[i]})
			}
			region, err := FeasibleSlice(e, b, wb)
			if err != nil {
				return nil, err
			}
			for _, q := range region {
				fr.Feasible = append(fr.Feasible, [2]float64{q.X, q.Y})
			}
		}
		fr.Risk = p.grid(fr.WBox, b, n)
		fr.RiskNow = t.Risk0
		if f > 0 {
			fr.RiskNow = t.Steps[f-1].Risk
			fr.Epoch = t.Steps[f-1].Epoch
		}
		fr.Status, fr.Converged = t.Status, t.Converged
		if fr.Losses, err = sideBySide(context.Background(), e, o, f, 24); err != nil {
			return nil, err
		}
	case r.Perceptron != nil || r.GD != nil:
		path := r.Path(f)
		fr.Path = path
		fr.W = path[len(path)-1]
		wb := WBox(r.Path(-1))
		fr.WBox = [4]float64{wb.X0, wb.X1, wb.Y0, wb.Y1}
		b := 0.0
		if r.Setup.Bias {
			b = fr.W[2]
		}
		for i, x := range e.X {
			fr.Dual = append(fr.Dual, DualLine{Sample: i + 1, Normal: [2]float64{x[0], x[1]}, C: b, Y: e.Y[i]})
		}
		region, err := FeasibleSlice(e, b, wb)
		if err != nil {
			return nil, err
		}
		for _, p := range region {
			fr.Feasible = append(fr.Feasible, [2]float64{p.X, p.Y})
		}
		g := newRiskGrid(e, r.Setup.Bias, b, wb, n)
		fr.Risk = &Grid{N: n, Box: fr.WBox, Z: g.z, Max: g.hi}
		if r.Perceptron != nil {
			if th := r.Perceptron.Theorem; th.Gamma > 0 && r.Perceptron.zeroStart() {
				fr.Bound = th.Bound
			}
			for _, s := range r.Perceptron.Steps[:f] {
				if s.Mistake {
					fr.Mistakes++
				}
			}
			fr.Status, fr.Converged = r.Perceptron.Status, r.Perceptron.Converged
			if f > 0 {
				fr.Epoch = r.Perceptron.Steps[f-1].Epoch
			}
		} else {
			fr.Status, fr.Converged = r.GD.Status, r.GD.Converged
		}
	case r.ALayer != nil:
		t := r.ALayer
		path := r.Path(f)
		fr.W = path[len(path)-1]
		fr.Bias = true
		fr.Units, fr.Retina, fr.Raster, fr.A = t.Units, t.Retina, t.Raster, t.A
		for _, u := range t.Raster {
			fr.Fires = append(fr.Fires, u.FireMap(*t.Retina))
		}
		nu := t.size()
		for _, a := range t.A {
			fr.Scores = append(fr.Scores, dot(fr.W[:nu], a)+fr.W[nu])
		}
		for _, s := range t.Perceptron.Steps[:f] {
			if s.Mistake {
				fr.Mistakes++
			}
			fr.Epoch = s.Epoch
		}
		fr.Status, fr.Converged = t.Perceptron.Status, t.Perceptron.Converged
	case r.Kernel != nil:
		coef := make([]float64, len(e.X))
		for _, s := range r.Kernel.Steps[:f] {
			coef[s.Sample-1] = float64(s.Coef)
			if s.Mistake {
				fr.Mistakes++
			}
			fr.Epoch = s.Epoch
		}
		for i, c := range coef {
			if c != 0 {
				fr.Ringed = append(fr.Ringed, i+1)
			}
		}
		fr.Status, fr.Converged = r.Kernel.Status, r.Kernel.Converged
	default:
		_, support, err := r.svmAt(f)
		if err != nil {
			return nil, err
		}
		fr.Ringed = append(fr.Ringed, support...)
		if f > 0 {
			s := r.SVM.Steps[f-1]
			fr.Pair = []int{s.I - 1, s.J - 1}
			fr.Margin = s.Margin
		}
		fr.Band = true
		fr.Status, fr.Converged = r.SVM.Status, r.SVM.bin.Status.Converged()
	}
	decision, err := r.decisionAt(f)
	if err != nil {
		return nil, err
	}
	if decision == nil { // the squared loss: a line through the points
		return fr, nil
	}
	for i, x := range e.X {
		if float64(e.Y[i])*decision(x) <= 0 {
			fr.Misclassified++
		}
	}
	g := &Grid{N: n, Box: fr.XBox, Z: make([]float64, n*n)}
	at := boxGrid{box: xb, n: n} // the cells' centres
	x := make([]float64, 2)
	for row := range n {
		for c := range n {
			x[0] = at.X(c)
			x[1] = at.Y(row)
			v := decision(x)
			g.Z[row*n+c] = v
			g.Max = max(g.Max, math.Abs(v))
		}
	}
	fr.Decision = g
	return fr, nil
}

// decisionAt returns the run's classifier f(x) after frame f (−1: the
// last), in any dimension: w·x + b for the linear learners and gradient
// descent on a classification loss, Σ a_i (k(x_i, x) + bias) for the kernel
// perceptron, Σ α_i y_i k(x_i, x) + b for the SVM. It is nil for the
// squared loss, which fits a line instead of separating.
func (r *Run) decisionAt(f int) (func([]float64) float64, error) {
	f = r.clampFrame(f)
	e := r.Example
	d := e.Dim()
	linear := func(w []float64, bias bool) func([]float64) float64 {
		b := 0.0
		if bias {
			b = w[d]
		}
		return func(x []float64) float64 { return dot(w[:d], x) + b }
	}
	switch {
	case r.Loss != nil:
		if r.Loss.Options.Loss == "squared" {
			return nil, nil
		}
		path := r.Path(f)
		return linear(path[len(path)-1], r.Loss.Options.Bias), nil
	case r.Perceptron != nil || r.GD != nil:
		path := r.Path(f)
		return linear(path[len(path)-1], r.Setup.Bias), nil
	case r.ALayer != nil:
		path := r.Path(f)
		return r.ALayer.decision(path[len(path)-1]), nil
	case r.Kernel != nil:
		k, err := exampleKernel(r.Setup.Kernel, e)
		if err != nil {
			return nil, err
		}
		coef := make([]float64, len(e.X))
		for _, s := range r.Kernel.Steps[:f] {
			coef[s.Sample-1] = float64(s.Coef)
		}
		bias := float64(b2i(r.Setup.Bias))
		return func(x []float64) float64 {
			var v float64
			for i, c := range coef {
				if c != 0 {
					v += c * (k.Eval(e.X[i], x) + bias)
				}
			}
			return v
		}, nil
	}
	fx, _, err := r.svmAt(f)
	return fx, err
}
