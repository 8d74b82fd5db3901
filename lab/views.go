package lab

import (
	"context"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"mark1/learning/kernel"
	"mark1/learning/learners"
)

// Paths draws batch gradient descent (fixed ε) and the perceptron (SGD, in
// the given order) from w = 0 on the same R(w) map (001: "Show plot of R
// again. Show typical steps."). With bias the map is the slice at the
// perceptron's final b, and the paths are projected onto (w₁, w₂).
func Paths(ctx context.Context, e Example, bias bool, eps float64) (*plot.Plot, error) {
	if err := need2D(e, "the paths picture"); err != nil {
		return nil, err
	}
	gd, err := TraceBatchGD(ctx, e, GDOptions{Bias: bias, Eps: eps, MaxSteps: 60})
	if err != nil {
		return nil, err
	}
	pt, err := TracePerceptron(ctx, e, PerceptronOptions{Bias: bias, Eps: eps, MaxEpochs: 60})
	if err != nil {
		return nil, err
	}
	gdPath := [][]float64{make([]float64, e.Dim()+b2i(bias))}
	for _, s := range gd.Steps {
		gdPath = append(gdPath, s.Next)
	}
	ptPath := [][]float64{pt.Start}
	for _, s := range pt.Steps {
		if s.Mistake {
			ptPath = append(ptPath, s.W)
		}
	}
	box := WBox(append(append([][]float64(nil), gdPath...), ptPath...))
	title := "batch GD against the perceptron (SGD) on R(w)"
	if bias {
		title += " — slice at the perceptron's b"
	}
	p, err := WSpace(e, WView{Path: ptPath, Bias: bias, Box: box, Risk: true, Title: title,
		PathName: fmt.Sprintf("the perceptron (SGD): %d updates, %s", pt.Mistakes, shortStatus(pt.Converged))})
	if err != nil {
		return nil, err
	}
	// WSpace drew the perceptron's path in ink; add batch GD's in gold,
	// dashed.
	var xy plotter.XYs
	for _, w := range gdPath {
		xy = append(xy, plotter.XY{X: w[0], Y: w[1]})
	}
	l, pts, err := plotter.NewLinePoints(xy)
	if err != nil {
		return nil, err
	}
	l.Color, l.Width, l.Dashes = goldColor, vg.Points(3), []vg.Length{vg.Points(8), vg.Points(4)}
	pts.GlyphStyle = draw.GlyphStyle{Color: goldColor, Radius: vg.Points(5), Shape: draw.BoxGlyph{}}
	p.Add(l, pts)
	p.Legend.Add(fmt.Sprintf("batch GD: %d steps, %s", len(gd.Steps), shortStatus(gd.Converged)), l, pts)
	return p, nil
}

func shortStatus(converged bool) string {
	if converged {
		return "no mistakes left"
	}
	return "still making mistakes at the limit"
}

// TheoremPlot draws the convergence theorem while it happens (004):
// mistakes so far against presentations up to frame f, under the bound
// (R/γ)² of the data as the perceptron sees them.
func TheoremPlot(t *PerceptronTrace, f int) *plot.Plot {
	th := t.Theorem
	p := newPlot("mistakes so far against the bound (R/γ)²", "presentations", "mistakes so far")
	var xy plotter.XYs
	m := 0
	xy = append(xy, plotter.XY{X: 0, Y: 0})
	for _, s := range t.Steps[:f] {
		if s.Mistake {
			m++
		}
		xy = append(xy, plotter.XY{X: float64(s.Step), Y: float64(m)})
	}
	n := float64(max(len(t.Steps), 1))
	p.X.Min, p.X.Max = 0, n
	p.X.Tick.Marker, p.Y.Tick.Marker = wholeTicks{}, wholeTicks{}
	p.Y.Min = 0
	p.Y.Max = float64(t.Mistakes) + 1
	l, _ := plotter.NewLine(xy)
	l.Color, l.Width = plusColor, vg.Points(3)
	l.StepStyle = plotter.PostStep
	p.Add(l)
	p.Legend.Add(fmt.Sprintf("mistakes so far: %d", m), l)
	if th.Gamma > 0 && !t.zeroStart() {
		p.Legend.Add("(R/γ)² bounds the mistakes from w = 0; this run starts at " + Vec(t.Start))
	} else if th.Gamma > 0 {
		p.Y.Max = max(p.Y.Max, math.Ceil(th.Bound*1.1))
		b, _ := plotter.NewLine(plotter.XYs{{X: 0, Y: th.Bound}, {X: n, Y: th.Bound}})
		b.Color, b.Width, b.Dashes = inkColor, vg.Points(2.5), []vg.Length{vg.Points(10), vg.Points(5)}
		p.Add(b)
		lift := ""
		if t.Options.Bias {
			lift = " (points lifted to (x, 1))"
		}
		p.Legend.Add(fmt.Sprintf("(R/γ)² = (%s / %s)² = %s%s", Num(th.R), Num(th.Gamma), Num(th.Bound), lift), b)
	} else {
		p.Legend.Add("no separator through the origin: the theorem gives no bound")
	}
	return p
}

