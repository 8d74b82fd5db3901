package learning_test

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"

	"mark1/learning"
)

// A Collector gives the rows it gathered in Compact32's form, to the bit,
// whatever its first rows made it hold them as: dense grey levels, then
// other values; sparse rows after dense ones; 0/1 rows; values beyond
// float32's range; or ErrRounded, and then an exact Collector gives them.
func TestCollector(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	grey := func() float64 { return float64(1+rng.IntN(255)) / 255 }
	tests := []struct {
		name    string
		rows    int
		value   func(i, j int) float64 // 0 for none
		rounded bool                   // ErrRounded from a Collector not exact
	}{
		{"grey", 600, func(i, j int) float64 { return pick(rng, 0.6, grey()) }, false},
		{"few grey rows", 20, func(i, j int) float64 { return pick(rng, 0.6, grey()) }, false},
		{"float32", 600, func(i, j int) float64 { return pick(rng, 0.6, rng.Float64()) }, false},
		{"grey, then not", 600, func(i, j int) float64 {
			if i == 400 && j == 3 {
				return 0.3
			}
			return pick(rng, 0.6, grey())
		}, false},
		{"dense, then sparse", 2000, func(i, j int) float64 {
			if i < 300 {
				return pick(rng, 0.9, rng.Float64())
			}
			return pick(rng, 0.01, rng.Float64())
		}, true},
		{"grey dense, then sparse", 2000, func(i, j int) float64 {
			if i < 300 {
				return pick(rng, 0.9, grey())
			}
			return pick(rng, 0.01, grey())
		}, false},
		{"sparse", 600, func(i, j int) float64 { return pick(rng, 0.1, rng.Float64()) }, false},
		{"ones", 600, func(i, j int) float64 { return pick(rng, 0.5, 1) }, false},
		{"beyond float32", 600, func(i, j int) float64 {
			if i == 500 && j == 1 {
				return 1e300
			}
			return pick(rng, 0.6, rng.Float64())
		}, true},
		{"below float32's normal range, exact", 600, func(i, j int) float64 {
			if i == 500 && j == 1 {
				return 0x1p-130
			}
			return pick(rng, 0.6, float64(float32(rng.Float64())))
		}, false},
	}
	const dim = 7
	for _, tt := range tests {
		var X [][]float64
		for i := range tt.rows {
			x := make([]float64, dim)
			for j := range x {
				x[j] = tt.value(i, j)
			}
			X = append(X, x)
		}
		all := split(t, X, len(X))[0]
		want := all.Compact32()
		for _, exact := range []bool{false, true} {
			c := learning.NewCollector(dim, tt.rows/2, exact)
			for i := range all.Len() {
				c.Add(all.NonZeros(i))
			}
			if c.Len() != tt.rows {
				t.Errorf("%s: %d rows gathered; want %d", tt.name, c.Len(), tt.rows)
			}
			got, err := c.Rows()
			if !exact && tt.rounded {
				if !errors.Is(err, learning.ErrRounded) {
					t.Errorf("%s: %T, %v; want ErrRounded", tt.name, got, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s (exact %v): %v", tt.name, exact, err)
			}
			if reflect.TypeOf(got) != reflect.TypeOf(want) || got.Len() != want.Len() {
				t.Errorf("%s (exact %v): %T of %d rows; Compact32 gives %T of %d", tt.name, exact, got, got.Len(), want, want.Len())
				continue
			}
			for i := range want.Len() {
				if g, w := got.Row(nil, i), want.Row(nil, i); !reflect.DeepEqual(g, w) {
					t.Fatalf("%s (exact %v): row %d %v; Compact32's %v", tt.name, exact, i, g, w)
				}
			}
		}
	}
}

// pick returns v with probability p, else 0.
func pick(rng *rand.Rand, p, v float64) float64 {
	if rng.Float64() < p {
		return v
	}
	return 0
}
