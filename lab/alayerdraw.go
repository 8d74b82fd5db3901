package lab

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"mark1/chart"
	"mark1/internal/base/param"
)

// fireTint shades where an A-unit fires.
var fireTint = color.RGBA{0xf6, 0xe3, 0xb4, 0xff}

// aLayerPicture draws the a-layer's views at frame f:
//
//	notes    regions beside the A-space view
//	regions  the R-unit's decision regions over x-space, with the units' lines
//	units    one thumbnail per A-unit: where it fires, and its weight now
//	aspace   the samples as the R-unit sees them: their A-vectors, and
//	         their scores w·a + b
//	theorem  mistakes so far against (R/γ)² in A-space
func (r *Run) aLayerPicture(view string, f int, caption string) (*chart.Drawing, error) {
	t := r.ALayer
	path := r.Path(f)
	w := path[len(path)-1]
	switch view {
	case "notes", "regions", "aspace":
		var plots []*plot.Plot
		if view != "aspace" {
			p, err := r.aRegions(f, w)
			if err != nil {
				return nil, err
			}
			plots = append(plots, p)
		}
		if view != "regions" {
			a, s, err := t.aSpacePlots(w, f)
			if err != nil {
				return nil, err
			}
			plots = append(plots, a, s)
		}
		if len(plots) == 1 {
			return chart.Plots(760, 900, [][]*plot.Plot{plots}, caption, 170), nil
		}
		return chart.Plots(620*len(plots), 900, [][]*plot.Plot{plots}, caption, 170), nil
	case "units":
		return t.unitsPicture(w, caption)
	case "theorem":
		return chart.Plots(900, 620, [][]*plot.Plot{{TheoremPlot(t.Perceptron, f)}}, caption, 90), nil
	}
	return nil, param.Errorf("view", strconv.Quote(view), "notes, regions, units, aspace or theorem for the a-layer")
}

// aRegions draws the R-unit's regions over x-space with the weights w (b
// last): + where w·a(x) + b ≥ 0; the units' lines dashed; the sample just
// presented ringed.
func (r *Run) aRegions(f int, w []float64) (*plot.Plot, error) {
	t, e := r.ALayer, r.Example
	p, err := Regions(e, t.decision(w), fmt.Sprintf("the R-unit on %d A-units: + where w·a(x) + b ≥ 0", t.size()), nil, false)
	if err != nil {
		return nil, err
	}
	box := XBox(e)
	if rt := t.Retina; rt != nil {
		if err := addRetinaGrid(p, *rt); err != nil {
			return nil, err
		}
	}
	for j, u := range t.Units {
		name := ""
		if j == 0 {
			name = "the A-units' lines w_j·x = θ_j"
		}
		if err := addLine(p, u.W[0], u.W[1], -u.Theta, box, greyColor, 1.2, true, name); err != nil {
			return nil, err
		}
	}
	if m, mistake := r.mark(f); m >= 0 {
		col, name := greyColor, "just presented: right"
		if mistake {
			col, name = mistakeCol, "just presented: a mistake"
		}
		if err := addRings(p, plotter.XYs{{X: e.X[m][0], Y: e.X[m][1]}}, col, 15, name); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// aOrder returns the samples in the order the A-space view lists them:
// the + samples, then the − ones, each in the example's order.
func (t *ALayerTrace) aOrder() []int {
	var plus, minus []int
	for i, y := range t.ex.Y {
		if y > 0 {
			plus = append(plus, i)
		} else {
			minus = append(minus, i)
		}
	}
	return append(plus, minus...)
}

// bitGrid is the A-vectors as a heat map: column j is unit j+1, row r
// the r-th sample of aOrder from the top.
type bitGrid struct {
	a     [][]float64
	order []int
}

func (g bitGrid) Dims() (c, r int)   { return len(g.a[0]), len(g.order) }
func (g bitGrid) Z(c, r int) float64 { return g.a[g.order[len(g.order)-1-r]][c] }
func (g bitGrid) X(c int) float64    { return float64(c + 1) }
func (g bitGrid) Y(r int) float64    { return float64(len(g.order) - r) }

// aSpacePlots draws the samples as the R-unit sees them at frame f: their
// A-vectors listed (a row per sample, + samples first, a dark cell where
// the unit fires) and projected on the R-unit's weights (each sample's
// score w·a + b, its row the same; right of 0 is predicted +).
func (t *ALayerTrace) aSpacePlots(w []float64, f int) (*plot.Plot, *plot.Plot, error) {
	order := t.aOrder()
	n, nu := len(order), t.size()
	a := newPlot("A-space: each sample's A-vector a", "A-unit j", "sample (+ first)")
	heat := plotter.NewHeatMap(bitGrid{a: t.A, order: order}, colors{color.White, inkColor})
	heat.Min, heat.Max = 0, 1
	heat.Rasterized = false
	a.Add(heat)
	a.X.Min, a.X.Max = 0.5, float64(nu)+0.5
	a.Y.Min, a.Y.Max = 0.5, float64(n)+0.5
	a.X.Tick.Marker, a.Y.Tick.Marker = wholeTicks{}, rowTicks{order: order}
	sw := func(c color.Color) *plotter.Scatter {
		s, _ := plotter.NewScatter(plotter.XYs{{}})
		s.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(7), Shape: draw.BoxGlyph{}}
		return s
	}
	a.Legend.Add("a_j = 1: unit j fires at the sample", sw(inkColor))
	a.Legend.Add(fmt.Sprintf("%d samples × %d units", n, nu), sw(color.White))

	s := newPlot(fmt.Sprintf("projected on the R-unit: w·a + b (step %d)", f), "w·a + b", "sample (+ first)")
	var plus, minus plotter.XYs
	lo, hi := -1.0, 1.0
	for r, i := range order {
		v := dot(w[:nu], t.A[i]) + w[nu]
		lo, hi = min(lo, v), max(hi, v)
		xy := plotter.XY{X: v, Y: float64(n - r)}
		if t.ex.Y[i] > 0 {
			plus = append(plus, xy)
		} else {
			minus = append(minus, xy)
		}
	}
	pad := 0.1 * (hi - lo)
	s.X.Min, s.X.Max = math.Floor(lo-pad), math.Ceil(hi+pad)
	s.Y.Min, s.Y.Max = 0.5, float64(n)+0.5
	s.Y.Tick.Marker = rowTicks{order: order}
	right, err := plotter.NewPolygon(plotter.XYs{{X: 0, Y: 0.5}, {X: s.X.Max, Y: 0.5}, {X: s.X.Max, Y: float64(n) + 0.5}, {X: 0, Y: float64(n) + 0.5}})
	if err != nil {
		return nil, nil, err
	}
	right.Color, right.LineStyle.Width = plusTint, 0
	left, err := plotter.NewPolygon(plotter.XYs{{X: s.X.Min, Y: 0.5}, {X: 0, Y: 0.5}, {X: 0, Y: float64(n) + 0.5}, {X: s.X.Min, Y: float64(n) + 0.5}})
	if err != nil {
		return nil, nil, err
	}
	left.Color, left.LineStyle.Width = minusTint, 0
	s.Add(left, right)
	zero, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0.5}, {X: 0, Y: float64(n) + 0.5}})
	if err != nil {
		return nil, nil, err
	}
	zero.Color, zero.Width = inkColor, vg.Points(3)
	s.Add(zero)
	s.Legend.Add("the R-unit's threshold w·a + b = 0", zero)
	if err := addMarks(s, plus, minus); err != nil {
		return nil, nil, err
	}
	return a, s, nil
}

