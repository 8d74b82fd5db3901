package dials

import (
	"fmt"
	"image"
	"mark1/chart"
	"math"

	"mark1/machine"
)

// RetinaView draws one presentation: the card as given (if card is not
// nil), the S-units it lit on the retina, the A-units that fired, arranged
// in rows of 32 and tinted by the R-unit they feed, and the R-unit lamps
// with their sums and the class they show. r must be the response of m to
// that card (from m.Present).
func RetinaView(m *machine.Machine, card *image.Gray, r *machine.Response) *chart.Drawing {
	gw, gh := m.Retina.Size()
	sCell := math.Max(3, math.Floor(220/float64(max(gw, gh))))
	retW, retH := sCell*float64(gw), sCell*float64(gh)
	nA := len(m.Plugboard.Units)
	aCols := 32
	aRows := (nA + aCols - 1) / aCols
	aCell := math.Max(3, math.Min(10, math.Floor(retH/float64(aRows))))
	if aRows*int(aCell) > int(retH) {
		aCell = math.Max(3, math.Floor(320/float64(aCols)))
	}
	aW, aH := aCell*float64(aCols), aCell*float64(aRows)
	used := m.Layer.Used()
	const gap, titleH, lampW = 36.0, 40.0, 190.0
	panelH := max(retH, aH, float64(used)*30)
	x0 := margin
	cardW := 0.0
	if card != nil {
		cardW = retW
	}
	width := 2*margin + cardW + retW + aW + lampW + 3*gap
	if card == nil {
		width -= gap
	}
	height := 2*margin + headerH + titleH + panelH + 36
	active := make([]bool, nA)
	for _, a := range r.Active {
		active[a] = true
	}
	d := chart.New(int(math.Ceil(width)), int(math.Ceil(height)), func(p *chart.Pen) {
		shows := "no class (the R-units show a code of none)"
		if r.Class >= 0 && r.Class < len(m.Classes) {
			shows = fmt.Sprintf("%q", m.Classes[r.Class])
		}
		p.Text(margin, margin+16, 17, chart.Left, true, ink, "The machine's answer: "+shows)
		p.Text(margin, margin+36, 12.5, chart.Left, false, faint, fmt.Sprintf("%d of %d S-units lit · %d of %d A-units fired (P_a = %.1f%%)",
			countOn(r.S), len(r.S), len(r.Active), nA, 100*r.Pa(m)))
		y := margin + headerH + titleH
		x := x0
		if card != nil {
			p.Text(x, y-10, 12.5, chart.Left, true, ink, "Card")
			b := card.Bounds()
			cw, ch := retW, retH
			if b.Dx() > b.Dy() {
				ch = retH * float64(b.Dy()) / float64(b.Dx())
			} else {
				cw = retW * float64(b.Dx()) / float64(b.Dy())
			}
			p.Image(x+(retW-cw)/2, y+(retH-ch)/2, cw, ch, card)
			p.StrokeRect(x, y, retW, retH, 0.8, rule)
			x += retW + gap
		}
		p.Text(x, y-10, 12.5, chart.Left, true, ink, fmt.Sprintf("S-units (%dx%d photocells)", gw, gh))
		p.FillRect(x, y, retW, retH, cellOff)
		for s, v := range r.S {
			c := cellOff
			if v > 0 {
				c = chart.Blend(cellOff, cellOn, math.Min(v, 1))
			}
			if m.Retina.Dead(s) {
				c = stopRed
			}
			p.FillRect(x+float64(s%gw)*sCell+0.5, y+float64(s/gw)*sCell+0.5, sCell-1, sCell-1, c)
		}
		x += retW + gap
		p.Text(x, y-10, 12.5, chart.Left, true, ink, fmt.Sprintf("A-units fired (%d in rows of %d)", nA, aCols))
		p.FillRect(x, y, aW, aH, cellOff)
		for a := range nA {
			c := dim(hue(m.Layer.SourceSet(a), used))
			if active[a] {
				c = hue(m.Layer.SourceSet(a), used)
			}
			p.FillRect(x+float64(a%aCols)*aCell+0.5, y+float64(a/aCols)*aCell+0.5, aCell-1, aCell-1, c)
		}
		x += aW + gap
		p.Text(x, y-10, 12.5, chart.Left, true, ink, "R-unit lamps")
		for u, s := range r.Sums {
			ly := y + float64(u)*30 + 12
			c := lampOff
			if s > 0 {
				c = lampOn
			}
			p.FillCircle(x+10, ly, 9, c)
			p.StrokeCircle(x+10, ly, 9, 1, ink)
			p.Text(x+26, ly+4, 11.5, chart.Left, false, ink, fmt.Sprintf("R%d %+.3f %s", u, s, onOff(s)))
		}
		note := "A-units tinted by the R-unit they feed (source-set); dim when silent"
		if used > 0 && m.Layer.SourceSet(0) < 0 {
			note = "A-units: bright when fired (every A-unit feeds every R-unit)"
		}
		p.Text(margin, height-margin-4, 11, chart.Left, false, faint, note+" · S-units: yellow lit, red dead")
	})
	return d
}

func countOn(s []float64) int {
	n := 0
	for _, v := range s {
		if v > 0 {
			n++
		}
	}
	return n
}

func onOff(s float64) string {
	if s > 0 {
		return "ON"
	}
	return "off"
}
