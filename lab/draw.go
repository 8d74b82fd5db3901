package lab

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"mark1/chart"
	"mark1/learning"
)

// Colours and sizes of the pictures: large enough to read when projected.
var (
	plusColor  = color.RGBA{0xb2, 0x18, 0x2b, 0xff} // + : the notes' O
	minusColor = color.RGBA{0x21, 0x66, 0xac, 0xff} // − : the notes' X
	inkColor   = color.RGBA{0x22, 0x22, 0x22, 0xff}
	greyColor  = color.RGBA{0x77, 0x77, 0x77, 0xff}
	goldColor  = color.RGBA{0xc8, 0x8a, 0x00, 0xff}
	feasible   = color.RGBA{0xf4, 0xa5, 0x82, 0xff}
	plusTint   = color.RGBA{0xfd, 0xdb, 0xc7, 0xff}
	minusTint  = color.RGBA{0xd1, 0xe5, 0xf0, 0xff}
	mistakeCol = color.RGBA{0x1b, 0x9e, 0x3a, 0xff} // the point just presented, a mistake
	riskCol    = color.RGBA{0x54, 0x27, 0x8f, 0xff} // the risk surface's hue
)

// gifPalette is the palette of the lab's animations: chart's greys and
// diverging scale, and the lab's own colours.
func gifPalette() color.Palette {
	return chart.GIFPalette(plusColor, minusColor, inkColor, greyColor, goldColor, feasible, plusTint, minusTint, mistakeCol, riskCol,
		noneTint, class3, class4, tint3, tint4)
}

const (
	titleSize  = 22
	labelSize  = 20
	tickSize   = 16
	legendSize = 16
	markSize   = 7
)

// sans returns Liberation Sans of the given size in points.
func sans(size float64) font.Font {
	return font.Font{Typeface: "Liberation", Variant: "Sans", Size: vg.Length(size)}
}

// newPlot returns a plot with the lab's fonts, a title, axis labels and a
// grid.
func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = sans(titleSize)
	p.X.Label.Text, p.Y.Label.Text = x, y
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = sans(labelSize)
		a.Tick.Label.Font = sans(tickSize)
	}
	p.Legend.TextStyle.Font = sans(legendSize)
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.Padding = vg.Points(4)
	p.Add(plotter.NewGrid())
	return p
}

func (b Box) set(p *plot.Plot) {
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = b.X0, b.X1, b.Y0, b.Y1
}

// square returns the box of half-width r around the origin.
func square(r float64) Box { return Box{-r, r, -r, r} }

// XBox returns a square view of e's points with the origin in it.
func XBox(e Example) Box {
	r := 1.0
	for _, x := range e.X {
		r = max(r, math.Abs(x[0]), math.Abs(x[1]))
	}
	r = math.Ceil(r*1.25*2) / 2
	return square(r)
}

// WBox returns a square view of w-space around the origin holding every
// weight vector of path (their first two coordinates).
func WBox(path [][]float64) Box {
	r := 1.0
	for _, w := range path {
		r = max(r, math.Abs(w[0]), math.Abs(w[1]))
	}
	return square(math.Ceil(r * 1.3))
}

func need2D(e Example, what string) error {
	if e.Dim() != 2 {
		return fmt.Errorf("%s: %s draws 2 features and the example has %d; the trace (text or JSON) works in any dimension", e.Name, what, e.Dim())
	}
	return nil
}

// addMarks draws the points plus as + (O) and minus as − (X), with their
// legend entries, as the notes mark samples.
func addMarks(p *plot.Plot, plus, minus plotter.XYs) error {
	for _, c := range []struct {
		xy    plotter.XYs
		col   color.Color
		shape draw.GlyphDrawer
		name  string
	}{{plus, plusColor, draw.RingGlyph{}, "+ (O)"}, {minus, minusColor, draw.CrossGlyph{}, "− (X)"}} {
		if len(c.xy) == 0 {
			continue
		}
		s, err := plotter.NewScatter(c.xy)
		if err != nil {
			return err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: c.col, Radius: vg.Points(markSize), Shape: c.shape}
		p.Add(s)
		p.Legend.Add(c.name, s)
	}
	return nil
}

