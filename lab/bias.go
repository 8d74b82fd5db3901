package lab

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"image/color"
)

// projector maps points of 3-D space to the picture plane: a view from
// azimuth 35° and elevation 22°, x₃ up and drawn zs times larger than x₁
// and x₂ (so that the plane x₃ = 1 stands clear of the floor).
type projector struct{ zs float64 }

func (pr projector) at(x, y, z float64) plotter.XY {
	const az, el = 35 * math.Pi / 180, 22 * math.Pi / 180
	u := math.Cos(az)*x - math.Sin(az)*y
	depth := math.Sin(az)*x + math.Cos(az)*y
	v := math.Cos(el)*z*pr.zs + math.Sin(el)*depth
	return plotter.XY{X: u, Y: v}
}

// clip3 cuts the convex polygon p (3-D) to a·q ≥ c.
func clip3(p [][3]float64, a [3]float64, c float64) [][3]float64 {
	var out [][3]float64
	side := func(q [3]float64) float64 { return a[0]*q[0] + a[1]*q[1] + a[2]*q[2] - c }
	for i, cur := range p {
		prev := p[(i+len(p)-1)%len(p)]
		sc, sp := side(cur), side(prev)
		if (sc >= 0) != (sp >= 0) {
			t := sp / (sp - sc)
			out = append(out, [3]float64{prev[0] + t*(cur[0]-prev[0]), prev[1] + t*(cur[1]-prev[1]), prev[2] + t*(cur[2]-prev[2])})
		}
		if sc >= 0 {
			out = append(out, cur)
		}
	}
	return out
}

