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
	var fired, want, variance float64
	eachPlugboard(t, 1, 3, 40, func(m *Machine, fields [][]float32) {
		cards := m.MeasurePa(fields)
		var r Response
		for i, c := range cards {
			m.Present(&r, fields[i], m.EvalNoise())
			if c.Fired != len(r.Active) || c.Units != 512 || c.Cells != 400 {
				t.Fatalf("card %d: %+v; the machine fired %d", i, c, len(r.Active))
			}
			if p := associator.ModelOf(m.Config.Associator).PaFinite(400, c.Lit); c.Model != p {
				t.Fatalf("card %d: model %v, want %v", i, c.Model, p)
			}
			fired += float64(c.Fired)
			want += c.Model * 512
			variance += c.Model * (1 - c.Model) * 512
		}
	})
	nearModel(t, "A-units fired", fired, want, variance)
}

// MeasurePc: a card against itself gives P_c = 1 measured and modelled;
// against other cards, over 30 independent plugboards, the units firing
// for both are Binomial(fired for 1, model) given the cards, so the total
// lies within a few standard errors of the model's.
func TestMeasurePc(t *testing.T) {
	var both, want, variance float64
	eachPlugboard(t, 2, 5, 30, func(m *Machine, f [][]float32) {
		if p := m.MeasurePc(f[0], f[0]); p.Pc() != 1 || p.Model != 1 {
			t.Fatalf("a card against itself: measured %v, model %v", p.Pc(), p.Model)
		}
		for _, pair := range [][2]int{{0, 4}, {0, 1}, {2, 6}, {3, 5}} {
			p := m.MeasurePc(f[pair[0]], f[pair[1]])
			both += float64(p.Both)
			want += p.Model * float64(p.Fired1)
			variance += p.Model * (1 - p.Model) * float64(p.Fired1)
		}
	})
	nearModel(t, "units firing for both cards", both, want, variance)
}

// eachPlugboard calls fn with the mark1 machine of each of seeds 0 to n−1
// (n independent plugboards) and its fields of the shapes task's cards
// (perClass a class, drawn from seed dataSeed).
func eachPlugboard(t *testing.T, perClass int, dataSeed, n uint64, fn func(m *Machine, f [][]float32)) {
	t.Helper()
	d, err := images.Generate("shapes", perClass, 20, dataSeed)
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := Preset("mark1")
	for seed := range n {
		m, err := New(cfg, d.Classes, SeedsFrom(seed), nil)
		if err != nil {
			t.Fatal(err)
		}
		fn(m, m.Fit(d))
	}
}

// nearModel holds a measured total to the 1958 model's expectation: within
// 4.5 standard errors (the model's variance).
func nearModel(t *testing.T, what string, got, want, variance float64) {
	t.Helper()
	if z := math.Abs(got-want) / math.Sqrt(variance); z > 4.5 {
		t.Errorf("%s %v, the 1958 model expects %.1f: %.1f standard errors", what, got, want, z)
	}
}
