package learning

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"mark1/learning/internal/bytedot"
	"mark1/learning/kernel"
)

// KernelPerceptron is the perceptron in a feature space Φ that is never built
// (Aizerman, Braverman & Rozonoer 1964; lecture notes 004). From the zero
// start the perceptron's weights are a sum of the examples it got wrong,
// w = Σ_j α_j y_j Φ(x_j) with α_j the number of mistakes on example j, so
//
//	f(x) = Σ_j α_j y_j (k(x_j, x) + 1)
//
// needs only the kernel k(x, z) = Φ(x)·Φ(z). The "+ 1" is the bias as an
// always-on extra input, exactly as in the Perceptron: it is the kernel of the
// feature map (Φ(x), 1). On a mistake (y f(x) ≤ 0) α_i grows by one. With the
// linear kernel it is the Perceptron (same Seed, same order, same mistakes);
// with (x·z)² it is the Perceptron on (x₁², x₂², √2·x₁x₂). The step size does
// not appear: from the zero start it only scales f.
//
// The stopping rule, presentation order and Curve are the Perceptron's
// (mistakes over all one-vs-rest machines per epoch, Risk NaN). The model is
// a *KernelModel, whose support vectors are the stored mistakes.
//
// # Cache and budget
//
// Evaluating f on a training row costs one kernel value per stored mistake.
// The learner keeps the Gram row k(x_j, ·) of each stored example j, computed
// in full when j is first stored, for up to CacheRows examples; rows of later
// mistakes are evaluated on demand, and a row is released when its example is
// dropped. With a Budget, each machine stores at most Budget examples: a
// mistake on a new example when the budget is full first drops the stored
// example with the smallest count α (the least reinforced; the oldest among
// equals), as in the budget perceptrons of Crammer, Kandola & Singer (2004).
// A budget breaks the convergence theorem, so a run may end at the epoch limit
// on separable data.
//
// Fit panics on invalid settings and returns kernel.Validate's error for a
// kernel with bad parameters.
type KernelPerceptron struct {
	// Kernel is the kernel; nil means kernel.Linear{}.
	Kernel kernel.Kernel
	// NoBias drops the always-on extra input (the "+ 1" above).
	NoBias bool
	// MaxEpochs bounds the number of passes; 0 means 100.
	MaxEpochs int
	// InOrder presents the rows in data order in every epoch.
	InOrder bool
	// Budget bounds the number of stored examples per machine; 0 means no
	// bound.
	Budget int
	// CacheRows bounds the number of cached Gram rows (n float64 each); 0
	// means as many as fit in 64 MiB, a negative value disables the cache.
	CacheRows int
	// Seed seeds the presentation order.
	Seed uint64
	// Watch, if not nil, is called after every presentation of a row (for
	// step-by-step traces; see Visit). A mistake adds one to the row's α.
	Watch func(Visit)
}

var _ Learner = KernelPerceptron{}

// Name returns "kernel-perceptron".
func (KernelPerceptron) Name() string { return "kernel-perceptron" }

// kpState is the working memory of a kernel perceptron fit. It keeps every
// machine's f(x_i) for every training row up to date (f), so that a
// presentation costs a lookup and a mistake on x_j one pass over the Gram
// row k(x_j, ·): f_m(x_i) += y (k(x_j, x_i) + β) for all i.
type kpState struct {
	d      *Data
	rows   Rows
	k      kernel.Kernel
	mach   int
	biasIn float64
	ys     []float64
	sq     []float64 // ‖x_i‖²
	f      []float64 // f_m(x_i), n × M
	coef   []float64 // α y, n × M
	alpha  []int     // α, n × M
	stored [][]int   // per machine, stored examples in the order they came
	refs   []int     // machines storing each example
	union  []int     // examples stored by some machine
	pos    []int     // position of each example in union, or -1
	row    [][]float64
	free   [][]float64 // released cache rows
	nrows  int         // cache rows allocated
	limit  int         // cache rows allowed
	xbuf   []float64   // a row written out densely
	tmp    []float64   // an uncached Gram row
	grey   []uint8     // the rows as bytes b (values b/255), n × dim, when they all are
}

