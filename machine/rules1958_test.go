package machine

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"mark1/associator"
	"mark1/response"
)

// threeCards is the hand-worked task of the rule tests: a 2×2 retina, four
// A-units each watching one cell (A-unit i fires when cell i is lit), one
// R-unit per class, so that R0's source-set is {A0, A1} and R1's {A2, A3};
// ideal pots with a step of 1, so that values count steps.
//
//	card 0, class 0: cells 0, 2 lit    → A0, A2 fire
//	card 1, class 1: cells 1, 2, 3 lit → A1, A2, A3 fire
//	card 2, class 0: cells 0, 1, 3 lit → A0, A1, A3 fire
var threeCards = struct {
	fields [][]float32
	labels []int
}{
	fields: [][]float32{{1, 0, 1, 0}, {0, 1, 1, 1}, {1, 1, 0, 1}},
	labels: []int{0, 1, 0},
}

func threeCardMachine(t *testing.T, decision response.Decision) *Machine {
	t.Helper()
	cfg, err := Preset("ideal")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Retina.Width, cfg.Retina.Height, cfg.Retina.Threshold = 2, 2, 0.5
	cfg.Associator.Units = 4
	cfg.Response.Code = response.OnePerClass
	cfg.Response.Decision = decision
	cfg.Motors.Step = 1
	plug := &associator.Plugboard{Width: 2, Height: 2}
	for c := range 4 {
		plug.Units = append(plug.Units, associator.Unit{Excitatory: []int{c}, Threshold: 1})
	}
	m, err := New(cfg, []string{"a", "b"}, SeedsFrom(1), plug)
	if err != nil {
		t.Fatal(err)
	}
	for a := range 4 {
		if want := a / 2; m.Layer.SourceSet(a) != want {
			t.Fatalf("A-unit %d feeds R-unit %d; the trace assumes %d", a, m.Layer.SourceSet(a), want)
		}
	}
	return m
}

// trace presents the three cards in order under the recipe, the pots first
// set to start (in steps), and returns the values after each card and
// whether each was a mistake.
func trace(t *testing.T, m *Machine, r Recipe, start []int) ([][]float64, []bool) {
	t.Helper()
	for p, n := range start {
		m.Bank.Pulse(p, n)
	}
	f := Fields{X: threeCards.fields, Y: threeCards.labels}
	s, err := NewSession(m, r, f, Fields{})
	if err != nil {
		t.Fatal(err)
	}
	var vals [][]float64
	var mistakes []bool
	var resp Response
	for i, x := range f.X {
		m.Present(&resp, x, nil)
		mistakes = append(mistakes, s.correct(&resp, f.Y[i], s.recipe.Rule))
		vals = append(vals, slices.Clone(m.Bank.Values()))
	}
	return vals, mistakes
}