// addPoints draws the samples as the notes do: + as O, − as X, and labels
// them with their numbers if numbered.
func addPoints(p *plot.Plot, e Example, numbered bool) error {
	var plus, minus plotter.XYs
	for i, x := range e.X {
		if e.Y[i] > 0 {
			plus = append(plus, plotter.XY{X: x[0], Y: x[1]})
		} else {
			minus = append(minus, plotter.XY{X: x[0], Y: x[1]})
		}
	}
	if err := addMarks(p, plus, minus); err != nil {
		return err
	}
	if numbered {
		var l plotter.XYLabels
		for i, x := range e.X {
			l.XYs = append(l.XYs, plotter.XY{X: x[0], Y: x[1]})
			l.Labels = append(l.Labels, fmt.Sprint(i+1))
		}
		labels, err := plotter.NewLabels(l)
		if err != nil {
			return err
		}
		for i := range labels.TextStyle {
			labels.TextStyle[i].Font = sans(15)
			labels.TextStyle[i].Color = greyColor
			labels.Offset = vg.Point{X: vg.Points(8), Y: vg.Points(6)}
		}
		p.Add(labels)
	}
	return nil
}

// lineInBox returns the segment of {x : a·x₁ + b·x₂ + c = 0} inside box, or
// false if it misses it.
func lineInBox(a, b, c float64, box Box) (plotter.XYs, bool) {
	poly := []Point{{box.X0, box.Y0}, {box.X1, box.Y0}, {box.X1, box.Y1}, {box.X0, box.Y1}}
	var pts plotter.XYs
	for i, p := range poly {
		q := poly[(i+1)%4]
		sp, sq := a*p.X+b*p.Y+c, a*q.X+b*q.Y+c
		if sp == 0 {
			pts = append(pts, plotter.XY{X: p.X, Y: p.Y})
		}
		if (sp < 0 && sq > 0) || (sp > 0 && sq < 0) {
			t := sp / (sp - sq)
			pts = append(pts, plotter.XY{X: p.X + t*(q.X-p.X), Y: p.Y + t*(q.Y-p.Y)})
		}
	}
	if len(pts) < 2 {
		return nil, false
	}
	return pts[:2], true
}

// addLine draws a·x₁ + b·x₂ + c = 0 across box.
func addLine(p *plot.Plot, a, b, c float64, box Box, col color.Color, width float64, dashed bool, name string) error {
	seg, ok := lineInBox(a, b, c, box)
	if !ok {
		return nil
	}
	return addPath(p, seg, col, width, dashes(dashed, 8, 5), name)
}

// addPath draws the polyline xy in col, width points wide, with the
// dashes (nil: solid) and, unless name is empty, a legend entry.
func addPath(p *plot.Plot, xy plotter.XYs, col color.Color, width float64, dash []vg.Length, name string) error {
	l, err := plotter.NewLine(xy)
	if err != nil {
		return err
	}
	l.Color, l.Width, l.Dashes = col, vg.Points(width), dash
	p.Add(l)
	if name != "" {
		p.Legend.Add(name, l)
	}
	return nil
}

// dashes returns dashes of on and off points when dashed, else nil.
func dashes(dashed bool, on, off float64) []vg.Length {
	if !dashed {
		return nil
	}
	return []vg.Length{vg.Points(on), vg.Points(off)}
}

// addArrow draws an arrow from (x0, y0) to (x1, y1) in data units.
func addArrow(p *plot.Plot, x0, y0, x1, y1 float64, col color.Color, name string) error {
	dx, dy := x1-x0, y1-y0
	n := math.Hypot(dx, dy)
	if n == 0 {
		return nil
	}
	h := (p.X.Max - p.X.Min) / 30
	ux, uy := dx/n, dy/n
	left := plotter.XY{X: x1 - h*(ux*0.9-uy*0.5), Y: y1 - h*(uy*0.9+ux*0.5)}
	right := plotter.XY{X: x1 - h*(ux*0.9+uy*0.5), Y: y1 - h*(uy*0.9-ux*0.5)}
	l, err := plotter.NewLine(plotter.XYs{{X: x0, Y: y0}, {X: x1, Y: y1}})
	if err != nil {
		return err
	}
	l.Color, l.Width = col, vg.Points(3)
	head, err := plotter.NewPolygon(plotter.XYs{{X: x1, Y: y1}, left, right})
	if err != nil {
		return err
	}
	head.Color, head.LineStyle.Width = col, 0
	p.Add(l, head)
	if name != "" {
		p.Legend.Add(name, l)
	}
	return nil
}

// addCircle draws the circle of radius r around the origin, dashed.
func addCircle(p *plot.Plot, r float64, col color.Color, name string) error {
	var xy plotter.XYs
	for i := range 181 {
		a := 2 * math.Pi * float64(i) / 180
		xy = append(xy, plotter.XY{X: r * math.Cos(a), Y: r * math.Sin(a)})
	}
	l, err := plotter.NewLine(xy)
	if err != nil {
		return err
	}
	l.Color, l.Width, l.Dashes = col, vg.Points(1.5), []vg.Length{vg.Points(3), vg.Points(4)}
	p.Add(l)
	p.Legend.Add(name, l)
	return nil
}