// greyRows returns the rows of r as bytes, n × dim, if every value is a
// byte over 255 exactly (pictures read as pixel/255), and nil otherwise.
func greyRows(r Rows) []uint8 {
	switch r := r.(type) {
	case *Bits:
		return nil
	case *Grey:
		return r.B
	case *Sparse:
		if greyCopy(r) == 0 {
			return nil
		}
	}
	n, dim := r.Len(), r.Dim()
	out := make([]uint8, n*dim)
	var x []float64
	for i := range n {
		x = r.Row(x, i)
		if !bytedot.FromGrey(out[i*dim:(i+1)*dim], x) {
			return nil
		}
	}
	return out
}

// greyCopy returns the bytes greyRows may allocate for r: none for bit
// sets and grey rows, which it shares, and for sparse rows whose dense
// bytes would outweigh them (never a dense copy of sparse data); n × dim
// otherwise.
func greyCopy(r Rows) Need {
	switch r := r.(type) {
	case *Bits, *Grey:
		return 0
	case *Sparse:
		if Times(r.Len(), r.Dim()) > Times(len(r.Value), 12) {
			return 0
		}
	}
	return Times(r.Len(), r.Dim())
}

// Fit trains on d; see the type's documentation.
func (p KernelPerceptron) Fit(ctx context.Context, d *Data, rec Recorder) (*Result, error) {
	s := onlineSettings{name: "kernel perceptron", bias: !p.NoBias, maxEpochs: p.MaxEpochs, inOrder: p.InOrder, seed: p.Seed}
	s.check()
	if p.Budget < 0 {
		panic(fmt.Sprintf("learning: kernel perceptron: negative Budget %d", p.Budget))
	}
	k := p.Kernel
	if k == nil {
		k = kernel.Linear{}
	}
	if err := kernel.Validate(k); err != nil {
		return nil, err
	}
	if err := d.Validate(); err != nil {
		return nil, err
	}
	rows := d.Features()
	n, mach := rows.Len(), ovrMachines(d)
	// coefficients, counts and decision values per row and machine; per
	// row its norm, position, references and cache slot; the rows as
	// bytes when they are grey; at least one cached kernel row
	fixed := Times(n, 24*mach+48) + greyCopy(rows) + Times(n, 8) + Times(rows.Dim(), 8)
	if err := CheckMemory(ctx, s.name, fixed, fmt.Sprintf("%d rows × %d machines and a kernel row of %d values", n, mach, n)); err != nil {
		return nil, err
	}
	st := &kpState{
		d: d, rows: rows, k: k, mach: mach, ys: signs(nil, d),
		coef: make([]float64, n*mach), alpha: make([]int, n*mach),
		stored: make([][]int, mach), refs: make([]int, n), pos: make([]int, n),
		row: make([][]float64, n), f: make([]float64, n*mach), sq: make([]float64, n),
	}
	if _, ok := kernel.FromDot(k, 0, 0, 0); ok {
		st.grey = greyRows(rows)
	}
	dim := rows.Dim()
	for i := range n {
		if st.grey != nil {
			g := st.grey[i*dim : (i+1)*dim]
			st.sq[i] = float64(bytedot.Dot(g, g)) / bytedot.Scale
		} else {
			st.sq[i] = rows.SqNorm(i)
		}
	}
	for i := range st.pos {
		st.pos[i] = -1
	}
	if s.bias {
		st.biasIn = 1
	}
	switch {
	case p.CacheRows > 0:
		st.limit = p.CacheRows
	case p.CacheRows == 0: // 256 MiB, or what the budget leaves
		st.limit = int(Spare(ctx, fixed, 256<<20) / int64(8*n))
	}
	order := rand.New(rand.NewPCG(s.seed, orderStream))
	perm := make([]int, n)

	res := &Result{}
	finish := func(status Status) {
		res.Model = st.model(ctx)
		res.Status = status
	}
	last := 0
	for epoch := 1; epoch <= s.maxEpochs; epoch++ {
		if err := ctx.Err(); err != nil {
			finish(Cancelled)
			res.Summary = fmt.Sprintf("cancelled after %d epochs: %v", res.Epochs, err)
			return res, err
		}
		nextOrder(perm, order, s.inOrder)
		mistakes := 0
		for _, i := range perm {
			// A mistake costs a kernel row (n kernel values): an epoch
			// of a large set takes long, so the context is asked at
			// every row as well as every epoch.
			if err := ctx.Err(); err != nil {
				finish(Cancelled)
				res.Summary = fmt.Sprintf("cancelled in epoch %d: %v", epoch, err)
				return res, err
			}
			for m := range mach {
				y := st.ys[i*mach+m]
				score := st.f[i*mach+m]
				if !finite(score) {
					return nil, overflowError(s.name, i, score)
				}
				if y*score > 0 {
					if p.Watch != nil {
						p.Watch(Visit{Epoch: epoch, Row: i, Machine: m, Y: y, Score: score})
					}
					continue
				}
				mistakes++
				st.mistake(i, m, p.Budget)
				if p.Watch != nil {
					p.Watch(Visit{Epoch: epoch, Row: i, Machine: m, Y: y, Score: score, Mistake: true})
				}
			}
		}
		last = mistakes
		if err := res.closeEpoch(epoch, mistakes, rec); err != nil {
			finish(Stopped)
			return res, err
		}
		if mistakes == 0 {
			finish(Converged)
			res.Summary = fmt.Sprintf("converged: epoch %d made no mistakes (%d updates in all, %d examples stored)", epoch, res.Updates, len(st.union))
			return res, nil
		}
	}
	finish(EpochLimit)
	res.Summary = limitStatus(s.maxEpochs, last)
	return res, nil
}