// BiasPlot draws the bias trick (001): the points lifted to (x₁, x₂, 1) on
// the plane x₃ = 1, the separating plane w̃·x̃ = 0 through the origin of
// the 3-D space, and the line where it cuts x₃ = 1, which is the 2-D line
// w·x + b = 0. wt is (w₁, w₂, b).
func BiasPlot(e Example, wt []float64) (*plot.Plot, error) {
	if err := need2D(e, "the bias-trick picture"); err != nil {
		return nil, err
	}
	if len(wt) != 3 {
		return nil, fmt.Errorf("the bias-trick picture needs w̃ = (w₁, w₂, b), got %d weights", len(wt))
	}
	r := XBox(e).X1
	const top = 1.6
	project := projector{zs: r * 0.9}.at
	p := newPlot("the bias trick: (x₁, x₂) → (x₁, x₂, 1)", "", "")
	p.HideAxes()
	p.Add(plotter.NewGrid()) // keeps the aspect honest; hidden axes draw no ticks
	poly := func(pts [][3]float64, fill color.Color, line color.Color, width float64, name string) error {
		if len(pts) < 3 {
			return nil
		}
		var xy plotter.XYs
		for _, q := range pts {
			xy = append(xy, project(q[0], q[1], q[2]))
		}
		pg, err := plotter.NewPolygon(xy)
		if err != nil {
			return err
		}
		pg.Color = fill
		pg.LineStyle = draw.LineStyle{Color: line, Width: vg.Points(width)}
		p.Add(pg)
		if name != "" {
			p.Legend.Add(name, pg)
		}
		return nil
	}
	seg := func(a, b [3]float64, col color.Color, width float64, dashed bool, name string) error {
		return addPath(p, plotter.XYs{project(a[0], a[1], a[2]), project(b[0], b[1], b[2])}, col, width, dashes(dashed, 6, 4), name)
	}
	// The floor x₃ = 0 and the axes.
	if err := poly([][3]float64{{-r, -r, 0}, {r, -r, 0}, {r, r, 0}, {-r, r, 0}}, color.RGBA{0xf2, 0xf2, 0xf2, 0xff}, greyColor, 1, ""); err != nil {
		return nil, err
	}
	for _, a := range [][2][3]float64{{{-r, 0, 0}, {r, 0, 0}}, {{0, -r, 0}, {0, r, 0}}, {{0, 0, 0}, {0, 0, top}}} {
		if err := seg(a[0], a[1], greyColor, 1.5, false, ""); err != nil {
			return nil, err
		}
	}
	for _, l := range []struct {
		q [3]float64
		s string
	}{{[3]float64{r * 1.08, 0, 0}, "x₁"}, {[3]float64{0, r * 1.1, 0}, "x₂"}, {[3]float64{0, 0, top * 1.05}, "x₃"}} {
		xy := project(l.q[0], l.q[1], l.q[2])
		if err := addText(p, xy.X, xy.Y, l.s, 18, greyColor); err != nil {
			return nil, err
		}
	}
	// The separating plane through the origin, cut to the box.
	w := [3]float64{wt[0], wt[1], wt[2]}
	n := math.Sqrt(w[0]*w[0] + w[1]*w[1] + w[2]*w[2])
	if n > 0 {
		// Two directions in the plane.
		var u [3]float64
		if math.Abs(w[2]) < 0.9*n {
			u = cross(w, [3]float64{0, 0, 1})
		} else {
			u = cross(w, [3]float64{1, 0, 0})
		}
		v := cross(w, u)
		nu, nv := norm3(u), norm3(v)
		big := 10 * r
		var sq [][3]float64
		for _, c := range [][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
			sq = append(sq, [3]float64{big * (c[0]*u[0]/nu + c[1]*v[0]/nv), big * (c[0]*u[1]/nu + c[1]*v[1]/nv), big * (c[0]*u[2]/nu + c[1]*v[2]/nv)})
		}
		for _, h := range []struct {
			a [3]float64
			c float64
		}{{[3]float64{1, 0, 0}, -r}, {[3]float64{-1, 0, 0}, -r}, {[3]float64{0, 1, 0}, -r}, {[3]float64{0, -1, 0}, -r}, {[3]float64{0, 0, 1}, 0}, {[3]float64{0, 0, -1}, -top}} {
			sq = clip3(sq, h.a, h.c)
		}
		if err := poly(sq, color.NRGBA{0x54, 0x27, 0x8f, 0x30}, color.RGBA{0x54, 0x27, 0x8f, 0xff}, 1.5, "the plane w₁x₁ + w₂x₂ + b·x₃ = 0, through the origin"); err != nil {
			return nil, err
		}
	}
	// The plane x₃ = 1 with the lifted points.
	if err := poly([][3]float64{{-r, -r, 1}, {r, -r, 1}, {r, r, 1}, {-r, r, 1}}, color.NRGBA{0xc8, 0x8a, 0x00, 0x20}, goldColor, 2, "the plane x₃ = 1"); err != nil {
		return nil, err
	}
	// Where the planes meet: w·x + b = 0 on x₃ = 1.
	if seg2, ok := lineInBox(wt[0], wt[1], wt[2], Box{-r, r, -r, r}); ok {
		if err := seg([3]float64{seg2[0].X, seg2[0].Y, 1}, [3]float64{seg2[1].X, seg2[1].Y, 1}, inkColor, 3.5, false, "where they meet: the line w·x + b = 0"); err != nil {
			return nil, err
		}
	}
	var plus, minus plotter.XYs
	for i, x := range e.X {
		q := project(x[0], x[1], 1)
		if e.Y[i] > 0 {
			plus = append(plus, q)
		} else {
			minus = append(minus, q)
		}
		// A thin stalk down to the floor shows the lift.
		if err := seg([3]float64{x[0], x[1], 0}, [3]float64{x[0], x[1], 1}, color.RGBA{0xbb, 0xbb, 0xbb, 0xff}, 1, true, ""); err != nil {
			return nil, err
		}
	}
	for _, c := range []struct {
		xy    plotter.XYs
		col   color.Color
		shape draw.GlyphDrawer
		name  string
	}{{plus, plusColor, draw.RingGlyph{}, "+ lifted to (x, 1)"}, {minus, minusColor, draw.CrossGlyph{}, "− lifted to (x, 1)"}} {
		if len(c.xy) == 0 {
			continue
		}
		s, err := plotter.NewScatter(c.xy)
		if err != nil {
			return nil, err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: c.col, Radius: vg.Points(markSize), Shape: c.shape}
		p.Add(s)
		p.Legend.Add(c.name, s)
	}
	p.Legend.Add("(w₁, w₂, b) = " + Vec(wt))
	return p, nil
}

func cross(a, b [3]float64) [3]float64 {
	return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

func norm3(a [3]float64) float64 { return math.Sqrt(a[0]*a[0] + a[1]*a[1] + a[2]*a[2]) }
