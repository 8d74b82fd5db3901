package cli

import (
	"errors"
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

	"mark1/chart"
	"mark1/learning/selection"
)

// accGrid is a grid's accuracy over (log2 C, log2 γ) as gonum/plot's
// GridXYZ: columns are C, rows γ in increasing order.
type accGrid struct {
	x, y []float64   // log2 C, log2 γ, increasing
	z    [][]float64 // z[row][col], percent
}

func (g accGrid) Dims() (c, r int)   { return len(g.x), len(g.y) }
func (g accGrid) Z(c, r int) float64 { return g.z[r][c] }
func (g accGrid) X(c int) float64    { return g.x[c] }
func (g accGrid) Y(r int) float64    { return g.y[r] }

// sortedAxis returns the indices of v in increasing order of v.
func sortedAxis(v []float64) []int {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0 && v[idx[j]] < v[idx[j-1]]; j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
	return idx
}

// gridPicture draws the cross-validation accuracy of a grid over (log2 C,
// log2 γ) as grid.py does — contour lines — over a colour map of the
// accuracy with its scale beside, every cell's accuracy written in it and
// the best cell marked. A grid without numeric γ values (a kernel without
// γ, or scale/auto) is drawn as accuracy against log2 C.
func gridPicture(t *selection.Table) (*chart.Drawing, error) {
	p := t.Plan
	lc := make([]float64, len(p.C))
	for i, c := range p.C {
		lc[i] = math.Log2(c)
	}
	var gcol []int // grid columns with a numeric γ
	var lg []float64
	for g, s := range p.Gamma {
		if v, err := strconv.ParseFloat(s, 64); err == nil {
			gcol, lg = append(gcol, g), append(lg, math.Log2(v))
		}
	}
	best := fmt.Sprintf("best: C = %.6g, γ = %s, %.4g%%", p.C[t.BestC], orDash(p.Gamma[t.BestGamma]), t.Accuracy(t.BestC, t.BestGamma))
	title := fmt.Sprintf("%d-fold cross-validation accuracy of %s on %s", p.Folds, p.Learner, p.Data.Path)
	if len(gcol) < 2 || len(gcol) != len(p.Gamma) {
		if len(p.C) < 2 {
			return nil, errors.New("a single value of C and of γ: nothing to draw")
		}
		return accuracyLine(t, lc, title, best)
	}
	if len(p.C) < 2 {
		return nil, errors.New("a single value of C: no contour to draw (give two or more)")
	}
	xi, yi := sortedAxis(lc), sortedAxis(lg)
	g := accGrid{z: make([][]float64, len(yi))}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, c := range xi {
		g.x = append(g.x, lc[c])
	}
	for r, gi := range yi {
		g.y = append(g.y, lg[gi])
		g.z[r] = make([]float64, len(xi))
		for k, c := range xi {
			a := t.Accuracy(c, gcol[gi])
			g.z[r][k] = a
			lo, hi = min(lo, a), max(hi, a)
		}
	}
	if hi == lo {
		lo, hi = lo-0.5, hi+0.5
	}
	// deep blue (low) through green to light yellow (high)
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
	main.Title.Text = title + "\n" + best + " (red circle)"
	if len(levels) > 0 {
		main.Title.Text += "; black lines: contours at " + joinLevels(levels) + " %"
	}
	main.X.Label.Text = "log2 C"
	main.Y.Label.Text = "log2 γ"
	main.Add(heat)
	if len(levels) > 0 {
		cont := plotter.NewContour(g, levels, nil)
		cont.LineStyles = []draw.LineStyle{{Color: color.Black, Width: vg.Points(1)}}
		main.Add(cont)
	}
	var lx, ly []float64
	var lt []string
	for r := range g.y {
		for k := range g.x {
			lx, ly = append(lx, g.x[k]), append(ly, g.y[r])
			lt = append(lt, fmt.Sprintf("%.1f", g.z[r][k]))
		}
	}
	labels, err := plotter.NewLabels(plotter.XYLabels{XYs: xys(lx, ly), Labels: lt})
	if err != nil {
		return nil, err
	}
	k := 0
	for r := range g.y {
		for c := range g.x {
			ts := &labels.TextStyle[k]
			ts.XAlign, ts.YAlign = draw.XCenter, draw.YCenter
			ts.Font.Size = vg.Points(11)
			ts.Color = color.Black
			if (g.z[r][c]-lo)/(hi-lo) < 0.45 { // dark cells
				ts.Color = color.White
			}
			k++
		}
	}
	main.Add(labels)
	mark, err := plotter.NewScatter(xys([]float64{math.Log2(p.C[t.BestC])}, []float64{lg[slicesIndex(gcol, t.BestGamma)]}))
	if err != nil {
		return nil, err
	}
	mark.GlyphStyle = draw.GlyphStyle{Color: color.RGBA{220, 0, 0, 255}, Radius: vg.Points(14), Shape: draw.RingGlyph{}}
	main.Add(mark)
	main.X.Tick.Marker = gridTicks(g.x)
	main.Y.Tick.Marker = gridTicks(g.y)
	main.X.Min, main.X.Max = g.x[0]-halfStep(g.x), g.x[len(g.x)-1]+halfStep(g.x)
	main.Y.Min, main.Y.Max = g.y[0]-halfStep(g.y), g.y[len(g.y)-1]+halfStep(g.y)

	bar := plot.New()
	bar.Title.Text = "accuracy %"
	bar.HideX()
	bar.Add(&plotter.ColorBar{ColorMap: cm, Vertical: true})
	bar.Y.Padding = 0

	const w, h, barW = 980, 720, 130
	return chart.New(w, h, func(pn *chart.Pen) {
		pn.FillRect(0, 0, w, h, color.White)
		c := pn.Canvas()
		main.Draw(draw.Canvas{Canvas: c, Rectangle: vg.Rectangle{Min: vg.Point{X: 8, Y: 8}, Max: vg.Point{X: w - barW, Y: h - 8}}})
		bar.Draw(draw.Canvas{Canvas: c, Rectangle: vg.Rectangle{Min: vg.Point{X: w - barW + 20, Y: 60}, Max: vg.Point{X: w - 16, Y: h - 40}}})
	}), nil
}

// accuracyLine draws the accuracy against log2 C, one line per γ.
func accuracyLine(t *selection.Table, lc []float64, title, best string) (*chart.Drawing, error) {
	p := t.Plan
	pl := plot.New()
	pl.Title.Text = title
	pl.X.Label.Text = "log2 C"
	pl.Y.Label.Text = "accuracy %"
	xi := sortedAxis(lc)
	for g := range p.Gamma {
		var x, y []float64
		for _, c := range xi {
			x, y = append(x, lc[c]), append(y, t.Accuracy(c, g))
		}
		l, pts, err := plotter.NewLinePoints(xys(x, y))
		if err != nil {
			return nil, err
		}
		l.Color = plotutil.Color(g)
		l.Width = vg.Points(2)
		pts.Color, pts.Radius, pts.Shape = l.Color, vg.Points(4), draw.CircleGlyph{}
		pl.Add(l, pts)
		if p.Gamma[g] != "" {
			pl.Legend.Add("γ "+p.Gamma[g], l, pts)
		}
		var lt []string
		for _, a := range y {
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
		pl.X.Tick.Marker = gridTicks(x)
	}
	pl.Title.Text += "\n" + best
	pl.Legend.Top = true
	pl.X.Padding, pl.Y.Padding = vg.Points(20), vg.Points(20)
	return chart.Plots(900, 600, [][]*plot.Plot{{pl}}, "", 0), nil
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

func slicesIndex(s []int, v int) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
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
