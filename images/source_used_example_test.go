package images_test

import (
	"fmt"

	"mark1/images"
)

// A Source keeps only the settings its data use: a folder of pictures has
// no card count or size, and a held-out folder replaces the split.
func ExampleSource_Used() {
	s := images.Source{Path: "cards", TestPath: "held-out", PerClass: 50, CardSize: 20, TestSplit: 0.2,
		MaxPixels: 1 << 20, MaxBytes: images.DefaultMaxBytes}.Used()
	fmt.Println(s.PerClass, s.CardSize, s.TestSplit, s.MaxPixels, s.MaxBytes)
	t := images.Source{Task: "shapes", PerClass: 10, CardSize: 20, TestSplit: 0.2, MaxPixels: 1 << 20}.Used()
	fmt.Println(t.PerClass, t.CardSize, t.TestSplit, t.MaxPixels, t.MaxBytes)
	// Output:
	// 0 0 0 1048576 0
	// 10 20 0.2 0 0
}
