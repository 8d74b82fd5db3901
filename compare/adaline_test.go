package compare

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"mark1/learning"
	"mark1/machine"
	"mark1/memistors"
)

// randomData returns n rows of dim features in [−1, 1] (some rows zero)
// of classes classes, labelled by the nearest of random centres.
func randomData(n, dim, classes int, seed uint64) *learning.Data {
	r := rand.New(rand.NewPCG(seed, 1))
	centres := make([][]float64, classes)
	for c := range centres {
		centres[c] = make([]float64, dim)
		for j := range centres[c] {
			centres[c][j] = 2*r.Float64() - 1
		}
	}
	d := &learning.Data{X: make([][]float64, n), Y: make([]int, n), Classes: classes}
	for i := range d.X {
		x := make([]float64, dim)
		if i%17 != 5 { // a zero row now and then: α-LMS skips it, with or without the bias
			for j := range x {
				x[j] = 2*r.Float64() - 1
			}
		}
		best, bd := 0, math.Inf(1)
		for c, z := range centres {
			dd := 0.0
			for j := range x {
				dd += (x[j] - z[j]) * (x[j] - z[j])
			}
			if dd < bd {
				best, bd = c, dd
			}
		}
		d.X[i], d.Y[i] = x, best
	}
	return d
}

// With an ideal bank — no noise, no leak, no bounds, plating at once or
// fast — the memistor ADALINE's weights are learning.Adaline's, the
// software reference, on the same data, order and options.
func TestMemistorAdalineIsSoftwareAdaline(t *testing.T) {
	tests := []struct {
		name    string
		bank    memistors.Config
		classes int
		alpha   float64
		mu      float64
		decay   float64
		noBias  bool
	}{
		{"α-LMS, ideal bank", memistors.Config{}, 2, 0.3, 0, 0, false},
		{"α-LMS, fast plating", memistors.Config{Rate: 1e6, PulseSeconds: 1}, 2, 1.2, 0, 0, false},
		{"α-LMS, fast plating, three classes", memistors.Config{Rate: 1e6}, 3, 0.5, 0, 0.1, false},
		{"μ-LMS, fast plating", memistors.Config{Rate: 1e6}, 2, 0, 0.02, 0, false},
		{"μ-LMS, four classes, no bias", memistors.Config{Rate: 1e6, PulseSeconds: 10}, 4, 0, 0.01, 0.5, true},
	}
	for _, tt := range tests {
		d := randomData(60, 7, tt.classes, 3)
		sw := learning.Adaline{Alpha: tt.alpha, Mu: tt.mu, Decay: tt.decay, NoBias: tt.noBias, MaxEpochs: 25, InOrder: true}
		hw := MemistorAdaline{Memistors: tt.bank, Alpha: tt.alpha, Mu: tt.mu, Decay: tt.decay, NoBias: tt.noBias, MaxEpochs: 25, InOrder: true, PresentSeconds: 3}
		sres, err := sw.Fit(context.Background(), d, nil)
		if err != nil {
			t.Fatal(err)
		}
		hres, err := hw.Fit(context.Background(), d, nil)
		if err != nil {
			t.Fatal(err)
		}
		sm, hm := sres.Model.(*learning.LinearModel), hres.Model.(*AdalineModel)
		if len(sm.W) != len(hm.W) || sres.Epochs != hres.Epochs || sres.Status != hres.Status {
			t.Fatalf("%s: %d machines, %d epochs, %v; software %d, %d, %v", tt.name, len(hm.W), hres.Epochs, hres.Status, len(sm.W), sres.Epochs, sres.Status)
		}
		worst := 0.0
		for k := range sm.W {
			for j := range sm.W[k] {
				worst = max(worst, math.Abs(sm.W[k][j]-hm.W[k][j]))
			}
			worst = max(worst, math.Abs(sm.B[k]-hm.B[k]))
		}
		if worst > 1e-9 || worst != worst {
			t.Errorf("%s: weights differ from learning.Adaline's by %g; want at most 1e-9", tt.name, worst)
		}
		for i, e := range sres.Curve {
			if hres.Curve[i].Mistakes != e.Mistakes {
				t.Errorf("%s: epoch %d: %d mistakes; software %d", tt.name, i+1, hres.Curve[i].Mistakes, e.Mistakes)
				break
			}
		}
		if want := float64(hres.Epochs*d.Len()) * 3; hm.Seconds < want || hm.Adaptations != int64(hres.Epochs*d.Len()) {
			t.Errorf("%s: clock %v s, %d adaptations; want at least %v s (the presentations), %d", tt.name, hm.Seconds, hm.Adaptations, want, hres.Epochs*d.Len())
		}
	}
}