// gramRow returns k(x_j, ·) over all training rows: the cached row, or one
// computed into a scratch buffer that the next call overwrites. A row is one
// pass of dot products with x_j written out densely, through Rows, so it
// costs the stored non-zeros only.
func (st *kpState) gramRow(j int) []float64 {
	if r := st.row[j]; r != nil {
		return r
	}
	st.tmp = grow(st.tmp, st.rows.Len())
	st.fillRow(st.tmp, j)
	return st.tmp
}

// fillRow sets r[i] = k(x_j, x_i): from exact byte dot products for grey
// pictures, otherwise from dot products through Rows.
func (st *kpState) fillRow(r []float64, j int) {
	if st.grey != nil {
		dim := st.rows.Dim()
		xj := st.grey[j*dim : (j+1)*dim]
		sj := st.sq[j]
		for i := range r {
			d := float64(bytedot.Dot(xj, st.grey[i*dim:(i+1)*dim])) / bytedot.Scale
			r[i], _ = kernel.FromDot(st.k, d, sj, st.sq[i])
		}
		return
	}
	st.xbuf = st.rows.Row(st.xbuf, j)
	if _, ok := kernel.FromDot(st.k, 0, 0, 0); !ok {
		var xi []float64
		for i := range r {
			xi = st.rows.Row(xi, i)
			r[i] = st.k.Eval(st.xbuf, xi)
		}
		return
	}
	sj := st.sq[j]
	for i := range r {
		r[i], _ = kernel.FromDot(st.k, st.rows.Dot(i, st.xbuf), sj, st.sq[i])
	}
}

// adjust adds c·(k(x_j, x_i) + β) to machine m's f(x_i) for every row i.
func (st *kpState) adjust(j, m int, c float64) {
	r := st.gramRow(j)
	mach, beta := st.mach, st.biasIn
	for i, v := range r {
		st.f[i*mach+m] += c * (v + beta)
	}
}