// addText writes s at (x, y) in data units.
func addText(p *plot.Plot, x, y float64, s string, size float64, col color.Color) error {
	l, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{{X: x, Y: y}}, Labels: []string{s}})
	if err != nil {
		return err
	}
	l.TextStyle[0].Font = sans(size)
	l.TextStyle[0].Color = col
	p.Add(l)
	return nil
}

// ring marks a sample with a large circle (the point just presented, or a
// support vector).
func addRings(p *plot.Plot, pts plotter.XYs, col color.Color, radius float64, name string) error {
	if len(pts) == 0 {
		return nil
	}
	s, err := plotter.NewScatter(pts)
	if err != nil {
		return err
	}
	s.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(radius), Shape: thickRing{}}
	p.Add(s)
	if name != "" {
		p.Legend.Add(name, s)
	}
	return nil
}

// thickRing is a ring glyph with a heavier line than draw.RingGlyph.
type thickRing struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (thickRing) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(2.5)})
	var p vg.Path
	p.Move(vg.Point{X: pt.X + sty.Radius, Y: pt.Y})
	p.Arc(pt, sty.Radius, 0, 2*math.Pi)
	p.Close()
	c.Stroke(p)
}

// XView is what the x-space picture shows.
type XView struct {
	// W is the weight vector (ending in b with the bias trick); nil or
	// zero draws no hyperplane.
	W    []float64
	Bias bool
	// Mark is the 0-based sample just presented, or −1; Mistake says
	// whether it was a mistake.
	Mark    int
	Mistake bool
	Title   string
}

// XSpace draws the points as the notes do (O for +, X for −), the
// hyperplane {x : w·x + b = 0}, w as an arrow normal to it, the point just
// presented, and — when w separates the points — its margin band with γ_w,
// and the ball of radius R = max ‖x_i‖.
func XSpace(e Example, v XView) (*plot.Plot, error) {
	if err := need2D(e, "the x-space picture"); err != nil {
		return nil, err
	}
	box := XBox(e)
	p := newPlot(v.Title, "x₁", "x₂")
	box.set(p)
	var w []float64
	b := 0.0
	if len(v.W) >= 2 {
		w = v.W[:2]
		if v.Bias && len(v.W) == 3 {
			b = v.W[2]
		}
	}
	R := learning.Radius(e.Data(), false)
	if err := addCircle(p, R, greyColor, fmt.Sprintf("ball of radius R = %s", Num(R))); err != nil {
		return nil, err
	}
	if w != nil && (w[0] != 0 || w[1] != 0) {
		name := "w·x = 0"
		if v.Bias {
			name = "w·x + b = 0"
		}
		// Margin band through the nearest points, if w separates.
		n := math.Hypot(w[0], w[1])
		lo := math.Inf(1)
		for i, x := range e.X {
			lo = min(lo, float64(e.Y[i])*(dot(w, x)+b))
		}
		if lo > 0 {
			for _, s := range []float64{-1, 1} {
				if err := addLine(p, w[0], w[1], b-s*lo, box, goldColor, 2, true, ""); err != nil {
					return nil, err
				}
			}
			g := lo / n
			// Name the band once in the legend.
			if err := addLine(p, w[0], w[1], b-lo, box, goldColor, 2, true, fmt.Sprintf("margin band, γ_w = %s", Num(g))); err != nil {
				return nil, err
			}
		}
		if err := addLine(p, w[0], w[1], b, box, inkColor, 3, false, name); err != nil {
			return nil, err
		}
		// w as an arrow from the line's point nearest the origin.
		x0, y0 := -b*w[0]/(n*n), -b*w[1]/(n*n)
		L := (box.X1 - box.X0) / 5
		if err := addArrow(p, x0, y0, x0+L*w[0]/n, y0+L*w[1]/n, goldColor, "w (normal; points to +)"); err != nil {
			return nil, err
		}
	}
	if v.Mark >= 0 && v.Mark < len(e.X) {
		col, name := greyColor, "just presented: right"
		if v.Mistake {
			col, name = mistakeCol, "just presented: a mistake"
		}
		x := e.X[v.Mark]
		if err := addRings(p, plotter.XYs{{X: x[0], Y: x[1]}}, col, 15, name); err != nil {
			return nil, err
		}
	}
	if err := addPoints(p, e, true); err != nil {
		return nil, err
	}
	return p, nil
}