// boxGrid is n×n values over a box, row by row from the bottom, each at
// its cell's centre: a plotter heat map's or contour's grid.
type boxGrid struct {
	box Box
	n   int
	z   []float64
}

func (g *boxGrid) Dims() (c, r int)   { return g.n, g.n }
func (g *boxGrid) Z(c, r int) float64 { return g.z[r*g.n+c] }
func (g *boxGrid) X(c int) float64 {
	return g.box.X0 + (g.box.X1-g.box.X0)*(float64(c)+0.5)/float64(g.n)
}
func (g *boxGrid) Y(r int) float64 {
	return g.box.Y0 + (g.box.Y1-g.box.Y0)*(float64(r)+0.5)/float64(g.n)
}

// regionGrid samples a decision function over a box.
type regionGrid struct{ boxGrid }

func (g *regionGrid) Min() float64 { return -1 }
func (g *regionGrid) Max() float64 { return 1 }

// Regions draws the decision regions of f over e's view: pink where f ≥ 0
// (predicted +), light blue where f < 0, the boundary f = 0, and with band
// the lines f = ±1; support lists 1-based samples to ring.
func Regions(e Example, f func([]float64) float64, title string, support []int, band bool) (*plot.Plot, error) {
	if err := need2D(e, "the decision-region picture"); err != nil {
		return nil, err
	}
	box := XBox(e)
	const n = 200
	g := &regionGrid{boxGrid{box: box, n: n, z: make([]float64, n*n)}}
	raw := make([]float64, n*n)
	x := make([]float64, 2)
	for r := range n {
		for c := range n {
			x[0], x[1] = g.X(c), g.Y(r)
			v := f(x)
			raw[r*n+c] = v
			if v >= 0 {
				g.z[r*n+c] = 1
			} else {
				g.z[r*n+c] = -1
			}
		}
	}
	p := newPlot(title, "x₁", "x₂")
	box.set(p)
	heat := plotter.NewHeatMap(g, colors{minusTint, plusTint})
	heat.Rasterized = true
	p.Add(heat)
	rawGrid := &regionGrid{boxGrid{box: box, n: n, z: raw}}
	levels := []float64{0}
	if band {
		levels = []float64{-1, 0, 1}
	}
	c := plotter.NewContour(rawGrid, levels, colors{inkColor})
	c.LineStyles = []draw.LineStyle{{Color: inkColor, Width: vg.Points(3)}}
	if band {
		dashed := draw.LineStyle{Color: inkColor, Width: vg.Points(2), Dashes: []vg.Length{vg.Points(8), vg.Points(5)}}
		c.LineStyles = []draw.LineStyle{dashed, {Color: inkColor, Width: vg.Points(3)}, dashed}
		c.Palette = colors{inkColor, inkColor, inkColor}
	}
	p.Add(c)
	solid, _ := plotter.NewLine(plotter.XYs{{}, {}})
	solid.Color, solid.Width = inkColor, vg.Points(3)
	p.Legend.Add("f(x) = 0", solid)
	if band {
		d, _ := plotter.NewLine(plotter.XYs{{}, {}})
		d.Color, d.Width, d.Dashes = inkColor, vg.Points(2), []vg.Length{vg.Points(8), vg.Points(5)}
		p.Legend.Add("f(x) = ±1", d)
	}
	sw := func(c color.Color) *plotter.Scatter {
		s, _ := plotter.NewScatter(plotter.XYs{{}})
		s.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(7), Shape: draw.BoxGlyph{}}
		return s
	}
	p.Legend.Add("predicted + (f ≥ 0)", sw(plusTint))
	p.Legend.Add("predicted − (f < 0)", sw(minusTint))
	if len(support) > 0 {
		var pts plotter.XYs
		for _, i := range support {
			pts = append(pts, plotter.XY{X: e.X[i-1][0], Y: e.X[i-1][1]})
		}
		if err := addRings(p, pts, goldColor, 14, fmt.Sprintf("support vectors (%d)", len(support))); err != nil {
			return nil, err
		}
	}
	if err := addPoints(p, e, true); err != nil {
		return nil, err
	}
	return p, nil
}

