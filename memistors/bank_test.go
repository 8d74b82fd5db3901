package memistors

import (
	"errors"
	"math"
	"testing"
)

func TestAdapt(t *testing.T) {
	tests := []struct {
		name  string
		cfg   Config
		moves [][]float64
		want  []float64
		secs  float64 // the clock after the moves
	}{
		{"ideal: moves at once by the change", Config{}, [][]float64{{0.3, -2}, {0.4, 5}}, []float64{0.7, 3}, 0},
		{"bounded", Config{Max: 1}, [][]float64{{0.6, -0.6}, {0.6, -0.6}}, []float64{1, -1}, 0},
		{"slow plating takes the largest change's time", Config{Rate: 0.5}, [][]float64{{0.25, -1}}, []float64{0.25, -1}, 2},
		{"a pulse reaches at most rate × pulse", Config{Rate: 0.5, PulseSeconds: 1}, [][]float64{{0.25, -1}, {2, 0}}, []float64{0.75, -0.5}, 2},
		{"rheostat: the nearest setting", Config{Max: 1, Step: 0.25}, [][]float64{{0.2, 0.2}, {0.1, 0.9}}, []float64{0.25, 1}, 0},
		{"rheostat: a small change leaves the knob", Config{Max: 1, Step: 0.25}, [][]float64{{0.1, -0.1}}, []float64{0, 0}, 0},
		{"rheostat: the last setting inside the range", Config{Max: 1, Step: 0.3}, [][]float64{{5, -5}}, []float64{0.9, -0.9}, 0},
	}
	for _, tt := range tests {
		b, err := NewBank(len(tt.want), tt.cfg, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range tt.moves {
			b.Adapt(m)
		}
		for i, w := range b.Weights() {
			if math.Abs(w-tt.want[i]) > 1e-12 {
				t.Errorf("%s: weights %v; want %v", tt.name, b.Weights(), tt.want)
				break
			}
		}
		if math.Abs(b.Seconds()-tt.secs) > 1e-12 {
			t.Errorf("%s: clock %v s; want %v", tt.name, b.Seconds(), tt.secs)
		}
		if got := b.Adaptations(); got != int64(len(tt.moves)) {
			t.Errorf("%s: %d adaptations; want %d", tt.name, got, len(tt.moves))
		}
	}
}

func TestLeak(t *testing.T) {
	tests := []struct {
		leak, dt, want float64
	}{
		{0, 100, 1},
		{10, 10, math.Exp(-1)},
		{2.6e6, 2.6e6, math.Exp(-1)},
		{10, 0, 1},
		{10, -5, 1}, // no time runs backwards
	}
	for _, tt := range tests {
		b, _ := NewBank(2, Config{LeakSeconds: tt.leak}, 1)
		b.Adapt([]float64{1, -1})
		b.Advance(tt.dt)
		if w := b.Weights(); math.Abs(w[0]-tt.want) > 1e-12 || math.Abs(w[1]+tt.want) > 1e-12 {
			t.Errorf("leak %v s over %v s: weights %v; want ±%v", tt.leak, tt.dt, w, tt.want)
		}
	}
}

// Noisy moves within bounds stay within them, never plate backwards, and
// repeat with the seed.
func TestNoiseBoundsSeed(t *testing.T) {
	run := func(seed uint64) *Bank {
		b, _ := NewBank(20, Config{Max: 0.5, Rate: 0.3, PulseSeconds: 1, Noise: 1, LeakSeconds: 50}, seed)
		d := make([]float64, 20)
		for k := range 500 {
			for i := range d {
				d[i] = 0.4 * math.Sin(float64(3*k+7*i))
			}
			before := append([]float64(nil), b.Weights()...)
			b.Adapt(d)
			for i, w := range b.Weights() {
				if w < -0.5 || w > 0.5 {
					t.Fatalf("weight %d at %v, outside [-0.5, 0.5]", i, w)
				}
				if (w-before[i])*d[i] < 0 {
					t.Fatalf("weight %d moved %v against its change %v", i, w-before[i], d[i])
				}
			}
			b.Advance(3)
		}
		return b
	}
	a, b, c := run(7), run(7), run(8)
	same := true
	for i := range a.Weights() {
		if a.Weights()[i] != b.Weights()[i] {
			t.Fatalf("weight %d: %v vs %v with the same seed", i, a.Weights()[i], b.Weights()[i])
		}
		same = same && a.Weights()[i] == c.Weights()[i]
	}
	if same {
		t.Error("seeds 7 and 8 gave the same noisy weights")
	}
	if a.Saturations() == 0 {
		t.Error("no saturation with moves of 0.4 and a bound of 0.5")
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		cfg   Config
		field string // "" for a valid Config
	}{
		{Config{}, ""},
		{Defaults(), ""},
		{Rheostats(), ""},
		{Config{Max: -1}, "max"},
		{Config{Max: math.NaN()}, "max"},
		{Config{Rate: math.Inf(1)}, "rate"},
		{Config{PulseSeconds: -1}, "pulse_seconds"},
		{Config{LeakSeconds: -1}, "leak_seconds"},
		{Config{Noise: 1.5}, "noise"},
		{Config{Noise: math.NaN()}, "noise"},
		{Config{Max: 1, Step: 2}, "step"},
	}
	for _, tt := range tests {
		err := tt.cfg.Validate()
		var fe *FieldError
		switch {
		case tt.field == "" && err != nil:
			t.Errorf("Validate(%+v) = %v; want nil", tt.cfg, err)
		case tt.field != "" && (!errors.As(err, &fe) || fe.Field != tt.field):
			t.Errorf("Validate(%+v) = %v; want a FieldError on %s", tt.cfg, err, tt.field)
		}
	}
	if _, err := NewBank(0, Config{}, 1); err == nil {
		t.Error("NewBank(0) = nil error")
	}
	if !(Config{}).Ideal() || Defaults().Ideal() {
		t.Error("Ideal: the zero Config must be ideal, the defaults not")
	}
}

func TestKind(t *testing.T) {
	for _, name := range Kinds() {
		c, err := Kind(name)
		if err != nil || c.Validate() != nil || c.Ideal() != (name == "ideal") {
			t.Errorf("Kind(%q) = %+v, %v", name, c, err)
		}
	}
	if _, err := Kind("copper"); err == nil {
		t.Error("Kind(copper): no error")
	}
}
