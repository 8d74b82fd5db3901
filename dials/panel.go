package dials

import (
	"fmt"
	"math"
	"time"

	"mark1/chart"
	"mark1/internal/base/param"
	"mark1/machine"
	"mark1/response"
)

// PanelOptions adjust the dial panel. The zero value means the defaults.
type PanelOptions struct {
	// Width and Height bound the drawing in pixels; 0 means 1400 by 1100,
	// or 2048 by 1500 for more than 1,024 pots.
	// The dials are made as large as fit; when even the smallest legible
	// dial (12 pixels) does not fit, the drawing grows taller. Each is at
	// most MaxPanelSize (Validate); Panel draws a larger one at that size.
	Width, Height int
	// Title replaces the heading; empty means one made from the machine.
	Title string
	// Subtitle replaces the line under the heading (the counts of
	// saturated and stuck pots and the motor work).
	Subtitle string
	// ColorScale is the value shown in full colour on the dial faces; 0
	// means the largest |value| on the panel.
	ColorScale float64
}

// MaxPanelSize bounds PanelOptions.Width and Height, in pixels.
const MaxPanelSize = 20000

// Validate checks o's settings in its own words, returning a
// *param.FieldError naming the first out of range ("width" or "height").
// Animate calls it (as AnimateOptions.Validate); Panel, which returns no
// error, draws a size over MaxPanelSize at MaxPanelSize.
func (o PanelOptions) Validate() error {
	for _, f := range []struct {
		name string
		v    int
	}{{"width", o.Width}, {"height", o.Height}} {
		if f.v < 0 || f.v > MaxPanelSize {
			return param.Errorf(f.name, f.v, "a whole number of pixels in [0, %d] (0 for the default)", MaxPanelSize)
		}
	}
	return nil
}

func (o PanelOptions) size(pots int) (w, h int) {
	w, h = min(o.Width, MaxPanelSize), min(o.Height, MaxPanelSize)
	big := pots > 1024
	if w <= 0 {
		w = 1400
		if big {
			w = 2048
		}
	}
	if h <= 0 {
		h = 1100
		if big {
			h = 1500
		}
	}
	return w, h
}

// Panel layout constants, in pixels.
const (
	margin      = 16.0
	headerH     = 52.0 // title and subtitle
	groupTitleH = 22.0
	groupGap    = 18.0
	legendH     = 64.0
	minCell     = 12.0
	maxCell     = 56.0
)

// Panel draws every pot of m as a dial face: a needle over a 270° scale
// between two red end stops, the face tinted by the value (blue negative,
// red positive). Dials are grouped by the R-unit they feed (its
// source-set, in the 1958 layout), eight or more to a row like the A-unit
// cards of the Mark I, each row labelled with its first A-unit. A pot
// resting at an end stop has a red ring and needle; a stuck pot a grey face
// crossed out; a bias pot a gold frame. Without end stops the needles are
// scaled to the largest value.
func Panel(m *machine.Machine, opt PanelOptions) *chart.Drawing {
	pots := Pots(m)
	return panelOf(m, pots, opt)
}

// panelOf draws the panel for m with its pots in the given state.
func panelOf(m *machine.Machine, pots []Pot, opt PanelOptions) *chart.Drawing {
	used := m.Layer.Used()
	gs := groups(pots, used)
	maxW, maxH := opt.size(len(pots))
	lay := layoutPanel(gs, float64(maxW), float64(maxH))
	lim := m.Bank.Config().Limit
	scale := lim
	if scale == 0 {
		for _, p := range pots {
			scale = max(scale, math.Abs(p.Position))
		}
		if scale == 0 {
			scale = 1
		}
	}
	// The face colour is scaled to the largest value, so that small values
	// early in training still show; the needle shows the true position.
	tintScale := opt.ColorScale
	for _, p := range pots {
		if opt.ColorScale > 0 {
			break
		}
		tintScale = max(tintScale, math.Abs(p.Value))
	}
	if tintScale == 0 {
		tintScale = scale
	}
	title := opt.Title
	if title == "" {
		title = fmt.Sprintf("Mark I potentiometer panel: %d pots, %q preset, %s", len(pots), m.Config.Preset, layoutName(m))
	}
	sub := opt.Subtitle
	if sub == "" {
		sub = subtitle(m, pots)
	}
	d := chart.New(int(math.Ceil(lay.width)), int(math.Ceil(lay.height)), func(p *chart.Pen) {
		p.Text(margin, margin+16, 17, chart.Left, true, ink, title)
		p.Text(margin, margin+36, 12.5, chart.Left, false, faint, sub)
		for r, g := range gs {
			gx, gy := lay.groupOrigin(r)
			p.Text(gx, gy+15, 13, chart.Left, true, ink, groupTitle(m, r, len(g)))
			y0 := gy + groupTitleH
			for i, pot := range g {
				row, col := i/lay.cols, i%lay.cols
				x := gx + lay.labelW + float64(col)*lay.cell
				y := y0 + float64(row)*lay.cell
				if col == 0 && !pot.Bias() {
					p.Text(x-4, y+lay.cell/2+lay.labelSize*0.35, lay.labelSize, chart.Right, false, faint, fmt.Sprintf("A%d", pot.AUnit))
				}
				drawDial(p, x+lay.cell/2, y+lay.cell/2, lay.cell, pot, scale, tintScale, lim > 0)
			}
		}
		drawLegend(p, margin, lay.height-legendH+8, lim, scale, tintScale)
	})
	return d
}

