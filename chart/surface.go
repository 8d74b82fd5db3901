package chart

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// A Surface is a quantity measured on a grid of two increasing axes, to
// draw as a colour map with contour lines (a grid search's accuracy over
// log2 C and log2 γ, as LIBSVM's grid.py draws it).
type Surface struct {
	Title          string
	XLabel, YLabel string
	ZLabel         string // the colour scale's title
	X, Y           []float64
	Z              [][]float64 // Z[r][c] at (X[c], Y[r])
	// Mark rings one point (the best cell), named by MarkName if not "".
	Mark     [2]float64
	MarkName string
}

// grid is a Surface as gonum/plot's GridXYZ.
type grid struct{ s Surface }

func (g grid) Dims() (c, r int)   { return len(g.s.X), len(g.s.Y) }
func (g grid) Z(c, r int) float64 { return g.s.Z[r][c] }
func (g grid) X(c int) float64    { return g.s.X[c] }
func (g grid) Y(r int) float64    { return g.s.Y[r] }

// DrawSurface draws s over a colour map of its values, deep blue (low)
// through green to light yellow (high), with the scale beside, round
// contour levels as black lines, every cell's value written in it, and
// the Mark ringed in red.
func DrawSurface(s Surface) (*Drawing, error) {
	g := grid{s}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, row := range s.Z {
		for _, a := range row {
			lo, hi = min(lo, a), max(hi, a)
		}
	}
	if hi == lo {
		lo, hi = lo-0.5, hi+0.5
	}
	cm, err := moreland.NewLuminance([]color.Color{color.RGBA{8, 29, 88, 255}, color.RGBA{29, 145, 192, 255}, color.RGBA{127, 205, 187, 255}, color.RGBA{255, 255, 217, 255}})
	if err != nil {
		return nil, err
	}
	cm.SetMin(lo)
	cm.SetMax(hi)
	heat := plotter.NewHeatMap(g, cm.Palette(256))
	heat.Min, heat.Max = lo, hi

	main := plot.New()
	levels := niceLevels(lo, hi)
	main.Title.Text = s.Title + " (red circle)"
	if s.MarkName != "" {
		main.Title.Text = s.Title + " (red circle: " + s.MarkName + ")"
	}
	if len(levels) > 0 {
		main.Title.Text += "; black lines: contours at " + joinLevels(levels) + " %"
	}
	main.X.Label.Text, main.Y.Label.Text = s.XLabel, s.YLabel
	main.Add(heat)
	if len(levels) > 0 {
		cont := plotter.NewContour(g, levels, nil)
		cont.LineStyles = []draw.LineStyle{{Color: color.Black, Width: vg.Points(1)}}
		main.Add(cont)
	}
	var lx, ly []float64
	var lt []string
	for r := range s.Y {
		for k := range s.X {
			lx, ly = append(lx, s.X[k]), append(ly, s.Y[r])
			lt = append(lt, fmt.Sprintf("%.1f", s.Z[r][k]))
		}
	}
	labels, err := plotter.NewLabels(plotter.XYLabels{XYs: xys(lx, ly), Labels: lt})
	if err != nil {
		return nil, err
	}
	k := 0
	for r := range s.Y {
		for c := range s.X {
			ts := &labels.TextStyle[k]
			ts.XAlign, ts.YAlign = draw.XCenter, draw.YCenter
			ts.Font.Size = vg.Points(11)
			ts.Color = color.Black
			if (s.Z[r][c]-lo)/(hi-lo) < 0.45 { // dark cells
				ts.Color = color.White
			}
			k++
		}
	}
	main.Add(labels)
	mark, err := plotter.NewScatter(xys([]float64{s.Mark[0]}, []float64{s.Mark[1]}))
	if err != nil {
		return nil, err
	}
	mark.GlyphStyle = draw.GlyphStyle{Color: color.RGBA{220, 0, 0, 255}, Radius: vg.Points(14), Shape: draw.RingGlyph{}}
	main.Add(mark)
	main.X.Tick.Marker = gridTicks(s.X)
	main.Y.Tick.Marker = gridTicks(s.Y)
	main.X.Min, main.X.Max = s.X[0]-halfStep(s.X), s.X[len(s.X)-1]+halfStep(s.X)
	main.Y.Min, main.Y.Max = s.Y[0]-halfStep(s.Y), s.Y[len(s.Y)-1]+halfStep(s.Y)

	bar := plot.New()
	bar.Title.Text = s.ZLabel
	bar.HideX()
	bar.Add(&plotter.ColorBar{ColorMap: cm, Vertical: true})
	bar.Y.Padding = 0

	const w, h, barW = 980, 720, 130
	return New(w, h, func(pn *Pen) {
		pn.FillRect(0, 0, w, h, color.White)
		c := pn.Canvas()
		main.Draw(draw.Canvas{Canvas: c, Rectangle: vg.Rectangle{Min: vg.Point{X: 8, Y: 8}, Max: vg.Point{X: w - barW, Y: h - 8}}})
		bar.Draw(draw.Canvas{Canvas: c, Rectangle: vg.Rectangle{Min: vg.Point{X: w - barW + 20, Y: 60}, Max: vg.Point{X: w - 16, Y: h - 40}}})
	}), nil
}