// rowTicks labels the A-space view's rows with the samples' numbers
// (every row when there are few).
type rowTicks struct{ order []int }

// Ticks implements plot.Ticker.
func (rt rowTicks) Ticks(lo, hi float64) []plot.Tick {
	n := len(rt.order)
	every := max(1, (n+19)/20)
	var out []plot.Tick
	for r := range n {
		t := plot.Tick{Value: float64(n - r)}
		if r%every == 0 {
			t.Label = strconv.Itoa(rt.order[r] + 1)
		}
		out = append(out, t)
	}
	return out
}

// unitsPicture draws one thumbnail per A-unit: the data's view shaded
// where the unit fires (with its line, or its origin cells on the
// retina), the points, and the R-unit's weight on it in w (b last).
func (t *ALayerTrace) unitsPicture(w []float64, caption string) (*chart.Drawing, error) {
	e, nu := t.ex, t.size()
	cols := int(math.Ceil(math.Sqrt(float64(nu))))
	if t.Retina != nil {
		cols = max(cols, min(4, nu)) // the caption's lines want four across
	}
	rows := (nu + cols - 1) / cols
	box := XBox(e)
	grid := make([][]*plot.Plot, rows)
	for i := range grid {
		grid[i] = make([]*plot.Plot, cols)
	}
	for j := range nu {
		p := plot.New()
		p.Title.Text = fmt.Sprintf("A%s: weight %s", Sub(j+1), Num(w[j]))
		p.Title.TextStyle.Font = sans(15)
		p.HideAxes()
		box.set(p)
		var err error
		if t.Retina != nil {
			err = addRasterUnit(p, *t.Retina, t.Raster[j], box)
		} else {
			err = addHalfPlaneUnit(p, t.Units[j], box)
		}
		if err != nil {
			return nil, err
		}
		for _, c := range []struct {
			y     int
			col   color.Color
			shape draw.GlyphDrawer
		}{{1, plusColor, draw.RingGlyph{}}, {-1, minusColor, draw.CrossGlyph{}}} {
			var xy plotter.XYs
			for i, x := range e.X {
				if e.Y[i] == c.y {
					xy = append(xy, plotter.XY{X: x[0], Y: x[1]})
				}
			}
			if len(xy) == 0 {
				continue
			}
			sc, err := plotter.NewScatter(xy)
			if err != nil {
				return nil, err
			}
			sc.GlyphStyle = draw.GlyphStyle{Color: c.col, Radius: vg.Points(4), Shape: c.shape}
			p.Add(sc)
		}
		grid[j/cols][j%cols] = p
	}
	const side = 280
	width, foot := side*cols, 90
	if rt := t.Retina; rt != nil {
		width, foot = max(width, 4*side), 140
		caption += fmt.Sprintf("\neach A-unit fires (a_j = 1) on its shaded cells of the %d×%d retina,\nwhere its excitatory cells (+) lit less its inhibitory cells (□) lit reach θ = %d; its weight is the R-unit's now, b = %s",
			rt.Side, rt.Side, RasterThreshold, Num(w[nu]))
	} else {
		caption += fmt.Sprintf("\neach A-unit fires (a_j = 1) on its shaded half-plane w_j·x ≥ θ_j; its weight is the R-unit's now, b = %s", Num(w[nu]))
	}
	return chart.Plots(width, side*rows+foot, grid, caption, 0), nil
}

