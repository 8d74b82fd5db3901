package limits

import (
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// lpTol is the tolerance handed to gonum's simplex.
const lpTol = 1e-10

// strictFeasible decides whether a vector a (free in sign) exists with s_i·(rows_i·a) ≥ 1 for
// every row i, by the simplex method on the standard form
// [S·R, −S·R, −I]·(a⁺, a⁻, slack) = 1, all ≥ 0. It returns a = a⁺ − a⁻ when feasible.
// Homogeneous strict inequalities s_i·(rows_i·a) > 0 are feasible exactly when this is.
func strictFeasible(rows [][]float64, sign []int) (bool, []float64, error) {
	m := len(rows)
	if m == 0 {
		return true, nil, nil
	}
	n := len(rows[0])
	A := mat.NewDense(m, 2*n+m, nil)
	b := make([]float64, m)
	for i, r := range rows {
		s := float64(sign[i])
		for j, v := range r {
			A.Set(i, j, s*v)
			A.Set(i, n+j, -s*v)
		}
		A.Set(i, 2*n+i, -1)
		b[i] = 1
	}
	c := make([]float64, 2*n+m)
	// A zero column (a feature that is 0 on every row) makes gonum refuse the problem; a small
	// positive cost on every variable keeps the columns meaningful and the optimum bounded.
	for j := range c {
		c[j] = 1
	}
	// Remove all-zero feature columns: they cannot help, and gonum rejects them.
	keep := make([]int, 0, n)
	for j := 0; j < n; j++ {
		for i := 0; i < m; i++ {
			if rows[i][j] != 0 {
				keep = append(keep, j)
				break
			}
		}
	}
	if len(keep) < n {
		cols := make([]int, 0, 2*len(keep)+m)
		cols = append(cols, keep...)
		for _, j := range keep {
			cols = append(cols, n+j)
		}
		for i := 0; i < m; i++ {
			cols = append(cols, 2*n+i)
		}
		B := mat.NewDense(m, len(cols), nil)
		for k, j := range cols {
			for i := 0; i < m; i++ {
				B.Set(i, k, A.At(i, j))
			}
		}
		_, x, err := lp.Simplex(c[:len(cols)], B, b, lpTol, nil)
		if errors.Is(err, lp.ErrInfeasible) {
			return false, nil, nil
		}
		if err != nil {
			return false, nil, fmt.Errorf("limits: linear program: %w", err)
		}
		a := make([]float64, n)
		for k, j := range keep {
			a[j] = x[k] - x[len(keep)+k]
		}
		return true, a, nil
	}
	_, x, err := lp.Simplex(c, A, b, lpTol, nil)
	if errors.Is(err, lp.ErrInfeasible) {
		return false, nil, nil
	}
	if err != nil {
		return false, nil, fmt.Errorf("limits: linear program: %w", err)
	}
	a := make([]float64, n)
	for j := range a {
		a[j] = x[j] - x[n+j]
	}
	return true, a, nil
}

// Separable reports whether the labelled points (y = ±1) are strictly separable by a line (a
// hyperplane) w·x + b, decided by linear programming. The weights found are returned, bias
// last.
func Separable(x [][]float64, y []int) (bool, []float64, error) {
	if len(x) != len(y) {
		panic("limits: Separable: x and y differ in length")
	}
	rows := make([][]float64, len(x))
	for i, p := range x {
		rows[i] = append(append(make([]float64, 0, len(p)+1), p...), 1)
	}
	return strictFeasible(rows, y)
}
