package machine

import (
	"math"
	"testing"

	"mark1/associator"
	"mark1/images"
)

func TestSummarisePa(t *testing.T) {
	cards := []PaCard{
		{Lit: 40, Cells: 400, Fired: 10, Units: 100, Model: 0.1},
		{Lit: 80, Cells: 400, Fired: 20, Units: 100, Model: 0.2},
		{Lit: 120, Cells: 400, Fired: 30, Units: 100, Model: 0.3},
	}
	s := SummarisePa(cards)
	want := PaSummary{Cards: 3, MeanLit: 0.2, Mean: 0.2, Model: 0.2, Min: 0.1, Max: 0.3, Correlation: 1}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"mean lit", s.MeanLit, want.MeanLit}, {"mean", s.Mean, want.Mean}, {"model", s.Model, want.Model},
		{"min", s.Min, want.Min}, {"max", s.Max, want.Max}, {"correlation", s.Correlation, want.Correlation},
	} {
		if math.Abs(c.got-c.want) > 1e-12 {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if s := SummarisePa(cards[:1]); !math.IsNaN(s.Correlation) {
		t.Errorf("correlation of one card = %v, want NaN", s.Correlation)
	}
}

// MeasurePa counts what the retina and the plugboard did, and the model is
// the finite form at that count. Over 40 machines (40 independent
// plugboards) the A-units that fire on one card are Binomial(units,
// model) each, so the total lies within a few standard errors of the
// model's sum.
func TestMeasurePa(t *testing.T) {
	d, err := images.Generate("shapes", 1, 20, 3)
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := Preset("mark1")
	var fired, want, variance float64
	for seed := range uint64(40) {
		m, err := New(cfg, d.Classes, SeedsFrom(seed), nil)
		if err != nil {
			t.Fatal(err)
		}
		fields := m.Fit(d)
		cards := m.MeasurePa(fields)
		var r Response
		for i, c := range cards {
			m.Present(&r, fields[i], m.EvalNoise())
			if c.Fired != len(r.Active) || c.Units != 512 || c.Cells != 400 {
				t.Fatalf("card %d: %+v; the machine fired %d", i, c, len(r.Active))
			}
			if p := associator.ModelOf(cfg.Associator).PaFinite(400, c.Lit); c.Model != p {
				t.Fatalf("card %d: model %v, want %v", i, c.Model, p)
			}
			fired += float64(c.Fired)
			want += c.Model * 512
			variance += c.Model * (1 - c.Model) * 512
		}
	}
	if z := math.Abs(fired-want) / math.Sqrt(variance); z > 4.5 {
		t.Errorf("A-units fired %v, the 1958 model expects %.1f: %.1f standard errors", fired, want, z)
	}
}
