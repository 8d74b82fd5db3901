package chart_test

import (
	"fmt"
	"image/color"

	"mark1/chart"
)

// A Drawing is described once and rendered on demand.
func ExampleNew() {
	d := chart.New(120, 40, func(p *chart.Pen) {
		p.FillRect(0, 0, 120, 40, chart.Diverging(0.5))
		p.Text(60, 26, 16, chart.Center, true, color.Black, "mark1")
	})
	w, h := d.Size()
	fmt.Println(w, h, d.Image().Bounds())
	// Output: 120 40 (0,0)-(120,40)
}
