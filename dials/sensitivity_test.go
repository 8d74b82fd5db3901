package dials

import (
	"math"
	"testing"

	"mark1/associator"
	"mark1/images"
	"mark1/machine"
)

// TestSensitivityByHand checks Sensitivity on a 2x2 retina with two A-units
// wired by hand, against sums worked out on paper.
func TestSensitivityByHand(t *testing.T) {
	cfg, err := machine.Preset("ideal")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Retina.Width, cfg.Retina.Height = 2, 2
	cfg.Associator.Units = 2
	plug := &associator.Plugboard{Width: 2, Height: 2, Units: []associator.Unit{
		{Excitatory: []int{0, 1}, Threshold: 2},                    // A0 fires when cells 0 and 1 are both lit
		{Excitatory: []int{2}, Inhibitory: []int{3}, Threshold: 1}, // A1: cell 2 lit and cell 3 dark
	}}
	m, err := machine.New(cfg, []string{"no", "yes"}, machine.SeedsFrom(1), plug)
	if err != nil {
		t.Fatal(err)
	}
	if m.Layer.Used() != 1 {
		t.Fatalf("%d R-units in use; want 1", m.Layer.Used())
	}
	m.Bank.Pulse(m.Layer.Pot(0, 0), 30)
	m.Bank.Pulse(m.Layer.Pot(1, 0), -45)
	v0, v1 := m.Bank.Values()[m.Layer.Pot(0, 0)], m.Bank.Values()[m.Layer.Pot(1, 0)]
	if v0 <= 0 || v1 >= 0 {
		t.Fatalf("pot values %v, %v; want one positive, one negative", v0, v1)
	}
	// Card 1 lights cells 0 and 2 (S = 1 0 1 0), card 2 none.
	//   cell 0: A0 needs cell 1 too; A1 is on either way          → Δ 0 and 0
	//   cell 1: turns A0 on (with cell 0) on card 1 only          → Δ v0 and 0
	//   cell 2: turns A1 on on both cards                          → Δ v1 and v1
	//   cell 3: turns A1 off on card 1; A1 is off on card 2 anyway → Δ −v1 and 0
	fields := [][]float32{{1, 0, 1, 0}, {0, 0, 0, 0}}
	want := []float64{0, v0 / 2, v1, -v1 / 2}
	got := Sensitivity(m, fields)
	for s := range want {
		if math.Abs(got[0][s]-want[s]) > 1e-12 {
			t.Errorf("cell %d: sensitivity %v; want %v", s, got[0][s], want[s])
		}
	}
	m.Retina.Kill(3)
	if got := Sensitivity(m, fields)[0][3]; !math.IsNaN(got) {
		t.Errorf("a dead cell's sensitivity %v; want NaN", got)
	}
	if got := Sensitivity(m, nil)[0][0]; !math.IsNaN(got) {
		t.Errorf("sensitivity over no cards %v; want NaN", got)
	}
}

