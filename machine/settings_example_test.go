package machine_test

import (
	"context"
	"fmt"
	"os"

	"mark1/images"
	"mark1/machine"
)

// A front end sets a configuration by the options' names, from text, as
// mark1's machine flags do; a value out of range is refused by the part's
// own rule when the configuration is validated.
func ExampleConfigOptions() {
	cfg, _ := machine.Preset("mark1")
	for _, o := range machine.ConfigOptions() {
		switch o.Name {
		case "a-units":
			fmt.Println(o.Name, o.Fields, o.Default, o.Set(&cfg, "64"))
		case "cell-noise":
			fmt.Println(o.Name, o.Fields, o.Default, o.Set(&cfg, "2"))
		}
	}
	fmt.Println(cfg.Associator.Units, cfg.Validate())
	// Output:
	// cell-noise [retina.noise] 0 <nil>
	// a-units [associator.units] 512 <nil>
	// 64 retina.noise 2 out of range: want a probability in [0, 1]
}

// P_a and P_c of an untrained machine on a task's cards, written as mark1
// pa prints them.
func ExampleMeasurePaCards() {
	cfg, _ := machine.Preset("mark1")
	d, _ := images.Generate("square-circle", 10, 20, 1)
	r, err := machine.MeasurePaCards(context.Background(), machine.PaOptions{Config: cfg, Seeds: machine.SeedsFrom(1), Cards: d})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(r.Curves), "model curve")
	if err := r.WriteText(os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output:
	// 1 model curve
	// square-circle: 20 cards on a 400-cell retina, 512 A-units with x=5, y=5, θ=2 (seed 1).
	//   lit area: mean 39.3% of the retina
	//   P_a measured: mean 15.7%, smallest 12.9%, largest 18.6%; correlation with lit area 0.70
	//   P_a of the 1958 model at each card's lit area: mean 15.8%; cards above 20%: 0
	//
	//   lit area      cards P_a measured    P_a model
	//    20– 30%          5        14.0%        13.9%
	//    30– 40%          7        15.3%        15.9%
	//    40– 50%          5        17.5%        17.1%
	//    50– 60%          2        17.2%        16.9%
	//    60– 70%          1        15.6%        16.7%
	//   P_c, units firing for a card that also fire for the next card of the same class (18 pairs): measured 40.7%, 1958 model 41.8%
	//   P_c, units firing for a card that also fire for the next card of different classes (19 pairs): measured 39.2%, 1958 model 40.7%
	//   PR58's generalisation criterion P_c12 < P_a < P_c11 (other class < any card < same class;
	//     sufficient for P_g above chance, not necessary):
	//     measured:   P_c12 39.2%, P_a 15.7%, P_c11 40.7%: does not hold
	//     1958 model: P_c12 40.7%, P_a 15.8%, P_c11 41.8%: does not hold
	//
	//   the 1958 model (x=5, y=5, θ=2) by lit area: 5% → 1.7%  10% → 5.1%  20% → 11.2%  30% → 14.8%  50% → 17.2%  70% → 14.8%
}

// A front end sets a Recipe by the options' names, from text, as mark1
// train's flags do; pulses given 0 asks for none, which the recipe's own
// rule refuses. The experiments on a deck have their own epoch limits.
func ExampleRecipeOptions() {
	var r machine.Recipe
	for _, o := range machine.RecipeOptions() {
		if text, ok := map[string]string{"rule": "forced", "pulses": "0", "epochs": "20"}[o.Name]; ok {
			fmt.Println(o.Name, o.Fields, o.Default, o.Set(&r, text))
		}
	}
	fmt.Println(r.Rule, r.MaxEpochs, r.Validate())
	var four machine.FourOptions
	for _, o := range machine.FourSettings() {
		fmt.Println(o.Name, o.Fields, o.Default, o.Set(&four, fmt.Sprint(o.Default)))
	}
	fmt.Println(four.Length, four.Recipe.MaxEpochs, machine.ParitySettings()[0].Default)
	// Output:
	// rule [rule] error-correction <nil>
	// pulses [pulses] 1 <nil>
	// epochs [max_epochs] 50 <nil>
	// forced 20 pulses -1 out of range: want [1, 1000] motor pulses per correction
	// length [length] 12 <nil>
	// epochs [max_epochs] 100 <nil>
	// 12 100 200
}
