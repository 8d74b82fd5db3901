package dials

import (
	"fmt"
	"image"
	"slices"
	"strconv"

	"mark1/internal/base/param"

	"mark1/chart"
	"mark1/images"
	"mark1/machine"
)

// ViewOptions are what a view needs beyond the machine: the panel's size
// (panel), the cards averaged over (sensitivity and means), and the
// picture shown to the machine (retina).
type ViewOptions struct {
	Panel PanelOptions
	Cards *images.Dataset
	Image *image.Gray
}

// View draws the named view of m (Views): Panel, WeightMaps,
// SensitivityMaps or MeanCards of o.Cards, RetinaView of one presentation
// of o.Image, or Curves.
func View(m *machine.Machine, view string, o ViewOptions) (*chart.Drawing, error) {
	switch view {
	case "panel":
		return Panel(m, o.Panel), nil
	case "weights":
		return WeightMaps(m), nil
	case "sensitivity":
		return SensitivityMaps(m, m.Fit(o.Cards), o.Cards.Name), nil
	case "means":
		return MeanCards(m, m.Fit(o.Cards), machine.Labels(o.Cards), o.Cards.Name), nil
	case "retina":
		var r machine.Response
		m.Present(&r, m.Retina.Fit(nil, o.Image), m.EvalNoise())
		return RetinaView(m, o.Image, &r), nil
	case "curves":
		return Curves(m)
	}
	return nil, fmt.Errorf("dials: unknown view %q (want one of %v)", view, Views())
}

// Views are the pictures View draws, by name.
func Views() []string {
	return []string{"panel", "weights", "sensitivity", "means", "retina", "curves"}
}

// CheckView checks a view's name (Views) and the part of the cards it is
// drawn with (CardsFor: "train", "held-out", or "" for the view's own),
// returning a *param.FieldError ("view" or "cards") whose value is quoted.
func CheckView(view, part string) error {
	switch {
	case !slices.Contains(Views(), view):
		return param.Errorf("view", strconv.Quote(view), "panel, weights, sensitivity, means, retina or curves")
	case !slices.Contains([]string{"", "train", "held-out"}, part):
		return param.Errorf("cards", strconv.Quote(part), "train or held-out")
	}
	return nil
}

// CardsFor returns the cards a view averages over (sensitivity and means),
// of a machine's training and held-out cards: the part named ("train" or
// "held-out"), or, when none is named, the training cards for sensitivity
// and the held-out ones for means when there are any.
func CardsFor(view, part string, train, test *images.Dataset) *images.Dataset {
	if part == "train" || part == "" && (view == "sensitivity" || test.Len() == 0) {
		return train
	}
	return test
}
