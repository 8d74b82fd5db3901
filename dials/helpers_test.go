package dials

import (
	"context"
	"testing"

	"mark1/images"
	"mark1/machine"
	"mark1/response"
)

// trained returns a machine of the named preset trained for a few epochs on
// the task, with the first classes classes only (0: all), and a card.
func trained(t testing.TB, preset, task string, classes, epochs int, onePerClass bool) (*machine.Machine, *images.Dataset) {
	t.Helper()
	return trainedOn(t, preset, task, 10, classes, epochs, onePerClass)
}

// trainedOn is trained with perClass cards per class.
func trainedOn(t testing.TB, preset, task string, perClass, classes, epochs int, onePerClass bool) (*machine.Machine, *images.Dataset) {
	t.Helper()
	cfg, err := machine.Preset(preset)
	if err != nil {
		t.Fatal(err)
	}
	if onePerClass {
		cfg.Response.Code = response.OnePerClass
	}
	d, err := images.Generate(task, perClass, 20, 1)
	if err != nil {
		t.Fatal(err)
	}
	if classes > 0 && classes < len(d.Classes) {
		var keep []images.Sample
		for _, s := range d.Samples {
			if s.Label < classes {
				keep = append(keep, s)
			}
		}
		d.Samples, d.Classes = keep, d.Classes[:classes]
	}
	m, err := machine.New(cfg, d.Classes, machine.SeedsFrom(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	if epochs > 0 {
		s, err := machine.NewSession(m, machine.Recipe{MaxEpochs: epochs, Pulses: 4}, m.Fields(d), machine.Fields{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Run(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
	}
	return m, d
}

func present(m *machine.Machine, field []float32) *machine.Response {
	var r machine.Response
	m.Present(&r, field, nil)
	return &r
}

func epochRecord(e int) machine.Epoch {
	return machine.Epoch{Epoch: e, Mistakes: 10 - e, Pr: 0.5 + 0.1*float64(e), Pulses: int64(100 * e)}
}
