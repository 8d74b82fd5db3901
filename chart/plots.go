package chart

import (
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Plots returns a drawing of w by h pixels holding the plots in a grid
// (rows of equal length, axes aligned within a row), with caption, if not
// empty, under them (a line for each line of caption). With legendH > 0 each plot's legend is drawn
// in a band of legendH pixels under it instead of over its data (Plots
// moves the entries out of the plots' legends). Other packages draw their
// charts with gonum/plot and render them here, as PNG, SVG or GIF frames.
func Plots(w, h int, rows [][]*plot.Plot, caption string, legendH int) *Drawing {
	if len(rows) == 0 || len(rows[0]) == 0 {
		panic("chart: Plots needs at least one plot")
	}
	legends := make([][]plot.Legend, len(rows))
	if legendH > 0 {
		for i, r := range rows {
			legends[i] = make([]plot.Legend, len(r))
			for j, p := range r {
				if p != nil {
					legends[i][j] = p.Legend
					fresh := plot.NewLegend()
					fresh.TextStyle = p.Legend.TextStyle
					p.Legend = fresh
				}
			}
		}
	}
	d := &Drawing{w: w, h: h}
	d.paint = func(pn *Pen) {
		bottom := 0.0
		if caption != "" {
			lines := strings.Split(caption, "\n")
			bottom = 8 + 26*float64(len(lines))
			for i, l := range lines {
				pn.Text(float64(w)/2, float64(h)-bottom+26*float64(i+1), 18, Center, false, ink, l)
			}
		}
		rowH := (float64(h) - bottom) / float64(len(rows))
		for i, r := range rows {
			top := float64(h) - float64(i)*rowH
			lo := top - rowH
			if legendH > 0 {
				lo += float64(legendH)
			}
			dc := draw.Canvas{Canvas: pn.Canvas(), Rectangle: vg.Rectangle{Min: vg.Point{Y: vg.Length(lo)}, Max: vg.Point{X: vg.Length(w), Y: vg.Length(top)}}}
			tiles := draw.Tiles{Rows: 1, Cols: len(r), PadTop: 10, PadBottom: 6, PadLeft: 10, PadRight: 16, PadX: 28}
			canvases := plot.Align([][]*plot.Plot{r}, tiles, dc)
			for j, p := range r {
				if p == nil {
					continue
				}
				p.Draw(canvases[0][j])
				if legendH > 0 {
					c := canvases[0][j]
					lc := draw.Canvas{Canvas: pn.Canvas(), Rectangle: vg.Rectangle{
						Min: vg.Point{X: c.Min.X, Y: vg.Length(lo - float64(legendH))},
						Max: vg.Point{X: c.Max.X, Y: vg.Length(lo - 4)},
					}}
					legends[i][j].Draw(lc)
				}
			}
		}
	}
	return d
}
