package dials

import (
	"fmt"
	"image/color"
	"mark1/chart"
	"math"

	"mark1/machine"
)

// WeightMap returns R-unit r's values projected back onto the retina
// through the plugboard: for each S-unit s (row-major),
//
//	w[s] = Σ over A-units a of value(a, r) × (e(a, s) − i(a, s)),
//
// where e(a, s) and i(a, s) count the excitatory and inhibitory origin
// points of a at s. A positive w[s] means light on s pushes R-unit r on.
// The bias pot, which sees no S-unit, is left out. It panics if r is not an
// R-unit in use.
func WeightMap(m *machine.Machine, r int) []float64 {
	return weightMapOf(m, m.Bank.Values(), r)
}

func weightMapOf(m *machine.Machine, values []float64, r int) []float64 {
	if r < 0 || r >= m.Layer.Used() {
		panic(fmt.Sprintf("dials: R-unit %d is not in use (the machine uses %d)", r, m.Layer.Used()))
	}
	w := make([]float64, m.Plugboard.Cells())
	for _, in := range m.Layer.Inputs(r) {
		u, v := m.Plugboard.Units[in.A], values[in.Pot]
		for _, s := range u.Excitatory {
			w[s] += v
		}
		for _, s := range u.Inhibitory {
			w[s] -= v
		}
	}
	return w
}

// WeightMaps draws WeightMap for every R-unit in use as a heat map on the
// retina's grid, blue where light pushes the R-unit off, red where it pushes
// it on, all on one symmetric scale shown by a colour bar.
func WeightMaps(m *machine.Machine) *chart.Drawing {
	used := m.Layer.Used()
	maps := make([][]float64, used)
	top := 0.0
	for r := range used {
		maps[r] = WeightMap(m, r)
		for _, v := range maps[r] {
			top = max(top, math.Abs(v))
		}
	}
	if top == 0 {
		top = 1
	}
	g := mapGrid{
		heading: "Weight maps: each R-unit's values seen through the plugboard",
		formula: fmt.Sprintf("w[s] = Σ over A-units of value × (excitatory − inhibitory origin points at S-unit s), on the %dx%d retina", m.Plugboard.Width, m.Plugboard.Height),
		colour:  func(v float64) color.RGBA { return chart.Diverging(v / top) },
		bar:     divergingBar(top),
		barNote: "blue: light here pushes the R-unit off · red: pushes it on",
		cols:    4,
	}
	for r, w := range maps {
		g.maps = append(g.maps, w)
		g.titles = append(g.titles, RUnitName(m, r))
		sub := fmt.Sprintf("range %+.3g to %+.3g", minOf(w), maxOf(w))
		if b := m.Layer.BiasPot(r); b >= 0 {
			sub += fmt.Sprintf(" · bias %+.3g", m.Bank.Values()[b])
		}
		g.subs = append(g.subs, sub)
	}
	return g.drawing(m.Plugboard.Width, m.Plugboard.Height)
}

// mapGrid lays out maps of values on the retina's grid in rows, each with
// a title and a subtitle, under a heading, above a colour bar.
type mapGrid struct {
	heading, formula string
	// maps holds one value per S-unit (row-major) per map; a nil map is
	// drawn as an empty frame (its subtitle says why).
	maps         [][]float64
	titles, subs []string
	colour       func(v float64) color.RGBA
	bar          colourBar
	barNote      string
	cols         int  // most maps in a row
	pairs        bool // a wider gap after every second map
	small        bool // maps at half size
}

// colourBar is the key of a mapGrid: colour(t) for t from 0 (left) to 1
// (right), with ticks at positions in [0, 1] and their labels.
type colourBar struct {
	colour func(t float64) color.RGBA
	ticks  []float64
	labels []string
}

// divergingBar is the key of a blue–white–red map on [−top, top].
func divergingBar(top float64) colourBar {
	b := colourBar{colour: func(t float64) color.RGBA { return chart.Diverging(2*t - 1) }}
	for _, t := range []float64{-1, -0.5, 0, 0.5, 1} {
		b.ticks = append(b.ticks, (t+1)/2)
		b.labels = append(b.labels, fmt.Sprintf("%+.3g", t*top))
	}
	return b
}