// TestSensitivityLeftRight: a machine trained on left/right responds to
// light on one half of the retina with the R-unit that answers "right",
// and against light on the other half.
func TestSensitivityLeftRight(t *testing.T) {
	for _, tc := range []struct {
		name        string
		onePerClass bool
		rUnit       int // the R-unit that answers "right"
	}{
		{"binary code", false, 0},
		{"one R-unit per class", true, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, d := trainedOn(t, "mark1", "leftright", 50, 0, 20, tc.onePerClass)
			if d.Classes[1] != "right" {
				t.Fatalf("classes %v; want right second", d.Classes)
			}
			if acc := m.Accuracy(m.Fit(d), machine.Labels(d)); acc < 0.9 {
				t.Fatalf("P_r %.2f after training; want ≥ 0.9", acc)
			}
			sens := Sensitivity(m, m.Fit(d))[tc.rUnit]
			w, h := m.Retina.Size()
			var sum, mass, right [2]float64
			col := make([]float64, w)
			for s, v := range sens {
				col[s%w] += v / float64(h)
				half := 0 // left
				if s%w >= w/2 {
					half = 1
				}
				sum[half] += v
				mass[half] += math.Abs(v)
				if (v > 0) == (half == 1) {
					right[half] += math.Abs(v)
				}
			}
			t.Logf("column means %.3f; mass of the expected sign %.2f left, %.2f right", col, right[0]/mass[0], right[1]/mass[1])
			if !(sum[0] < 0 && sum[1] > 0) {
				t.Errorf("total sensitivity of %s: left half %+.3f, right half %+.3f; want negative on the left, positive on the right",
					RUnitName(m, tc.rUnit), sum[0], sum[1])
			}
			for half, name := range []string{"left", "right"} {
				cols := 0 // columns of the half whose mean has the expected sign
				for x := half * w / 2; x < (half+1)*w/2; x++ {
					if (col[x] > 0) == (half == 1) && col[x] != 0 {
						cols++
					}
				}
				if cols < 8*w/20 {
					t.Errorf("%s half: %d of %d columns with a mean of the expected sign; want at least %d", name, cols, w/2, 8*w/20)
				}
				if f := right[half] / mass[half]; !(f >= 0.7) {
					t.Errorf("%s half: %.0f%% of the sensitivity (by magnitude) of the expected sign; want at least 70%%", name, 100*f)
				}
			}
		})
	}
}

// TestClassMeans checks the mean cards against a direct count.
func TestClassMeans(t *testing.T) {
	m, d := trained(t, "mark1", "shapes", 0, 3, false)
	fields, labels := m.Fit(d), machine.Labels(d)
	means := ClassMeans(m, fields, labels)
	confusion := m.Confusion(fields, labels)
	var r machine.Response
	noise := m.EvalNoise()
	lit := make([][]int, len(m.Classes))
	for c := range lit {
		lit[c] = make([]int, m.Retina.Cells())
	}
	for i, f := range fields {
		m.Present(&r, f, noise)
		for s, v := range r.S {
			if v > 0 {
				lit[labels[i]][s]++
			}
		}
	}
	for c, cm := range means {
		right := confusion[c][c]
		total := 0
		for _, n := range confusion[c] {
			total += n
		}
		if cm.Cards != total || cm.Wrong != total-right {
			t.Errorf("%s: %d cards, %d wrong; the confusion matrix says %d and %d", cm.Class, cm.Cards, cm.Wrong, total, total-right)
		}
		for p, n := range cm.Answers {
			if n != confusion[c][p] {
				t.Errorf("%s: %d answers %d; the confusion matrix says %d", cm.Class, n, p, confusion[c][p])
			}
		}
		for s, v := range cm.Mean {
			if want := float64(lit[c][s]) / float64(total); math.Abs(v-want) > 1e-12 {
				t.Fatalf("%s: mean at cell %d is %v; want %v", cm.Class, s, v, want)
			}
		}
		if (cm.WrongMean == nil) != (cm.Wrong == 0) {
			t.Errorf("%s: %d wrong but WrongMean nil = %v", cm.Class, cm.Wrong, cm.WrongMean == nil)
		}
	}
}

func TestSensitivityGolden(t *testing.T) {
	m, d := trainedOn(t, "mark1", "leftright", 50, 0, 20, false)
	goldenImage(t, "sensitivity-leftright.png", SensitivityMaps(m, m.Fit(d), "leftright"))
	m, d = trained(t, "mark1", "shapes", 0, 8, false)
	goldenImage(t, "sensitivity.png", SensitivityMaps(m, m.Fit(d), "shapes"))
	// Fresh cards, some of which the machine gets wrong.
	fresh, err := images.Generate("shapes", 10, 20, 2)
	if err != nil {
		t.Fatal(err)
	}
	goldenImage(t, "means.png", MeanCards(m, m.Fit(fresh), machine.Labels(fresh), "shapes (fresh cards)"))
}