// halfPlane returns box cut to a·x + b·y + c ≥ 0.
func halfPlane(box Box, a, b, c float64) []Point {
	return clip([]Point{{box.X0, box.Y0}, {box.X1, box.Y0}, {box.X1, box.Y1}, {box.X0, box.Y1}}, a, b, c)
}

func polygon(pts []Point) plotter.XYs {
	xy := make(plotter.XYs, len(pts))
	for i, q := range pts {
		xy[i] = plotter.XY{X: q.X, Y: q.Y}
	}
	return xy
}

// WView is what the w-space picture shows.
type WView struct {
	// Path is w over the updates, the current w last. With Bias each w
	// ends in b, and the chart is the slice b = (the last w's b).
	Path  [][]float64
	Bias  bool
	Box   Box
	Title string
	// Risk shades R(w) under the chart with contour lines.
	Risk bool
	// PathName names the path in the legend; empty means "path of w".
	PathName string
}

// WSpace draws the dual chart (001): each sample's dual line
// {w : x·w = 0} (with the bias, the slice x·w = −b), the side where w must
// lie shaded (the more samples a region satisfies the darker), the
// feasible region filled, and w's path over the updates.
func WSpace(e Example, v WView) (*plot.Plot, error) {
	if err := need2D(e, "the w-space chart"); err != nil {
		return nil, err
	}
	box := v.Box
	if box == (Box{}) {
		box = WBox(v.Path)
	}
	b := 0.0
	if v.Bias && len(v.Path) > 0 {
		b = v.Path[len(v.Path)-1][2]
	}
	p := newPlot(v.Title, "w₁", "w₂")
	box.set(p)
	if v.Risk {
		if err := addRisk(p, e, v.Bias, b, box); err != nil {
			return nil, err
		}
	} else {
		shadeKey, _ := plotter.NewPolygon(plotter.XYs{{}, {}, {}})
		shadeKey.Color, shadeKey.LineStyle.Width = color.RGBA{0xc8, 0xc8, 0xc8, 0xff}, 0
		p.Legend.Add("grey: each line's side where w must lie (darker: more samples right)", shadeKey)
		for i, x := range e.X {
			y := float64(e.Y[i])
			hp := halfPlane(box, y*x[0], y*x[1], y*b)
			if len(hp) == 0 {
				continue
			}
			poly, err := plotter.NewPolygon(polygon(hp))
			if err != nil {
				return nil, err
			}
			poly.Color, poly.LineStyle.Width = color.NRGBA{0x60, 0x60, 0x60, 0x1c}, 0
			p.Add(poly)
		}
	}
	region, err := FeasibleSlice(e, b, box)
	if err != nil {
		return nil, err
	}
	if len(region) > 0 {
		poly, err := plotter.NewPolygon(polygon(region))
		if err != nil {
			return nil, err
		}
		fill := feasible
		if v.Risk {
			fill = color.RGBA{0xff, 0xff, 0xff, 0xff}
		}
		poly.Color = fill
		poly.LineStyle = draw.LineStyle{Color: goldColor, Width: vg.Points(2.5)}
		p.Add(poly)
		p.Legend.Add("feasible region (R = 0)", poly)
	} else {
		p.Legend.Add("no feasible region in view")
	}
	// Each line is labelled with its sample's number near the box edge;
	// lines that coincide share one label, "2, 4".
	type group struct {
		x, y    float64 // a normal
		c       float64
		samples []string
		col     color.Color
	}
	var groups []*group
	for i, x := range e.X {
		col := minusColor
		if e.Y[i] > 0 {
			col = plusColor
		}
		if err := addLine(p, x[0], x[1], b, box, col, 2, false, ""); err != nil {
			return nil, err
		}
		n := math.Hypot(x[0], x[1])
		u := [3]float64{x[0] / n, x[1] / n, b / n}
		if u[0] < 0 || (u[0] == 0 && u[1] < 0) {
			u = [3]float64{-u[0], -u[1], -u[2]}
		}
		found := false
		for _, g := range groups {
			if math.Abs(g.x-u[0]) < 1e-9 && math.Abs(g.y-u[1]) < 1e-9 && math.Abs(g.c-u[2]) < 1e-9 {
				g.samples = append(g.samples, fmt.Sprint(i+1))
				g.col = inkColor
				found = true
			}
		}
		if !found {
			groups = append(groups, &group{u[0], u[1], u[2], []string{fmt.Sprint(i + 1)}, col})
		}
	}
	for _, g := range groups {
		seg, ok := lineInBox(g.x, g.y, g.c, box)
		if !ok {
			continue
		}
		end := seg[1]
		if seg[0].Y > seg[1].Y {
			end = seg[0]
		}
		if err := addText(p, end.X*0.9+(box.X1-box.X0)/60, end.Y*0.9, strings.Join(g.samples, ", "), 18, g.col); err != nil {
			return nil, err
		}
	}
	lp, _ := plotter.NewLine(plotter.XYs{{}, {}})
	lp.Color, lp.Width = plusColor, vg.Points(2)
	lm, _ := plotter.NewLine(plotter.XYs{{}, {}})
	lm.Color, lm.Width = minusColor, vg.Points(2)
	dual := "dual line x·w = 0"
	if v.Bias {
		dual = fmt.Sprintf("dual line x·w = −b, b = %s", Num(b))
	}
	p.Legend.Add(dual+" of a + sample", lp)
	p.Legend.Add(dual+" of a − sample", lm)
	if len(v.Path) > 0 {
		var xy plotter.XYs
		for _, w := range v.Path {
			xy = append(xy, plotter.XY{X: w[0], Y: w[1]})
		}
		l, pts, err := plotter.NewLinePoints(xy)
		if err != nil {
			return nil, err
		}
		l.Color, l.Width = inkColor, vg.Points(2)
		pts.GlyphStyle = draw.GlyphStyle{Color: inkColor, Radius: vg.Points(3.5), Shape: draw.CircleGlyph{}}
		p.Add(l, pts)
		name := v.PathName
		if name == "" {
			name = "path of w"
		}
		p.Legend.Add(name, l, pts)
		last := xy[len(xy)-1]
		cur, _ := plotter.NewScatter(plotter.XYs{last})
		cur.GlyphStyle = draw.GlyphStyle{Color: goldColor, Radius: vg.Points(8), Shape: draw.CircleGlyph{}}
		p.Add(cur)
		p.Legend.Add("w now = "+Vec(v.Path[len(v.Path)-1]), cur)
	}
	return p, nil
}