// mistake records a mistake of machine m on example i.
func (st *kpState) mistake(i, m, budget int) {
	mach := st.mach
	if st.alpha[i*mach+m] == 0 {
		if budget > 0 && len(st.stored[m]) == budget {
			st.drop(m)
		}
		st.stored[m] = append(st.stored[m], i)
		if st.refs[i] == 0 {
			st.pos[i] = len(st.union)
			st.union = append(st.union, i)
			st.cacheRow(i)
		}
		st.refs[i]++
	}
	st.alpha[i*mach+m]++
	st.coef[i*mach+m] += st.ys[i*mach+m]
	st.adjust(i, m, st.ys[i*mach+m])
}

// drop removes from machine m the stored example with the smallest α, the
// oldest among equals.
func (st *kpState) drop(m int) {
	mach := st.mach
	list := st.stored[m]
	at := 0
	for q, j := range list {
		if st.alpha[j*mach+m] < st.alpha[list[at]*mach+m] {
			at = q
		}
	}
	j := list[at]
	st.stored[m] = append(list[:at], list[at+1:]...)
	st.adjust(j, m, -st.coef[j*mach+m])
	st.alpha[j*mach+m] = 0
	st.coef[j*mach+m] = 0
	st.refs[j]--
	if st.refs[j] > 0 {
		return
	}
	// Remove j from the union, keeping the others in order.
	p := st.pos[j]
	copy(st.union[p:], st.union[p+1:])
	st.union = st.union[:len(st.union)-1]
	for q := p; q < len(st.union); q++ {
		st.pos[st.union[q]] = q
	}
	st.pos[j] = -1
	if r := st.row[j]; r != nil {
		st.free = append(st.free, r)
		st.row[j] = nil
	}
}

// cacheRow computes and keeps the Gram row of example j if the cache has room.
func (st *kpState) cacheRow(j int) {
	var r []float64
	switch {
	case len(st.free) > 0:
		r = st.free[len(st.free)-1]
		st.free = st.free[:len(st.free)-1]
	case st.nrows < st.limit:
		r = make([]float64, st.rows.Len())
		st.nrows++
	default:
		return
	}
	st.fillRow(r, j)
	st.row[j] = r
}

// model copies the stored examples into a KernelModel and measures its
// margin, which costs a kernel value for each pair of stored examples: a
// cancelled run (ctx done) leaves it NaN.
func (st *kpState) model(ctx context.Context) *KernelModel {
	mach := st.mach
	km := &KernelModel{
		Kernel: st.k, Bias: st.biasIn == 1, Classes: st.d.Classes,
		SV: make([][]float64, len(st.union)), Coef: make([][]float64, mach),
	}
	for m := range mach {
		km.Coef[m] = make([]float64, len(st.union))
	}
	dim := st.rows.Dim()
	if st.grey != nil {
		km.grey = make([]uint8, 0, len(st.union)*dim)
		km.greySq = make([]float64, len(st.union))
	}
	for q, j := range st.union {
		km.SV[q] = st.rows.Row(nil, j)
		for m := range mach {
			km.Coef[m][q] = st.coef[j*mach+m]
		}
		if st.grey != nil {
			km.grey = append(km.grey, st.grey[j*dim:(j+1)*dim]...)
			km.greySq[q] = st.sq[j]
		}
	}
	// Margin: min_i y_i f(x_i) / ‖w‖ per machine, ‖w‖² = Σ c_j c_l k(x_j, x_l).
	km.margin = math.Inf(1)
	lo := make([]float64, mach)
	for m := range lo {
		lo[m] = math.Inf(1)
	}
	for i := range st.rows.Len() {
		for m := range mach {
			lo[m] = min(lo[m], st.ys[i*mach+m]*st.f[i*mach+m])
		}
	}
	for m := range mach {
		var ww float64
		for _, j := range st.union {
			if ctx.Err() != nil {
				ww = math.NaN()
				break
			}
			cj := st.coef[j*mach+m]
			if cj == 0 {
				continue
			}
			r := st.gramRow(j)
			for _, l := range st.union {
				if cl := st.coef[l*mach+m]; cl != 0 {
					ww += cj * cl * r[l]
				}
			}
		}
		if !(ww > 0) {
			km.margin = math.NaN()
			break
		}
		km.margin = min(km.margin, lo[m]/math.Sqrt(ww))
	}
	return km
}

