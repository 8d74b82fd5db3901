package levels_test

import (
	"fmt"
	"os"

	"mark1/levels"
)

// A report writes a row per task; a setting no sweep reached is "none".
func ExampleReport_WriteText() {
	r := &levels.Report{Seeds: 2, PerClass: 4, Epochs: 2, Tolerance: 0.01, Step: 0.02, Limit: 1, Rows: []levels.Row{{
		Task: "shapes", Classes: 4,
		Ideal:     levels.Setting{Pg: 0.75},
		Mark1:     levels.Setting{Pg: 0.7, Diff: -0.05, DiffLow: -0.1, DiffHigh: 0},
		Stops:     levels.Setting{Pg: 0.75},
		MinLevels: 9, MaxNoise: 0.2,
	}}}
	if err := r.WriteText(os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output:
	// P_g with ideal pots and with the mark1 preset's; how coarse or noisy the pots may be before P_g falls more than 1 point
	// below the ideal machine's (paired differences, mean and 95% CI over seeds 1–2; 4 cards per class, 40% held out, 2 epochs):
	//
	// task            classes    ideal        mark1 (diff, 95% CI)   end stops only (diff, CI)  min levels  max step noise  max backlash
	// shapes                4    75.0%    70.0% ( -5.0, -10.0… +0.0)    75.0% ( +0.0,  +0.0… +0.0)           9             0.2          none
	//
	// Levels are readable positions between end stops at ±1 (step 0.02, no noise or backlash); step noise and backlash on
	// otherwise ideal pots. "none": even the finest setting swept falls short. Settings swept: levels [3 5 9 17 33 65 129 257], noise [0.05 0.1 0.2 0.3 0.5 0.8], backlash [0.005 0.01 0.02 0.05 0.1].
}
