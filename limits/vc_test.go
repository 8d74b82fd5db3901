package limits

import "testing"

func TestVCPlaneFourPoints(t *testing.T) {
	for _, tc := range []struct {
		name string
		pts  [][]float64
		bad  []int // the labelings no line separates
	}{
		{"convex quadrilateral", [][]float64{{0, 0}, {1, 0.1}, {0.1, 1}, {1.2, 1.1}}, []int{0b0110, 0b1001}},
		{"one point inside a triangle", [][]float64{{0, 0}, {4, 0}, {0, 4}, {1, 1}}, []int{0b0111, 0b1000}},
	} {
		r, err := CountSeparable(tc.pts)
		if err != nil {
			t.Fatal(err)
		}
		if r.Count != 14 {
			t.Errorf("%s: %d of 16 separable; want 14", tc.name, r.Count)
		}
		for _, b := range tc.bad {
			if r.Separable[b] {
				t.Errorf("%s: labeling %04b separable; want not", tc.name, b)
			}
		}
	}
	r, err := CountSeparable([][]float64{{0, 0}, {1, 0}, {0, 1}})
	if err != nil || r.Count != 8 {
		t.Errorf("three points: %d of 8 (%v); want all 8", r.Count, err)
	}
}