// KernelModel is the model of a KernelPerceptron. Machine m (one for two
// classes, one per class otherwise, as in LinearModel) computes
//
//	f_m(x) = Σ_j Coef[m][j] (Kernel(SV[j], x) + β),
//
// with β = 1 when Bias is set and 0 otherwise; Coef[m][j] = α_j y_j is zero
// for an example that only other machines stored. Two classes predict class 1
// when f_0(x) > 0; more classes predict the largest f_m (the lowest index on
// ties). The methods panic if len(x) differs from the training rows'.
type KernelModel struct {
	Kernel  kernel.Kernel
	SV      [][]float64
	Coef    [][]float64
	Bias    bool
	Classes int

	margin float64
	// grey holds SV as bytes (values b/255) with their squared norms when
	// the fit found the training rows to be grey pictures; a grey x is
	// then compared with exact byte dot products.
	grey   []uint8
	greySq []float64
}

var (
	_ Model           = (*KernelModel)(nil)
	_ Scorer          = (*KernelModel)(nil)
	_ Margined        = (*KernelModel)(nil)
	_ SupportVectored = (*KernelModel)(nil)
)

// decisions adds every machine's f(x) into f (zeroed by the caller).
func (km *KernelModel) decisions(f, x []float64) {
	beta := 0.0
	if km.Bias {
		beta = 1
	}
	if km.grey != nil && len(x) > 0 {
		dim := len(x)
		xb := make([]uint8, dim)
		if bytedot.FromGrey(xb, x) && len(km.grey) == dim*len(km.SV) {
			sx := float64(bytedot.Dot(xb, xb)) / bytedot.Scale
			for j := range km.SV {
				d := float64(bytedot.Dot(xb, km.grey[j*dim:(j+1)*dim])) / bytedot.Scale
				kv, _ := kernel.FromDot(km.Kernel, d, km.greySq[j], sx)
				kv += beta
				for m := range f {
					f[m] += km.Coef[m][j] * kv
				}
			}
			return
		}
	}
	for j, sv := range km.SV {
		kv := km.Kernel.Eval(sv, x) + beta
		for m := range f {
			f[m] += km.Coef[m][j] * kv
		}
	}
}

// Scores writes one score per class into dst (grown as needed): (−f_0, f_0)
// for two classes, f_m for each class otherwise.
func (km *KernelModel) Scores(dst, x []float64) []float64 {
	if len(km.Coef) == 1 {
		var f [1]float64
		km.decisions(f[:], x)
		return binaryScores(dst, f[0])
	}
	dst = grow(dst, len(km.Coef))
	clear(dst)
	km.decisions(dst, x)
	return dst
}

// Predict returns the class of x.
func (km *KernelModel) Predict(x []float64) int {
	var buf [32]float64
	var f []float64
	if len(km.Coef) <= len(buf) {
		f = buf[:len(km.Coef)]
	} else {
		f = make([]float64, len(km.Coef))
	}
	km.decisions(f, x)
	return ovrPredict(len(f), func(k int) float64 { return f[k] })
}

// SupportVectors returns the number of stored examples and 0: a perceptron's
// coefficients have no upper bound.
func (km *KernelModel) SupportVectors() (total, bounded int) { return len(km.SV), 0 }

// Margin returns the geometric margin in feature space on the training data,
// min_i y_i f(x_i)/‖w‖ with ‖w‖² = Σ_jl c_j c_l k(x_j, x_l) (the bias, as for
// LinearModel, not counted in ‖w‖); for more than two classes the smallest of
// the machines' margins. It is NaN when some machine's w is zero, or when
// the run was cancelled before it was measured.
func (km *KernelModel) Margin() float64 { return km.margin }
