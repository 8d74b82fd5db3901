package machine_test

import (
	"context"
	"fmt"
	"testing"

	"mark1/machine"
	"mark1/response"
)

func fourConfig(t *testing.T, preset string, window int, code response.Code) machine.Config {
	t.Helper()
	cfg, err := machine.Preset(preset)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Associator.Window = window
	cfg.Response.Code = code
	return cfg
}

func seedsTo(n int) []uint64 {
	s := make([]uint64, n)
	for i := range s {
		s[i] = uint64(i + 1)
	}
	return s
}

// TestFourFiguresTheorem: a diameter-limited machine whose windows are
// narrower than the figure's span has no A-unit that breaks the locality
// identity, unit by unit on its own wiring and cards, and so never answers
// all four figures right — under every training rule, on the mark1 and
// ideal presets.
func TestFourFiguresTheorem(t *testing.T) {
	const length = 12
	rules := []struct {
		rule machine.Rule
		code response.Code
	}{
		{machine.ErrorCorrection, response.Binary},
		{machine.Forced, response.Binary},
		{machine.ErrorCorrection, response.OnePerClass},
		{machine.ForcedMonovalent, response.OnePerClass},
		{machine.TrialAndError, response.OnePerClass},
		{machine.Spontaneous, response.OnePerClass},
	}
	for _, preset := range []string{"mark1", "ideal"} {
		for _, window := range []int{4, 8, length + 1} {
			for _, rc := range rules {
				name := fmt.Sprintf("%s/local:%d/%s/%s", preset, window, rc.rule, rc.code)
				t.Run(name, func(t *testing.T) {
					res, err := machine.FourFigures(context.Background(), machine.FourOptions{
						DeckOptions: machine.DeckOptions{Config: fourConfig(t, preset, window, rc.code),
							Recipe: machine.Recipe{Rule: rc.rule, MaxEpochs: 30}, Seeds: seedsTo(5), Threads: 1},
						Length: length,
					})
					if err != nil {
						t.Fatal(err)
					}
					for _, r := range res.Runs {
						if r.Spanning != 0 || r.Right == 4 {
							t.Errorf("seed %d: %d spanning A-units, %d of 4 right", r.Seed, r.Spanning, r.Right)
						}
					}
				})
			}
		}
	}
}

func TestFourFiguresRandom(t *testing.T) {
	for _, preset := range []string{"mark1", "ideal"} {
		res, err := machine.FourFigures(context.Background(), machine.FourOptions{
			DeckOptions: machine.DeckOptions{Config: fourConfig(t, preset, 0, response.Binary),
				Recipe: machine.Recipe{MaxEpochs: 200}, Seeds: seedsTo(10)},
			Length: 12,
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s random: %d of %d seeds 4/4, %d with spanning units; %+v", preset, res.AllFour, len(res.Runs), res.WithSpanning, res.Runs)
	}
}

// TestFourReach: the smallest window at which a machine answers all four
// figures right is never below the figure's span (the theorem), measured
// for a few lengths on the ideal preset.
func TestFourReach(t *testing.T) {
	rows, err := machine.FourReachAll(context.Background(), machine.FourOptions{DeckOptions: machine.DeckOptions{
		Config: fourConfig(t, "ideal", 0, response.Binary),
		Recipe: machine.Recipe{MaxEpochs: 100},
		Seeds:  seedsTo(5),
	}}, []int{4, 10, 16})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		t.Logf("%+v", r)
		if r.Window != 0 && r.Window < r.Span {
			t.Errorf("length %d: all four right at window %d, below the span %d", r.Length, r.Window, r.Span)
		}
	}
}
