package learning

import (
	"math"
	"sync"
)

// LinearModel is a trained linear classifier, the model of the Perceptron,
// AveragedPerceptron, Pocket and BatchGD learners. Machine k computes
//
//	f_k(x) = W[k]·x + B[k].
//
// For two classes there is one machine (len(W) == 1) and the predicted class
// is 1 when f_0(x) > 0 and 0 otherwise; its Scores are (−f_0, f_0). For more
// classes there is one machine per class, trained one-vs-rest, and the class
// with the largest f_k wins (the lowest index on ties). B is all zero when the
// learner ran without a bias input.
//
// The methods panic if len(x) differs from the length of the W rows.
type LinearModel struct {
	W       [][]float64
	B       []float64
	Classes int

	// The geometric margin on the training data, computed from train on
	// the first call of Margin.
	once   sync.Once
	train  *Data
	margin float64
}

var (
	_ Model    = (*LinearModel)(nil)
	_ Scorer   = (*LinearModel)(nil)
	_ Margined = (*LinearModel)(nil)
)

// newLinearModel copies the M×dim weights w and the biases b into a model.
func newLinearModel(classes, dim int, w, b []float64) *LinearModel {
	m := len(b)
	flat := make([]float64, m*dim)
	copy(flat, w)
	lm := &LinearModel{W: make([][]float64, m), B: append([]float64(nil), b...), Classes: classes}
	for k := range m {
		lm.W[k] = flat[k*dim : (k+1)*dim : (k+1)*dim]
	}
	return lm
}

func (m *LinearModel) decision(k int, x []float64) float64 {
	if len(x) != len(m.W[k]) {
		panic("learning: input length differs from the model's")
	}
	return dot(m.W[k], x) + m.B[k]
}

// Predict returns the class of x.
func (m *LinearModel) Predict(x []float64) int {
	return ovrPredict(len(m.W), func(k int) float64 { return m.decision(k, x) })
}

// Scores writes one score per class into dst (grown as needed) and returns
// it: (−f_0(x), f_0(x)) for two classes, f_k(x) for each class otherwise.
func (m *LinearModel) Scores(dst, x []float64) []float64 {
	return ovrScores(dst, len(m.W), func(k int) float64 { return m.decision(k, x) })
}

// Margin returns the geometric margin of the learned separator on the
// training data, min_i y_i (w·x_i + b)/‖w‖ with y_i = ±1 (Novikoff 1962; the
// bias is not part of ‖w‖). It is negative when some training point is on
// the wrong side (or zero when one lies on the boundary). For more than two
// classes it is the smallest of the machines' one-vs-rest margins. It is NaN
// when some w is zero, or when the model was not made by Fit.
//
// The margin is computed on the first call, from the training rows, which
// the model references until then (so that a fit does not pay an extra pass
// over the data for a number nobody asks for); don't modify them in between.
func (m *LinearModel) Margin() float64 {
	m.once.Do(func() {
		m.margin = math.NaN()
		if m.train != nil {
			dim := m.train.Features().Dim()
			flat := make([]float64, 0, len(m.W)*dim)
			for _, w := range m.W {
				flat = append(flat, w...)
			}
			m.margin = linearMargin(m.train, signs(nil, m.train), flat, m.B)
			m.train = nil
		}
	})
	return m.margin
}

// linearMargin returns min over machines k and rows i of y_ik f_k(x_i)/‖w_k‖,
// NaN when some w_k is zero. w holds M rows of dim weights; ys is n×M.
func linearMargin(d *Data, ys, w, b []float64) float64 {
	rows := d.Features()
	mach, dim := len(b), rows.Dim()
	res := math.Inf(1)
	for k := range mach {
		wk := w[k*dim : (k+1)*dim]
		norm := math.Sqrt(dot(wk, wk))
		if norm == 0 {
			return math.NaN()
		}
		lo := math.Inf(1)
		for i := range rows.Len() {
			lo = min(lo, ys[i*mach+k]*(rows.Dot(i, wk)+b[k]))
		}
		res = min(res, lo/norm)
	}
	return res
}