// addFire shades the region xy where a unit fires.
func addFire(p *plot.Plot, xy plotter.XYs) error {
	fire, err := plotter.NewPolygon(xy)
	if err != nil {
		return err
	}
	fire.Color, fire.LineStyle.Width = fireTint, 0
	p.Add(fire)
	return nil
}

// addFrame draws box's edge.
func addFrame(p *plot.Plot, box Box) error {
	return addPath(p, plotter.XYs{{X: box.X0, Y: box.Y0}, {X: box.X1, Y: box.Y0}, {X: box.X1, Y: box.Y1}, {X: box.X0, Y: box.Y1}, {X: box.X0, Y: box.Y0}}, greyColor, 1, nil, "")
}

// addHalfPlaneUnit draws a half-plane unit's thumbnail: its half-plane
// shaded, and its line.
func addHalfPlaneUnit(p *plot.Plot, u AUnit, box Box) error {
	if err := addFire(p, polygon(halfPlane(box, u.W[0], u.W[1], -u.Theta))); err != nil {
		return err
	}
	if err := addFrame(p, box); err != nil {
		return err
	}
	return addLine(p, u.W[0], u.W[1], -u.Theta, box, goldColor, 2.5, false, "")
}

// Colours of a raster unit's origin cells.
var (
	excColor = color.RGBA{0x1b, 0x78, 0x37, 0xff}
	inhColor = color.RGBA{0x76, 0x2a, 0x83, 0xff}
)

// viewCell returns cell k's part of the view box: its part of the retina,
// widened to the view's edge for the cells on the retina's edge (a point
// beyond the retina falls in the nearest edge cell).
func (r Retina) viewCell(k int, view Box) Box {
	c := r.CellBox(k)
	b := Box{c[0], c[1], c[2], c[3]}
	col, row := k%r.Side, k/r.Side
	if col == 0 {
		b.X0 = view.X0
	}
	if col == r.Side-1 {
		b.X1 = view.X1
	}
	if row == 0 {
		b.Y0 = view.Y0
	}
	if row == r.Side-1 {
		b.Y1 = view.Y1
	}
	return b
}

// addRasterUnit draws a raster unit's thumbnail: the cells where it
// fires shaded, the retina's grid, and its origin cells.
func addRasterUnit(p *plot.Plot, r Retina, u RasterUnit, box Box) error {
	for k := range r.Side * r.Side {
		if !u.Fires(r, k) {
			continue
		}
		c := r.viewCell(k, box)
		if err := addFire(p, plotter.XYs{{X: c.X0, Y: c.Y0}, {X: c.X1, Y: c.Y0}, {X: c.X1, Y: c.Y1}, {X: c.X0, Y: c.Y1}}); err != nil {
			return err
		}
	}
	if err := addFrame(p, box); err != nil {
		return err
	}
	if err := addRetinaGrid(p, r); err != nil {
		return err
	}
	for _, c := range []struct {
		cells []int
		col   color.Color
		shape draw.GlyphDrawer
	}{{u.Excitatory, excColor, draw.PlusGlyph{}}, {u.Inhibitory, inhColor, draw.SquareGlyph{}}} {
		var xy plotter.XYs
		for _, k := range c.cells {
			b := r.CellBox(k)
			xy = append(xy, plotter.XY{X: (b[0] + b[1]) / 2, Y: (b[2] + b[3]) / 2})
		}
		if len(xy) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(xy)
		if err != nil {
			return err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: c.col, Radius: vg.Points(5), Shape: c.shape}
		p.Add(sc)
	}
	return nil
}

// addRetinaGrid draws the retina's cells as a faint grid over its box.
func addRetinaGrid(p *plot.Plot, r Retina) error {
	b := r.Box
	for i := range r.Side + 1 {
		f := float64(i) / float64(r.Side)
		x, y := b[0]+(b[1]-b[0])*f, b[2]+(b[3]-b[2])*f
		for _, seg := range []plotter.XYs{{{X: x, Y: b[2]}, {X: x, Y: b[3]}}, {{X: b[0], Y: y}, {X: b[1], Y: y}}} {
			if err := addPath(p, seg, color.RGBA{0xbb, 0xbb, 0xbb, 0xff}, 0.6, nil, ""); err != nil {
				return err
			}
		}
	}
	return nil
}
