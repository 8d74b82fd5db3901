package curves_test

import (
	"fmt"

	"mark1/curves"
)

// A front end sets Options by the settings' names, from text, as mark1
// curves' flags do; seeds given 0 asks for none, which Validate refuses.
func ExampleSettings() {
	var opt curves.Options
	for _, o := range curves.Settings() {
		fmt.Println(o.Name, o.Fields, o.Default, o.Set(&opt, map[string]string{"seeds": "0", "max-n": "100"}[o.Name]))
	}
	fmt.Println(opt.MaxN, opt.Validate())
	// Output:
	// seeds [seeds] 20 <nil>
	// max-n [max_n] 300 <nil>
	// 100 seeds -1: want [2, 1000] (an interval needs two)
}
