package curves

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"mark1/chart"
)

// Draw draws the figure: model curves as lines (P_r dashed and P_g solid,
// as RT58 draws them), measured points with their 95% intervals, one colour
// per number of A-units, and the parameters used under the plot.
func (f *Figure) Draw() (*chart.Drawing, error) {
	p := plot.New()
	p.Title.Text = f.Title
	p.Title.TextStyle.Font.Size = 20
	p.X.Label.Text = f.XLabel
	p.Y.Label.Text = "probability of a correct choice (pairwise)"
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font.Size = 17
		a.Tick.Label.Font.Size = 15
	}
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Add(plotter.NewGrid())
	p.Legend.Top = false
	p.Legend.Left = false
	p.Legend.TextStyle.Font.Size = 16
	palette := []color.RGBA{{0x21, 0x66, 0xac, 0xff}, {0xd6, 0x60, 0x4d, 0xff}, {0x4d, 0x92, 0x21, 0xff}, {0x76, 0x2a, 0x83, 0xff}, {0xbf, 0x81, 0x2d, 0xff}}
	colours := map[string]color.RGBA{}
	// Points of different series at one n_sr are set a little apart.
	offset := map[string]float64{}
	colour := func(cv Curve) color.RGBA {
		key := cv.series()
		if key == "size-biased" {
			return color.RGBA{0x70, 0x70, 0x70, 0xff}
		}
		if c, ok := colours[key]; ok {
			return c
		}
		c := palette[len(colours)%len(palette)]
		colours[key] = c
		return c
	}
	xmin, xmax := 0.0, 0.0
	for _, cv := range f.Curves {
		if len(cv.X) > 0 {
			if xmin == 0 || cv.X[0] < xmin {
				xmin = cv.X[0]
			}
			xmax = max(xmax, cv.X[len(cv.X)-1])
		}
	}
	p.X.Min, p.X.Max = xmin, xmax*1.2
	// The y axis from 0.4 (chance is 0.5), lower if a curve goes lower:
	// PR58's P(N_ar > 0) factor can take P below chance.
	ymin := 0.4
	for _, cv := range f.Curves {
		for _, y := range cv.Y {
			ymin = min(ymin, math.Floor(y*10)/10)
		}
	}
	// Model curves first, points on top.
	for _, cv := range f.Curves {
		if cv.Kind != "model" {
			continue
		}
		xy := make(plotter.XYs, len(cv.X))
		for i := range cv.X {
			xy[i] = plotter.XY{X: cv.X[i], Y: cv.Y[i]}
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return nil, fmt.Errorf("curves: %s: %w", cv.Name, err)
		}
		l.Color = colour(cv)
		l.Width = vg.Points(1.8)
		if cv.Quantity == "p_r" && (f.Name == "rt58-5" || f.Name == "pr58-11" || f.Name == "cards") {
			l.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
		}
		if strings.Contains(cv.Name, "this machine") || strings.Contains(cv.Name, "μ") {
			l.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
		}
		p.Add(l)
		p.Legend.Add(cv.Name, l)
	}
	for _, cv := range f.Curves {
		if cv.Kind != "measured" {
			continue
		}
		pts := make(plotter.XYs, len(cv.X))
		errs := make(plotter.YErrors, len(cv.X))
		if _, ok := offset[cv.series()]; !ok {
			offset[cv.series()] = math.Pow(1.07, float64(len(offset)))
		}
		for i := range cv.X {
			x := cv.X[i]
			if f.XValue == "n_sr" {
				x *= offset[cv.series()]
			}
			pts[i] = plotter.XY{X: x, Y: cv.Y[i]}
			errs[i].Low, errs[i].High = cv.Y[i]-max(cv.CILow[i], 0), min(cv.CIHigh[i], 1)-cv.Y[i]
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, fmt.Errorf("curves: %s: %w", cv.Name, err)
		}
		sc.GlyphStyle.Color = colour(cv)
		sc.GlyphStyle.Radius = vg.Points(3.2)
		sc.GlyphStyle.Shape = draw.CircleGlyph{}
		if cv.Quantity == "p_r" {
			sc.GlyphStyle.Shape = draw.BoxGlyph{}
		}
		eb, err := plotter.NewYErrorBars(struct {
			plotter.XYer
			plotter.YErrorer
		}{pts, errs})
		if err != nil {
			return nil, fmt.Errorf("curves: %s: %w", cv.Name, err)
		}
		eb.Color = colour(cv)
		eb.Width = vg.Points(1.2)
		p.Add(eb, sc)
		p.Legend.Add(fmt.Sprintf("%s (mean, 95%% CI, %d seeds)", cv.Name, cv.Seeds), sc)
	}
	p.Y.Min, p.Y.Max = ymin, 1.0 // after Add, which widens the range to the data
	var ticks []plot.Tick
	for i := 0; i <= 10; i++ {
		if v := float64(i) / 10; v >= ymin-1e-9 {
			ticks = append(ticks, plot.Tick{Value: v, Label: fmt.Sprintf("%.1f", v)})
		}
	}
	p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	var caption []string
	for _, prm := range f.Parameters {
		caption = append(caption, fmt.Sprintf("%s = %s: %s", prm.Name, prm.Text(), prm.Why))
	}
	if wp := f.WorkedPoint; wp != nil {
		caption = append(caption, fmt.Sprintf("worked point (100 per set, n_sr = 100): paper P_r %.2f, P_g %.2f, limit %.3f; machine P_r %.3f [%.3f, %.3f], P_g %.3f [%.3f, %.3f]",
			wp.Paper.Pr, wp.Paper.Pg, wp.Paper.Limit, wp.Measured.Pr.Mean, wp.Measured.Pr.CILow, wp.Measured.Pr.CIHigh,
			wp.Measured.Pg.Mean, wp.Measured.Pg.CILow, wp.Measured.Pg.CIHigh))
	}
	return chart.Plots(1500, 1050+26*len(caption), [][]*plot.Plot{{p}}, strings.Join(caption, "\n"), 0), nil
}

// series is the key a curve's colour is chosen by.
func (cv Curve) series() string {
	if cv.Series != "" {
		return cv.Series
	}
	return fmt.Sprint(cv.Ne)
}