func layoutName(m *machine.Machine) string {
	if m.Layer.Config().Layout == response.Full {
		return "one pot per A→R pair"
	}
	return "one pot per A-unit in source-sets"
}

func groupTitle(m *machine.Machine, r, n int) string {
	s := RUnitName(m, r)
	if m.Layer.Config().Layout == response.SourceSets {
		return fmt.Sprintf("%s · source-set of %d pots", s, n)
	}
	return fmt.Sprintf("%s · %d pots", s, n)
}

// subtitle counts the saturated and stuck pots and the motor work.
func subtitle(m *machine.Machine, pots []Pot) string {
	sat, stuck := 0, 0
	for _, p := range pots {
		if p.AtStop != 0 {
			sat++
		}
		if p.Stuck {
			stuck++
		}
	}
	s := ""
	if lim := m.Bank.Config().Limit; lim > 0 {
		s = fmt.Sprintf("%d at an end stop (±%g)", sat, lim)
	} else {
		s = "no end stops"
	}
	s += fmt.Sprintf(" · %d stuck · %d motor pulses, %d against the stops · %s of machine time",
		stuck, m.Bank.Pulses(), m.Bank.Saturations(), time.Duration(m.Bank.Seconds()*float64(time.Second)).Round(time.Second))
	if n := len(m.History); n > 0 {
		s += fmt.Sprintf(" · epoch %d, P_r %.1f%%", m.History[n-1].Epoch, 100*m.History[n-1].Pr)
	}
	return s
}

// panelLayout places the groups of dials.
type panelLayout struct {
	cell      float64 // side of one dial's square
	cols      int     // dials per row within a group
	rows      int     // rows of dials in the largest group
	gcols     int     // groups side by side
	labelW    float64 // room for the row labels
	labelSize float64
	width     float64
	height    float64
}

func (l panelLayout) groupW() float64 { return l.labelW + float64(l.cols)*l.cell }
func (l panelLayout) groupH() float64 { return groupTitleH + float64(l.rows)*l.cell }

func (l panelLayout) groupOrigin(r int) (x, y float64) {
	gc, gr := r%l.gcols, r/l.gcols
	return margin + float64(gc)*(l.groupW()+groupGap), margin + headerH + float64(gr)*(l.groupH()+groupGap)
}

// layoutPanel chooses the dial size, the dials per row
// (8, 16, 32 or 64: whole A-unit cards of eight) and the groups per row that make the dials largest within maxW × maxH.
func layoutPanel(gs [][]Pot, maxW, maxH float64) panelLayout {
	n := 1
	for _, g := range gs {
		n = max(n, len(g))
	}
	g := max(len(gs), 1)
	best := panelLayout{cell: -1}
	for gcols := 1; gcols <= g; gcols++ {
		grows := (g + gcols - 1) / gcols
		for cols := 8; cols <= 64; cols *= 2 {
			rows := (n + cols - 1) / cols
			if rows > 2*cols && cols < 64 {
				continue // a group much taller than wide
			}
			if cols > 8 && rows < cols/4 {
				break // much wider than tall
			}
			l := panelLayout{cols: cols, rows: rows, gcols: gcols}
			// Solve for the cell that fits the width and the height.
			labelW := 34.0
			availW := maxW - 2*margin - float64(gcols-1)*groupGap - float64(gcols)*labelW
			availH := maxH - 2*margin - headerH - legendH - float64(grows)*groupTitleH - float64(grows-1)*groupGap
			cell := math.Floor(min(availW/float64(gcols*cols), availH/float64(grows*rows), maxCell))
			if cell < minCell {
				cell = minCell
				if availW/float64(gcols*cols) < minCell {
					continue
				}
			}
			l.cell = cell
			if cell > best.cell || (cell == best.cell && gcols*cols > best.gcols*best.cols) {
				best = l
			}
		}
	}
	if best.cell < 0 { // too narrow for even one column of groups at the minimum size
		best = panelLayout{cell: minCell, cols: 8, rows: (n + 7) / 8, gcols: 1}
	}
	best.labelSize = min(max(best.cell*0.42, 8.5), 11)
	best.labelW = chart.TextWidth(best.labelSize, false, fmt.Sprintf("A%d", 8*n)) + 6
	grows := (g + best.gcols - 1) / best.gcols
	best.width = max(2*margin+float64(best.gcols)*best.groupW()+float64(best.gcols-1)*groupGap, 620)
	best.height = 2*margin + headerH + float64(grows)*best.groupH() + float64(grows-1)*groupGap + legendH
	return best
}

