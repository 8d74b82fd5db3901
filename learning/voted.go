package learning

import "context"

// VotedPerceptron is the voted perceptron of Freund & Schapire (1999, "Large
// margin classification using the perceptron algorithm", Machine Learning
// 37). It runs the Perceptron rule but keeps every weight vector v_k it held
// together with c_k, the number of examples it survived (the example that
// created it counts as one), and predicts by a weighted vote
//
//	ŷ(x) = sign Σ_k c_k sign(v_k·x + b_k).
//
// Freund & Schapire bound its expected test error by the perceptron's mistake
// bound; in practice it behaves like the averaged perceptron, at the cost of
// O(mistakes·d) memory and prediction time.
//
// It is a Perceptron in its settings (the same fields, the same defaults),
// stopping rule and Curve. The model is a
// *VotedModel. Storing a retired vector appends to a growing slice, so Fit
// allocates (amortized) on mistakes, never on correct answers.
type VotedPerceptron Perceptron

var _ Learner = VotedPerceptron{}

// Name returns "voted".
func (VotedPerceptron) Name() string { return "voted" }

// Fit trains on d; see the type's documentation.
func (p VotedPerceptron) Fit(ctx context.Context, d *Data, rec Recorder) (*Result, error) {
	return fitOnline(ctx, d, rec, Perceptron(p).settings("voted perceptron"), votedVariant)
}

// VotedModel is the model of a VotedPerceptron. Machine k (one for two
// classes, one per class otherwise, as in LinearModel) holds the weight
// vectors V[k][j] with biases B[k][j] and survival counts C[k][j], and scores
//
//	s_k(x) = Σ_j C[k][j] · sign(V[k][j]·x + B[k][j]),
//
// where sign(t) is +1 for t > 0 and −1 otherwise. Two classes predict class 1
// when s_0(x) > 0; more classes predict the largest s_k (the lowest index on
// ties). The methods panic if len(x) differs from the training rows'.
type VotedModel struct {
	V       [][][]float64
	B       [][]float64
	C       [][]float64
	Classes int
}

var (
	_ Model  = (*VotedModel)(nil)
	_ Scorer = (*VotedModel)(nil)
)

func (m *VotedModel) vote(k int, x []float64) float64 {
	var s float64
	for j, v := range m.V[k] {
		if len(x) != len(v) {
			panic("learning: input length differs from the model's")
		}
		if dot(v, x)+m.B[k][j] > 0 {
			s += m.C[k][j]
		} else {
			s -= m.C[k][j]
		}
	}
	return s
}

// Predict returns the class that wins the vote.
func (m *VotedModel) Predict(x []float64) int {
	return ovrPredict(len(m.V), func(k int) float64 { return m.vote(k, x) })
}

// Scores writes the votes into dst (grown as needed): (−s_0, s_0) for two
// classes, s_k for each class otherwise.
func (m *VotedModel) Scores(dst, x []float64) []float64 {
	return ovrScores(dst, len(m.V), func(k int) float64 { return m.vote(k, x) })
}

// Vectors returns the number of weight vectors kept, over all machines.
func (m *VotedModel) Vectors() int {
	n := 0
	for _, v := range m.V {
		n += len(v)
	}
	return n
}

// votedTrace records the retired weight vectors of each machine during a fit.
type votedTrace struct {
	dim   int
	w     [][]float64 // flattened retired vectors per machine
	b     [][]float64
	c     [][]float64
	count []float64 // survival count of the current vector
}

func newVotedTrace(mach, dim int) *votedTrace {
	return &votedTrace{
		dim: dim, w: make([][]float64, mach), b: make([][]float64, mach),
		c: make([][]float64, mach), count: make([]float64, mach),
	}
}

// retire stores machine k's current vector (w, b) before it is updated and
// starts the count of its successor at one.
func (t *votedTrace) retire(k int, w []float64, b float64) {
	if t.count[k] > 0 {
		t.w[k] = append(t.w[k], w...)
		t.b[k] = append(t.b[k], b)
		t.c[k] = append(t.c[k], t.count[k])
	}
	t.count[k] = 1
}

// model builds the VotedModel from the trace and the final weights w, b.
func (t *votedTrace) model(classes int, w, b []float64) *VotedModel {
	mach, dim := len(t.count), t.dim
	m := &VotedModel{V: make([][][]float64, mach), B: make([][]float64, mach), C: make([][]float64, mach), Classes: classes}
	for k := range mach {
		flat := append([]float64(nil), t.w[k]...)
		bs := append([]float64(nil), t.b[k]...)
		cs := append([]float64(nil), t.c[k]...)
		if t.count[k] > 0 {
			flat = append(flat, w[k*dim:(k+1)*dim]...)
			bs = append(bs, b[k])
			cs = append(cs, t.count[k])
		}
		vs := make([][]float64, len(cs))
		for j := range vs {
			vs[j] = flat[j*dim : (j+1)*dim : (j+1)*dim]
		}
		m.V[k], m.B[k], m.C[k] = vs, bs, cs
	}
	return m
}
