package machine_test

import (
	"fmt"

	"mark1/images"
	"mark1/machine"
)

// A Mark I with the default preset, shown one card of the left/right task
// before any training: every pot is at zero, so no R-unit lights and the
// machine shows no class (-1).
func Example() {
	cfg, _ := machine.Preset("mark1")
	d, _ := images.Generate("leftright", 1, 20, 1)
	m, _ := machine.New(cfg, d.Classes, machine.SeedsFrom(1), nil)
	var r machine.Response
	m.Present(&r, m.Fit(d)[0], nil)
	fmt.Printf("%d S-units, %d A-units, %d pots\n", m.Retina.Cells(), len(m.Plugboard.Units), m.Bank.Len())
	fmt.Printf("R-unit sums %v, class %d\n", r.Sums, r.Class)
	// Output:
	// 400 S-units, 512 A-units, 512 pots
	// R-unit sums [0], class -1
}
