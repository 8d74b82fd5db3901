package ablation_test

import (
	"fmt"

	"mark1/ablation"
)

// A front end sets a Spec by the options' names, from text, as mark1
// ablate's flags do; draws given 0 asks for none, which the Spec's own
// rule refuses, naming the option's field.
func ExampleSpecOptions() {
	var s ablation.Spec
	for _, o := range ablation.SpecOptions() {
		text := map[string]string{"fail": "pots", "fractions": "0, 0.5", "retrain": "2", "draws": "0"}[o.Name]
		fmt.Println(o.Name, o.Fields, o.Default, o.Set(&s, text))
	}
	fmt.Println(s.Parts, s.Fractions, s.Retrain)
	fmt.Println(s.Validate())
	// Output:
	// fail [parts] a-units,pots <nil>
	// fractions [fractions] 0,0.05,0.1,0.2,0.3,0.5,0.7,0.9 <nil>
	// retrain [retrain] 3 <nil>
	// draws [draws] 5 <nil>
	// [pots] [0 0.5] 2
	// draws -1: want a whole number in [1, 1000]
}
