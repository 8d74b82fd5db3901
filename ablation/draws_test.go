package ablation

import (
	"context"
	"math"
	"reflect"
	"strings"
	"testing"

	"mark1/images"
	"mark1/machine"
)

// TrainedMachine is a machine trained on left/right, with its cards; the
// external tests (package ablation_test) share it.
func TrainedMachine(t *testing.T) (*machine.Machine, machine.Fields, machine.Fields) {
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
	tr, te := m.Fields(train), m.Fields(test)
	s, err := machine.NewSession(m, machine.Recipe{}, tr, te)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	return m, tr, te
}

// Several fault draws: draw 0 is the single draw, the mean and spread are
// those of the draws, and the result is the same with one worker or four.
func TestDraws(t *testing.T) {
	m, train, test := TrainedMachine(t)
	one, err := Run(context.Background(), m, train, test, Spec{Fractions: []float64{0.3}, Retrain: 1, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	var runs [][]Point
	for _, workers := range []int{1, 4} {
		pts, err := Run(context.Background(), m, train, test, Spec{Fractions: []float64{0.3}, Retrain: 1, Seed: 4, Draws: 3, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, pts)
	}
	if !reflect.DeepEqual(runs[0], runs[1]) {
		t.Fatalf("1 and 4 workers differ:\n%+v\n%+v", runs[0], runs[1])
	}
	// Recompute the mean from the three draws one by one.
	for k, part := range []Part{AUnits, Pots} {
		var sum, sum2 float64
		for d := range 3 {
			pts, err := runDraw(context.Background(), m, train, test, Spec{Retrain: 1, Seed: 4}, part, d, []float64{0.3}, func() {})
			if err != nil {
				t.Fatal(err)
			}
			if d == 0 && pts[0].Pg != one[k].Pg {
				t.Errorf("%v: draw 0 P_g %v, the single draw %v", part, pts[0].Pg, one[k].Pg)
			}
			sum += pts[0].Pg
			sum2 += pts[0].Pg * pts[0].Pg
		}
		got := runs[0][k]
		if math.Abs(got.Pg-sum/3) > 1e-12 || math.Abs(got.PgSD-math.Sqrt((sum2-sum*sum/3)/2)) > 1e-9 || got.Draws != 3 {
			t.Errorf("%v: mean %v ± %v over %d draws; want %v", part, got.Pg, got.PgSD, got.Draws, sum/3)
		}
	}
	if !strings.Contains(Table(runs[0]), "±") {
		t.Errorf("table of 3 draws lacks the spread:\n%s", Table(runs[0]))
	}
}

// Spec.Progress counts every measurement once, up to the total, and
// changes no result.
func TestRunProgress(t *testing.T) {
	m, train, test := TrainedMachine(t)
	spec := Spec{Parts: []Part{AUnits, Pots}, Fractions: []float64{0, 0.5}, Retrain: 1, Seed: 2, Draws: 3, Workers: 2}
	var calls []int
	withProgress := spec
	withProgress.Progress = func(done, total int) {
		if total != 2*2*3 {
			t.Errorf("total %d; want 12 (2 parts × 2 fractions × 3 draws)", total)
		}
		calls = append(calls, done)
	}
	a, err := Run(context.Background(), m, train, test, withProgress)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Run(context.Background(), m, train, test, spec)
	if err != nil {
		t.Fatal(err)
	}
	for k, d := range calls {
		if d != k+1 {
			t.Fatalf("progress calls %v; want 1, 2, …, 12", calls)
		}
	}
	if len(calls) != 12 {
		t.Errorf("%d progress calls; want 12", len(calls))
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("Progress changed the points")
	}
}
