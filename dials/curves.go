package dials

import (
	"errors"
	"fmt"
	"image/color"
	"mark1/chart"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"mark1/machine"
)

// ErrNoHistory is returned by Curves for a machine that was never trained.
var ErrNoHistory = errors.New("the machine has no training history")

// Curves plots m's learning curves from m.History: the mistakes made in
// each epoch (presentations that needed a correction) above, and P_r (on
// the training cards) and P_g (on held-out cards, when measured) below.
func Curves(m *machine.Machine) (*chart.Drawing, error) {
	h := m.History
	if len(h) == 0 {
		return nil, ErrNoHistory
	}
	mistakes := make(plotter.XYs, len(h))
	pr := make(plotter.XYs, len(h))
	var pg plotter.XYs
	for i, e := range h {
		mistakes[i] = plotter.XY{X: float64(e.Epoch), Y: float64(e.Mistakes)}
		pr[i] = plotter.XY{X: float64(e.Epoch), Y: 100 * e.Pr}
		if e.Pg != nil {
			pg = append(pg, plotter.XY{X: float64(e.Epoch), Y: 100 * *e.Pg})
		}
	}
	top := plot.New()
	title := "Learning curves"
	if m.Recipe != nil {
		title += ": " + m.Recipe.Data.String()
	}
	top.Title.Text = title
	top.Title.TextStyle.Font.Size = 15
	top.Y.Label.Text = "mistakes per epoch"
	top.Y.Min = 0
	top.Add(plotter.NewGrid())
	if err := addLine(top, mistakes, color.RGBA{0xd0, 0x1c, 0x1c, 0xff}, ""); err != nil {
		return nil, err
	}
	bottom := plot.New()
	bottom.X.Label.Text = "epoch"
	bottom.Y.Label.Text = "per cent right"
	bottom.Y.Min, bottom.Y.Max = 0, 100
	bottom.Add(plotter.NewGrid())
	bottom.Legend.Top = false
	bottom.Legend.Left = false
	if err := addLine(bottom, pr, color.RGBA{0x21, 0x66, 0xac, 0xff}, "P_r (training cards)"); err != nil {
		return nil, err
	}
	if len(pg) > 0 {
		if err := addLine(bottom, pg, color.RGBA{0x1b, 0x9e, 0x3a, 0xff}, "P_g (cards never seen)"); err != nil {
			return nil, err
		}
	}
	lo, hi := float64(h[0].Epoch), float64(h[len(h)-1].Epoch)
	if hi == lo {
		lo, hi = lo-0.5, hi+0.5
	}
	for _, p := range []*plot.Plot{top, bottom} {
		p.X.Min, p.X.Max = lo, hi
		p.X.Tick.Marker = integerTicks{}
	}
	const w, ht = 800, 600
	d := chart.New(w, ht, func(pn *chart.Pen) {
		dc := draw.Canvas{Canvas: pn.Canvas(), Rectangle: vg.Rectangle{Max: vg.Point{X: w, Y: ht}}}
		tiles := draw.Tiles{Rows: 2, Cols: 1, PadTop: 8, PadBottom: 8, PadLeft: 8, PadRight: 16, PadY: 12}
		plots := [][]*plot.Plot{{top}, {bottom}}
		canvases := plot.Align(plots, tiles, dc)
		top.Draw(canvases[0][0])
		bottom.Draw(canvases[1][0])
		last := h[len(h)-1]
		s := fmt.Sprintf("after epoch %d: %d mistakes, P_r %.1f%%", last.Epoch, last.Mistakes, 100*last.Pr)
		if last.Pg != nil {
			s += fmt.Sprintf(", P_g %.1f%%", 100**last.Pg)
		}
		pn.Text(float64(w)-24, 44, 11, chart.Right, false, faint, s)
	})
	return d, nil
}

func addLine(p *plot.Plot, xy plotter.XYs, c color.Color, name string) error {
	l, pts, err := plotter.NewLinePoints(xy)
	if err != nil {
		return fmt.Errorf("dials: plotting learning curves: %w", err)
	}
	l.Color, l.Width = c, vg.Points(1.8)
	pts.Color, pts.Radius = c, vg.Points(2.5)
	p.Add(l, pts)
	if name != "" {
		p.Legend.Add(name, l, pts)
	}
	return nil
}

// integerTicks puts ticks on whole epochs only: labelled ticks every 1,
// 2, 5, 10, 20, … epochs, at most eight of them, and unlabelled ones on
// every epoch between when there are not too many.
type integerTicks struct{}

// Ticks implements plot.Ticker.
func (integerTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi >= lo) || math.IsInf(hi-lo, 0) {
		return nil
	}
	step := 1.0
	for k := 0; (hi-lo)/step > 8; k++ {
		step = []float64{1, 2, 5}[k%3] * math.Pow(10, float64(k/3))
	}
	var out []plot.Tick
	for v := math.Ceil(lo); v <= hi; v++ {
		t := plot.Tick{Value: v}
		if math.Mod(v, step) == 0 {
			t.Label = strconv.FormatFloat(v, 'f', 0, 64)
		} else if hi-lo > 80 {
			continue // too many epochs for a tick on each
		}
		out = append(out, t)
	}
	return out
}
