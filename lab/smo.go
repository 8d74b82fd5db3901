package lab

import (
	"math"

	"mark1/learning/kernel"
)

// SMOStep is one step of the SVM's solver, sequential minimal optimization
// as LIBSVM does it (Fan, Chen and Lin's second-order choice of the pair,
// without shrinking): the pair of α's it moved, from what to what, and
// where that leaves b, the dual objective and the margin.
type SMOStep struct {
	Step int `json:"step"`
	// I and J are the pair's samples, 1-based.
	I int `json:"i"`
	J int `json:"j"`
	// Before and After hold (α_i, α_j) before and after the step; the
	// constraint Σ y_k α_k = 0 keeps y_i α_i + y_j α_j fixed.
	Before [2]float64 `json:"before"`
	After  [2]float64 `json:"after"`
	// Gap is the largest KKT violation m(α) − M(α) that chose the pair;
	// the solver stops when it falls below its tolerance.
	Gap float64 `json:"gap"`
	// B is the offset after the step (LIBSVM's −ρ, from the free α's).
	B float64 `json:"b"`
	// Dual is the dual objective Σα − ½ Σ α_i α_j y_i y_j K(x_i, x_j)
	// after the step; it rises with every step.
	Dual float64 `json:"dual"`
	// Margin is 1/‖w‖ after the step (null while w = 0).
	Margin *float64 `json:"margin"`
}

// smoTol is the tolerance on the KKT gap of the lab's SMO, as SolveSVM's.
const smoTol = 1e-6

// maxSMOSteps bounds the steps the lab writes down.
const maxSMOSteps = 5000

// traceSMO runs the SVM's SMO on e with kernel k and box bound c (+Inf for
// the hard margin) and writes down every pair update. It returns the steps,
// the final α and b, and whether the KKT gap fell below the tolerance
// within maxSMOSteps.
func traceSMO(e Example, k kernel.Kernel, c float64) (steps []SMOStep, alpha []float64, b float64, optimal bool) {
	n := len(e.X)
	y := make([]float64, n)
	for i, v := range e.Y {
		y[i] = float64(v)
	}
	K := make([][]float64, n)
	for i := range K {
		K[i] = make([]float64, n)
		for j := range K[i] {
			K[i][j] = k.Eval(e.X[i], e.X[j])
		}
	}
	q := func(i, j int) float64 { return y[i] * y[j] * K[i][j] }
	alpha = make([]float64, n)
	grad := make([]float64, n) // ∇f(α) = Qα − e, f the dual to minimise
	for i := range grad {
		grad[i] = -1
	}
	const tau = 1e-12
	upper := func(i int) bool { return alpha[i] >= c }
	lower := func(i int) bool { return alpha[i] <= 0 }
	for len(steps) < maxSMOSteps {
		// The pair: i the most violating α by the gradient, j the one
		// whose joint step with i lowers the objective most.
		gmax, gi := math.Inf(-1), -1
		for t := range n {
			if y[t] > 0 && !upper(t) && -grad[t] >= gmax {
				gmax, gi = -grad[t], t
			}
			if y[t] < 0 && !lower(t) && grad[t] >= gmax {
				gmax, gi = grad[t], t
			}
		}
		gmax2, gj, best := math.Inf(-1), -1, math.Inf(1)
		for t := range n {
			var diff, quad float64
			switch {
			case y[t] > 0 && !lower(t):
				diff = gmax + grad[t]
				gmax2 = max(gmax2, grad[t])
				if gi >= 0 {
					quad = K[gi][gi] + K[t][t] - 2*y[gi]*q(gi, t)
				}
			case y[t] < 0 && !upper(t):
				diff = gmax - grad[t]
				gmax2 = max(gmax2, -grad[t])
				if gi >= 0 {
					quad = K[gi][gi] + K[t][t] + 2*y[gi]*q(gi, t)
				}
			default:
				continue
			}
			if gi < 0 || diff <= 0 {
				continue
			}
			if quad <= 0 {
				quad = tau
			}
			if d := -diff * diff / quad; d <= best {
				best, gj = d, t
			}
		}
		gap := gmax + gmax2
		if gap < smoTol || gj < 0 {
			optimal = true
			break
		}
		i, j := gi, gj
		ai, aj := alpha[i], alpha[j]
		if y[i] != y[j] {
			quad := K[i][i] + K[j][j] + 2*q(i, j)
			if quad <= 0 {
				quad = tau
			}
			delta := (-grad[i] - grad[j]) / quad
			diff := alpha[i] - alpha[j]
			alpha[i] += delta
			alpha[j] += delta
			if diff > 0 {
				if alpha[j] < 0 {
					alpha[j], alpha[i] = 0, diff
				}
			} else if alpha[i] < 0 {
				alpha[i], alpha[j] = 0, -diff
			}
			if diff > 0 {
				if alpha[i] > c {
					alpha[i], alpha[j] = c, c-diff
				}
			} else if alpha[j] > c {
				alpha[j], alpha[i] = c, c+diff
			}
		} else {
			quad := K[i][i] + K[j][j] - 2*q(i, j)
			if quad <= 0 {
				quad = tau
			}
			delta := (grad[i] - grad[j]) / quad
			sum := alpha[i] + alpha[j]
			alpha[i] -= delta
			alpha[j] += delta
			if sum > c {
				if alpha[i] > c {
					alpha[i], alpha[j] = c, sum-c
				}
			} else if alpha[j] < 0 {
				alpha[j], alpha[i] = 0, sum
			}
			if sum > c {
				if alpha[j] > c {
					alpha[j], alpha[i] = c, sum-c
				}
			} else if alpha[i] < 0 {
				alpha[i], alpha[j] = 0, sum
			}
		}
		di, dj := alpha[i]-ai, alpha[j]-aj
		for t := range n {
			grad[t] += q(i, t)*di + q(j, t)*dj
		}
		b = smoOffset(y, alpha, grad, c)
		s := SMOStep{Step: len(steps) + 1, I: i + 1, J: j + 1, Before: [2]float64{ai, aj}, After: [2]float64{alpha[i], alpha[j]}, Gap: gap, B: b}
		var wq float64 // αᵀQα = ‖w‖²
		for t := range n {
			wq += alpha[t] * (grad[t] + 1)
			s.Dual += alpha[t]
		}
		s.Dual -= wq / 2
		if wq > 0 {
			m := 1 / math.Sqrt(wq)
			s.Margin = &m
		}
		steps = append(steps, s)
	}
	return steps, alpha, b, optimal
}

// smoOffset is b = −ρ as LIBSVM computes it: the mean of y_t·∇f_t over the
// free α's, or the middle of the range the bounded ones allow.
func smoOffset(y, alpha, grad []float64, c float64) float64 {
	ub, lb := math.Inf(1), math.Inf(-1)
	var free int
	var sum float64
	for t := range y {
		yg := y[t] * grad[t]
		switch {
		case alpha[t] >= c:
			if y[t] < 0 {
				ub = min(ub, yg)
			} else {
				lb = max(lb, yg)
			}
		case alpha[t] <= 0:
			if y[t] > 0 {
				ub = min(ub, yg)
			} else {
				lb = max(lb, yg)
			}
		default:
			free++
			sum += yg
		}
	}
	if free > 0 {
		return -sum / float64(free)
	}
	return -(ub + lb) / 2
}
