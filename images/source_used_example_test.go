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

// A front end sets a Source by the options' names, from text, as mark1's
// data flags do; 0 cards per class asks for none, which the Source's rule
// refuses in its own words.
func ExampleSourceOptions() {
	var s images.Source
	for _, o := range images.SourceOptions() {
		text := map[string]string{"data": "cards", "test-split": "0.25", "n": "0", "card-size": "28", "max-pixels": "1000000"}[o.Name]
		fmt.Println(o.Name, o.Fields, o.Default, o.Set(&s, text))
	}
	fmt.Println(s.Path, s.TestSplit, s.CardSize, s.MaxPixels, s.Validate())
	// Output:
	// task [task]  <nil>
	// data [path]  <nil>
	// test [test_path]  <nil>
	// test-split [test_split] 0.2 <nil>
	// n [n] 50 <nil>
	// card-size [card_size] 20 <nil>
	// max-pixels [max_pixels] 33554432 <nil>
	// cards 0.25 28 1000000 n -1: want a whole number in [1, 1000000]
}