// With bounds the weights never leave [−Max, Max], whatever the step
// asks, and in rheostat mode they sit on the knobs' settings.
func TestMemistorAdalineBounds(t *testing.T) {
	d := randomData(50, 6, 3, 5)
	tests := []struct {
		name string
		bank memistors.Config
	}{
		{"memistors", memistors.Config{Max: 0.05, Rate: 0.2, PulseSeconds: 1, Noise: 0.5, LeakSeconds: 100}},
		{"defaults", memistors.Defaults()},
		{"rheostats", memistors.Config{Max: 0.3, Step: 0.1}},
	}
	for _, tt := range tests {
		for epochs := 1; epochs <= 8; epochs++ {
			a := MemistorAdaline{Memistors: tt.bank, Alpha: 1.5, MaxEpochs: epochs, Seed: uint64(epochs), PresentSeconds: 3}
			res, err := a.Fit(context.Background(), d, nil)
			if err != nil {
				t.Fatal(err)
			}
			m := res.Model.(*AdalineModel)
			for k := range m.W {
				for _, w := range append(append([]float64(nil), m.W[k]...), m.B[k]) {
					if math.Abs(w) > tt.bank.Max {
						t.Fatalf("%s, %d epochs: weight %v outside [−%v, %v]", tt.name, epochs, w, tt.bank.Max, tt.bank.Max)
					}
					if s := tt.bank.Step; s > 0 && math.Abs(w/s-math.Round(w/s)) > 1e-9 {
						t.Fatalf("%s, %d epochs: weight %v not on a setting %v apart", tt.name, epochs, w, s)
					}
				}
			}
		}
	}
}

// The same seed gives the same row, noise and order included; another
// seed another noise.
func TestMemistorAdalineReproducible(t *testing.T) {
	cfg, _ := machine.Preset("mark1")
	tr, te := data(t, "shapes", 12)
	bank := memistors.Defaults()
	bank.Noise = 0.5
	run := func(seed uint64) Row {
		spec := Spec{Learners: []string{MemistorName}, Seed: seed, Options: epochs(6), NoTheory: true, Memistors: &bank}
		rep, err := Run(context.Background(), cfg, machine.SeedsFrom(1), tr, te, spec, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Rows) != 1 || rep.Rows[0].Learner != MemistorName || rep.Rows[0].Features != "association" {
			t.Fatalf("rows %+v; want one memistor-adaline row on association", rep.Rows)
		}
		return rep.Rows[0]
	}
	a, b, c := run(4), run(4), run(5)
	same := func(x, y Row) bool {
		return x.Pr == y.Pr && *x.Pg == *y.Pg && *x.Margin == *y.Margin && *x.MachineSeconds == *y.MachineSeconds &&
			*x.Pulses == *y.Pulses && x.Updates == y.Updates && len(x.PgCurve) == len(y.PgCurve)
	}
	if !same(a, b) {
		t.Errorf("seed 4 twice: %+v and %+v", a, b)
	}
	if same(a, c) {
		t.Errorf("seeds 4 and 5 gave the same row: %+v", a)
	}
	if *a.Pulses != int64(a.Updates) || len(a.PgCurve) != a.Epochs {
		t.Errorf("%d plating pulses for %d adaptations, %d P_g for %d epochs", *a.Pulses, a.Updates, len(a.PgCurve), a.Epochs)
	}
}