// regions draws the run's classifier at frame f.
func (r *Run) regions(f int) (*plot.Plot, error) {
	e := r.Example
	switch {
	case r.SVM != nil:
		s := r.SVM
		if f == len(s.Steps) { // the end: the solver's own answer
			title := fmt.Sprintf("SVM: margin 1/|w| = %s, b = %s", MarginText(s.Margin), Num(s.B))
			return Regions(e, s.Decision, title, s.Support, true)
		}
		fx, support, err := r.svmAt(f)
		if err != nil {
			return nil, err
		}
		margin := "∞ (w = 0)"
		if f > 0 {
			margin = MarginText(s.Steps[f-1].Margin)
		}
		_, b := s.At(f)
		title := fmt.Sprintf("SVM after SMO step %d of %d: margin 1/|w| = %s, b = %s", f, len(s.Steps), margin, Num(b))
		return Regions(e, fx, title, support, true)
	case r.Kernel != nil:
		// The classifier after frame f: the coefficients so far.
		coef := make([]float64, len(e.X))
		for _, st := range r.Kernel.Steps[:f] {
			coef[st.Sample-1] = float64(st.Coef)
		}
		k, err := exampleKernel(r.Setup.Kernel, r.Example)
		if err != nil {
			return nil, err
		}
		bias := 0.0
		if r.Setup.Bias {
			bias = 1
		}
		var stored []int
		for i, c := range coef {
			if c != 0 {
				stored = append(stored, i+1)
			}
		}
		fx := func(x []float64) float64 {
			var v float64
			for i, c := range coef {
				if c != 0 {
					v += c * (k.Eval(e.X[i], x) + bias)
				}
			}
			return v
		}
		title := fmt.Sprintf("kernel perceptron: %d samples stored", len(stored))
		p, err := Regions(e, fx, title, nil, false)
		if err != nil {
			return nil, err
		}
		var pts plotter.XYs
		for _, i := range stored {
			pts = append(pts, plotter.XY{X: e.X[i-1][0], Y: e.X[i-1][1]})
		}
		if err := addRings(p, pts, goldColor, 14, "stored samples (a_i ≠ 0)"); err != nil {
			return nil, err
		}
		return p, nil
	}
	path := r.Path(f)
	w := path[len(path)-1]
	b := 0.0
	if r.Setup.Bias {
		b = w[2]
	}
	return Regions(e, func(x []float64) float64 { return w[0]*x[0] + w[1]*x[1] + b }, "decision regions of w = "+Vec(w), nil, false)
}

// exampleKernel reads a kernel word (kernel.Parse) for the example e: a
// γ of scale or auto takes its value from e's points, as fit's does from
// its training data (learners.Variance). Empty means linear.
func exampleKernel(spec string, e Example) (kernel.Kernel, error) {
	if spec == "" {
		return kernel.Linear{}, nil
	}
	ks, err := kernel.Parse(spec)
	if err != nil {
		return nil, err
	}
	rows := e.Data().Features()
	k, _, err := ks.Kernel(rows.Dim(), learners.Variance(rows))
	return portable(k), err
}

// MarginPlots draws the SVM with s's kernel with a hard margin (when the
// data allow one) and soft margins at C = 10, 1 and 0.1 (004: "minimise
// ‖w‖² + C Σ ξ_i"): as C falls the margin widens and more samples become
// support vectors.
func MarginPlots(e Example, s Setup) ([]*plot.Plot, error) {
	k, err := exampleKernel(s.Kernel, e)
	if err != nil {
		return nil, err
	}
	var plots []*plot.Plot
	for _, o := range []SVMOptions{{Kernel: k, Hard: true}, {Kernel: k, C: 10}, {Kernel: k, C: 1}, {Kernel: k, C: 0.1}} {
		r, err := SolveSVM(e, o)
		if err != nil {
			return nil, err
		}
		name := "C = " + Num(o.C)
		if o.Hard {
			if r.bin.Status.String() != "Separable" {
				continue
			}
			name = "hard margin"
		}
		title := fmt.Sprintf("%s: margin %s, %d SVs", name, MarginText(r.Margin), len(r.Support))
		p, err := Regions(e, r.Decision, title, r.Support, true)
		if err != nil {
			return nil, err
		}
		plots = append(plots, p)
	}
	return plots, nil
}

// wholeTicks labels an axis of counts with whole numbers only.
type wholeTicks struct{}

// Ticks implements plot.Ticker.
func (wholeTicks) Ticks(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	for _, t := range (plot.DefaultTicks{}).Ticks(lo, hi) {
		if t.Value != math.Trunc(t.Value) {
			continue
		}
		if t.Label != "" {
			t.Label = fmt.Sprint(int(t.Value))
		}
		out = append(out, t)
	}
	return out
}
