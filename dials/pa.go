package dials

import (
	"fmt"
	"image/color"
	"mark1/chart"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"mark1/associator"
	"mark1/machine"
)

// PaCurves draws P_a against the fraction of the retina lit: for each model
// the 1958 curve (the finite form on a retina of cells S-units, which is
// what a random plugboard realises), and the cards as points (measured
// fraction lit, measured P_a). The first model is the machine's own and is
// drawn thicker; title names the cards.
func PaCurves(title string, cards []machine.PaCard, cells int, models []associator.Model) (*chart.Drawing, error) {
	if len(models) == 0 || cells < 1 {
		return nil, fmt.Errorf("dials: P_a curves need a model and a retina")
	}
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = 14
	p.X.Label.Text = "fraction of the retina lit (% of S-units on)"
	p.Y.Label.Text = "P_a (% of A-units firing)"
	p.X.Min, p.X.Max = 0, 100
	p.Y.Min = 0
	p.Add(plotter.NewGrid())
	p.Legend.Top = true
	p.Legend.Left = false
	palette := []color.RGBA{
		{0x21, 0x66, 0xac, 0xff}, {0xd6, 0x60, 0x4d, 0xff}, {0x4d, 0x92, 0x21, 0xff},
		{0x76, 0x2a, 0x83, 0xff}, {0xbf, 0x81, 0x2d, 0xff}, {0x35, 0x97, 0x8f, 0xff},
	}
	ymax := 0.0
	for k, m := range models {
		xy := make(plotter.XYs, cells+1)
		for lit := range xy {
			pa := m.PaFinite(cells, lit)
			xy[lit] = plotter.XY{X: 100 * float64(lit) / float64(cells), Y: 100 * pa}
			ymax = max(ymax, 100*pa)
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return nil, fmt.Errorf("dials: P_a curve for %v: %w", m, err)
		}
		l.Color = palette[k%len(palette)]
		l.Width = vg.Points(1.3)
		name := "1958 model, " + m.String()
		if k == 0 {
			l.Width = vg.Points(2.6)
			name += " (this machine)"
		} else {
			l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		}
		p.Add(l)
		p.Legend.Add(name, l)
	}
	if len(cards) > 0 {
		xy := make(plotter.XYs, len(cards))
		for i, c := range cards {
			xy[i] = plotter.XY{X: 100 * c.Fraction(), Y: 100 * c.Pa()}
			ymax = max(ymax, 100*c.Pa())
		}
		sc, err := plotter.NewScatter(xy)
		if err != nil {
			return nil, fmt.Errorf("dials: P_a points: %w", err)
		}
		sc.GlyphStyle.Color = color.RGBA{0, 0, 0, 0xb0}
		sc.GlyphStyle.Radius = vg.Points(2.2)
		sc.GlyphStyle.Shape = draw.CircleGlyph{}
		p.Add(sc)
		p.Legend.Add(fmt.Sprintf("simulated cards (%d), this machine's plugboard", len(cards)), sc)
	}
	// Room above the data for the legend; ticks only up to the data.
	top := min(100, ymax*1.05+1)
	p.Y.Max = top + 0.05*top*float64(len(models)+2)
	p.Y.Tick.Marker = capTicks{top}
	const w, h = 900, 600
	d := chart.New(w, h, func(pn *chart.Pen) {
		dc := draw.Canvas{Canvas: pn.Canvas(), Rectangle: vg.Rectangle{Max: vg.Point{X: w, Y: h}}}
		dc = draw.Crop(dc, 8, -16, 8, -8)
		p.Draw(dc)
	})
	return d, nil
}

// capTicks are the default ticks up to a cap, leaving the band above it to
// the legend.
type capTicks struct{ cap float64 }

// Ticks implements plot.Ticker.
func (c capTicks) Ticks(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	for _, t := range (plot.DefaultTicks{}).Ticks(lo, c.cap) {
		if t.Value <= c.cap+1e-9 {
			out = append(out, t)
		}
	}
	return out
}
