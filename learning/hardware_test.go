package learning_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"testing"

	"mark1/images"
	"mark1/learning"
	"mark1/machine"
	"mark1/response"
)

// setup builds a machine from a preset and fits a built-in task on it.
func setup(t testing.TB, preset, task string, perClass int, seed uint64) (*machine.Machine, learning.Fields, learning.Fields) {
	t.Helper()
	cfg, err := machine.Preset(preset)
	if err != nil {
		t.Fatal(err)
	}
	d, err := images.Generate(task, perClass, 20, seed)
	if err != nil {
		t.Fatal(err)
	}
	tr, te := d.Split(0.25, seed)
	m, err := machine.New(cfg, d.Classes, machine.SeedsFrom(seed), nil)
	if err != nil {
		t.Fatal(err)
	}
	return m, learning.Fields{X: m.Fit(tr), Y: machine.Labels(tr)}, learning.Fields{X: m.Fit(te), Y: machine.Labels(te)}
}

// The 1958 press demonstration: squares on the left or the right of the
// field, learned in about 50 trials.
func TestLeftRightLearnedQuickly(t *testing.T) {
	for _, preset := range []string{"mark1", "ideal", "full", "worn"} {
		for seed := uint64(1); seed <= 5; seed++ {
			m, tr, te := setup(t, preset, "leftright", 40, seed)
			res, err := learning.Hardware{}.Train(context.Background(), m, tr, te, nil)
			if err != nil {
				t.Fatal(err)
			}
			if preset == "worn" {
				if pr := m.History[len(m.History)-1].Pr; pr < 0.9 {
					t.Errorf("%s seed %d: P_r %.2f; want ≥ 0.9 even worn", preset, seed, pr)
				}
				continue
			}
			if !res.Converged || res.Updates > 40 {
				t.Errorf("%s seed %d: converged %v after %d corrections (%s); want convergence within a few dozen",
					preset, seed, res.Converged, res.Updates, res.Status)
			}
			if pg := *m.History[len(m.History)-1].Pg; pg < 0.85 {
				t.Errorf("%s seed %d: P_g %.2f; want ≥ 0.85", preset, seed, pg)
			}
		}
	}
}

// With ideal pots the error-correction rule is the textbook perceptron on the
// A-unit outputs (with the bias as an always-on input), step for step.
func TestIdealEqualsTextbookPerceptron(t *testing.T) {
	for _, tc := range []struct {
		task string
		bias bool
		full bool
	}{{"square-circle", false, false}, {"e-f", true, false}, {"shapes", true, false}, {"shapes", false, true}} {
		cfg, _ := machine.Preset("ideal")
		cfg.Response.Bias = tc.bias
		if tc.full {
			cfg.Response.Layout = response.Full
		}
		d, _ := images.Generate(tc.task, 30, 20, 3)
		m, err := machine.New(cfg, d.Classes, machine.SeedsFrom(3), nil)
		if err != nil {
			t.Fatal(err)
		}
		fields, labels := m.Fit(d), machine.Labels(d)
		eps := cfg.Motors.Step
		// The textbook perceptron, one weight vector per R-unit, on the
		// explicit A-unit output vectors x ∈ {0,1}^512 (+ 1 for the bias).
		nA := len(m.Plugboard.Units)
		dim := nA
		if tc.bias {
			dim++
		}
		used := m.Layer.Used()
		w := make([][]float64, used)
		for u := range w {
			w[u] = make([]float64, dim)
		}
		var r machine.Response
		h := learning.Hardware{}
		for step := range 3 * len(fields) {
			i := rand.New(rand.NewPCG(uint64(step), 9)).IntN(len(fields))
			// Textbook: x from the same S→A layer.
			m.Present(&r, fields[i], nil)
			for u := range used {
				// R-unit u sees the A-units of its source-set (all of them
				// in the full layout).
				x := make([]float64, dim)
				for _, a := range r.Active {
					if m.Layer.Pot(a, u) >= 0 {
						x[a] = 1
					}
				}
				if tc.bias {
					x[nA] = 1
				}
				y := -1.0
				if m.Layer.Want(u, labels[i]) {
					y = 1
				}
				var s float64
				for j := range x {
					s += w[u][j] * x[j]
				}
				if y*s <= 0 {
					for j := range x {
						w[u][j] += eps * y * x[j]
					}
				}
			}
			// Hardware: the same card through the motors.
			h.Present(m, &r, fields[i], labels[i], nil)
			vals := m.Bank.Values()
			for u := range used {
				for a := range nA {
					if p := m.Layer.Pot(a, u); p >= 0 && vals[p] != w[u][a] {
						t.Fatalf("%s step %d: R%d A%d pot %v; textbook weight %v", tc.task, step, u, a, vals[p], w[u][a])
					}
				}
				if b := m.Layer.BiasPot(u); b >= 0 && vals[b] != w[u][nA] {
					t.Fatalf("%s step %d: R%d bias %v; textbook %v", tc.task, step, u, vals[b], w[u][nA])
				}
			}
		}
	}
}

