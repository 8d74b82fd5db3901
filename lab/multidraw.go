package lab

import (
	"context"
	"fmt"
	"image/color"
	"image/gif"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"mark1/chart"
	"mark1/internal/base/param"
)

// The classes' colours (the first two are the two-class pictures' + and
// −), their tints for regions, and their marks: told apart by shape as
// well as by colour.
var (
	class3, class4 = color.RGBA{0x1b, 0x7a, 0x3a, 0xff}, color.RGBA{0x8a, 0x3f, 0xb0, 0xff}
	tint3, tint4   = color.RGBA{0xcc, 0xeb, 0xc5, 0xff}, color.RGBA{0xe5, 0xd5, 0xf0, 0xff}
	noneTint       = color.RGBA{0xd9, 0xd9, 0xd9, 0xff}
	classColors    = []color.Color{plusColor, minusColor, class3, class4}
	classTints     = []color.Color{plusTint, minusTint, tint3, tint4}
	classGlyphs    = []draw.GlyphDrawer{draw.RingGlyph{}, draw.CrossGlyph{}, draw.TriangleGlyph{}, draw.SquareGlyph{}}
)

// MultiViews lists the pictures of a MultiRun.
func MultiViews() []string { return []string{"classes"} }

// classGrid is a rule's classes over a box, for gonum's heat map: the
// class index, −1 for none.
type classGrid struct {
	g RuleGrid
}

func (c classGrid) Dims() (int, int)     { return c.g.N, c.g.N }
func (c classGrid) Z(col, r int) float64 { return float64(c.g.Z[r*c.g.N+col]) }
func (c classGrid) X(col int) float64 {
	return c.g.Box[0] + (c.g.Box[1]-c.g.Box[0])*(float64(col)+0.5)/float64(c.g.N)
}
func (c classGrid) Y(r int) float64 {
	return c.g.Box[2] + (c.g.Box[3]-c.g.Box[2])*(float64(r)+0.5)/float64(c.g.N)
}

// Picture draws view classes at frame f (−1: the last): the classes each
// rule gives over x-space, side by side (one-vs-rest by sign, with the
// points it leaves to none or several in grey; one R-unit per class; the
// one-vs-one votes), the points by class, and each class's one-vs-rest
// line for the linear learners.
func (r *MultiRun) Picture(ctx context.Context, view string, f int) (*chart.Drawing, error) {
	if view != "classes" {
		return nil, param.Errorf("view", strconv.Quote(view), "classes for data of more than two classes")
	}
	fr, err := r.Frame(f, 160, 0)
	if err != nil {
		return nil, err
	}
	m := r.Data
	box := Box{fr.XBox[0], fr.XBox[1], fr.XBox[2], fr.XBox[3]}
	var plots []*plot.Plot
	for k, g := range fr.Rules {
		title := [...]string{"one-vs-rest by sign", "one R-unit per class: the largest wins", "one-vs-one votes (LIBSVM)"}[k]
		p := newPlot(title, "x₁", "x₂")
		pal := colors(append([]color.Color{noneTint}, classTints[:len(m.Classes)]...))
		heat := plotter.NewHeatMap(classGrid{g}, pal)
		heat.Min, heat.Max = -1, float64(len(m.Classes)-1)
		heat.Rasterized = true
		p.Add(heat)
		for c := range m.Classes {
			sw, _ := plotter.NewScatter(plotter.XYs{{}})
			sw.GlyphStyle = draw.GlyphStyle{Color: classTints[c], Radius: vg.Points(7), Shape: draw.BoxGlyph{}}
			p.Legend.Add("region of class "+m.Classes[c], sw)
		}
		if g.Rule == "ovr" {
			sw, _ := plotter.NewScatter(plotter.XYs{{}})
			sw.GlyphStyle = draw.GlyphStyle{Color: noneTint, Radius: vg.Points(7), Shape: draw.BoxGlyph{}}
			p.Legend.Add("no class, or several, claim it", sw)
		}
		if g.Rule != "ovo" {
			for c, l := range fr.Lines {
				if err := addLine(p, l[0], l[1], l[2], box, classColors[c], 2.5, g.Rule == "unit", ""); err != nil {
					return nil, err
				}
			}
			if len(fr.Lines) > 0 {
				l, _ := plotter.NewLine(plotter.XYs{{}, {}})
				l.Color, l.Width = inkColor, vg.Points(2.5)
				if g.Rule == "unit" {
					l.Dashes = []vg.Length{vg.Points(8), vg.Points(5)}
				}
				p.Legend.Add("f_c = 0, each class against the rest (its colour)", l)
			}
		}
		if err := addClassPoints(p, m); err != nil {
			return nil, err
		}
		for c, at := range regionCentres(g, len(m.Classes)) {
			if at != nil {
				if err := addText(p, at[0], at[1], m.Classes[c], 20, classColors[c]); err != nil {
					return nil, err
				}
			}
		}
		box.set(p)
		none := ""
		if g.Rule == "ovr" {
			none = fmt.Sprintf(", %d to none or several", g.Score.None)
		}
		p.Title.Text += fmt.Sprintf("\n%d of %d training points right%s", g.Score.Right, len(m.X), none)
		plots = append(plots, p)
	}
	caption := fmt.Sprintf("%s · %d classes (%s) · %s", m.Name, len(m.Classes), strings.Join(m.Classes, ", "), r.OvR[0].setupText())
	caption += fmt.Sprintf("\nstep %d of %d: %d one-vs-rest runs and %d one-vs-one runs, each at its step %d or its end", fr.Frame, fr.Frames-1, len(r.OvR), len(r.OvO), fr.Frame)
	return chart.Plots(620*len(plots), 860, [][]*plot.Plot{plots}, caption, 190), nil
}

// addClassPoints draws the points, each class in its colour and mark.
func addClassPoints(p *plot.Plot, m Multi) error {
	for c, name := range m.Classes {
		var xy plotter.XYs
		for i, x := range m.X {
			if m.Y[i] == c {
				xy = append(xy, plotter.XY{X: x[0], Y: x[1]})
			}
		}
		s, err := plotter.NewScatter(xy)
		if err != nil {
			return err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: classColors[c], Radius: vg.Points(markSize), Shape: classGlyphs[c]}
		p.Add(s)
		p.Legend.Add("class "+name, s)
	}
	return nil
}

// Animate draws view at every frame as a looping GIF, as Run.Animate.
func (r *MultiRun) Animate(ctx context.Context, view string, delay, maxFrames int) (*gif.GIF, error) {
	return animate(ctx, r.Frames(), func(f int) (*chart.Drawing, error) { return r.Picture(ctx, view, f) }, delay, maxFrames)
}

// regionCentres returns where to name each class's region of a rule's
// grid: the centre of its cells, or nil for a class with under 2% of them.
func regionCentres(g RuleGrid, k int) [][]float64 {
	sum := make([][3]float64, k)
	for r := range g.N {
		for c := range g.N {
			if z := g.Z[r*g.N+c]; z >= 0 {
				sum[z][0] += g.Box[0] + (g.Box[1]-g.Box[0])*(float64(c)+0.5)/float64(g.N)
				sum[z][1] += g.Box[2] + (g.Box[3]-g.Box[2])*(float64(r)+0.5)/float64(g.N)
				sum[z][2]++
			}
		}
	}
	out := make([][]float64, k)
	for c, s := range sum {
		if s[2] >= 0.02*float64(g.N*g.N) {
			out[c] = []float64{s[0] / s[2], s[1] / s[2]}
		}
	}
	return out
}
