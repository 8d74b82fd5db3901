package machine

import (
	"context"
	"fmt"
	"io"

	"mark1/images"
	"mark1/internal/base/jsonnum"
)

// An Answer is what a machine answers to one picture: the class its
// R-units show (nil for none), each R-unit in use's sum (in pot-value
// units) and whether it fires, the fraction of A-units that fired and the
// photocells lit.
type Answer struct {
	File     string  `json:"file"`
	Class    *string `json:"class"` // null: the R-units show no class
	RUnits   []RUnit `json:"r_units"`
	Pa       float64 `json:"p_a"`
	CellsLit int     `json:"cells_lit"`
}

// An RUnit is one R-unit's sum and whether it fires (sum > 0).
type RUnit struct {
	Sum float64 `json:"sum"`
	On  bool    `json:"on"`
}

// Answers shows each picture file to m, weights frozen, with fresh
// evaluation noise, and returns its answers in the order given. Pictures
// are read within lim (images.LoadImage); ctx is looked at before each.
func (m *Machine) Answers(ctx context.Context, files []string, lim images.Limits) ([]Answer, error) {
	var r Response
	noise := m.EvalNoise()
	out := make([]Answer, 0, len(files))
	for _, file := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		img, err := images.LoadImage(file, lim)
		if err != nil {
			return nil, err
		}
		m.Present(&r, m.Retina.Fit(nil, img), noise)
		a := Answer{File: file, Pa: jsonnum.Zero(r.Pa(m))}
		if r.Class >= 0 {
			a.Class = &m.Classes[r.Class]
		}
		for _, s := range r.Sums {
			a.RUnits = append(a.RUnits, RUnit{Sum: jsonnum.Zero(s), On: s > 0})
		}
		for _, v := range r.S {
			if v > 0 {
				a.CellsLit++
			}
		}
		out = append(out, a)
	}
	return out, nil
}

// Predictions are a machine's answers to picture files, as mark1 predict
// prints them (WriteText) and writes them as JSON (documented in the
// README).
type Predictions struct {
	Machine  string   `json:"machine"` // the machine file, as the caller names it
	Classes  []string `json:"classes"`
	Pictures []Answer `json:"pictures"`
}

// Predict shows each picture file to m (Answers) and returns the answers
// with m's classes; name names the machine.
func (m *Machine) Predict(ctx context.Context, name string, files []string, lim images.Limits) (*Predictions, error) {
	answers, err := m.Answers(ctx, files, lim)
	if err != nil {
		return nil, err
	}
	return &Predictions{Machine: name, Classes: m.Classes, Pictures: answers}, nil
}

// WriteText writes the answers a line each (WriteAnswers).
func (p *Predictions) WriteText(w io.Writer) error { return WriteAnswers(w, p.Pictures) }

// WriteWiring writes the machine's plugboard as a listing
// (associator.Plugboard.WriteTo) under a comment naming how it was wired:
// "random", or "local:D" with every A-unit's origin points in one D × D
// window.
func (m *Machine) WriteWiring(w io.Writer) error {
	a := m.Config.Associator.Defaults()
	how := "random: origin points anywhere on the retina"
	if a.Window > 0 {
		how = fmt.Sprintf("%s: every A-unit's origin points inside one %dx%d window (diameter-limited)", a.Wiring(), a.Window, a.Window)
	}
	if _, err := fmt.Fprintf(w, "# wiring %s; x=%d, y=%d, θ=%d\n", how, a.Excitatory, a.Inhibitory, a.Threshold); err != nil {
		return err
	}
	_, err := m.Plugboard.WriteTo(w)
	return err
}
