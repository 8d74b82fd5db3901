package levels

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"mark1/chart"
)

var palette = []color.RGBA{
	{0x21, 0x66, 0xac, 0xff}, {0xd6, 0x60, 0x4d, 0xff}, {0x4d, 0x92, 0x21, 0xff}, {0x76, 0x2a, 0x83, 0xff},
	{0xbf, 0x81, 0x2d, 0xff}, {0x35, 0x97, 0x8f, 0xff}, {0x99, 0x99, 0x99, 0xff}, {0x00, 0x00, 0x00, 0xff},
}

// Draw draws the report: P_g of the ideal machine and of the mark1 preset
// per task, and the paired P_g difference from the ideal machine as the
// pots' levels, step noise and backlash change, one line per task, with
// the tolerance drawn as a dashed line.
func (r *Report) Draw() (*chart.Drawing, error) {
	top := plot.New()
	top.Title.Text = fmt.Sprintf("P_g by task: ideal pots against the mark1 preset (%d seeds, 95%% CI)", r.Seeds)
	top.Y.Label.Text = "P_g (held-out accuracy)"
	top.X.Label.Text = "task"
	top.Y.Min, top.Y.Max = 0, 1
	var names []string
	for k, sys := range []string{"ideal", "mark1"} {
		pts := make(plotter.XYs, len(r.Rows))
		for i, row := range r.Rows {
			st := row.Ideal
			if sys == "mark1" {
				st = row.Mark1
			}
			pts[i] = plotter.XY{X: float64(i) + 0.15*float64(2*k-1), Y: st.Pg}
			if k == 0 {
				names = append(names, row.Task)
			}
		}
		errs := make(plotter.YErrors, len(r.Rows))
		for i, row := range r.Rows {
			st := row.Ideal
			if sys == "mark1" {
				st = row.Mark1
			}
			errs[i].Low, errs[i].High = st.Pg-st.PgLow, st.PgHigh-st.Pg
		}
		eb, err := plotter.NewYErrorBars(struct {
			plotter.XYer
			plotter.YErrorer
		}{pts, errs})
		if err != nil {
			return nil, err
		}
		eb.Color = palette[k]
		top.Add(eb)
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle.Color = palette[k]
		sc.GlyphStyle.Radius = vg.Points(4)
		sc.GlyphStyle.Shape = draw.CircleGlyph{}
		top.Add(sc)
		top.Legend.Add(map[string]string{"ideal": "ideal pots (the textbook perceptron)", "mark1": "mark1 preset's pots (bounded, 100 steps, noisy, backlash)"}[sys], sc)
	}
	top.NominalX(names...)
	top.X.Min, top.X.Max = -0.5, float64(len(names))-0.5
	top.Legend.Top, top.Legend.Left = false, true
	top.Add(plotter.NewGrid())
	fonts(top)
	top.Legend.TextStyle.Font.Size = 14
	sweep := func(title, xlabel string, get func(Row) []Setting, logX bool) (*plot.Plot, error) {
		p := plot.New()
		p.Title.Text = title
		p.X.Label.Text = xlabel
		p.Y.Label.Text = "P_g − ideal P_g (points, mean over seeds)"
		if logX {
			p.X.Scale = plot.LogScale{}
			p.X.Tick.Marker = plot.LogTicks{Prec: -1}
		}
		for i, row := range r.Rows {
			st := get(row)
			xy := make(plotter.XYs, len(st))
			for j, s := range st {
				xy[j] = plotter.XY{X: s.Value, Y: 100 * s.Diff}
			}
			l, pts, err := plotter.NewLinePoints(xy)
			if err != nil {
				return nil, err
			}
			l.Color, pts.Color = palette[i%len(palette)], palette[i%len(palette)]
			p.Add(l, pts)
			p.Legend.Add(row.Task, l)
		}
		lo, hi := xRange(get(r.Rows[0]))
		band, err := plotter.NewLine(plotter.XYs{{X: lo, Y: -100 * r.Tolerance}, {X: hi, Y: -100 * r.Tolerance}})
		if err != nil {
			return nil, err
		}
		band.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		band.Color = color.RGBA{0x60, 0x60, 0x60, 0xff}
		p.Add(band)
		p.Legend.Add(fmt.Sprintf("tolerance: %.0f point below ideal", 100*r.Tolerance), band)
		p.Add(plotter.NewGrid())
		p.Legend.Top, p.Legend.Left = false, true
		p.Legend.TextStyle.Font.Size = 12
		fonts(p)
		return p, nil
	}
	pl, err := sweep(fmt.Sprintf("readable levels between end stops ±%g (step %g, no noise)", r.Limit, r.Step), "levels", func(row Row) []Setting { return row.Levels }, true)
	if err != nil {
		return nil, err
	}
	pn, err := sweep("relative step noise (unbounded pots)", "std. dev. of a pulse's travel / step", func(row Row) []Setting { return row.Noise }, false)
	if err != nil {
		return nil, err
	}
	pb, err := sweep(fmt.Sprintf("backlash (unbounded pots, step %g)", r.Step), "travel lost on reversing", func(row Row) []Setting { return row.Backlash }, false)
	if err != nil {
		return nil, err
	}
	caption := fmt.Sprintf("error correction, %d epochs, %d cards per class (40%% held out), seeds 1–%d; each machine against its ideal twin on the same cards and wiring", r.Epochs, r.PerClass, r.Seeds)
	return chart.Plots(1800, 1300, [][]*plot.Plot{{top}, {pl, pn, pb}}, caption, 0), nil
}

func xRange(st []Setting) (lo, hi float64) {
	lo, hi = st[0].Value, st[0].Value
	for _, s := range st {
		lo, hi = min(lo, s.Value), max(hi, s.Value)
	}
	return lo, hi
}

// fonts sets the sizes of a plot's texts for a picture 1,800 pixels wide.
func fonts(p *plot.Plot) {
	p.Title.TextStyle.Font.Size = 16
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font.Size = 14
		a.Tick.Label.Font.Size = 12
	}
}
