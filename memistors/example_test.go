package memistors_test

import (
	"fmt"

	"mark1/memistors"
)

// A memistor bank without noise or leak: the first weight is commanded
// past its bound, the second further than one plating pulse reaches.
func ExampleBank() {
	cfg := memistors.Config{Max: 1, Rate: 0.2, PulseSeconds: 1}
	b, err := memistors.NewBank(3, cfg, 1)
	if err != nil {
		panic(err)
	}
	secs := b.Adapt([]float64{0.1, -0.5, 0})
	fmt.Printf("%.2f after %.1f s\n", b.Weights(), secs)
	for range 10 {
		b.Adapt([]float64{0.2, 0, 0})
	}
	fmt.Printf("%.2f, %d saturations, %.1f s\n", b.Weights(), b.Saturations(), b.Seconds())
	// Output:
	// [0.10 -0.20 0.00] after 1.0 s
	// [1.00 -0.20 0.00], 6 saturations, 11.0 s
}
