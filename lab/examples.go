package lab

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"mark1/learning"
)

// Example is a small two-class data set: X[i] has label Y[i], +1 or −1.
type Example struct {
	Name    string      `json:"name"`
	Teaches string      `json:"teaches"`
	X       [][]float64 `json:"x"`
	Y       []int       `json:"y"`
}

// MaxValue bounds the size of every number the lab takes: the points'
// coordinates and a Setup's Eps, C and Start. With at most MaxDataRows
// points and 100,000 epochs its runs' sums then stay far from overflowing
// (a coordinate of 1e308 made a weight of +Inf, which JSON cannot write).
const MaxValue = 1e6

// NewExample checks a data set and returns it as an Example: at least one
// point, every row of the same length (1 to 1000 features), numbers within
// ±MaxValue, labels +1 or −1.
func NewExample(name string, x [][]float64, y []int) (Example, error) {
	if len(x) == 0 {
		return Example{}, fmt.Errorf("%s: no points", name)
	}
	if len(x) != len(y) {
		return Example{}, fmt.Errorf("%s: %d points but %d labels", name, len(x), len(y))
	}
	d := len(x[0])
	if d < 1 || d > 1000 {
		return Example{}, fmt.Errorf("%s: %d features; want 1 to 1000", name, d)
	}
	for i, r := range x {
		if len(r) != d {
			return Example{}, fmt.Errorf("%s: point %d has %d features, point 1 has %d", name, i+1, len(r), d)
		}
		for _, v := range r {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return Example{}, fmt.Errorf("%s: point %d has a coordinate that is not a finite number", name, i+1)
			}
			if math.Abs(v) > MaxValue {
				return Example{}, fmt.Errorf("%s: point %d has the coordinate %g, beyond ±10⁶ (the lab's range: its runs' numbers then stay far from overflowing)", name, i+1, v)
			}
		}
		if y[i] != 1 && y[i] != -1 {
			return Example{}, fmt.Errorf("%s: point %d has label %d; want +1 or −1", name, i+1, y[i])
		}
	}
	e := Example{Name: name, X: make([][]float64, len(x)), Y: slices.Clone(y)}
	for i, r := range x {
		e.X[i] = slices.Clone(r)
	}
	return e, nil
}

// Dim returns the number of features.
func (e Example) Dim() int { return len(e.X[0]) }

// Data returns the example as learning's Data: class 1 is +, class 0 is −.
func (e Example) Data() *learning.Data {
	d := &learning.Data{X: e.X, Y: make([]int, len(e.Y)), Classes: 2}
	for i, y := range e.Y {
		if y > 0 {
			d.Y[i] = 1
		}
	}
	return d
}

// Lift returns the rows as the perceptron sees them: x itself, or with the
// bias trick (x, 1) (lecture notes 001 and 004).
func (e Example) Lift(bias bool) [][]float64 {
	if !bias {
		return e.X
	}
	out := make([][]float64, len(e.X))
	for i, x := range e.X {
		out[i] = append(slices.Clone(x), 1)
	}
	return out
}

// ring returns n points on the circle of radius r, the first at angle a0
// (radians).
func ring(n int, r, a0 float64) [][]float64 {
	out := make([][]float64, n)
	for i := range out {
		a := a0 + 2*math.Pi*float64(i)/float64(n)
		out[i] = []float64{round3(r * math.Cos(a)), round3(r * math.Sin(a))}
	}
	return out
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

func labels(n, y int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = y
	}
	return out
}

// Examples returns the built-in examples, in the order the notes meet them.
func Examples() []Example {
	rings := append(ring(8, 1, 0), ring(12, 2.5, math.Pi/12)...)
	ex := []Example{
		{
			Name:    "notes-004",
			Teaches: "the notes' worked perceptron example (004), in its order: w₂ = (1, −2), w₃ = (2, −1), w₄ = (3, 1)",
			X:       [][]float64{{-1, 2}, {1, 0}, {1, 1}, {-1, 0}, {-1, -2}, {1, -1}},
			Y:       []int{-1, 1, 1, -1, -1, 1},
		},
		{
			Name:    "pizza-001",
			Teaches: "duality (001): each point is a line in w-space; the feasible weights are the bottom pizza slice",
			X:       [][]float64{{1, -2}, {-2, -3}, {-1, 3}, {3, 2}, {-3, 0.5}},
			Y:       []int{1, 1, -1, -1, -1},
		},
		{
			Name:    "narrow-slice",
			Teaches: "batch GD against SGD (001): a thin feasible slice; both zig-zag across the dual lines towards it",
			X:       [][]float64{{3, -0.3}, {-3, -0.5}, {2, 0.5}, {-3, 1}, {-0.5, -2}, {2.5, 0}},
			Y:       []int{1, -1, 1, 1, -1, 1},
		},
		{
			Name:    "needs-bias",
			Teaches: "the bias trick (001, 004): no line through the origin separates these, the line x₁ + x₂ = 3 does",
			X:       [][]float64{{2, 2}, {3, 1.5}, {1.5, 3}, {3, 3}, {4, 1}, {1, 1}, {0.5, 1.5}, {1.5, 0.5}, {0, 1}, {1, 0}},
			Y:       []int{1, 1, 1, 1, 1, -1, -1, -1, -1, -1},
		},
		{
			Name:    "xor",
			Teaches: "kernels (004): not linearly separable; (x·z)² maps it to (x₁², x₂², √2·x₁x₂), where it is",
			X:       [][]float64{{1, 1}, {-1, -1}, {1, -1}, {-1, 1}, {2, 1.5}, {-2, -1.5}, {1.5, -2}, {-1.5, 2}},
			Y:       []int{1, 1, -1, -1, 1, 1, -1, -1},
		},
		{
			Name:    "xor01",
			Teaches: "the perceptron's limit (001; Minsky and Papert): XOR on the square's corners; with the bias trick, ε = 1, w₀ = 0 and the given order the weights cycle (0,0,0) → (0,0,−1) → (0,1,0) → (1,1,1), period 4, and the run says so",
			X:       [][]float64{{0, 0}, {0, 1}, {1, 0}, {1, 1}},
			Y:       []int{-1, 1, 1, -1},
		},
		{
			Name:    "rings",
			Teaches: "kernels and the SVM (004): a ring inside a ring; a Gaussian or (x·z + 1)² kernel separates them",
			X:       rings,
			Y:       append(labels(8, 1), labels(12, -1)...),
		},
		{
			Name:    "overlap",
			Teaches: "the soft margin (004): two clouds that overlap; C trades margin against hinge loss",
			X: [][]float64{
				{1, 2.5}, {2, 3}, {0.5, 3.5}, {1.5, 4}, {2.5, 2}, {3, 3.5}, {2.2, 0.8}, {0.2, 2},
				{-1, -0.5}, {0, -1.5}, {-0.5, 0.8}, {1, -1}, {-1.5, 1}, {0.5, 0}, {1.8, 2.6}, {-2, -1},
			},
			Y: append(labels(8, 1), labels(8, -1)...),
		},
	}
	return ex
}

// Names returns the names of the built-in examples.
func Names() []string {
	var out []string
	for _, e := range Examples() {
		out = append(out, e.Name)
	}
	return out
}

// Find returns the built-in example called name.
func Find(name string) (Example, error) {
	for _, e := range Examples() {
		if e.Name == name {
			return e, nil
		}
	}
	return Example{}, fmt.Errorf("no example %q; the examples are %s", name, strings.Join(Names(), ", "))
}
