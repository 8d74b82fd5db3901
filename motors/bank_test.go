package motors

import (
	"math"
	"testing"
)

func TestSaturation(t *testing.T) {
	b, err := NewBank(2, Config{Limit: 1, Step: 0.3}, 1)
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		b.Pulse(0, 1)
	}
	if got := b.Values()[0]; got != 1 {
		t.Errorf("after 5 pulses of 0.3 up to a stop at 1: value %v; want 1", got)
	}
	if !b.AtStop(0) || b.AtStop(1) {
		t.Errorf("AtStop = %v, %v; want true, false", b.AtStop(0), b.AtStop(1))
	}
	// 0.3, 0.6, 0.9 move freely; the 4th pushes past the stop, the 5th against it.
	if got := b.Saturations(); got != 2 {
		t.Errorf("Saturations = %d; want 2", got)
	}
	if got := b.Pulses(); got != 5 {
		t.Errorf("Pulses = %d; want 5", got)
	}
	b.Pulse(0, -10)
	if got := b.Values()[0]; got != -1 {
		t.Errorf("after 10 pulses down: %v; want -1", got)
	}
}

func TestQuantization(t *testing.T) {
	tests := []struct {
		levels int
		moves  []float64
		want   float64
	}{
		{levels: 3, moves: []float64{0.4}, want: 0},   // levels -1, 0, 1
		{levels: 3, moves: []float64{0.6}, want: 1},   // rounds to the nearest level
		{levels: 5, moves: []float64{0.3}, want: 0.5}, // levels -1, -.5, 0, .5, 1
		{levels: 5, moves: []float64{-0.8}, want: -1},
		{levels: 0, moves: []float64{0.3, 0.1}, want: 0.4},
	}
	for _, tt := range tests {
		b, err := NewBank(1, Config{Limit: 1, Levels: tt.levels}, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range tt.moves {
			b.Move(0, d)
		}
		if got := b.Values()[0]; math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("levels %d, moves %v: value %v; want %v", tt.levels, tt.moves, got, tt.want)
		}
	}
}

func TestBacklash(t *testing.T) {
	b, _ := NewBank(1, Config{Limit: 10, Step: 1, Backlash: 0.25}, 1)
	b.Pulse(0, 2)  // 2
	b.Pulse(0, -1) // reversal: loses 0.25 → 1.25
	b.Pulse(0, -1) // same direction: 0.25
	if got := b.Position(0); math.Abs(got-0.25) > 1e-12 {
		t.Errorf("position %v; want 0.25", got)
	}
}

func TestClock(t *testing.T) {
	b, _ := NewBank(3, Config{Step: 1, PulseSeconds: 0.5}, 1)
	b.Pulse(0, 2)
	b.Pulse(1, -3)
	if dt := b.Settle(); dt != 1.5 {
		t.Errorf("parallel motors: settle took %v s; want 1.5 (the longest run)", dt)
	}
	b.Advance(3)
	if got := b.Seconds(); got != 4.5 {
		t.Errorf("clock %v s; want 4.5", got)
	}
	s, _ := NewBank(3, Config{Step: 1, PulseSeconds: 0.5, Serial: true}, 1)
	s.Pulse(0, 2)
	s.Pulse(1, -3)
	if dt := s.Settle(); dt != 2.5 {
		t.Errorf("serial motors: settle took %v s; want 2.5", dt)
	}
}

func TestStuckAndNoiseReproducible(t *testing.T) {
	cfg := Config{Limit: 1, Step: 0.01, StepNoise: 0.3, Drift: 0.01, Stuck: 0.2, Backlash: 0.002}
	run := func() *Bank {
		b, _ := NewBank(100, cfg, 42)
		for i := range 1000 {
			b.Pulse(i%100, 1-2*(i/100%2))
			b.Advance(0.1)
		}
		return b
	}
	a, c := run(), run()
	stuck := 0
	for i := range 100 {
		if a.Position(i) != c.Position(i) {
			t.Fatalf("pot %d: %v vs %v with the same seed", i, a.Position(i), c.Position(i))
		}
		if a.Stuck(i) {
			stuck++
		}
	}
	if stuck < 10 || stuck > 32 {
		t.Errorf("%d of 100 pots stuck at rate 0.2", stuck)
	}
	// Restoring a saved state continues the same streams.
	r, err := Restore(cfg, a.State())
	if err != nil {
		t.Fatal(err)
	}
	for i := range 50 {
		a.Pulse(i, 1)
		r.Pulse(i, 1)
		a.Advance(1)
		r.Advance(1)
	}
	for i := range 100 {
		if a.Position(i) != r.Position(i) {
			t.Fatalf("restored pot %d: %v; original %v", i, r.Position(i), a.Position(i))
		}
	}
}

func TestValidate(t *testing.T) {
	bad := []Config{
		{Limit: -1},
		{Limit: math.NaN()},
		{Limit: 1, Step: 3},
		{Levels: 10},
		{Limit: 1, Levels: 1},
		{StepNoise: 2},
		{Stuck: 1.5},
		{Limit: 1, Initial: 2},
	}
	for _, c := range bad {
		if err := c.Validate(); err == nil {
			t.Errorf("Validate(%+v) = nil; want an error", c)
		}
	}
	if !(Config{}).Ideal() {
		t.Error("zero Config is not ideal")
	}
}

func TestFaultyPots(t *testing.T) {
	b, err := NewBank(3, Config{Limit: 1, Step: 0.1}, 1)
	if err != nil {
		t.Fatal(err)
	}
	b.SetNoisy(1, true)
	b.Fail(2, 5)
	for range 5 {
		for i := range 3 {
			b.Pulse(i, 1)
		}
	}
	if got := b.Values()[0]; math.Abs(got-0.5) > 1e-12 {
		t.Errorf("healthy pot at %v; want 0.5 (5 pulses of 0.1)", got)
	}
	if got := b.Values()[1]; math.Abs(got-0.5) < 1e-9 || got <= 0 {
		t.Errorf("noisy pot at %v; want an erratic positive travel", got)
	}
	if got := b.Values()[2]; got != 1 || !b.Stuck(2) {
		t.Errorf("failed pot at %v (stuck %v); want 1 (clamped) and stuck", got, b.Stuck(2))
	}
	back, err := Restore(b.Config(), b.State())
	if err != nil {
		t.Fatal(err)
	}
	if !back.Noisy(1) || back.Noisy(0) || !back.Stuck(2) {
		t.Error("Restore lost the noisy or failed pots")
	}
}
