package lab

import (
	"context"
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The pictures of gradient descent on a loss (notes 002), as the lab page
// draws them: x-space with the loss's line, the loss's risk over w-space
// with the path of w, and every loss side by side.

// lossColors are the losses' colours, as the lab page's.
var lossColors = map[string]color.Color{
	"perceptron": inkColor,
	"hinge":      color.RGBA{0xc2, 0x41, 0x0c, 0xff},
	"logistic":   color.RGBA{0x15, 0x80, 0x3d, 0xff},
	"squared":    color.RGBA{0x6d, 0x28, 0xd9, 0xff},
}

// lossXSpace draws the data and the loss's line at w: the separator
// w·x + b = 0 (with its margin band when it separates) for the
// classification losses, the fitted line x₂ = w·x₁ + b and each point's
// residual for the squared loss.
func lossXSpace(e Example, loss string, w []float64, bias bool, title string) (*plot.Plot, error) {
	if loss != "squared" {
		return XSpace(e, XView{W: w, Bias: bias, Mark: -1, Title: title})
	}
	if err := need2D(e, "the x-space picture"); err != nil {
		return nil, err
	}
	box := XBox(e)
	p := newPlot(title, "x₁", "x₂ (the target t)")
	box.set(p)
	for i, x := range e.X {
		fit := w[0]*x[0] + w[1]
		seg, err := plotter.NewLine(plotter.XYs{{X: x[0], Y: x[1]}, {X: x[0], Y: fit}})
		if err != nil {
			return nil, err
		}
		seg.Color, seg.Width = greyColor, vg.Points(1.5)
		p.Add(seg)
		if i == 0 {
			p.Legend.Add("residual t − (w·x₁ + b)", seg)
		}
	}
	if err := addLine(p, w[0], -1, w[1], box, lossColors["squared"], 3, false, fmt.Sprintf("fitted line x₂ = %s·x₁ + %s", pnum(w[0]), pnum(w[1]))); err != nil {
		return nil, err
	}
	if err := addPoints(p, e, true); err != nil {
		return nil, err
	}
	box.set(p) // the residuals of a diverging run reach far outside the data
	return p, nil
}

// pnum writes a number for a picture's legend: as Num, but in 4
// significant digits with an exponent when it is large (a diverging run).
func pnum(v float64) string {
	if math.Abs(v) >= 1e6 {
		return strconv.FormatFloat(v, 'g', 4, 64)
	}
	return Num(v)
}

// gridXYZ shows a Grid to gonum's heat maps and contours.
type gridXYZ struct{ g *Grid }

func (g gridXYZ) Dims() (c, r int)   { return g.g.N, g.g.N }
func (g gridXYZ) Z(c, r int) float64 { return g.g.Z[r*g.g.N+c] }
func (g gridXYZ) X(c int) float64 {
	return g.g.Box[0] + (g.g.Box[1]-g.g.Box[0])*(float64(c)+0.5)/float64(g.g.N)
}
func (g gridXYZ) Y(r int) float64 {
	return g.g.Box[2] + (g.g.Box[3]-g.g.Box[2])*(float64(r)+0.5)/float64(g.g.N)
}

// lossRisk draws the loss's risk R (the mean loss over the samples)
// shaded over w-space with contours, and the path of w on it.
func lossRisk(p *lossProblem, path [][]float64, bias bool, axes [2]string, title string) (*plot.Plot, error) {
	wb := WBox(path)
	b := 0.0
	if bias && p.loss != "squared" {
		b = path[len(path)-1][2]
		title += fmt.Sprintf(" (slice at b = %s)", Num(b))
	}
	g := p.grid([4]float64{wb.X0, wb.X1, wb.Y0, wb.Y1}, b, 160)
	pl := newPlot(title, axes[0], axes[1])
	wb.set(pl)
	heat := plotter.NewHeatMap(gridXYZ{g}, riskPalette(256))
	heat.Rasterized = true
	heat.Min, heat.Max = 0, g.Max
	pl.Add(heat)
	var levels []float64
	step := niceStep(g.Max / 8)
	for l := step; l < g.Max; l += step {
		levels = append(levels, l)
	}
	if len(levels) > 0 {
		c := plotter.NewContour(gridXYZ{g}, levels, greys{})
		c.LineStyles = []draw.LineStyle{{Color: greyColor, Width: vg.Points(1)}}
		pl.Add(c)
		thumb, _ := plotter.NewLine(plotter.XYs{{}, {}})
		thumb.Color, thumb.Width = greyColor, vg.Points(1)
		pl.Legend.Add(fmt.Sprintf("R contours every %s (shade: white 0 → violet %s)", pnum(step), pnum(g.Max)), thumb)
	}
	var xy plotter.XYs
	for _, w := range path {
		xy = append(xy, plotter.XY{X: w[0], Y: w[1]})
	}
	l, pts, err := plotter.NewLinePoints(xy)
	if err != nil {
		return nil, err
	}
	l.Color, l.Width = inkColor, vg.Points(2)
	pts.GlyphStyle = draw.GlyphStyle{Color: inkColor, Radius: vg.Points(3), Shape: draw.CircleGlyph{}}
	pl.Add(l, pts)
	pl.Legend.Add(fmt.Sprintf("path of w (%d steps)", len(path)-1), l, pts)
	cur, _ := plotter.NewScatter(plotter.XYs{xy[len(xy)-1]})
	cur.GlyphStyle = draw.GlyphStyle{Color: goldColor, Radius: vg.Points(8), Shape: draw.CircleGlyph{}}
	pl.Add(cur)
	now := path[len(path)-1]
	text := Vec(now)
	if maxAbs(now) >= 1e6 {
		text = "(" + pnum(now[0]) + ", " + pnum(now[1]) + ", …)"
	}
	pl.Legend.Add("w now = "+text, cur)
	return pl, nil
}

// lossPlots draws a run of gradient descent on a loss at frame f: view
// notes (x-space and the risk), x, risk, or losses (every loss side by
// side at the same step: a row of x-spaces over a row of risks).
func (r *Run) lossPlots(ctx context.Context, view string, f int) ([][]*plot.Plot, error) {
	e, t := r.Example, r.Loss
	o := t.Options
	if view == "losses" {
		panels, err := sideBySide(ctx, e, o, f, 120)
		if err != nil {
			return nil, err
		}
		rows := [][]*plot.Plot{nil, nil}
		for _, lp := range panels {
			p, err := newLossProblem(e, lp.Loss, o.Bias)
			if err != nil {
				return nil, err
			}
			x, err := lossXSpace(e, lp.Loss, lp.W, o.Bias && lp.Loss != "squared", fmt.Sprintf("%s loss: step %d of %d", lp.Loss, lp.Step, lp.Steps))
			if err != nil {
				return nil, err
			}
			w, err := lossRisk(p, lp.Path, o.Bias, lp.WAxes, fmt.Sprintf("%s loss: R = %s", lp.Loss, pnum(lp.Risk)))
			if err != nil {
				return nil, err
			}
			rows[0], rows[1] = append(rows[0], x), append(rows[1], w)
		}
		return rows, nil
	}
	p, err := newLossProblem(e, o.Loss, o.Bias)
	if err != nil {
		return nil, err
	}
	path := r.Path(f)
	w := path[len(path)-1]
	var row []*plot.Plot
	if view == "notes" || view == "x" {
		title := "x-space: the " + o.Loss + " loss's line"
		if o.Loss == "squared" {
			title = "x-space: linear regression, the squared loss"
		}
		x, err := lossXSpace(e, o.Loss, w, o.Bias && o.Loss != "squared", title)
		if err != nil {
			return nil, err
		}
		row = append(row, x)
	}
	if view == "notes" || view == "risk" {
		rp, err := lossRisk(p, path, o.Bias, waxes(o.Loss), fmt.Sprintf("R(w), the mean %s loss", o.Loss))
		if err != nil {
			return nil, err
		}
		row = append(row, rp)
	}
	return [][]*plot.Plot{row}, nil
}
