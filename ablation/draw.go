package ablation

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"mark1/chart"
)

// Draw draws P_g against the fraction of parts failed, right after the
// failure and after retraining, for each part of spec; a dotted line marks
// chance, 1/classes. title names the machine and the data.
func Draw(title string, classes int, spec Spec, points []Point) (*chart.Drawing, error) {
	p := plot.New()
	p.Title.Text = "Graceful degradation: " + title
	p.X.Label.Text = "parts failed (%)"
	p.Y.Label.Text = "P_g, held-out cards recognized (%)"
	p.X.Min, p.X.Max = 0, 100
	p.Y.Min, p.Y.Max = 0, 100
	p.Legend.Top = false
	p.Legend.Left = true
	p.Add(plotter.NewGrid())
	chance, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 100 / float64(classes)}, {X: 100, Y: 100 / float64(classes)}})
	if err != nil {
		return nil, err
	}
	chance.Dashes = []vg.Length{vg.Points(1), vg.Points(3)}
	p.Add(chance)
	p.Legend.Add(fmt.Sprintf("chance (1 in %d)", classes), chance)
	add := func(name string, pick func(Point) *float64, part Part, dashed bool) error {
		var pts plotter.XYs
		for _, q := range points {
			if v := pick(q); q.Part == part && v != nil {
				pts = append(pts, plotter.XY{X: 100 * q.Fraction, Y: 100 * *v})
			}
		}
		if len(pts) == 0 {
			return nil
		}
		l, s, err := plotter.NewLinePoints(pts)
		if err != nil {
			return err
		}
		c := plotutil.Color(int(part))
		l.Color, s.Color = c, c
		l.Width = vg.Points(1.5)
		s.Shape = draw.CircleGlyph{}
		if dashed {
			l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
			s.Shape = draw.BoxGlyph{}
		}
		p.Add(l, s)
		p.Legend.Add(name, l, s)
		return nil
	}
	for _, part := range spec.Parts {
		if err := add(part.String()+" failed", func(q Point) *float64 { return &q.Pg }, part, false); err != nil {
			return nil, err
		}
		if spec.Retrain > 0 {
			name := fmt.Sprintf("%s failed, then %d epochs retrained", part, spec.Retrain)
			if err := add(name, func(q Point) *float64 { return q.Retrained }, part, true); err != nil {
				return nil, err
			}
		}
	}
	return chart.Plots(768, 480, [][]*plot.Plot{{p}}, "", 0), nil
}
