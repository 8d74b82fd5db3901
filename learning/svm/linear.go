package svm

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"

	"mark1/learning"
)

// LinearBinary is a trained two-class linear SVM with decision function
// f(x) = W·x + B, positive for the class labelled +1. It is the solution
// of the primal
//
//	min_w ½‖w‖² + ½w_b² + C Σ_i loss(y_i (w·x_i + w_b·Bias))
//
// found through its dual by coordinate descent, so that B = w_b·Bias.
type LinearBinary struct {
	// W is the weight vector.
	W []float64
	// B is the bias term w_b·Bias (0 without a bias feature).
	B float64
	// Alpha holds the dual variables, one per training example.
	Alpha []float64
	// Obj is the dual objective ½‖(w, w_b)‖² + Σ_i (D α_i²/2 − α_i), where
	// D = 1/(2C) for SquaredHinge and 0 for Hinge: LIBLINEAR's
	// "Objective value".
	Obj float64
	// SV is the number of examples with α_i > 0, Bounded those with α_i =
	// C (only for Hinge).
	SV, Bounded int
	// Iter is the number of passes over the data.
	Iter int
	// Status says how the run ended: Optimal or IterationLimit.
	Status Status
	// Message says the same in one sentence.
	Message string
}

// Decision returns W·x + B. It panics if x has the wrong length.
func (m *LinearBinary) Decision(x []float64) float64 {
	if len(x) != len(m.W) {
		panic("svm: vector of wrong length")
	}
	return dot(m.W, x) + m.B
}

// Margin returns the geometric margin 1/‖W‖ of the separator in input
// space (the bias weight left out): the distance from f = 0 to f = ±1.
func (m *LinearBinary) Margin() float64 { return 1 / math.Sqrt(dot(m.W, m.W)) }

// SupportVectors returns the number of examples with α > 0 and of those at
// the bound C.
func (m *LinearBinary) SupportVectors() (total, bounded int) { return m.SV, m.Bounded }

// SolveLinear trains a binary linear SVM on the rows of X with labels y
// (each +1 or −1) by dual coordinate descent (Hsieh et al. 2008), as
// LIBLINEAR's -s 3 (Hinge) and -s 1 (SquaredHinge) solvers: a random
// permutation of the active variables per pass, shrinking of variables
// stuck at a bound, and a stop when the spread of the projected gradient
// over a pass is below Eps. It panics if len(X) != len(y) and returns an
// error for bad data or settings, as Solve does.
func SolveLinear(X [][]float64, y []float64, s LinearSettings) (*LinearBinary, error) {
	if len(X) != len(y) {
		panic("svm: len(X) != len(y)")
	}
	if err := checkX(X); err != nil {
		return nil, err
	}
	if err := checkLinearSettings(&s); err != nil {
		return nil, err
	}
	yy, err := binaryLabels(y)
	if err != nil {
		return nil, err
	}
	d := newLinData(learning.NewDense(X), s.Bias)
	return d.solve(context.Background(), yy, s, rand.New(rand.NewPCG(s.Seed, 0x5eed)), nil)
}

func checkLinearSettings(s *LinearSettings) error {
	switch {
	case math.IsNaN(s.C) || s.C < 0 || math.IsInf(s.C, 0):
		return fmt.Errorf("penalty C = %v, want a finite C > 0: %w", s.C, ErrSetting)
	case s.C == 0:
		s.C = 1
	}
	if math.IsNaN(s.Eps) || s.Eps < 0 || math.IsInf(s.Eps, 0) {
		return fmt.Errorf("tolerance Eps = %v, want a finite Eps ≥ 0: %w", s.Eps, ErrSetting)
	}
	if s.Eps == 0 {
		s.Eps = 0.1
	}
	if math.IsNaN(s.Bias) || math.IsInf(s.Bias, 0) {
		return fmt.Errorf("bias feature %v is not finite: %w", s.Bias, ErrSetting)
	}
	if s.Bias == 0 {
		s.Bias = 1
	}
	if s.Bias < 0 {
		s.Bias = 0
	}
	if s.MaxIter < 0 {
		return fmt.Errorf("MaxIter = %d, want ≥ 0: %w", s.MaxIter, ErrSetting)
	}
	if s.MaxIter == 0 {
		s.MaxIter = 1000
	}
	if s.Loss != Hinge && s.Loss != SquaredHinge {
		return fmt.Errorf("Loss = %v: %w", s.Loss, ErrSetting)
	}
	return nil
}

// linData holds the data for coordinate descent: the non-zeros of all rows
// in one flat index list (with values unless all are 1) if the vectors are
// sparse, dense rows otherwise. w·x_i and w += d·x_i touch only the
// non-zeros, and the flat list keeps a row's indices in consecutive cache
// lines.
type linData struct {
	dim   int
	dense [][]float64
	off   []int     // row i's non-zeros are idx[off[i]:off[i+1]]
	idx   []int32   // feature indices
	val   []float64 // their values; nil when all are 1
	sq    []float64 // ‖x_i‖² + Bias²
	bias  float64
}

// newLinData stores the rows for coordinate descent: sparse rows in place,
// bit sets as index lists, dense rows as chooseLayout says.
func newLinData(r learning.Rows, bias float64) *linData {
	n := r.Len()
	d := &linData{dim: r.Dim(), bias: bias, sq: make([]float64, n)}
	for i := range n {
		d.sq[i] = r.SqNorm(i) + bias*bias
	}
	switch r := r.(type) {
	case *learning.Sparse:
		d.off, d.idx, d.val = r.Start, r.Index, r.Value
		return d
	case *learning.Dense:
		if l, _ := chooseLayout(r.X); l == layoutDense {
			d.dense = r.X
			return d
		}
	}
	_, binary := r.(*learning.Bits)
	if dn, ok := r.(*learning.Dense); ok {
		_, binary = chooseLayout(dn.X)
	}
	d.off = make([]int, n+1)
	var buf []float64
	for i := range n {
		buf = r.Row(buf, i)
		for k, v := range buf {
			if v != 0 {
				d.idx = append(d.idx, int32(k))
				if !binary {
					d.val = append(d.val, v)
				}
			}
		}
		d.off[i+1] = len(d.idx)
	}
	return d
}

