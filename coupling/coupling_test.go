package coupling

import (
	"errors"
	"math"
	"slices"
	"testing"
)

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		c     Config
		field string // "" for valid
	}{
		{Config{}.Defaults(), ""},
		{Config{Eta: DefaultEta}.Defaults(), ""},
		{Config{Eta: -1}.Defaults(), "eta"},
		{Config{Eta: math.NaN()}.Defaults(), "eta"},
		{Config{Eta: 11}.Defaults(), "eta"},
		{Config{Eta: 1, Delta: 1e-4}.Defaults(), "delta"},
		{Config{Eta: 1, Delta: 2}.Defaults(), "delta"},
		{Config{Eta: 1, Duration: -1}.Defaults(), "duration"},
		{Config{Eta: 1, Duration: 51}.Defaults(), "duration"},
	} {
		err := tc.c.Validate()
		var fe *FieldError
		switch {
		case tc.field == "" && err != nil:
			t.Errorf("%+v: %v", tc.c, err)
		case tc.field != "" && (!errors.As(err, &fe) || fe.Field != tc.field):
			t.Errorf("%+v: error %v, want one about %s", tc.c, err, tc.field)
		}
	}
}

func TestDefaults(t *testing.T) {
	c := Config{}.Defaults()
	if c.Eta != 0 || c.Delta != DefaultDelta || c.Duration != DefaultDuration {
		t.Errorf("Defaults() = %+v", c)
	}
	if got := (Config{Delta: 0.01, Duration: 5}).Steps(); got != 500 {
		t.Errorf("Steps = %d, want 500", got)
	}
	if got := (Config{Delta: 0.3, Duration: 1}).Steps(); got != 4 {
		t.Errorf("Steps = %d, want 4", got)
	}
}

// TestFire: A_II fires where A_I does while the couplings are 0, and where
// the coupled input reaches θ once they are not.
func TestFire(t *testing.T) {
	l, err := New(4, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		v      map[[2]int]float64 // υ_μν
		active []int
		want   []int
	}{
		{"no couplings", nil, []int{2, 0}, []int{0, 2}},
		{"none active", nil, nil, []int{}},
		{"one coupling reaches θ", map[[2]int]float64{{0, 3}: 1}, []int{0}, []int{0, 3}},
		{"one coupling short of θ", map[[2]int]float64{{0, 3}: 0.999}, []int{0}, []int{0}},
		{"two add up", map[[2]int]float64{{0, 3}: 0.5, {1, 3}: 0.5}, []int{0, 1}, []int{0, 1, 3}},
		{"an inactive unit's coupling counts not", map[[2]int]float64{{2, 3}: 5}, []int{0, 1}, []int{0, 1}},
	} {
		clear(l.V)
		for k, v := range tc.v {
			l.V[k[0]*4+k[1]] = v
		}
		got, _ := l.Fire(nil, nil, tc.active)
		if !slices.Equal(got, tc.want) && !(len(got) == 0 && len(tc.want) == 0) {
			t.Errorf("%s: Fire(%v) = %v, want %v", tc.name, tc.active, got, tc.want)
		}
	}
}

// TestLearn: one step of υ(t+Δt) − υ(t) = ηΔt·e_μj·Φ_ν − δΔt·υ(t).
func TestLearn(t *testing.T) {
	for _, tc := range []struct {
		name              string
		start             float64 // every υ before
		from              []int
		phi               []float64
		eta, delta, dt    float64
		want00, want01    float64 // υ_00, υ_01 after
		want10, wantSteps float64
	}{
		{"grow from 0", 0, []int{0}, []float64{1, 0}, 0.5, 0.1, 1, 0.5, 0, 0, 1},
		{"decay only", 2, nil, []float64{1, 1}, 0.5, 0.1, 1, 1.8, 1.8, 1.8, 1},
		{"both, Δt = 0.5", 2, []int{1}, []float64{0, 1}, 0.5, 0.1, 0.5, 1.9, 1.9, 1.9, 1},
		{"η = 0 changes nothing without decay", 0, []int{0, 1}, []float64{1, 1}, 0, 0.1, 1, 0, 0, 0, 1},
		{"Φ weighs the growth", 0, []int{0}, []float64{0.25, 1}, 1, 0.5, 1, 0.25, 1, 0, 1},
	} {
		l, _ := New(2, 1)
		for i := range l.V {
			l.V[i] = tc.start
		}
		l.Learn(tc.from, tc.phi, tc.eta, tc.delta, tc.dt)
		got := []float64{l.V[0], l.V[1], l.V[2], float64(l.Steps)}
		want := []float64{tc.want00, tc.want01, tc.want10, tc.wantSteps}
		// "both": υ_11 = 2·0.95 + 0.25 = 2.15; the others only decay.
		for i := range got {
			if math.Abs(got[i]-want[i]) > 1e-15 {
				t.Errorf("%s: [υ00 υ01 υ10 steps] = %v, want %v", tc.name, got, want)
				break
			}
		}
	}
}

func TestGammaAndInput(t *testing.T) {
	l, _ := New(3, 2)
	copy(l.V, []float64{0, 1, 2, 3, 4, 5, 6, 7, 8})
	if g := l.Gamma([]int{0, 2}, 1); g != 1+7 {
		t.Errorf("Gamma = %v, want 8", g)
	}
	a := l.Input(nil, []int{0, 2})
	if want := []float64{0 + 6 + 2, 1 + 7, 2 + 8 + 2}; !slices.Equal(a, want) {
		t.Errorf("Input = %v, want %v", a, want)
	}
}

func TestStateRoundTrip(t *testing.T) {
	l, _ := New(3, 1)
	l.V[1], l.V[5], l.Steps = 0.25, 3, 7
	s := l.State()
	if !slices.Equal(s.From, []int{0, 1}) || !slices.Equal(s.To, []int{1, 2}) {
		t.Fatalf("State = %+v", s)
	}
	r, err := Restore(3, 1, s)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.V, l.V) || r.Steps != 7 {
		t.Errorf("Restore gave %+v, want %+v", r, l)
	}
	for _, bad := range []State{
		{Steps: -1},
		{From: []int{0}},
		{From: []int{3}, To: []int{0}, Value: []float64{1}},
		{From: []int{0, 0}, To: []int{1, 1}, Value: []float64{1, 1}},
		{From: []int{0}, To: []int{1}, Value: []float64{0}},
		{From: []int{0}, To: []int{1}, Value: []float64{math.Inf(1)}},
	} {
		if _, err := Restore(3, 1, bad); err == nil {
			t.Errorf("Restore(%+v) took it", bad)
		}
	}
	if _, err := New(MaxUnits+1, 1); err == nil {
		t.Error("New took too many units")
	}
	if _, err := New(2, 0); err == nil {
		t.Error("New took θ = 0")
	}
}
