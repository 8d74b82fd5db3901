package images_test

import (
	"fmt"
	"strings"

	"mark1/images"
)

func ExampleTasks() {
	for _, t := range images.Tasks() {
		fmt.Printf("%-20s %d classes\n", t.Name, len(t.Classes))
	}
	// Output:
	// leftright            2 classes
	// shapes               4 classes
	// square-circle        2 classes
	// square-diamond       2 classes
	// letters              26 classes
	// letters1             26 classes
	// letters1960          26 classes
	// letters1960-regular  26 classes
	// letters1960-mono     26 classes
	// e-f                  2 classes
	// x-e                  2 classes
	// mp-four              2 classes
	// ideal-environment    2 classes
}

func ExampleGenerate() {
	d, err := images.Generate("leftright", 3, 20, 1958)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d.Len(), "cards of", d.Samples[0].Image.Rect.Dx(), "pixels square; classes", d.Classes, d.Counts())
	// Draw the first two cards side by side: '#' for ink, '.' for paper.
	fmt.Printf("%-20s %s\n", d.Classes[d.Samples[0].Label], d.Classes[d.Samples[1].Label])
	for y := range 20 {
		var row strings.Builder
		for i := range 2 {
			for x := range 20 {
				if d.Samples[i].Image.GrayAt(x, y).Y < 128 {
					row.WriteByte('#')
				} else {
					row.WriteByte('.')
				}
			}
			row.WriteByte(' ')
		}
		fmt.Println(strings.TrimSpace(row.String()))
	}
	// Output:
	// 6 cards of 20 pixels square; classes [left right] [3 3]
	// left                 right
	// .................... ....................
	// .#######............ ....................
	// .#######............ .............####...
	// .#######............ .............####...
	// .#######............ .............####...
	// .#######............ .............####...
	// .#######............ ....................
	// .#######............ ....................
	// .................... ....................
	// .................... ....................
	// .................... ....................
	// .................... ....................
	// .................... ....................
	// .................... ....................
	// .................... ....................
	// .................... ....................
	// .................... ....................
	// .................... ....................
	// .................... ....................
	// .................... ....................
}
