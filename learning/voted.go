package learning

import (
	"context"
	"fmt"
)

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
// Its history grows by one vector a mistake, so it cannot be counted from
// the data's shape before the fit: it is counted before each block of it
// is allocated instead (retire), against what the budget leaves beside the
// fit's fixed memory. The vectors are kept in blocks that are never copied
// (doubling from one vector to votedBlock bytes, then votedBlock each), so
// the history can fill the budget; the model's vectors are slices of them.
type votedTrace struct {
	dim   int
	v     [][][]float64 // retired vectors per machine, slices of its blocks
	block [][]float64   // each machine's block being filled
	b     [][]float64
	c     [][]float64
	count []float64 // survival count of the current vector

	ctx     context.Context // carries the budget (WithMemoryBudget)
	name    string          // the learner, for a MemoryError
	fixed   Need            // the fit's memory besides the history
	held    int             // float64s held by the blocks
	vectors int             // retired vectors, over all machines
}

func newVotedTrace(ctx context.Context, name string, fixed Need, mach, dim int) *votedTrace {
	return &votedTrace{
		dim: dim, v: make([][][]float64, mach), block: make([][]float64, mach),
		b: make([][]float64, mach), c: make([][]float64, mach), count: make([]float64, mach),
		ctx: ctx, name: name, fixed: fixed,
	}
}

// votedBlock is the largest block of retired vectors, in bytes.
const votedBlock = 1 << 20

// votedVectorBytes is what a retired vector costs besides its weights: its
// bias, count and slice header, twice (the arrays that hold them grow by
// copying).
const votedVectorBytes = 2 * (16 + 24)

// retire stores machine k's current vector (w, b) before it is updated and
// starts the count of its successor at one. It returns a *MemoryError,
// before allocating, when storing it would take the history past the
// budget.
func (t *votedTrace) retire(k int, w []float64, b float64) error {
	if t.count[k] > 0 {
		if len(t.block[k])+t.dim > cap(t.block[k]) {
			size := max(t.dim, min(2*cap(t.block[k]), votedBlock/8/t.dim*t.dim))
			need := t.fixed + Times(t.held+size, 8) + Times(t.vectors+1, votedVectorBytes)
			cause := fmt.Sprintf("%d retired weight vectors of %d values (one a mistake, kept for the vote)", t.vectors+1, t.dim+1)
			if err := CheckMemory(t.ctx, t.name, need, cause); err != nil {
				return err
			}
			t.block[k] = make([]float64, 0, size)
			t.held += size
		}
		n := len(t.block[k])
		t.block[k] = append(t.block[k], w...)
		t.v[k] = append(t.v[k], t.block[k][n:n+t.dim:n+t.dim])
		t.b[k] = append(t.b[k], b)
		t.c[k] = append(t.c[k], t.count[k])
		t.vectors++
	}
	t.count[k] = 1
	return nil
}

// model builds the VotedModel from the trace and the final weights w, b.
// Its vectors are the trace's.
func (t *votedTrace) model(classes int, w, b []float64) *VotedModel {
	mach, dim := len(t.count), t.dim
	m := &VotedModel{V: make([][][]float64, mach), B: make([][]float64, mach), C: make([][]float64, mach), Classes: classes}
	for k := range mach {
		vs, bs, cs := t.v[k], t.b[k], t.c[k]
		if t.count[k] > 0 {
			vs = append(vs, append([]float64(nil), w[k*dim:(k+1)*dim]...))
			bs = append(bs, b[k])
			cs = append(cs, t.count[k])
		}
		m.V[k], m.B[k], m.C[k] = vs, bs, cs
	}
	return m
}
