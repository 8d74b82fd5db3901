package curves_test

import (
	"fmt"
	"os"

	"mark1/curves"
)

// A figure writes its parameters, notes and measured points as mark1
// curves prints them.
func ExampleFigure_WriteText() {
	f := &curves.Figure{
		Title:      "P_r against n_sr",
		XValue:     "n_sr",
		Parameters: []curves.Parameter{{Name: "N_e", Value: 100, Why: "A-units per source-set"}},
		Notes:      []string{"a small example"},
		Curves: []curves.Curve{{Name: "P_r measured", Kind: "measured", Seeds: 2,
			X: []float64{10, 100}, Y: []float64{0.6, 0.8}, CILow: []float64{0.5, 0.7}, CIHigh: []float64{0.7, 0.9}}},
	}
	if err := f.WriteText(os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output:
	// P_r against n_sr
	//   N_e = 100: A-units per source-set
	//   Note: a small example.
	//
	//   P_r measured (2 seeds):
	//     n_sr     10: 0.600 (95% CI 0.500–0.700)
	//     n_sr    100: 0.800 (95% CI 0.700–0.900)
}
