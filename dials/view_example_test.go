package dials_test

import (
	"fmt"

	"mark1/dials"
	"mark1/images"
)

// Each view of a machine by name; sensitivity and means average over
// cards, retina shows one picture.
func ExampleView() {
	m := newMachine()
	d, _ := images.Generate("leftright", 2, 20, 1)
	o := dials.ViewOptions{Cards: d, Image: d.Samples[0].Image}
	for _, v := range dials.Views() {
		pic, err := dials.View(m, v, o)
		if err != nil {
			fmt.Println(v, err)
			continue
		}
		w, h := pic.Size()
		fmt.Println(v, w > 0 && h > 0)
	}
	// Output:
	// panel true
	// weights true
	// sensitivity true
	// means true
	// retina true
	// curves the machine has no training history
}
