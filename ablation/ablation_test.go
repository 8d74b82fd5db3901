package ablation_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"mark1/ablation"
	"mark1/internal/base/param"
	"mark1/machine"
)

func TestRun(t *testing.T) {
	m, tr, te := ablation.TrainedMachine(t)
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

// TestValidate checks Spec's ranges, each a field error in Spec's own words
// at its exported bound: the one check ablate's flags go through.
func TestValidate(t *testing.T) {
	many := make([]float64, ablation.MaxFractions+1)
	tests := []struct {
		name  string
		spec  ablation.Spec
		field string // "" for valid
		value string
	}{
		{"zero value", ablation.Spec{}, "", ""},
		{"bounds", ablation.Spec{Fractions: []float64{0, 1}, Retrain: ablation.MaxRetrain, Draws: ablation.MaxDraws, Workers: ablation.MaxWorkers}, "", ""},
		{"fraction above 1", ablation.Spec{Fractions: []float64{0, 1.5}}, "fractions", "1.5"},
		{"fraction NaN", ablation.Spec{Fractions: []float64{math.NaN()}}, "fractions", "NaN"},
		{"too many fractions", ablation.Spec{Fractions: many}, "fractions", "1001"},
		{"unknown part", ablation.Spec{Parts: []ablation.Part{7}}, "parts", "7"},
		{"retrain -1", ablation.Spec{Retrain: -1}, "retrain", "-1"},
		{"retrain over", ablation.Spec{Retrain: ablation.MaxRetrain + 1}, "retrain", "1000001"},
		{"draws -1", ablation.Spec{Draws: -1}, "draws", "-1"},
		// The CLI refused 1,001 to 10,000 draws and this accepted them.
		{"draws over", ablation.Spec{Draws: ablation.MaxDraws + 1}, "draws", "1001"},
		{"workers over", ablation.Spec{Workers: ablation.MaxWorkers + 1}, "workers", "1025"},
	}
	for _, tt := range tests {
		err := tt.spec.Validate()
		if tt.field == "" {
			if err != nil {
				t.Errorf("%s: %v", tt.name, err)
			}
			continue
		}
		var f *param.FieldError
		if !errors.As(err, &f) || f.Field != tt.field || f.Value != tt.value {
			t.Errorf("%s: %v; want a field error of %s %s", tt.name, err, tt.field, tt.value)
		}
	}
}

// TestRetrainAfterHistory: retraining continues the machine's epochs, so
// Run refuses more than the epoch limit leaves, before any work.
func TestRetrainAfterHistory(t *testing.T) {
	m, train, test := ablation.TrainedMachine(t)
	left := machine.MaxEpochLimit - len(m.History)
	_, err := ablation.Run(context.Background(), m, train, test, ablation.Spec{Fractions: []float64{0}, Retrain: left + 1})
	var f *param.FieldError
	if !errors.As(err, &f) || f.Field != "retrain" || !strings.Contains(f.Range, strconv.Itoa(left)) {
		t.Fatalf("retrain %d after %d epochs: %v; want a field error of retrain naming %d", left+1, len(m.History), err, left)
	}
}
