package limits

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Shattering is the count of the 2^n labelings of n points that a line separates.
type Shattering struct {
	Points    [][]float64 `json:"points"`
	Separable []bool      `json:"separable"` // indexed by labeling bits: bit i set means point i is +1
	Count     int         `json:"count"`
	// Weights are a separating line (w1, w2, …, b) for each separable
	// labeling, as the linear program found it; nil for the others.
	Weights [][]float64 `json:"weights"`
}

// CountSeparable decides, by linear programming, which of the 2^n labelings of the points are
// strictly separable by a hyperplane with bias (n ≤ 20).
func CountSeparable(points [][]float64) (Shattering, error) {
	n := len(points)
	if n < 1 || n > 20 {
		return Shattering{}, fmt.Errorf("limits: %d points: want 1 to 20", n)
	}
	r := Shattering{Points: points, Separable: make([]bool, 1<<n), Weights: make([][]float64, 1<<n)}
	y := make([]int, n)
	for lab := 0; lab < 1<<n; lab++ {
		for i := range y {
			y[i] = -1
			if lab>>i&1 == 1 {
				y[i] = 1
			}
		}
		ok, w, err := Separable(points, y)
		if err != nil {
			return r, fmt.Errorf("limits: labeling %0*b: %w", n, lab, err)
		}
		r.Separable[lab] = ok
		if ok {
			r.Count++
			r.Weights[lab] = w
		}
	}
	return r, nil
}

// Panels returns the labelings of points in the plane as panels of a sheet
// (chart.DrawSheet's input, in plain values): for each labeling its bits
// as a title, the points, their labels and a separating line if any.
func (r Shattering) Panels() ([]PlanePanel, error) {
	var out []PlanePanel
	for lab, ok := range r.Separable {
		p := PlanePanel{Title: fmt.Sprintf("%0*b: not separable", len(r.Points), lab)}
		if ok {
			p.Title = fmt.Sprintf("%0*b: separable", len(r.Points), lab)
			p.Line = r.Weights[lab]
		}
		for i, q := range r.Points {
			if len(q) != 2 {
				return nil, fmt.Errorf("limits: point %d has %d coordinates; a sheet draws the plane", i, len(q))
			}
			p.Points = append(p.Points, [2]float64{q[0], q[1]})
			p.Positive = append(p.Positive, lab>>i&1 == 1)
		}
		out = append(out, p)
	}
	return out, nil
}

// A PlanePanel is one labeling of points in the plane: the points, their
// labels (true for +1) and a separating line w1·x + w2·y + b = 0, or nil.
type PlanePanel struct {
	Title    string
	Points   [][2]float64
	Positive []bool
	Line     []float64
}

// Inseparable names the labelings no line separates, as bit strings (bit i
// for point i, the last point first).
func (r Shattering) Inseparable() []string {
	var out []string
	for lab, ok := range r.Separable {
		if !ok {
			out = append(out, fmt.Sprintf("%0*b", len(r.Points), lab))
		}
	}
	return out
}

// ParsePoints reads points written "x,y;x,y;…" (each point's coordinates
// separated by commas, points by semicolons), at most max of them, all of
// one dimension.
func ParsePoints(s string, max int) ([][]float64, error) {
	var out [][]float64
	for i, p := range strings.Split(s, ";") {
		if i == max {
			return nil, fmt.Errorf("more than %d points", max)
		}
		var q []float64
		for _, f := range strings.Split(strings.TrimSpace(p), ",") {
			v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil || math.IsInf(v, 0) || math.IsNaN(v) || math.Abs(v) > 1e6 {
				return nil, fmt.Errorf("point %d: %.20q is not a number in [-1e6, 1e6]", i+1, f)
			}
			q = append(q, v)
		}
		if len(out) > 0 && len(q) != len(out[0]) {
			return nil, fmt.Errorf("point %d has %d coordinates, point 1 has %d", i+1, len(q), len(out[0]))
		}
		out = append(out, q)
	}
	return out, nil
}
