package dials

import (
	"fmt"
	"image/color"
	"mark1/chart"
	"math"
	"strings"
	"unicode/utf8"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// CompareRun is one learner's run as CompareCurves draws it, in plain
// values.
type CompareRun struct {
	Learner  string // e.g. "perceptron", "hardware"
	Features string // e.g. "pixels", "association"; may be empty
	// Mistakes holds the mistakes (corrections) made in each epoch, for
	// online learners and the hardware; nil for the others.
	Mistakes []int
	// Objective holds the objective after each epoch or solver pass (the
	// perceptron risk for batch gradient descent, the dual objective for an
	// SVM), named by ObjectiveName and counted along ObjectiveAxis ("epoch",
	// "solver pass"); nil when not recorded.
	Objective     []float64
	ObjectiveName string
	ObjectiveAxis string
	// ObjectiveAt, if not nil, holds where along ObjectiveAxis each entry
	// of Objective lies (the SMO iterations done, say; 0 for the start),
	// increasing; otherwise the entries lie at 1, 2, 3, ….
	ObjectiveAt []float64
	// Pg holds P_g (the fraction of held-out cards right) after each epoch,
	// NaN where it was not measured; nil when never.
	Pg []float64
	// Separate marks objectives of separate problems, one per binary
	// machine: drawn as points, not joined by lines.
	Separate bool
	// Why says why nothing of the run can be drawn, for the figure's list
	// of runs not drawn; used only when Mistakes, Objective and Pg are all
	// empty.
	Why string
}

// Label names the run in legends: "perceptron (pixels)".
func (r CompareRun) Label() string {
	if r.Features == "" {
		return r.Learner
	}
	return r.Learner + " (" + r.Features + ")"
}

// CompareCurves draws the runs of a comparison, one panel per quantity, each
// with labelled axes: mistakes per epoch (online learners and the
// hardware), each objective per epoch or pass (one panel per objective, as
// batch GD's perceptron risk and an SVM's dual objective are different
// quantities), and P_g per epoch where measured. Each learner keeps one
// colour in every panel; association features are dashed. A curve equal to
// one drawn before in the same panel says so in its legend entry, since it
// hides under it. Below the panels, every run not drawn is named with the
// reason, followed by notes (quantities no run recorded, say). title heads
// the figure. It returns an error only if gonum/plot cannot draw a curve.
func CompareCurves(title string, runs []CompareRun, notes ...string) (*chart.Drawing, error) {
	type panel struct {
		p     *plot.Plot
		drawn map[string]string // curve → the first label that drew it
		minX  float64           // the smallest x drawn, or 1
		pad   bool              // separate points: keep them off the axes
	}
	var panels []*panel
	byKey := map[string]*panel{}
	get := func(key, heading, x, y string, percent bool) *panel {
		if pn, ok := byKey[key]; ok {
			return pn
		}
		p := plot.New()
		p.Title.Text = heading
		p.Title.TextStyle.Font.Size = 13
		p.X.Label.Text = x
		p.Y.Label.Text = y
		p.Add(plotter.NewGrid())
		p.Legend.Top = !percent // rising curves (P_g) end at the top right
		p.Legend.TextStyle.Font.Size = 10
		if percent {
			p.Y.Min, p.Y.Max = 0, 100
		}
		pn := &panel{p: p, drawn: map[string]string{}, minX: 1}
		byKey[key] = pn
		panels = append(panels, pn)
		return pn
	}
	colour := map[string]color.Color{}
	colourOf := func(learner string) color.Color {
		if c, ok := colour[learner]; ok {
			return c
		}
		c := comparePalette(len(colour))
		colour[learner] = c
		return c
	}
	add := func(pn *panel, r CompareRun, xs, ys []float64, separate bool) error {
		var pts plotter.XYs
		for i, y := range ys {
			if !math.IsNaN(y) && !math.IsInf(y, 0) {
				pts = append(pts, plotter.XY{X: xs[i], Y: y})
			}
		}
		if len(pts) == 0 {
			return nil
		}
		l, s, err := plotter.NewLinePoints(pts)
		if err != nil {
			return fmt.Errorf("dials: plotting %s: %w", r.Label(), err)
		}
		l.Color, l.Width = colourOf(r.Learner), vg.Points(1.6)
		s.Color, s.Radius = l.Color, vg.Points(1.6)
		if r.Features == "association" {
			l.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
		}
		if separate {
			pn.pad = true
			s.Radius = vg.Points(3)
			if r.Features == "association" {
				s.Shape = draw.CircleGlyph{}
			} else {
				s.Shape = draw.SquareGlyph{}
			}
			l.Width = 0
		}
		pn.p.Add(l, s)
		label := r.Label()
		key := fmt.Sprint(pts)
		if first, ok := pn.drawn[key]; ok {
			label += " = " + first
		} else {
			pn.drawn[key] = label
		}
		pn.p.Legend.Add(label, l, s)
		pn.p.X.Max = max(pn.p.X.Max, pts[len(pts)-1].X)
		pn.minX = min(pn.minX, pts[0].X)
		return nil
	}
	epochs := func(n int) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = float64(i + 1)
		}
		return xs
	}
	notDrawn := append(NotDrawn(runs), notes...)
	for _, r := range runs {
		if len(r.Mistakes) > 0 {
			ys := make([]float64, len(r.Mistakes))
			for i, m := range r.Mistakes {
				ys[i] = float64(m)
			}
			pn := get("mistakes", "Mistakes per epoch (online learners and the hardware)", "epoch", "mistakes (corrections) in the epoch", false)
			if err := add(pn, r, epochs(len(ys)), ys, false); err != nil {
				return nil, err
			}
		}
		if len(r.Objective) > 0 {
			name, axis := r.ObjectiveName, r.ObjectiveAxis
			if name == "" {
				name = "objective"
			}
			if axis == "" {
				axis = "epoch"
			}
			pn := get("objective "+name+" "+axis, capitalize(name)+" per "+axis, axis, name, false)
			xs := r.ObjectiveAt
			if len(xs) != len(r.Objective) {
				xs = epochs(len(r.Objective))
			}
			if err := add(pn, r, xs, r.Objective, r.Separate); err != nil {
				return nil, err
			}
		}
		if len(r.Pg) > 0 {
			ys := make([]float64, len(r.Pg))
			for i, v := range r.Pg {
				ys[i] = 100 * v
			}
			pn := get("pg", "P_g per epoch: held-out cards the learner never trained on", "epoch", "P_g (% of held-out cards right)", true)
			if err := add(pn, r, epochs(len(ys)), ys, false); err != nil {
				return nil, err
			}
		}
	}
	for _, pn := range panels {
		pn.p.X.Min = pn.minX
		pn.p.X.Max = max(pn.p.X.Max, pn.minX+1)
		if pn.pad {
			pn.p.X.Min -= 0.5
			pn.p.X.Max += 0.5
		}
		pn.p.X.Tick.Marker = integerTicks{}
	}
	if pn := byKey["mistakes"]; pn != nil {
		pn.p.Y.Min = 0
	}
	const w, panelH, lineH = 900.0, 330.0, 16.0
	noteH := 0.0
	if len(notDrawn) > 0 {
		noteH = 28 + lineH*float64(len(notDrawn))
	}
	titles := wrapWords(title, 85)
	top := 2*margin + 24.0*float64(len(titles))
	height := top + panelH*float64(max(len(panels), 0)) + noteH + margin
	if len(panels) == 0 {
		height += 30
	}
	d := chart.New(int(w), int(math.Ceil(height)), func(pn *chart.Pen) {
		for i, t := range titles {
			pn.Text(margin, margin+18+24*float64(i), 17, chart.Left, true, ink, t)
		}
		if len(panels) > 0 {
			plots := make([][]*plot.Plot, len(panels))
			for i, p := range panels {
				plots[i] = []*plot.Plot{p.p}
			}
			area := draw.Canvas{Canvas: pn.Canvas(), Rectangle: vg.Rectangle{
				Min: vg.Point{X: 0, Y: vg.Length(noteH + margin)},
				Max: vg.Point{X: vg.Length(w), Y: vg.Length(height - top)},
			}}
			tiles := draw.Tiles{Rows: len(panels), Cols: 1, PadTop: 4, PadBottom: 4, PadLeft: 8, PadRight: 16, PadY: 18}
			canvases := plot.Align(plots, tiles, area)
			for i, p := range panels {
				p.p.Draw(canvases[i][0])
			}
		} else {
			pn.Text(margin, top+16, 12, chart.Left, false, faint, "No learner recorded anything per epoch.")
		}
		if len(notDrawn) > 0 {
			y := height - margin - noteH + 18
			pn.Text(margin, y, 12.5, chart.Left, true, ink, "Not drawn:")
			for i, s := range notDrawn {
				pn.Text(margin+12, y+lineH*float64(i+1), 11.5, chart.Left, false, ink, s)
			}
		}
	})
	return d, nil
}