// DrawLines draws lines of values against the increasing x, one line a
// name ("" for no legend entry), each point's value written above it (of
// more than 20 points, every k-th counted back from the last, so that at
// most 20 are written).
func DrawLines(title, xLabel, yLabel string, x []float64, names []string, lines [][]float64) (*Drawing, error) {
	pl := plot.New()
	pl.Title.Text = title
	pl.X.Label.Text, pl.Y.Label.Text = xLabel, yLabel
	for k, y := range lines {
		l, pts, err := plotter.NewLinePoints(xys(x, y))
		if err != nil {
			return nil, err
		}
		l.Color = plotutil.Color(k)
		l.Width = vg.Points(2)
		pts.Color, pts.Radius, pts.Shape = l.Color, vg.Points(4), draw.CircleGlyph{}
		pl.Add(l, pts)
		if names[k] != "" {
			pl.Legend.Add(names[k], l, pts)
		}
		var lt []string
		step := (len(y) + 19) / 20
		for i, a := range y {
			if (len(y)-1-i)%step != 0 { // the last point always written
				lt = append(lt, "")
				continue
			}
			lt = append(lt, fmt.Sprintf("%.1f", a))
		}
		labels, err := plotter.NewLabels(plotter.XYLabels{XYs: xys(x, y), Labels: lt})
		if err != nil {
			return nil, err
		}
		for i := range labels.TextStyle {
			labels.TextStyle[i].XAlign, labels.TextStyle[i].YAlign = draw.XCenter, 0.6
		}
		pl.Add(labels)
	}
	pl.X.Tick.Marker = gridTicks(x)
	pl.Legend.Top = true
	pl.X.Padding, pl.Y.Padding = vg.Points(20), vg.Points(20)
	return Plots(900, 600, [][]*plot.Plot{{pl}}, "", 0), nil
}

// gridTicks marks every value of a grid axis (at most about 16 labelled).
func gridTicks(v []float64) plot.ConstantTicks {
	step := (len(v) + 15) / 16
	var t []plot.Tick
	for i, x := range v {
		label := ""
		if i%step == 0 {
			label = strconv.FormatFloat(x, 'g', 4, 64)
		}
		t = append(t, plot.Tick{Value: x, Label: label})
	}
	return plot.ConstantTicks(t)
}

func xys(x, y []float64) plotter.XYs {
	out := make(plotter.XYs, len(x))
	for i := range x {
		out[i].X, out[i].Y = x[i], y[i]
	}
	return out
}

// halfStep is half the smallest step of an increasing axis.
func halfStep(v []float64) float64 {
	s := math.Inf(1)
	for i := 1; i < len(v); i++ {
		s = min(s, v[i]-v[i-1])
	}
	return s / 2
}

// niceLevels picks up to 5 round contour levels strictly inside (lo, hi).
func niceLevels(lo, hi float64) []float64 {
	span := hi - lo
	step := math.Pow(10, math.Floor(math.Log10(span/5)))
	for _, m := range []float64{1, 2, 5, 10} {
		if span/(step*m) <= 5 {
			step *= m
			break
		}
	}
	var out []float64
	for v := math.Ceil(lo/step) * step; v < hi; v += step {
		if v > lo {
			out = append(out, v)
		}
	}
	return out
}

func joinLevels(v []float64) string {
	s := ""
	for i, x := range v {
		if i > 0 {
			s += ", "
		}
		s += strconv.FormatFloat(x, 'g', 4, 64)
	}
	return s
}