// riskGrid is R(w) on a grid over a box of w-space (a slice at b with the
// bias).
type riskGrid struct {
	boxGrid
	lo, hi float64
}

func newRiskGrid(e Example, bias bool, b float64, box Box, n int) *riskGrid {
	g := &riskGrid{boxGrid: boxGrid{box: box, n: n, z: make([]float64, n*n)}, lo: math.Inf(1), hi: math.Inf(-1)}
	w := make([]float64, 2+b2i(bias))
	if bias {
		w[2] = b
	}
	for r := range n {
		for c := range n {
			w[0], w[1] = g.X(c), g.Y(r)
			v := Risk(e, bias, w)
			g.z[r*n+c] = v
			g.lo, g.hi = min(g.lo, v), max(g.hi, v)
		}
	}
	return g
}

func (g *riskGrid) Min() float64 { return g.lo }
func (g *riskGrid) Max() float64 { return g.hi }

// addRisk shades R(w) over box with contour lines.
func addRisk(p *plot.Plot, e Example, bias bool, b float64, box Box) error {
	g := newRiskGrid(e, bias, b, box, 160)
	heat := plotter.NewHeatMap(g, riskPalette(256))
	heat.Rasterized = true
	p.Add(heat)
	var levels []float64
	step := niceStep(g.hi / 8)
	for l := step; l < g.hi; l += step {
		levels = append(levels, l)
	}
	if len(levels) > 0 {
		c := plotter.NewContour(g, levels, greys{})
		c.LineStyles = []draw.LineStyle{{Color: greyColor, Width: vg.Points(1)}}
		p.Add(c)
		thumb, _ := plotter.NewLine(plotter.XYs{{}, {}})
		thumb.Color, thumb.Width = greyColor, vg.Points(1)
		p.Legend.Add(fmt.Sprintf("R(w) contours every %s (shade: light 0 → dark %s)", Num(step), Num(g.hi)), thumb)
	}
	return nil
}

// riskPalette runs from white (R = 0) to a dark violet (the largest R in
// view).
func riskPalette(n int) palette.Palette {
	out := make(colors, n)
	for i := range out {
		t := float64(i) / float64(n-1)
		mix := func(a, b float64) uint8 { return uint8(math.Round(a*(1-t) + b*t)) }
		out[i] = color.RGBA{mix(255, 0x54), mix(255, 0x27), mix(255, 0x8f), 0xff}
	}
	return out
}

type colors []color.Color

func (c colors) Colors() []color.Color { return c }

type greys struct{}

func (greys) Colors() []color.Color { return []color.Color{greyColor} }

// niceStep rounds v up to 1, 2 or 5 times a power of ten.
func niceStep(v float64) float64 {
	if !(v > 0) {
		return 1
	}
	e := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*e >= v {
			return m * e
		}
	}
	return 10 * e
}
