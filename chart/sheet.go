package chart

import (
	"image/color"
	"math"
)

// A Panel is one small plot of a sheet: labelled points in the plane and,
// if Line is not nil, the line Line[0]·x + Line[1]·y + Line[2] = 0 that
// separates them.
type Panel struct {
	Title    string
	Points   [][2]float64
	Positive []bool // the label of each point: true +1, false −1
	Line     []float64
}

// Sheet colours: +1 points filled blue, −1 points open red, the line grey.
var (
	sheetPlus  = color.RGBA{0x1f, 0x5f, 0xbf, 0xff}
	sheetMinus = color.RGBA{0xc8, 0x32, 0x28, 0xff}
	sheetLine  = color.RGBA{0x55, 0x55, 0x55, 0xff}
	sheetFrame = color.RGBA{0xbb, 0xbb, 0xbb, 0xff}
)

// PanelLike is any struct of Panel's fields, in its order: a package that
// must not import chart describes its panels in a type of its own, and
// DrawSheet takes them as they are.
type PanelLike interface {
	~struct {
		Title    string
		Points   [][2]float64
		Positive []bool
		Line     []float64
	}
}

// DrawSheet draws panels in a grid of cols columns under a title, with a
// legend for the points and the line, every panel on the same axes (the
// points' range, with a margin).
func DrawSheet[P PanelLike](title string, cols int, ps []P) *Drawing {
	panels := make([]Panel, len(ps))
	for i, p := range ps {
		panels[i] = Panel(p)
	}
	const cell, head, foot, pad = 180.0, 56.0, 36.0, 12.0
	rows := (len(panels) + cols - 1) / cols
	w, h := int(float64(cols)*cell+2*pad), int(float64(rows)*cell+head+foot)
	lo, hi := [2]float64{math.Inf(1), math.Inf(1)}, [2]float64{math.Inf(-1), math.Inf(-1)}
	for _, p := range panels {
		for _, q := range p.Points {
			for k := range 2 {
				lo[k], hi[k] = min(lo[k], q[k]), max(hi[k], q[k])
			}
		}
	}
	span := max(hi[0]-lo[0], hi[1]-lo[1], 1e-9) * 1.5
	mid := [2]float64{(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2}
	return New(w, h, func(pn *Pen) {
		pn.Text(float64(w)/2, 26, 16, Center, true, ink, title)
		lx := float64(w)/2 - 190
		pn.FillCircle(lx, 44, 5, sheetPlus)
		pn.Text(lx+10, 48, 12, Left, false, ink, "+1")
		pn.StrokeCircle(lx+45, 44, 5, 2, sheetMinus)
		pn.Text(lx+55, 48, 12, Left, false, ink, "−1")
		pn.Line(lx+90, 44, lx+115, 44, 1.5, sheetLine)
		pn.Text(lx+120, 48, 12, Left, false, ink, "a separating line (linear programming)")
		for i, p := range panels {
			x0, y0 := pad+float64(i%cols)*cell, head+float64(i/cols)*cell
			inner := cell - 2*pad
			// to maps the plane to the panel (y up).
			to := func(q [2]float64) (float64, float64) {
				return x0 + pad + (q[0]-mid[0]+span/2)/span*inner, y0 + pad + (mid[1]-q[1]+span/2)/span*inner
			}
			pn.StrokeRect(x0+pad, y0+pad, inner, inner, 1, sheetFrame)
			pn.Text(x0+cell/2, y0+cell-2, 12, Center, false, ink, p.Title)
			if l := p.Line; l != nil {
				drawClipped(pn, l, mid, span, to)
			}
			for k, q := range p.Points {
				x, y := to(q)
				if p.Positive[k] {
					pn.FillCircle(x, y, 6, sheetPlus)
				} else {
					pn.StrokeCircle(x, y, 6, 2.5, sheetMinus)
				}
			}
		}
		pn.Text(float64(w)/2, float64(h)-12, 12, Center, false, ink, "each panel: one labeling of the same points; bit i from the right is the label of point i (1: +1)")
	})
}

// drawClipped draws the part of the line l[0]x + l[1]y + l[2] = 0 inside
// the square of side span about mid.
func drawClipped(pn *Pen, l []float64, mid [2]float64, span float64, to func([2]float64) (float64, float64)) {
	a, b, c := l[0], l[1], l[2]
	x0, x1, y0, y1 := mid[0]-span/2, mid[0]+span/2, mid[1]-span/2, mid[1]+span/2
	var pts [][2]float64
	if b != 0 {
		for _, x := range []float64{x0, x1} {
			if y := -(a*x + c) / b; y >= y0 && y <= y1 {
				pts = append(pts, [2]float64{x, y})
			}
		}
	}
	if a != 0 {
		for _, y := range []float64{y0, y1} {
			if x := -(b*y + c) / a; x >= x0 && x <= x1 {
				pts = append(pts, [2]float64{x, y})
			}
		}
	}
	if len(pts) < 2 {
		return
	}
	xa, ya := to(pts[0])
	xb, yb := to(pts[len(pts)-1])
	pn.Line(xa, ya, xb, yb, 1.5, sheetLine)
}