// sequentialBar is the key of a dark-to-lit map of fractions in [0, 1].
func sequentialBar() colourBar {
	b := colourBar{colour: func(t float64) color.RGBA { return chart.Blend(cellOff, cellOn, t) }}
	for _, t := range []float64{0, 0.25, 0.5, 0.75, 1} {
		b.ticks = append(b.ticks, t)
		b.labels = append(b.labels, fmt.Sprintf("%.0f%%", 100*t))
	}
	return b
}

func (g mapGrid) drawing(gw, gh int) *chart.Drawing {
	n := len(g.maps)
	cell := math.Max(4, math.Floor(240/float64(max(gw, gh))))
	if g.small {
		cell = math.Max(3, math.Floor(cell/2))
	}
	mapW, mapH := cell*float64(gw), cell*float64(gh)
	cols := max(1, min(n, g.cols))
	rows := (n + cols - 1) / cols
	const titleH, gap, barH = 34.0, 22.0, 56.0
	colGap := func(c int) float64 { // the gap before column c
		if g.pairs && c%2 == 0 {
			return 2 * gap
		}
		return gap
	}
	colX := make([]float64, cols)
	rowW := mapW
	for c := 1; c < cols; c++ {
		colX[c] = colX[c-1] + mapW + colGap(c)
		rowW = colX[c] + mapW
	}
	subW := 0.0
	for i := range g.subs {
		subW = max(subW, chart.TextWidth(10.5, false, g.subs[i]), chart.TextWidth(12.5, true, g.titles[i]))
	}
	if subW > mapW+gap-4 { // room for titles and subtitles wider than a map
		extra := subW - mapW - gap + 4
		for c := 1; c < cols; c++ {
			colX[c] += float64(c) * extra
		}
		rowW = colX[cols-1] + max(mapW, subW)
	}
	width := max(2*margin+rowW, 2*margin+chart.TextWidth(12.5, false, g.formula), 2*margin+314+chart.TextWidth(11, false, g.barNote),
		2*margin+chart.TextWidth(17, true, g.heading))
	height := 2*margin + headerH + float64(rows)*(titleH+mapH+gap) + barH
	d := chart.New(int(math.Ceil(width)), int(math.Ceil(height)), func(p *chart.Pen) {
		p.Text(margin, margin+16, 17, chart.Left, true, ink, g.heading)
		p.Text(margin, margin+36, 12.5, chart.Left, false, faint, g.formula)
		for i, w := range g.maps {
			// Whole pixels, so that no cell edge is blended with the ground.
			x := math.Round(margin + colX[i%cols])
			y := math.Round(margin + headerH + float64(i/cols)*(titleH+mapH+gap))
			p.Text(x, y+14, 12.5, chart.Left, true, ink, g.titles[i])
			p.Text(x, y+28, 10.5, chart.Left, false, faint, g.subs[i])
			y += titleH
			// Each cell overlaps its right and lower neighbours by a little,
			// which draw over it, so that no seam shows between cells.
			for s, v := range w {
				cx, cy := float64(s%gw)*cell, float64(s/gw)*cell
				p.FillRect(x+cx, y+cy, min(cell+0.6, mapW-cx), min(cell+0.6, mapH-cy), g.colour(v))
			}
			if w == nil {
				p.Text(x+mapW/2, y+mapH/2+4, 11, chart.Center, false, faint, "none")
			}
			p.StrokeRect(x, y, mapW, mapH, 0.8, faint)
		}
		// The colour bar.
		y := height - margin - barH + 18
		x := margin + 8
		const bw = 300.0
		for i := range int(bw) {
			p.FillRect(x+float64(i), y, 1.05, 12, g.bar.colour((float64(i)+0.5)/bw))
		}
		p.StrokeRect(x, y, bw, 12, 0.6, faint)
		for i, t := range g.bar.ticks {
			tx := x + t*bw
			p.Line(tx, y+12, tx, y+16, 0.8, faint)
			p.Text(tx, y+28, 10.5, chart.Center, false, ink, g.bar.labels[i])
		}
		p.Text(x+bw+14, y+11, 11, chart.Left, false, faint, g.barNote)
	})
	return d
}

func minOf(v []float64) float64 {
	m := math.Inf(1)
	for _, x := range v {
		m = min(m, x)
	}
	return m
}

func maxOf(v []float64) float64 {
	m := math.Inf(-1)
	for _, x := range v {
		m = max(m, x)
	}
	return m
}
