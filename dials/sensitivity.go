package dials

import (
	"fmt"
	"image/color"
	"mark1/chart"
	"math"
	"slices"

	"mark1/machine"
)

// Sensitivity returns what each R-unit in use responds to: for R-unit r and
// photocell s,
//
//	sens[r][s] = mean over the fields of  Σ_r(S with cell s on) − Σ_r(S with cell s off),
//
// where S is the S-unit outputs the field gives (read with the machine's
// evaluation noise, as Machine.Accuracy does), "on" sets cell s to 1 and
// "off" to 0, every other cell stays as the card lit it, and Σ_r is R-unit
// r's sum. Both sums are computed by the machine's own plugboard
// (Machine.Associate: on a four-layer machine through A_II) and R-units
// (Layer.Sums) with its present pot values,
// so the map is exact, not a linear approximation: an A-unit counts only
// when the cell tips it over or under its threshold on that card. A
// positive value means light on s raises the R-unit's sum — pushes it on —
// on the cards given; a negative value pushes it off.
//
// Dead and stuck photocells cannot be turned on and off: their entries are
// NaN. With no fields every entry is NaN.
func Sensitivity(m *machine.Machine, fields [][]float32) [][]float64 {
	used := m.Layer.Used()
	cells := m.Retina.Cells()
	sens := make([][]float64, used)
	for r := range sens {
		sens[r] = make([]float64, cells)
	}
	values := m.Bank.Values()
	noise := m.EvalNoise()
	var (
		resp, alt machine.Response
		on, off   []float64
		s         []float64
	)
	// sumsWith returns in dst R-unit sums with cell c set to v; when that is
	// the card's own reading, the sums are the card's.
	sumsWith := func(dst []float64, c int, v float64) []float64 {
		if s[c] == v {
			return append(dst[:0], resp.Sums...)
		}
		was := s[c]
		s[c] = v
		alt.S = s
		m.Associate(&alt)
		dst = m.Layer.Sums(dst, alt.Active, values)
		s[c] = was
		return dst
	}
	for _, f := range fields {
		m.Present(&resp, f, noise)
		s = append(s[:0], resp.S...)
		for c := range cells {
			if m.Retina.Dead(c) || m.Retina.StuckOn(c) {
				continue
			}
			on = sumsWith(on, c, 1)
			off = sumsWith(off, c, 0)
			for r := range used {
				sens[r][c] += on[r] - off[r]
			}
		}
	}
	for r := range sens {
		for c := range sens[r] {
			if len(fields) == 0 || m.Retina.Dead(c) || m.Retina.StuckOn(c) {
				sens[r][c] = math.NaN()
				continue
			}
			sens[r][c] /= float64(len(fields))
		}
	}
	return sens
}

// ClassMean is what the cards of one class look like to the machine, and
// which of them it gets wrong.
type ClassMean struct {
	Class string `json:"class"`
	Cards int    `json:"cards"` // cards of the class
	// Wrong counts the cards of the class the machine does not answer
	// with the class (another class, or no class).
	Wrong int `json:"wrong"`
	// Answers counts the machine's answers to the class's cards: one
	// entry per class, then one for "no class".
	Answers []int `json:"answers"`
	// Mean is, per photocell (row-major), the mean S-unit output over the
	// class's cards: the fraction of them that light the cell.
	Mean []float64 `json:"mean"`
	// WrongMean is the same over the cards the machine gets wrong; nil
	// when it gets none wrong.
	WrongMean []float64 `json:"wrong_mean"`
}

// ClassMeans returns, for each of m's classes, the mean card as the retina
// sees it and the mean of the cards the machine gets wrong, over the fields
// with the given labels (read with the evaluation noise, as
// Machine.Accuracy does). It panics if fields and labels differ in length
// or a label is not one of m's classes.
func ClassMeans(m *machine.Machine, fields [][]float32, labels []int) []ClassMean {
	if len(fields) != len(labels) {
		panic(fmt.Sprintf("dials: %d fields but %d labels", len(fields), len(labels)))
	}
	k := len(m.Classes)
	cells := m.Retina.Cells()
	out := make([]ClassMean, k)
	for c := range out {
		out[c] = ClassMean{Class: m.Classes[c], Answers: make([]int, k+1), Mean: make([]float64, cells), WrongMean: make([]float64, cells)}
	}
	var resp machine.Response
	noise := m.EvalNoise()
	for i, f := range fields {
		y := labels[i]
		if y < 0 || y >= k {
			panic(fmt.Sprintf("dials: label %d of field %d is not one of the machine's %d classes", y, i, k))
		}
		m.Present(&resp, f, noise)
		cm := &out[y]
		cm.Cards++
		got := resp.Class
		if got < 0 || got >= k {
			got = k
		}
		cm.Answers[got]++
		for s, v := range resp.S {
			cm.Mean[s] += v
		}
		if got != y {
			cm.Wrong++
			for s, v := range resp.S {
				cm.WrongMean[s] += v
			}
		}
	}
	for c := range out {
		cm := &out[c]
		for s := range cm.Mean {
			if cm.Cards > 0 {
				cm.Mean[s] /= float64(cm.Cards)
			}
			if cm.Wrong > 0 {
				cm.WrongMean[s] /= float64(cm.Wrong)
			}
		}
		if cm.Wrong == 0 {
			cm.WrongMean = nil
		}
	}
	return out
}

