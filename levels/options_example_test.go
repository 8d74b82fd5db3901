package levels_test

import (
	"fmt"

	"mark1/levels"
)

// A front end sets Options by the settings' names, from text, as mark1
// levels' flags do; a value out of range is refused by Validate, naming
// the setting's field.
func ExampleSettings() {
	var opt levels.Options
	for _, o := range levels.Settings() {
		text := map[string]string{"tasks": "shapes,e-f", "seeds": "4", "n": "1", "epochs": "20"}[o.Name]
		fmt.Println(o.Name, o.Fields, o.Set(&opt, text))
	}
	fmt.Println(opt.Tasks, opt.Seeds, opt.Epochs)
	fmt.Println(opt.Validate())
	// Output:
	// tasks [tasks] <nil>
	// seeds [seeds] <nil>
	// n [per_class] <nil>
	// epochs [epochs] <nil>
	// [shapes e-f] 4 20
	// per_class 1: want [2, 10000]
}
