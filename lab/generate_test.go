package lab

import (
	"math"
	"slices"
	"testing"
)

// TestGenerate checks the generators: the same options draw the same
// points, half of each class before label noise, the asked fraction of
// labels flipped, and each kind's shape (the circles' radii, XOR's
// quadrants, the blobs' sides).
func TestGenerate(t *testing.T) {
	for _, kind := range Generators() {
		o := GenOptions{Kind: kind, N: 100, Seed: 4}
		a, err := Generate(o)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Generate(o)
		if !slices.EqualFunc(a.X, b.X, slices.Equal[[]float64]) || !slices.Equal(a.Y, b.Y) {
			t.Errorf("%s: the same options drew different points", kind)
		}
		o.Seed = 5
		if c, _ := Generate(o); slices.EqualFunc(a.X, c.X, slices.Equal[[]float64]) {
			t.Errorf("%s: seeds 4 and 5 drew the same points", kind)
		}
		plus := 0
		for i, x := range a.X {
			if a.Y[i] > 0 {
				plus++
			}
			r := math.Hypot(x[0], x[1])
			switch kind {
			case "circles":
				if (a.Y[i] > 0) != (r < 1.8) {
					t.Errorf("circles: point %v (r %.2f) has label %d", x, r, a.Y[i])
				}
			case "xor":
				if (a.Y[i] > 0) != (x[0]*x[1] > 0) {
					t.Errorf("xor: point %v has label %d", x, a.Y[i])
				}
			}
			if r > 6 {
				t.Errorf("%s: point %v far out", kind, x)
			}
		}
		if kind != "xor" && plus != 50 {
			t.Errorf("%s: %d of 100 points are +; want 50", kind, plus)
		}
		flipped, err := Generate(GenOptions{Kind: kind, N: 100, Seed: 4, LabelNoise: 0.2})
		if err != nil {
			t.Fatal(err)
		}
		diff := 0
		for i := range a.Y {
			if a.Y[i] != flipped.Y[i] {
				diff++
			}
		}
		if diff != 20 {
			t.Errorf("%s: label noise 0.2 flipped %d of 100 labels; want 20", kind, diff)
		}
	}
	for _, bad := range []GenOptions{{Kind: "nope"}, {Kind: "xor", N: 1}, {Kind: "xor", N: 201}, {Kind: "xor", Noise: -1}, {Kind: "xor", Noise: math.NaN()}, {Kind: "xor", LabelNoise: 0.6}} {
		if _, err := Generate(bad); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}
