package limits

import (
	"fmt"
	"slices"
)

// CycleResult is how a perceptron run on integer data ended: converged, or bounded and cycling
// (the weights at the start of an epoch repeat), with the weights visited in one period.
type CycleResult struct {
	Converged bool      `json:"converged"`
	Cycling   bool      `json:"cycling"`
	Period    int       `json:"period"` // updates in one cycle
	Visited   [][]int64 `json:"visited"`
	Epochs    int       `json:"epochs"`
}

// String says how the run ended, for people.
func (r CycleResult) String() string {
	switch {
	case r.Converged:
		return fmt.Sprintf("converged after %d epochs", r.Epochs)
	case r.Cycling:
		return fmt.Sprintf("bounded, cycling, period %d", r.Period)
	}
	return fmt.Sprintf("epoch limit %d reached", r.Epochs)
}

// PerceptronCycle runs the perceptron w ← w + eps·y·x on integer rows (bias already appended)
// in the given order from w = 0, a mistake being y·w·x ≤ 0. Since the data and steps are
// integers, the weights at the start of an epoch repeating means the run cycles for ever; the
// run stops there and reports the period and the weights of one cycle.
func PerceptronCycle(x [][]int64, y []int64, eps int64, maxEpochs int) CycleResult {
	if len(x) != len(y) || len(x) == 0 {
		panic("limits: PerceptronCycle: x and y differ in length or are empty")
	}
	w := make([]int64, len(x[0]))
	seen := map[string]int{} // epoch-start weights → index into visited
	var visited [][]int64
	r := CycleResult{}
	for e := 1; e <= maxEpochs; e++ {
		key := fmt.Sprint(w)
		if at, ok := seen[key]; ok {
			r.Cycling, r.Period, r.Visited, r.Epochs = true, len(visited)-at, visited[at:], e-1
			return r
		}
		seen[key] = len(visited)
		mistakes := 0
		for i, xi := range x {
			var s int64
			for j, v := range xi {
				s += w[j] * v
			}
			if y[i]*s <= 0 {
				visited = append(visited, slices.Clone(w))
				for j, v := range xi {
					w[j] += eps * y[i] * v
				}
				mistakes++
			}
		}
		if mistakes == 0 {
			r.Converged, r.Epochs = true, e
			return r
		}
	}
	r.Epochs = maxEpochs
	return r
}
