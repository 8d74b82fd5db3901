package dials

import (
	"fmt"
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
func WeightMaps(m *machine.Machine) *Drawing {
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
	gw, gh := m.Plugboard.Width, m.Plugboard.Height
	cell := math.Max(4, math.Floor(240/float64(max(gw, gh))))
	mapW, mapH := cell*float64(gw), cell*float64(gh)
	cols := min(used, 4)
	rows := (used + cols - 1) / cols
	const titleH, gap, barH = 34.0, 22.0, 56.0
	heading := "Weight maps: each R-unit's values seen through the plugboard"
	formula := fmt.Sprintf("w[s] = Σ over A-units of value × (excitatory − inhibitory origin points at S-unit s), on the %dx%d retina", gw, gh)
	barNote := "blue: light here pushes the R-unit off · red: pushes it on"
	width := max(2*margin+float64(cols)*mapW+float64(cols-1)*gap, 2*margin+textWidth(12.5, false, formula),
		2*margin+314+textWidth(11, false, barNote))
	height := 2*margin + headerH + float64(rows)*(titleH+mapH+gap) + barH
	d := &Drawing{w: int(math.Ceil(width)), h: int(math.Ceil(height))}
	d.paint = func(p *pen) {
		p.text(margin, margin+16, 17, left, true, ink, heading)
		p.text(margin, margin+36, 12.5, left, false, faint, formula)
		for r, w := range maps {
			x := margin + float64(r%cols)*(mapW+gap)
			y := margin + headerH + float64(r/cols)*(titleH+mapH+gap)
			p.text(x, y+14, 12.5, left, true, ink, RUnitName(m, r))
			sub := fmt.Sprintf("range %+.3g to %+.3g", minOf(w), maxOf(w))
			if b := m.Layer.BiasPot(r); b >= 0 {
				sub += fmt.Sprintf(" · bias %+.3g", m.Bank.Values()[b])
			}
			p.text(x, y+28, 10.5, left, false, faint, sub)
			y += titleH
			for s, v := range w {
				p.fillRect(x+float64(s%gw)*cell, y+float64(s/gw)*cell, cell+0.05, cell+0.05, diverging(v/top))
			}
			p.strokeRect(x, y, mapW, mapH, 0.8, faint)
		}
		// The colour bar.
		y := height - margin - barH + 18
		x := margin + 8
		const bw = 300.0
		for i := range int(bw) {
			t := 2*(float64(i)+0.5)/bw - 1
			p.fillRect(x+float64(i), y, 1.05, 12, diverging(t))
		}
		p.strokeRect(x, y, bw, 12, 0.6, faint)
		for _, t := range []float64{-1, -0.5, 0, 0.5, 1} {
			tx := x + (t+1)/2*bw
			p.line(tx, y+12, tx, y+16, 0.8, faint)
			p.text(tx, y+28, 10.5, center, false, ink, fmt.Sprintf("%+.3g", t*top))
		}
		p.text(x+bw+14, y+11, 11, left, false, faint, barNote)
	}
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
