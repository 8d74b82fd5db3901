package machine_test

import (
	"context"
	"testing"

	"mark1/machine"
)

func parityRun(t *testing.T, k int, edit func(*machine.Config)) machine.ParityResult {
	t.Helper()
	cfg, err := machine.Preset("ideal")
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(&cfg)
	}
	res, err := machine.Parity(context.Background(), machine.ParityOptions{
		DeckOptions: machine.DeckOptions{Config: cfg, Recipe: machine.Recipe{MaxEpochs: 1000}, Seeds: seedsTo(10)}, K: k,
	})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestParityOnTheRetina: on 11 cells no A-unit (x + y = 10 origin points)
// sees them all, so by the order of parity no seed can reach 100 %, and
// none does. On 2 cells the machine succeeds exactly when some weights
// can (LP on its A-units' outputs), and never where they cannot.
func TestParityOnTheRetina(t *testing.T) {
	if testing.Short() {
		t.Skip("2,048 cards × 10 seeds")
	}
	r11 := parityRun(t, 11, nil)
	if r11.Perfect != 0 {
		t.Errorf("K=11: %d seeds perfect", r11.Perfect)
	}
	for _, r := range r11.Runs {
		if r.MostSeen >= 11 || r.Possible != "no (order)" {
			t.Errorf("K=11 seed %d: %+v", r.Seed, r)
		}
	}
	for _, edit := range []func(*machine.Config){nil, func(c *machine.Config) { c.Response.Bias, c.Associator.Threshold = true, 1 }} {
		r2 := parityRun(t, 2, edit)
		t.Logf("K=2: %d of 10 perfect, %d with a unit seeing both (model %.3f)", r2.Perfect, r2.WithSeeAll, r2.PSeeAll)
		for _, r := range r2.Runs {
			if (r.Right == 4) != (r.Possible == "yes (LP)") {
				t.Errorf("K=2 seed %d: %d of 4 right, but %s", r.Seed, r.Right, r.Possible)
			}
		}
	}
}
