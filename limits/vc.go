package limits

import "fmt"

// Shattering is the count of the 2^n labelings of n points that a line separates.
type Shattering struct {
	Points    [][]float64 `json:"points"`
	Separable []bool      `json:"separable"` // indexed by labeling bits: bit i set means point i is +1
	Count     int         `json:"count"`
}

// CountSeparable decides, by linear programming, which of the 2^n labelings of the points are
// strictly separable by a hyperplane with bias (n ≤ 20).
func CountSeparable(points [][]float64) (Shattering, error) {
	n := len(points)
	if n < 1 || n > 20 {
		return Shattering{}, fmt.Errorf("limits: %d points: want 1 to 20", n)
	}
	r := Shattering{Points: points, Separable: make([]bool, 1<<n)}
	y := make([]int, n)
	for lab := 0; lab < 1<<n; lab++ {
		for i := range y {
			y[i] = -1
			if lab>>i&1 == 1 {
				y[i] = 1
			}
		}
		ok, _, err := Separable(points, y)
		if err != nil {
			return r, fmt.Errorf("limits: labeling %0*b: %w", n, lab, err)
		}
		r.Separable[lab] = ok
		if ok {
			r.Count++
		}
	}
	return r, nil
}