// Dial geometry: the scale runs clockwise from 225° (lower stop, bottom
// left) through 90° (centre, straight up) to −45° (upper stop).
const (
	scaleStart = 5 * math.Pi / 4
	scaleSweep = -3 * math.Pi / 2
)

// needleAngle is the angle of a needle at position x on a scale of ±s.
func needleAngle(x, s float64) float64 {
	t := min(max(x/s, -1), 1)
	return math.Pi/2 - 3*math.Pi/4*t
}

// drawDial draws one pot centred at (cx, cy) in a square of side cell: the
// needle on a scale of ±scale, the face tinted on a scale of ±tintScale.
func drawDial(p *chart.Pen, cx, cy, cell float64, pot Pot, scale, tintScale float64, stops bool) {
	r := cell * 0.40
	lw := max(0.8, cell/28)
	if pot.Bias() {
		p.StrokeRect(cx-cell/2+1, cy-cell/2+1, cell-2, cell-2, max(1, cell/22), biasGold)
	}
	faceCol := chart.Tint(pot.Value / tintScale)
	if pot.Stuck {
		faceCol = stuckBg
	}
	p.FillCircle(cx, cy, r, faceCol)
	p.Arc(cx, cy, r*0.86, scaleStart, scaleSweep, lw, faint)
	if stops {
		for _, a := range []float64{scaleStart, scaleStart + scaleSweep} {
			c, s := math.Cos(a), -math.Sin(a)
			p.Line(cx+c*r*0.62, cy+s*r*0.62, cx+c*r*1.04, cy+s*r*1.04, max(1, cell/18), stopRed)
		}
	}
	ring, needle := faint, ink
	ringW := lw
	if pot.AtStop != 0 {
		ring, ringW = stopRed, max(1.4, cell/12)
	}
	p.StrokeCircle(cx, cy, r, ringW, ring)
	a := needleAngle(pot.Position, scale)
	nx, ny := cx+math.Cos(a)*r*0.95, cy-math.Sin(a)*r*0.95
	p.Line(cx, cy, nx, ny, max(1.2, cell/13), needle)
	p.FillCircle(cx, cy, max(1, cell/16), needle)
	if pot.Stuck {
		k := r * 0.75
		p.Line(cx-k, cy-k, cx+k, cy+k, max(1, cell/20), ink)
		p.Line(cx-k, cy+k, cx+k, cy-k, max(1, cell/20), ink)
	}
}

// drawLegend explains the marks: sample dials and the colour scale.
func drawLegend(p *chart.Pen, x, y, lim, scale, tintScale float64) {
	const cell = 30.0
	cy := y + cell/2
	samples := []struct {
		pot   Pot
		label string
	}{
		{Pot{AUnit: 0, Position: -scale, Value: -scale, AtStop: -1}, "at the lower stop"},
		{Pot{AUnit: 0, Position: -scale / 2, Value: -scale / 2}, fmt.Sprintf("%+.3g", -scale/2)},
		{Pot{AUnit: 0}, "0"},
		{Pot{AUnit: 0, Position: scale / 2, Value: scale / 2}, fmt.Sprintf("%+.3g", scale/2)},
		{Pot{AUnit: 0, Position: scale, Value: scale, AtStop: 1}, "at the upper stop"},
		{Pot{AUnit: 0, Position: 0.3 * scale, Value: 0.3 * scale, Stuck: true}, "stuck"},
		{Pot{AUnit: -1, Position: 0.2 * scale, Value: 0.2 * scale}, "bias pot"},
	}
	if lim == 0 {
		samples[0].pot.AtStop, samples[4].pot.AtStop = 0, 0
		samples[0].label, samples[4].label = fmt.Sprintf("%+.3g", -scale), fmt.Sprintf("%+.3g (largest)", scale)
	}
	for _, s := range samples {
		drawDial(p, x+cell/2, cy, cell, s.pot, scale, scale, lim > 0)
		p.Text(x+cell+3, cy+4, 11, chart.Left, false, ink, s.label)
		x += cell + 10 + chart.TextWidth(11, false, s.label)
	}
	note := fmt.Sprintf("needle: position between the end stops at ±%g", lim)
	if lim == 0 {
		note = fmt.Sprintf("no end stops: needles scaled to the largest |value|, %.3g", scale)
	}
	note += "  ·  face: value, blue − to red +"
	x = margin + chart.TextWidth(11, false, note) + 12
	p.Text(margin, y+cell+16, 11, chart.Left, false, faint, note)
	const barW, barH = 160.0, 9.0
	for i := range int(barW) {
		t := 2*(float64(i)+0.5)/barW - 1
		p.FillRect(x+float64(i), y+cell+8, 1.05, barH, chart.Tint(t))
	}
	p.StrokeRect(x, y+cell+8, barW, barH, 0.6, faint)
	p.Text(x-3, y+cell+16, 10, chart.Right, false, faint, "")
	p.Text(x+barW+4, y+cell+16, 11, chart.Left, false, faint, fmt.Sprintf("full colour at ±%.3g", tintScale))
}