// Same seed, same machine, bit for bit: wiring, training, file.
func TestTrainingReproducible(t *testing.T) {
	encode := func(preset string) []byte {
		m, tr, te := setup(t, preset, "shapes", 20, 11)
		if _, err := (learning.Hardware{MaxEpochs: 5}).Train(context.Background(), m, tr, te, nil); err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := m.Encode(&b); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	for _, preset := range []string{"mark1", "worn"} {
		if a, b := encode(preset), encode(preset); !bytes.Equal(a, b) {
			t.Errorf("%s: two runs with the same seed saved different machines", preset)
		}
	}
}

func TestSaveLoadSamePredictions(t *testing.T) {
	m, tr, te := setup(t, "worn", "shapes", 20, 5)
	if _, err := (learning.Hardware{MaxEpochs: 4}).Train(context.Background(), m, tr, te, nil); err != nil {
		t.Fatal(err)
	}
	path := t.TempDir() + "/m.json"
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	back, err := machine.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	var r1, r2 machine.Response
	n1, n2 := m.EvalNoise(), back.EvalNoise()
	for i, f := range append(tr.X, te.X...) {
		m.Present(&r1, f, n1)
		back.Present(&r2, f, n2)
		if r1.Class != r2.Class || len(r1.Sums) != len(r2.Sums) {
			t.Fatalf("card %d: class %d before saving, %d after", i, r1.Class, r2.Class)
		}
		for u := range r1.Sums {
			if r1.Sums[u] != r2.Sums[u] {
				t.Fatalf("card %d R%d: sum %v before saving, %v after", i, u, r1.Sums[u], r2.Sums[u])
			}
		}
	}
	// Training on after loading continues exactly as without saving.
	h := learning.Hardware{MaxEpochs: 2}
	h.Train(context.Background(), m, tr, te, nil)
	h.Train(context.Background(), back, tr, te, nil)
	var a, b bytes.Buffer
	m.Encode(&a)
	back.Encode(&b)
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("training after save/load diverged from training without it")
	}
}

func TestForcedAndGamma(t *testing.T) {
	for _, h := range []learning.Hardware{
		{Rule: learning.Forced},
		{Values: learning.Gamma},
		{Rule: learning.Forced, Values: learning.Gamma, Pulses: 2},
	} {
		m, tr, te := setup(t, "mark1", "leftright", 40, 2)
		h.MaxEpochs = 20
		if _, err := h.Train(context.Background(), m, tr, te, nil); err != nil {
			t.Fatal(err)
		}
		if pg := *m.History[len(m.History)-1].Pg; pg < 0.9 {
			t.Errorf("%v/%v: P_g %.2f on left/right; want ≥ 0.9", h.Rule, h.Values, pg)
		}
	}
	// γ keeps each source-set's total value (with ideal pots, exactly up to rounding).
	cfg, _ := machine.Preset("ideal")
	d, _ := images.Generate("leftright", 20, 20, 1)
	m, _ := machine.New(cfg, d.Classes, machine.SeedsFrom(1), nil)
	f := learning.Fields{X: m.Fit(d), Y: machine.Labels(d)}
	(learning.Hardware{Values: learning.Gamma, MaxEpochs: 3}).Train(context.Background(), m, f, learning.Fields{}, nil)
	var total float64
	for _, v := range m.Bank.Values() {
		total += v
	}
	if total > 1e-9 || total < -1e-9 {
		t.Errorf("γ system: total value %v; want 0 (conserved)", total)
	}
}

func TestTrainCancelled(t *testing.T) {
	m, tr, te := setup(t, "mark1", "shapes", 10, 1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (learning.Hardware{}).Train(ctx, m, tr, te, nil); err != context.Canceled {
		t.Errorf("Train with a cancelled context: %v; want context.Canceled", err)
	}
}

// BenchmarkPresentation measures the full pipeline per card — photocells,
// A-units, R-unit sums, and a motor correction on mistakes — for the default
// machine, on letter cards (P_a ≈ 10%). The optics (fitting) are done once
// per data set, outside the loop.
func BenchmarkPresentation(b *testing.B) {
	for _, preset := range []string{"mark1", "full", "worn"} {
		b.Run(preset, func(b *testing.B) {
			m, tr, _ := setup(b, preset, "letters", 40, 1)
			var r machine.Response
			h := learning.Hardware{}
			noise := m.TrainingNoise()
			i := 0
			for b.Loop() {
				h.Present(m, &r, tr.X[i], tr.Y[i], noise)
				if i++; i == len(tr.X) {
					i = 0
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "cards/s")
		})
	}
}

// BenchmarkFit measures the retina's optics: fitting a 28x28 picture.
func BenchmarkFit(b *testing.B) {
	m, _, _ := setup(b, "mark1", "leftright", 2, 1)
	d, _ := images.Generate("letters", 1, 28, 1)
	img := d.Samples[0].Image
	dst := make([]float32, 400)
	for b.Loop() {
		dst = m.Retina.Fit(dst, img)
	}
}