// SensitivityMaps draws Sensitivity(m, fields) for every R-unit in use as
// blue–white–red maps on the retina's grid, on one symmetric scale shown by
// a colour bar: red where light raises the R-unit's sum, blue where it
// lowers it. data names the cards, for the subtitle.
func SensitivityMaps(m *machine.Machine, fields [][]float32, data string) *chart.Drawing {
	sens := Sensitivity(m, fields)
	top := 0.0
	dead := false
	for _, w := range sens {
		for _, v := range w {
			if math.IsNaN(v) {
				dead = true
				continue
			}
			top = max(top, math.Abs(v))
		}
	}
	if top == 0 {
		top = 1
	}
	g := mapGrid{
		heading: "What each R-unit responds to: the change of its sum when a photocell is turned on",
		formula: fmt.Sprintf("sens[s] = mean over %d cards of %s of Σ(cell s on) − Σ(cell s off), every other cell as the card lit it; through the machine's own A-units and pots",
			len(fields), data),
		colour:  func(v float64) color.RGBA { return chart.Diverging(v / top) },
		bar:     divergingBar(top),
		barNote: "red: light here raises the R-unit's sum (pushes it on) · blue: lowers it (pushes it off)",
		cols:    4,
	}
	if dead {
		g.barNote += " · grey: dead or stuck cell"
	}
	for r, w := range sens {
		g.maps = append(g.maps, w)
		g.titles = append(g.titles, RUnitName(m, r))
		g.subs = append(g.subs, fmt.Sprintf("range %+.3g to %+.3g", minOf(w), maxOf(w)))
	}
	return g.drawing(m.Plugboard.Width, m.Plugboard.Height)
}

// MeanCards draws ClassMeans: for each class, the mean card as the retina
// sees it (the fraction of the class's cards that light each photocell)
// beside the mean of the cards the machine gets wrong, with how it answers
// them. data names the cards, for the subtitle.
func MeanCards(m *machine.Machine, fields [][]float32, labels []int, data string) *chart.Drawing {
	means := ClassMeans(m, fields, labels)
	k := len(m.Classes)
	wrong := 0
	for _, cm := range means {
		wrong += cm.Wrong
	}
	g := mapGrid{
		heading: "The cards of each class, and the ones the machine gets wrong",
		formula: fmt.Sprintf("%d cards of %s, %d answered wrongly · each map: the fraction of the cards that light each photocell",
			len(fields), data, wrong),
		colour:  func(v float64) color.RGBA { return chart.Blend(cellOff, cellOn, min(max(v, 0), 1)) },
		bar:     sequentialBar(),
		barNote: "dark: no card lights the cell · yellow: every card does (the retina's lit colour)",
		cols:    2 * min(k, 4),
		pairs:   true,
		small:   k > 3,
	}
	for _, cm := range means {
		g.maps = append(g.maps, cm.Mean, cm.WrongMean)
		g.titles = append(g.titles, cm.Class+": all cards", cm.Class+": wrong")
		g.subs = append(g.subs, fmt.Sprintf("%d cards", cm.Cards), wrongNote(m, cm))
	}
	return g.drawing(m.Plugboard.Width, m.Plugboard.Height)
}

// wrongNote says how many of a class's cards the machine got wrong and
// what it answered instead, most frequent first (at most two named).
func wrongNote(m *machine.Machine, cm ClassMean) string {
	if cm.Wrong == 0 {
		return "none wrong"
	}
	k := len(m.Classes)
	type ans struct {
		name string
		n    int
	}
	var as []ans
	for c, n := range cm.Answers {
		if n == 0 || (c < k && m.Classes[c] == cm.Class) {
			continue
		}
		name := "no class"
		if c < k {
			name = m.Classes[c]
		}
		as = append(as, ans{name, n})
	}
	slices.SortStableFunc(as, func(a, b ans) int { return b.n - a.n })
	s := fmt.Sprintf("%d wrong:", cm.Wrong)
	for i, a := range as {
		if i == 2 {
			s += " …"
			break
		}
		if i > 0 {
			s += ","
		}
		s += fmt.Sprintf(" %d as %s", a.n, a.name)
	}
	return s
}