// TestRulesByHand checks each rule against a trace worked out on paper
// (the values after each card, in steps, A0 to A3).
func TestRulesByHand(t *testing.T) {
	for _, tc := range []struct {
		name     string
		decision response.Decision
		recipe   Recipe
		start    []int
		want     [][]float64
		mistakes []bool
	}{
		{
			// Only the forced response's set gains: card 0 → A0; card 1 →
			// A2, A3; card 2 → A0, A1. The machine's own answers before
			// forcing: ties (no class) on cards 0 and 1, and on card 2 R0 =
			// 1 against R1 = 1, a tie again.
			name:     "forced-monovalent, alpha, sum",
			recipe:   Recipe{Rule: ForcedMonovalent, Pulses: 1},
			want:     [][]float64{{1, 0, 0, 0}, {1, 0, 1, 1}, {2, 1, 1, 1}},
			mistakes: []bool{true, true, true},
		},
		{
			// Every R-unit is driven toward its wanted state: card 0 → A0 +1
			// (R0 on), A2 −1 (R1 off); card 1 → A1 −1, A2 +1, A3 +1; card 2 →
			// A0 +1, A1 +1, A3 −1.
			name:     "forced (bivalent), alpha, sum",
			recipe:   Recipe{Rule: Forced, Pulses: 1},
			want:     [][]float64{{1, 0, -1, 0}, {1, -1, 0, 1}, {2, 0, 0, 0}},
			mistakes: []bool{true, true, true},
		},
		{
			// From 0, 1, 2, 1: card 0: R0 = 0 < R1 = 2, answers 1, wrong →
			// A2 −1. Card 1: R0 = 1 < R1 = 2, answers 1, right → A2 +1,
			// A3 +1. Card 2: R0 = 1 < R1 = 2, answers 1, wrong → A3 −1.
			name:     "trial-and-error, alpha, sum",
			recipe:   Recipe{Rule: TrialAndError, Pulses: 1},
			start:    []int{0, 1, 2, 1},
			want:     [][]float64{{0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 1}},
			mistakes: []bool{true, false, true},
		},
		{
			// The set's 2 steps shared among its active units: card 0 → A0
			// +2 (alone); card 1 → A2, A3 +1 each; card 2 → A0, A1 +1 each.
			// Card 2's answer before forcing: R0 = 2 > R1 = 1, right.
			name:     "forced-monovalent, beta, sum",
			recipe:   Recipe{Rule: ForcedMonovalent, Values: Beta, Pulses: 2},
			want:     [][]float64{{2, 0, 0, 0}, {2, 0, 1, 1}, {3, 1, 1, 1}},
			mistakes: []bool{true, true, false},
		},
		{
			// The same updates as Σ (the decision does not change what is
			// reinforced), but card 2 is judged by means: R0 = (1+0)/2 =
			// 0.5 < R1 = 1/1, a wrong answer rather than a tie.
			name:     "forced-monovalent, alpha, mean",
			decision: response.Mean,
			recipe:   Recipe{Rule: ForcedMonovalent, Pulses: 1},
			want:     [][]float64{{1, 0, 0, 0}, {1, 0, 1, 1}, {2, 1, 1, 1}},
			mistakes: []bool{true, true, true},
		},
		{
			// 2 pulses, then every pot loses half its value: card 0 → A0
			// 2 → 1; card 1 → A2, A3 2 → 1, A0 1 → 0.5; card 2 → A0 2.5 →
			// 1.25, A1 2 → 1, and A2, A3 (not reinforced) 1 → 0.5.
			name:     "forced-monovalent, alpha, decay 0.5",
			recipe:   Recipe{Rule: ForcedMonovalent, Pulses: 2, Decay: 0.5},
			want:     [][]float64{{1, 0, 0, 0}, {0.5, 0, 1, 1}, {1.25, 1, 0.5, 0.5}},
			mistakes: []bool{true, true, true},
		},
		{
			// R→A feedback doubling the forced set's activity: every active
			// unit gains 1, those of the forced set 2. Card 0 → A0 +2, A2
			// +1; card 1 → A1 +1, A2 +2, A3 +2; card 2 → A0 +2, A1 +2, A3
			// +1. The answers before forcing: card 0 a tie; card 1 R0 = 0 <
			// R1 = 1, right; card 2 R0 = 2+1 = 3 > R1 = 2, right.
			name:     "forced-monovalent with feedback 2",
			recipe:   Recipe{Rule: ForcedMonovalent, Pulses: 1, Feedback: 2},
			want:     [][]float64{{2, 0, 1, 0}, {2, 1, 3, 2}, {4, 3, 3, 3}},
			mistakes: []bool{true, false, false},
		},
		{
			// No labels: the set of whatever response the machine gives
			// gains. From 1, 0, 0, 2: card 0: R0 = 1 > R1 = 0 → A0 +1;
			// card 1: R0 = 0 < R1 = 2 → A2, A3 +1; card 2: R0 = 2 < R1 = 3 →
			// A3 +1, the response drifting to R1 (Class C); card 2 is class
			// 0, so that answer is counted wrong.
			name:     "spontaneous, alpha, sum",
			recipe:   Recipe{Rule: Spontaneous, Pulses: 1},
			start:    []int{1, 0, 0, 2},
			want:     [][]float64{{2, 0, 0, 2}, {2, 0, 1, 3}, {2, 0, 1, 4}},
			mistakes: []bool{false, false, true},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := threeCardMachine(t, tc.decision)
			got, mistakes := trace(t, m, tc.recipe, tc.start)
			for i := range tc.want {
				if !slices.Equal(got[i], tc.want[i]) {
					t.Errorf("after card %d: values %v; want %v", i, got[i], tc.want[i])
				}
			}
			if !slices.Equal(mistakes, tc.mistakes) {
				t.Errorf("mistakes %v; want %v", mistakes, tc.mistakes)
			}
		})
	}
}

// TestMeanDecision: with the pots at 2, 1, 1, 1, a card firing A0, A2 and
// A3 ties by sums (2 against 2) and is R0's by means (2 against 1).
func TestMeanDecision(t *testing.T) {
	for _, tc := range []struct {
		decision response.Decision
		sums     []float64
		class    int
	}{
		{response.Sum, []float64{2, 2}, -1},
		{response.Mean, []float64{2, 1}, 0},
	} {
		m := threeCardMachine(t, tc.decision)
		for p, n := range []int{2, 1, 1, 1} {
			m.Bank.Pulse(p, n)
		}
		var r Response
		m.Present(&r, []float32{1, 0, 1, 1}, nil)
		if !slices.Equal(r.Sums, tc.sums) || r.Class != tc.class {
			t.Errorf("%v: sums %v, class %d; want %v, %d", tc.decision, r.Sums, r.Class, tc.sums, tc.class)
		}
	}
}

// TestRecipeFieldErrors: a recipe out of range is refused with a
// *FieldError naming the machine file's field, never a flag.
func TestRecipeFieldErrors(t *testing.T) {
	m := threeCardMachine(t, response.Sum)
	binary := m.Config
	binary.Response.Code = response.Binary
	for _, tc := range []struct {
		recipe Recipe
		cfg    *Config
		field  string
	}{
		{Recipe{Decay: 0.6}, nil, "decay"},
		{Recipe{Decay: -0.1}, nil, "decay"},
		{Recipe{Rule: ForcedMonovalent, Feedback: 0.5}, nil, "feedback"},
		{Recipe{Feedback: 2}, nil, "feedback"}, // error correction has no feedback
		{Recipe{Rule: Spontaneous, Stop: NoMistakes}, nil, "stop"},
		{Recipe{Rule: Spontaneous}, &binary, "rule"},
		{Recipe{Rule: TrialAndError}, &binary, "rule"},
		{Recipe{Values: Beta + 1}, nil, "values"},
		{Recipe{Rule: Spontaneous + 1}, nil, "rule"},
	} {
		err := tc.recipe.Validate()
		if err == nil && tc.cfg != nil {
			err = tc.recipe.CheckMachine(*tc.cfg)
		}
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field {
			t.Errorf("%+v: error %v; want a FieldError on %q", tc.recipe, err, tc.field)
			continue
		}
		if s := err.Error(); strings.Contains(s, "--") {
			t.Errorf("%+v: %q names a flag", tc.recipe, s)
		}
	}
}