// comparePalette returns the colour of the i-th learner of a comparison
// (Tableau 10).
func comparePalette(i int) color.RGBA {
	p := [...]color.RGBA{
		{0xd6, 0x27, 0x28, 0xff}, {0x1f, 0x77, 0xb4, 0xff}, {0x2c, 0xa0, 0x2c, 0xff},
		{0xff, 0x7f, 0x0e, 0xff}, {0x94, 0x67, 0xbd, 0xff}, {0x8c, 0x56, 0x4b, 0xff},
		{0xe3, 0x77, 0xc2, 0xff}, {0x17, 0xbe, 0xcf, 0xff}, {0x7f, 0x7f, 0x7f, 0xff}, {0xbc, 0xbd, 0x22, 0xff},
	}
	return p[i%len(p)]
}

// NotDrawn lists the runs CompareCurves cannot draw — those with nothing
// recorded per epoch — as "learner (features): reason", one line per
// learner and reason: "svm (pixels, association): …".
func NotDrawn(runs []CompareRun) []string {
	type key struct{ learner, why string }
	var order []key
	features := map[key][]string{}
	for _, r := range runs {
		if len(r.Mistakes) > 0 || len(r.Objective) > 0 || len(r.Pg) > 0 {
			continue
		}
		k := key{r.Learner, r.Why}
		if k.why == "" {
			k.why = "nothing was recorded per epoch"
		}
		if _, ok := features[k]; !ok {
			order = append(order, k)
		}
		features[k] = append(features[k], r.Features)
	}
	var out []string
	for _, k := range order {
		name := CompareRun{Learner: k.learner, Features: strings.Join(features[k], ", ")}.Label()
		if strings.Trim(strings.Join(features[k], ""), " ") == "" {
			name = k.learner
		}
		out = append(out, name+": "+k.why)
	}
	return out
}

// wrapWords splits s at spaces into lines of at most n runes (a longer
// word has a line of its own).
func wrapWords(s string, n int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		switch {
		case line == "":
			line = w
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(w) <= n:
			line += " " + w
		default:
			lines = append(lines, line)
			line = w
		}
	}
	return append(lines, line)
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