// wx returns w·x_i.
func (d *linData) wx(w []float64, i int) float64 {
	if d.dense != nil {
		return dot(d.dense[i], w)
	}
	a, b := d.off[i], d.off[i+1]
	if d.val != nil {
		return dotAt(w, d.idx[a:b], d.val[a:b])
	}
	return sumAt(w, d.idx[a:b])
}

// touch reads the first index of row i, so that the memory system starts
// fetching the row while the solver works on the one before.
func (d *linData) touch(i int) int32 {
	if d.dense != nil || d.off[i] == d.off[i+1] {
		return 0
	}
	return d.idx[d.off[i]]
}

// axpy does w += a·x_i.
func (d *linData) axpy(w []float64, a float64, i int) {
	if d.dense != nil {
		floats.AddScaled(w, a, d.dense[i])
		return
	}
	lo, hi := d.off[i], d.off[i+1]
	idx := d.idx[lo:hi]
	if d.val != nil {
		v := d.val[lo:hi]
		v = v[:len(idx)]
		for n, k := range idx {
			w[k] += a * v[n]
		}
		return
	}
	for _, k := range idx {
		w[k] += a
	}
}

// solve runs dual coordinate descent for labels y. progress, if not nil,
// is called after every pass with the pass number, the number of
// coordinates changed and the dual objective.
func (d *linData) solve(ctx context.Context, y []int8, s LinearSettings, rng *rand.Rand, progress func(pass, updates int, obj float64)) (*LinearBinary, error) {
	n := len(y)
	var diag, upper float64
	if s.Loss == SquaredHinge {
		diag, upper = 0.5/s.C, math.Inf(1)
	} else {
		upper = s.C
	}
	w := make([]float64, d.dim)
	var wb float64
	alpha := make([]float64, n)
	qd := make([]float64, n)
	index := make([]int, n)
	for i := range n {
		qd[i] = d.sq[i] + diag
		index[i] = i
	}
	active := n
	pgmaxOld, pgminOld := math.Inf(1), math.Inf(-1)
	iter, touched := 0, 0
	for iter < s.MaxIter {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		pgmaxNew, pgminNew := math.Inf(-1), math.Inf(1)
		for i := range active {
			j := i + rng.IntN(active-i)
			index[i], index[j] = index[j], index[i]
		}
		updates := 0
		var sink int32
		for k := 0; k < active; k++ {
			i := index[k]
			if k+1 < active {
				sink += d.touch(index[k+1])
			}
			yi := float64(y[i])
			a := alpha[i]
			G := yi*(d.wx(w, i)+wb*d.bias) - 1 + a*diag
			pg := 0.0
			switch {
			case a == 0:
				if G > pgmaxOld && !s.NoShrinking {
					active--
					index[k], index[active] = index[active], index[k]
					k--
					continue
				}
				if G < 0 {
					pg = G
				}
			case a == upper:
				if G < pgminOld && !s.NoShrinking {
					active--
					index[k], index[active] = index[active], index[k]
					k--
					continue
				}
				if G > 0 {
					pg = G
				}
			default:
				pg = G
			}
			pgmaxNew = math.Max(pgmaxNew, pg)
			pgminNew = math.Min(pgminNew, pg)
			if math.Abs(pg) > 1e-12 {
				na := math.Min(math.Max(a-G/qd[i], 0), upper)
				alpha[i] = na
				delta := (na - a) * yi
				d.axpy(w, delta, i)
				wb += delta * d.bias
				updates++
			}
		}
		iter++
		touched += int(sink)
		if progress != nil {
			progress(iter, updates, linObj(w, wb, alpha, diag))
		}
		if pgmaxNew-pgminNew <= s.Eps {
			if active == n {
				break
			}
			active = n
			pgmaxOld, pgminOld = math.Inf(1), math.Inf(-1)
			continue
		}
		pgmaxOld, pgminOld = pgmaxNew, pgminNew
		if pgmaxOld <= 0 {
			pgmaxOld = math.Inf(1)
		}
		if pgminOld >= 0 {
			pgminOld = math.Inf(-1)
		}
	}
	_ = touched
	m := &LinearBinary{W: w, B: wb * d.bias, Alpha: alpha, Iter: iter, Obj: linObj(w, wb, alpha, diag)}
	for _, a := range alpha {
		if a > 0 {
			m.SV++
			if a == upper {
				m.Bounded++
			}
		}
	}
	if iter >= s.MaxIter {
		m.Status = IterationLimit
		m.Message = fmt.Sprintf("pass limit %d reached before the projected gradient was within eps %g", s.MaxIter, s.Eps)
	} else {
		m.Status = Optimal
		m.Message = fmt.Sprintf("optimal to eps %g after %d passes", s.Eps, iter)
	}
	return m, nil
}

// linObj is the dual objective ½‖(w, w_b)‖² + Σ (D α_i²/2 − α_i).
func linObj(w []float64, wb float64, alpha []float64, diag float64) float64 {
	v := dot(w, w) + wb*wb
	for _, a := range alpha {
		v += a * (a*diag - 2)
	}
	return v / 2
}
