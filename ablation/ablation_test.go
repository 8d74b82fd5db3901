package ablation_test

import (
	"bytes"
	"context"
	"math"
	"reflect"
	"strings"
	"testing"

	"mark1/ablation"
	"mark1/images"
	"mark1/machine"
)

func trained(t *testing.T) (*machine.Machine, machine.Fields, machine.Fields) {
	t.Helper()
	d, err := images.Generate("leftright", 30, 20, 1)
	if err != nil {
		t.Fatal(err)
	}
	train, test := d.Split(0.3, 1)
	cfg, _ := machine.Preset("mark1")
	m, err := machine.New(cfg, d.Classes, machine.SeedsFrom(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	tr := m.Fields(train)
	te := m.Fields(test)
	s, err := machine.NewSession(m, machine.Recipe{}, tr, te)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	return m, tr, te
}

func TestRun(t *testing.T) {
	m, tr, te := trained(t)
	var before bytes.Buffer
	m.Encode(&before)
	spec := ablation.Spec{Fractions: []float64{0, 0.3, 1}, Retrain: 2, Seed: 5}
	points, err := ablation.Run(context.Background(), m, tr, te, spec)
	if err != nil {
		t.Fatal(err)
	}
	var after bytes.Buffer
	m.Encode(&after)
	if !bytes.Equal(before.Bytes(), after.Bytes()) {
		t.Error("Run changed the machine it was given")
	}
	if len(points) != 6 {
		t.Fatalf("%d points; want 2 parts × 3 fractions", len(points))
	}
	base := m.Accuracy(te.X, te.Y)
	for _, p := range points {
		if p.Fraction == 0 && (p.Pg != base || p.Failed != 0) {
			t.Errorf("%v at 0%%: P_g %v with %d failed; want the trained machine's %v", p.Part, p.Pg, p.Failed, base)
		}
		if p.Failed != int(math.Round(p.Fraction*float64(p.Of))) || p.Retrained == nil {
			t.Errorf("point %+v", p)
		}
		// With every A-unit dead no R-unit sum moves off zero, so the
		// machine shows no class: P_g 0, and retraining cannot help.
		if p.Part == ablation.AUnits && p.Fraction == 1 && (p.Pg != 0 || *p.Retrained != 0) {
			t.Errorf("all A-units dead: P_g %v, retrained %v; want 0", p.Pg, *p.Retrained)
		}
	}
	// The same seed gives the same curve.
	again, _ := ablation.Run(context.Background(), m, tr, te, spec)
	for i := range points {
		if !reflect.DeepEqual(points[i], again[i]) {
			t.Fatalf("point %d: %+v then %+v", i, points[i], again[i])
		}
	}
	table := ablation.Table(points)
	if !strings.Contains(table, "a-units: P_g") || !strings.Contains(table, "retrained") || strings.Count(table, "\n") != 4 {
		t.Errorf("table:\n%s", table)
	}

	if _, err := ablation.Run(context.Background(), m, tr, machine.Fields{}, spec); err == nil {
		t.Error("no held-out cards: no error")
	}
	if _, err := ablation.Run(context.Background(), m, tr, te, ablation.Spec{Fractions: []float64{1.5}}); err == nil {
		t.Error("fraction 1.5: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ablation.Run(ctx, m, tr, te, spec); err != context.Canceled {
		t.Errorf("cancelled: %v", err)
	}
}
