package machine

import (
	"fmt"
	"slices"

	"mark1/response"
)

// WarningKind says what a Warning is about.
type WarningKind int

const (
	// NoLight: no training card lights a single photocell; nothing can be
	// learned, so NewSession refuses to start.
	NoLight WarningKind = iota
	// FewLit: most training cards light no photocell.
	FewLit
	// FewFire: on most training cards no A-unit fires, so those cards move
	// no pot and get no answer.
	FewFire
	// OneAnswer: after training, every training card gets the same answer.
	OneAnswer
	// BinaryCode: a many-class task learned poorly with the binary code.
	BinaryCode
)

// Warning is a reason a machine learns nothing or little from its data,
// found where training starts (NewSession) or ends (Session.Warnings), with
// what to do about it. Its text is one paragraph for people; Settings are
// the settings its advice changes, so that a front end can name them in
// its own words (the CLI, as its flags).
type Warning struct {
	Kind     WarningKind
	Text     string
	Settings []Setting
}

// A Setting is a configuration setting a Warning advises changing: Field
// is its path in the configuration, as a FieldError names it
// ("associator.threshold"); Value the value advised, or "" when the
// advice is a direction (lower it) or a place to look.
type Setting struct {
	Field, Value string
}

// Error returns the text, so that a Warning that stops training can be
// returned as an error.
func (w Warning) Error() string { return w.Text }

// lightWarnings looks at what the training fields do to the machine before
// it learns: the cards that light no photocell and those that fire no
// A-unit, with the light levels behind them. c, if not nil, holds what the
// cards were seen to light and fire.
func lightWarnings(m *Machine, train Fields, c *seen) []Warning {
	var r Response
	dark, silent := 0, 0
	var brightest float32
	for i, x := range train.X {
		var lit bool
		if c != nil {
			lit = c.lit(i)
			c.active(&r, i)
		} else {
			m.Present(&r, x, nil)
			lit = slices.ContainsFunc(r.S, func(s float64) bool { return s > 0 })
		}
		if !lit {
			dark++
		}
		if len(r.Active) == 0 {
			silent++
		}
		for _, v := range x {
			brightest = max(brightest, v)
		}
	}
	n := train.Len()
	why := ""
	if brightest < 0.25 {
		why = fmt.Sprintf(" The strongest light level on any card is %.3f of full: pictures are read as grey levels 0–255 (a libsvm or IDX value of 16 is nearly black), so data whose values run to 16 (as scikit-learn's digits) or are not light levels at all leave the photocells dark. Scale the values to 0–255 (svm-scale -l 0 -u 255, or multiply) or to [0, 1], which is read as 0–255.", brightest)
	}
	switch {
	case dark == n:
		return []Warning{{NoLight, fmt.Sprintf("none of the %d training cards lights a photocell, so no A-unit can fire and the machine cannot learn.%s", n, why), nil}}
	case 2*dark > n:
		return []Warning{{FewLit, fmt.Sprintf("%d of the %d training cards light no photocell; the machine cannot learn those.%s", dark, n, why), nil}}
	case 2*silent > n:
		return []Warning{{FewFire, fmt.Sprintf("on %d of the %d training cards no A-unit fires (P_a = 0), so they move no pot and get no answer. The figures light too few photocells for A-units that need θ = %g more excitatory than inhibitory points: lower θ, use fewer inhibitory points y, or crop: fit the figure's bounding box to the retina.%s",
			silent, n, m.Plugboard.Units[0].Threshold, why), []Setting{{"associator.threshold", ""}, {"associator.inhibitory", ""}, {"retina.crop", "true"}}}}
	}
	return nil
}

// resultWarnings looks at a trained machine's answers on its training
// fields: one answer for every card, or a many-class task the binary code
// did not learn.
func resultWarnings(m *Machine, train Fields) []Warning {
	if len(m.History) == 0 {
		return nil
	}
	var out []Warning
	classes := map[int]bool{}
	for _, y := range train.Y {
		classes[y] = true
	}
	var r Response
	noise := m.EvalNoise()
	answers := map[int]int{}
	for _, x := range train.X {
		m.Present(&r, x, noise)
		answers[r.Class]++
	}
	if len(classes) > 1 && len(answers) == 1 {
		w, h := m.Retina.Size()
		var name string
		for c := range answers {
			name = "no class"
			if c >= 0 {
				name = fmt.Sprintf("%q", m.Classes[c])
			}
		}
		out = append(out, Warning{OneAnswer, fmt.Sprintf("every one of the %d training cards gets the same answer, %s: the machine does not tell the classes apart. Look at P_a (mark1 predict); if A-units fire on too few cards see θ and crop, if the same A-units fire on every card the pictures differ too little on a %dx%d retina.",
			train.Len(), name, w, h), []Setting{{"associator.threshold", ""}, {"retina.crop", "true"}}})
	}
	lc := m.Layer.Config()
	last := m.History[len(m.History)-1]
	if lc.Code == response.Binary && len(m.Classes) > 2 && last.Pr < 0.9 {
		out = append(out, Warning{BinaryCode, fmt.Sprintf("with the binary code each of the %d R-units in use must split the %d classes into two halves by one bit of their number, using only its own A-units: rarely a split a perceptron can learn (P_r %.1f%%). Give each class its own R-unit: the one-per-class code on %d R-units (and the full preset, a pot for every A→R pair, for many classes).",
			m.Layer.Used(), len(m.Classes), 100*last.Pr, len(m.Classes)),
			[]Setting{{"response.code", "one-per-class"}, {"response.units", fmt.Sprint(len(m.Classes))}, {"preset", "full"}}})
	}
	return out
}

// Warnings returns the reasons the session learns nothing or little: those
// found in the data when it started, and once it is Done, those found in
// the trained machine's answers. Each says what to do about it.
func (s *Session) Warnings() []Warning {
	out := append([]Warning(nil), s.warnings...)
	if s.Done() {
		out = append(out, resultWarnings(s.m, s.train)...)
	}
	return out
}
