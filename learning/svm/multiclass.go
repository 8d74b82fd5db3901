package svm

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"

	"mark1/learning"
	"mark1/learning/kernel"
)

// Machine is one binary kernel SVM inside a KernelModel: it separates class
// Pos (+1) from class Neg (−1), or from all other classes when Neg is −1.
type Machine struct {
	Pos, Neg int
	// SV indexes the model's SV list; Coef holds α_i y_i for each.
	SV   []int
	Coef []float64
	// Rho is the threshold: f(x) = Σ Coef_k k(SV_k, x) − Rho.
	Rho float64
	// W2 is ‖w‖² in the kernel's feature space; the margin is 1/√W2.
	W2 float64
	// Obj is the dual objective, Bounded the number of α at C, Iter the
	// SMO iterations, Status how the solver ended.
	Obj     float64
	Bounded int
	Iter    int
	Status  Status
	Message string

	w []float64 // explicit weights for the linear kernel
}

// KernelModel is a trained kernel SVM: one machine for two classes, or
// several joined one-vs-one (LIBSVM's voting) or one-vs-rest. The machines
// share one list of support vectors, so a prediction evaluates the kernel
// once per support vector.
type KernelModel struct {
	Kernel   kernel.Kernel
	Classes  int
	Strategy Multiclass
	// SV holds the distinct support vectors of all machines as copies of
	// the training rows when those were dense (Data.X or learning.Dense),
	// and is nil otherwise: SVRows always holds them, in the training
	// data's own form (bit sets or sparse rows stay so).
	SV [][]float64
	// SVRows holds the support vectors, in the order of SV.
	SVRows    learning.Rows
	Machines  []Machine
	present   []bool // class c occurred in the training data
	boundedSV []bool // SV[s] is at α = C in some machine
	sv        *gram  // SV in the fastest layout for the kernel
}

var (
	_ learning.Model           = (*KernelModel)(nil)
	_ learning.Scorer          = (*KernelModel)(nil)
	_ learning.Margined        = (*KernelModel)(nil)
	_ learning.SupportVectored = (*KernelModel)(nil)
)

// scratch is the working memory of a prediction, reused across the rows
// of a batch.
type scratch struct {
	kv   []float64 // kernel values against every support vector
	pre  []float64 // kernel values computed beforehand, when not nil
	ev   evalScratch
	f    []float64 // decision values
	x    []float64 // the row written out densely
	vote []float64
}

// decisions sets dst[m] to machine m's decision value on x. The kernel
// values k(SV_s, x) are computed once, for all machines.
func (km *KernelModel) decisions(dst, x []float64, sc *scratch) []float64 {
	dst = slices.Grow(dst[:0], len(km.Machines))[:len(km.Machines)]
	var kv []float64
	for m := range km.Machines {
		mc := &km.Machines[m]
		if mc.w != nil {
			dst[m] = kernel.Dot(mc.w, x) - mc.Rho
			continue
		}
		if kv == nil {
			if sc.pre != nil { // computed for a block of rows (PredictRows)
				kv = sc.pre
			} else if km.sv != nil {
				kv = slices.Grow(sc.kv[:0], len(km.sv.v.sq))[:len(km.sv.v.sq)]
				km.sv.evalAll(kv, x, &sc.ev)
			} else { // a model built by hand
				kv = slices.Grow(sc.kv[:0], len(km.SV))[:len(km.SV)]
				for s, sv := range km.SV {
					kv[s] = km.Kernel.Eval(sv, x)
				}
			}
			sc.kv = kv
		}
		dst[m] = mc.decision(kv)
	}
	return dst
}

// decision returns the machine's f(x) from the kernel values kv[s] =
// k(SV_s, x).
func (mc *Machine) decision(kv []float64) float64 {
	var f float64
	for k, s := range mc.SV {
		f += mc.Coef[k] * kv[s]
	}
	return f - mc.Rho
}

// Scores sets dst[c], for every class c, to a score whose maximum is the
// prediction and returns dst (grown to Classes if needed). With one
// machine (two classes) the scores are ±f(x); one-vs-one gives the votes,
// one-vs-rest each machine's f(x). Classes absent from the training data
// score −Inf. It panics if x has the wrong length.
func (km *KernelModel) Scores(dst, x []float64) []float64 {
	return km.scores(dst, x, &scratch{})
}

func (km *KernelModel) scores(dst, x []float64, sc *scratch) []float64 {
	dst = slices.Grow(dst[:0], km.Classes)[:km.Classes]
	for c := range dst {
		dst[c] = math.Inf(-1)
	}
	f := km.decisions(sc.f, x, sc)
	sc.f = f
	switch {
	case len(km.Machines) == 1:
		mc := km.Machines[0]
		dst[mc.Pos] = f[0]
		if mc.Neg >= 0 {
			dst[mc.Neg] = -f[0]
		}
	case km.Strategy == OneVsRest:
		for m, mc := range km.Machines {
			dst[mc.Pos] = f[m]
		}
	default:
		// Every class with a machine starts at 0 votes (also in a model
		// built by hand from its exported fields, as a model file reader
		// does).
		for _, mc := range km.Machines {
			dst[mc.Pos], dst[mc.Neg] = 0, 0
		}
		for m, mc := range km.Machines {
			if f[m] > 0 {
				dst[mc.Pos]++
			} else {
				dst[mc.Neg]++
			}
		}
	}
	return dst
}

// Predict returns the class of x: the side of f(x) = 0 for two classes
// (class Pos when f(x) > 0), the most votes one-vs-one (ties to the smaller
// class index, as LIBSVM's first label), the largest f(x) one-vs-rest.
func (km *KernelModel) Predict(x []float64) int { return km.predict(x, &scratch{}) }

func (km *KernelModel) predict(x []float64, sc *scratch) int {
	if len(km.Machines) == 1 {
		mc := km.Machines[0]
		sc.f = km.decisions(sc.f, x, sc)
		if sc.f[0] > 0 || mc.Neg < 0 {
			return mc.Pos
		}
		return mc.Neg
	}
	sc.vote = km.scores(sc.vote, x, sc)
	return argmax(sc.vote)
}

// predictBlock is the number of rows a goroutine of PredictRows takes at a
// time.
const predictBlock = 64

// blockThreads returns how many goroutines share out n rows in blocks of
// predictBlock: threads (all cores when 0), at most one a block, at least
// one. It panics, naming the method who, if threads < 0.
func blockThreads(n, threads int, who string) int {
	if threads < 0 {
		panic("svm: " + who + ": negative threads")
	}
	if threads == 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	blocks := (n + predictBlock - 1) / predictBlock
	return max(1, min(threads, blocks))
}

// inBlocks runs threads goroutines over n rows in blocks of predictBlock:
// goroutine t makes its block function with worker(t) and calls it on the
// blocks [lo, hi) it takes, in increasing order, until none is left.
func inBlocks(n, threads int, worker func(t int) func(lo, hi int)) {
	blocks := (n + predictBlock - 1) / predictBlock
	var next atomic.Int64
	var wg sync.WaitGroup
	for t := range threads {
		wg.Go(func() {
			block := worker(t)
			for {
				b := int(next.Add(1) - 1)
				if b >= blocks {
					return
				}
				block(b*predictBlock, min(n, (b+1)*predictBlock))
			}
		})
	}
	wg.Wait()
}

// PredictRows returns Predict's class for every row of r, in dst (grown as
// needed). The rows are shared out in blocks of 64 among threads goroutines
// (all cores when 0); each row's kernel values against the support vectors
// are computed once for all machines, with the row converted once (to bytes
// or bits when the support vectors are stored so). The answers do not depend
// on threads. It panics if r's rows have the wrong length or threads < 0.
func (km *KernelModel) PredictRows(dst []int, r learning.Rows, threads int) []int {
	dst, _, _ = km.predictRows(dst, r, threads, nil)
	return dst
}

// PredictRowsChecked is PredictRows that also checks every decision value:
// when one is not a finite number (kernel values that overflow on the
// data, or NaN from values of ±Inf), it returns a *NonFiniteError naming
// the first such row and its value, instead of a class picked from NaN.
func (km *KernelModel) PredictRowsChecked(dst []int, r learning.Rows, threads int) ([]int, error) {
	return km.predictChecked(dst, r, threads, nil)
}

func (km *KernelModel) predictChecked(dst []int, r learning.Rows, threads int, keep *[]*predictWorker) ([]int, error) {
	dst, bad, v := km.predictRows(dst, r, threads, keep)
	if bad >= 0 {
		return nil, &NonFiniteError{Row: bad, Value: v}
	}
	return dst, nil
}

// A Predictor predicts rows with a KernelModel call after call, as a file
// read a block at a time is (PredictRowsChecked), keeping its goroutines'
// working memory (a block's kernel values against every support vector)
// from one call to the next, where the model's own PredictRowsChecked
// makes it afresh each call: a 64-row block a call, that was the most of
// what apply allocated. A Predictor is not safe for concurrent use.
type Predictor struct {
	km      *KernelModel
	workers []*predictWorker
}

// predictWorker is the working memory of one goroutine of predictRows.
type predictWorker struct {
	sc scratch
	bs *blockScratch // nil when the model predicts row by row
}

// Predictor returns a Predictor of km's classes.
func (km *KernelModel) Predictor() *Predictor { return &Predictor{km: km} }

// PredictRowsChecked is the model's PredictRowsChecked, the answers the
// same.
func (p *Predictor) PredictRowsChecked(dst []int, r learning.Rows, threads int) ([]int, error) {
	return p.km.predictChecked(dst, r, threads, &p.workers)
}

// NonFiniteError is PredictRowsChecked's error: the decision value Value
// on row Row (0-based) is not a finite number. It wraps
// learning.ErrOverflow.
type NonFiniteError struct {
	Row   int
	Value float64
}

// Error names the row 1-based.
func (e *NonFiniteError) Error() string {
	return fmt.Sprintf("row %d: a decision value is %v, not a finite number: the kernel values of the data and the support vectors overflow (scale the data)", e.Row+1, e.Value)
}

// Unwrap returns learning.ErrOverflow.
func (e *NonFiniteError) Unwrap() error { return learning.ErrOverflow }

// predictRows is PredictRows, also returning the first row whose decision
// values are not all finite and the first such value (bad = −1 if none).
// Goroutine t works in (*keep)[t] when keep is not nil, made there if
// missing; in its own working memory otherwise.
func (km *KernelModel) predictRows(dst []int, r learning.Rows, threads int, keep *[]*predictWorker) (_ []int, bad int, value float64) {
	n := r.Len()
	dst = slices.Grow(dst[:0], n)[:n]
	threads = blockThreads(n, threads, "PredictRows")
	type nonFinite struct {
		row   int
		value float64
	}
	first := make([]nonFinite, threads) // each goroutine's first bad row
	workers := make([]*predictWorker, threads)
	if keep != nil {
		for len(*keep) < threads {
			*keep = append(*keep, nil)
		}
		workers = *keep
	}
	inBlocks(n, threads, func(t int) func(lo, hi int) {
		first[t].row = n
		if workers[t] == nil {
			workers[t] = &predictWorker{}
			if km.sv != nil && (km.sv.v.layout == layoutF32 || km.sv.v.layout == layoutBytes) && km.sv.kind != kindGeneric {
				workers[t].bs = &blockScratch{}
			}
		}
		sc, bs := &workers[t].sc, workers[t].bs
		// check notes row i when a decision value sc.f holds is not
		// finite; a goroutine takes its blocks in increasing order.
		check := func(i int) {
			for _, v := range sc.f {
				if (math.IsNaN(v) || math.IsInf(v, 0)) && i < first[t].row {
					first[t] = nonFinite{i, v}
				}
			}
		}
		return func(lo, hi int) {
			if bs != nil {
				km.predictBlock(dst, r, lo, hi, sc, bs, check)
				return
			}
			for i := lo; i < hi; i++ {
				sc.x = r.Row(sc.x, i)
				dst[i] = km.predict(sc.x, sc)
				check(i)
			}
		}
	})
	bad = n
	for _, f := range first {
		if f.row < bad {
			bad, value = f.row, f.value
		}
	}
	if bad == n {
		bad = -1
	}
	return dst, bad, value
}

// Margin returns the geometric margin 1/‖w‖ of a single machine, and for
// several machines the smallest of theirs: the margin of the weakest pair
// (one-vs-one) or class (one-vs-rest).
func (km *KernelModel) Margin() float64 {
	m := math.Inf(1)
	for _, mc := range km.Machines {
		m = math.Min(m, 1/math.Sqrt(mc.W2))
	}
	return m
}

// SupportVectors returns the number of distinct support vectors over all
// machines and how many of them are at the bound α = C in at least one.
func (km *KernelModel) SupportVectors() (total, bounded int) {
	if km.SVRows != nil {
		return km.SVRows.Len(), km.bounded()
	}
	return len(km.SV), km.bounded()
}

func (km *KernelModel) bounded() int {
	n := 0
	for _, b := range km.boundedSV {
		if b {
			n++
		}
	}
	return n
}

func argmax(s []float64) int {
	best := 0
	for c, v := range s {
		if v > s[best] {
			best = c
		}
	}
	return best
}

// classes checks d and returns the classes that occur, in increasing order.
func classes(d *learning.Data) ([]int, error) {
	if d == nil || d.Len() == 0 {
		return nil, fmt.Errorf("no examples: %w", ErrShape)
	}
	if d.Len() != len(d.Y) {
		return nil, fmt.Errorf("%d examples but %d labels: %w", d.Len(), len(d.Y), ErrShape)
	}
	if err := checkRows(d.Features()); err != nil {
		return nil, err
	}
	seen := make([]bool, max(d.Classes, 0))
	for i, c := range d.Y {
		if c < 0 || c >= d.Classes {
			return nil, fmt.Errorf("label %d of example %d is not in [0, %d): %w", c, i, d.Classes, ErrLabel)
		}
		seen[c] = true
	}
	var cs []int
	for c, ok := range seen {
		if ok {
			cs = append(cs, c)
		}
	}
	if len(cs) < 2 {
		return nil, fmt.Errorf("all %d examples are of class %d: %w", d.Len(), d.Y[0], ErrOneClass)
	}
	return cs, nil
}

// pair is one binary problem: the rows of class pos labelled +1, then
// those of class neg labelled −1, each in data order (one-vs-one), or
// every row in order, those of class pos +1 and the rest −1 (one-vs-rest,
// neg = −1). Its rows are listed only while it is solved (members): lists
// kept for every problem would hold each row once per pair of its class
// (9 times over for 10 classes, 8.6 MB at 60,000 rows).
type pair struct {
	pos, neg      int
	first, second []int // one-vs-one: the rows of pos and of neg
	labels        []int // one-vs-rest: every row's class
}

// size returns the number of rows of the problem.
func (p pair) size() int {
	if p.labels != nil {
		return len(p.labels)
	}
	return len(p.first) + len(p.second)
}

// row returns the training row of the problem's row i.
func (p pair) row(i int) int {
	switch {
	case p.labels != nil:
		return i
	case i < len(p.first):
		return p.first[i]
	}
	return p.second[i-len(p.first)]
}

// members lists the problem's training rows and their labels ±1.
func (p pair) members() (rows []int, y []float64) {
	n := p.size()
	rows, y = make([]int, n), make([]float64, n)
	for i := range n {
		rows[i], y[i] = p.row(i), -1
		if i < len(p.first) || (p.labels != nil && p.labels[i] == p.pos) {
			y[i] = 1
		}
	}
	return rows, y
}

// pairs splits the data into binary problems.
func pairs(d *learning.Data, cs []int, m Multiclass) []pair {
	if len(cs) == 2 {
		m = OneVsOne
	}
	var ps []pair
	switch m {
	case OneVsRest:
		for _, c := range cs {
			ps = append(ps, pair{pos: c, neg: -1, labels: d.Y})
		}
	default:
		// Each class's rows once, in order, so that a pair costs its
		// rows (O(n) a class, not O(n) a pair).
		of := make(map[int][]int, len(cs))
		for i, yc := range d.Y {
			of[yc] = append(of[yc], i)
		}
		for a := range cs {
			for b := a + 1; b < len(cs); b++ {
				// The rows of the positive class first, then the
				// negative's, each in the order of the data, as
				// LIBSVM's svm_train groups them: the solver then
				// takes the same path as LIBSVM's.
				ps = append(ps, pair{pos: cs[a], neg: cs[b], first: of[cs[a]], second: of[cs[b]]})
			}
		}
	}
	return ps
}

// settings returns s with the class weights of the pair's two sides.
func (p pair) settings(s Settings) Settings {
	at := func(c int) float64 {
		if c < 0 || c >= len(s.weights) {
			return 0
		}
		return s.weights[c]
	}
	s.wpos, s.wneg = at(p.pos), at(p.neg)
	return s
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// fitKernel trains the machines of a kernel SVM.
func fitKernel(ctx context.Context, d *learning.Data, l Kernel, rec learning.Recorder) (*KernelModel, *learning.Result, error) {
	k, s, cs, err := kernelSetup(ctx, d, l)
	if err != nil {
		return nil, nil, err
	}
	ps := pairs(d, cs, l.Multiclass)
	var curve []learning.Epoch
	rows := d.Features()
	if l.Multiclass == OneVsOne && !noClassRows {
		s.cls = newClassRows(rows, d.Y, cs, k)
	}
	solved, err := solvePairs(ctx, ps, s, func(e learning.Epoch) {
		e.Epoch = len(curve) + 1
		curve = append(curve, e)
		if rec != nil {
			_ = rec.Record(e) // a stop asked for arrives through ctx (stoppable)
		}
	}, func(ctx context.Context, p pair, s Settings, progress func(int, float64)) (*Binary, error) {
		sub, y := p.members()
		b, err := solveRows(ctx, rows, sub, nil, y, k, p.settings(s), progress)
		if b != nil {
			// assemble reads the support vectors' coefficients: an α for
			// every row of every pair would pile up as the pairs are
			// solved (4.3 MB at 60,000 rows of 10 classes).
			b.Alpha = nil
		}
		return b, err
	})
	if err != nil {
		return nil, nil, err
	}
	km, res, err := assemble(ctx, d, k, l.Multiclass, s, cs, ps, solved)
	if err != nil {
		return nil, nil, err
	}
	res.Curve = curve
	return km, res, nil
}

// kernelSetup checks d and l's settings (with their defaults filled in)
// and the memory a fit needs, and returns the kernel, the settings and
// the classes that occur.
func kernelSetup(ctx context.Context, d *learning.Data, l Kernel) (kernel.Kernel, Settings, []int, error) {
	k, s := l.Kernel, l.Settings
	cs, err := classes(d)
	if err != nil {
		return nil, s, nil, err
	}
	if k == nil {
		k = kernel.Linear{}
	}
	if err := checkSettings(&s, k); err != nil {
		return nil, s, nil, err
	}
	switch l.Type {
	case CSVC:
	case NuSVC:
		s.nuSVC, s.Hard = true, false
	default:
		return nil, s, nil, fmt.Errorf("Type %v is not a classifier (want CSVC or NuSVC): %w", l.Type, ErrSetting)
	}
	for c, w := range l.ClassWeight {
		if !(w >= 0) || math.IsInf(w, 0) {
			return nil, s, nil, fmt.Errorf("ClassWeight[%d] = %v, want a finite weight ≥ 0: %w", c, w, ErrSetting)
		}
	}
	if len(l.ClassWeight) > 0 && !s.nuSVC {
		s.weights = l.ClassWeight
	}
	if err := kernelNeed(ctx, d, cs, l.Multiclass, s); err != nil {
		return nil, s, nil, err
	}
	return k, s, cs, nil
}

// assemble joins the solved binary problems of the pairs ps into a
// model: one list of support vectors for all machines.
func assemble(ctx context.Context, d *learning.Data, k kernel.Kernel, strat Multiclass, s Settings, cs []int, ps []pair, solved []*Binary) (*KernelModel, *learning.Result, error) {
	km := &KernelModel{Kernel: k, Classes: d.Classes, Strategy: strat, present: make([]bool, d.Classes)}
	for _, c := range cs {
		km.present[c] = true
	}
	res := &learning.Result{Model: km, Status: learning.Converged}
	rows := d.Features()
	slot := map[int]int{} // training row → index in km.SV
	var svRows []int
	var bounded []bool
	for q, p := range ps {
		if q%1024 == 0 && ctx.Err() != nil { // a million pairs take seconds
			return nil, nil, ctx.Err()
		}
		b := solved[q]
		mc := Machine{Pos: p.pos, Neg: p.neg, Rho: b.Rho, W2: b.W2, Obj: b.Obj,
			Bounded: b.Bounded, Iter: b.Iter, Status: b.Status, Message: b.Message, w: b.w}
		for j, i := range b.Index {
			r := p.row(i)
			s, ok := slot[r]
			if !ok {
				s = len(svRows)
				slot[r] = s
				svRows = append(svRows, r)
				bounded = append(bounded, false)
			}
			if b.upper[j] {
				bounded[s] = true
			}
			mc.SV = append(mc.SV, s)
			mc.Coef = append(mc.Coef, b.Coef[j])
		}
		km.Machines = append(km.Machines, mc)
		res.Epochs += b.Iter
		res.Updates += b.Iter
		if !b.Status.Converged() && res.Status == learning.Converged {
			res.Status = b.Status.Learning()
		}
	}
	km.boundedSV = bounded
	km.SVRows = learning.Subset(rows, svRows)
	if dense, ok := rows.(*learning.Dense); ok {
		km.SV = make([][]float64, len(svRows))
		for s, r := range svRows {
			km.SV[s] = slices.Clone(dense.X[r])
		}
		km.SVRows = learning.NewDense(km.SV)
	}
	km.sv = newGram(km.SVRows, nil, k)
	res.Summary = km.status(s)
	return km, res, nil
}

// solvePairs solves the binary problems ps with solve on Settings.Threads
// goroutines (all cores when 0), each taking the next unsolved problem in
// order, with the kernel cache budget shared among them (each goroutine's
// share allocated once, for the problems it solves in turn). The solutions
// do not depend on the number of threads. record is told of each problem's
// progress entries (iterations, objective; Epoch left 0) in problem order:
// live with one thread, otherwise as soon as every earlier problem has
// finished.
func solvePairs[T any](ctx context.Context, ps []pair, s Settings, record func(learning.Epoch), solve func(context.Context, pair, Settings, func(int, float64)) (T, error)) ([]T, error) {
	threads := s.Threads
	if threads == 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	all := threads
	threads = max(1, min(threads, len(ps)))
	s.rowThreads = max(1, all/threads) // cores left over split kernel rows
	out := make([]T, len(ps))
	most := 0 // the rows of the largest problem, for the caches' storage
	for _, p := range ps {
		most = max(most, p.size())
	}
	total := int64(s.CacheMB * (1 << 20))
	s.CacheMB /= float64(threads)
	stores := make([]*rowStore, threads) // each goroutine's
	for w := range stores {
		stores[w] = newRowStore(most, int64(s.CacheMB*(1<<20)))
		total -= 4 * int64(stores[w].size)
	}
	// The pairs' rows within their classes take what the pairs' caches
	// leave of the budget (none when the caches take it all: large
	// problems, whose caches hold a part of their rows).
	if s.cls != nil && total <= 0 {
		s.cls = nil
	} else if s.cls != nil {
		s.cls.setBudget(total)
		s.cls.expect(ps)
	}
	defer func() {
		s.store = nil
		collectCache(stores, s.cls.release())
	}()
	if threads == 1 {
		s.store = stores[0]
		for q, p := range ps {
			b, err := solve(ctx, p, s, func(iters int, obj float64) {
				record(learning.Epoch{Mistakes: iters, Risk: obj, Machine: q})
			})
			if err != nil {
				return nil, err
			}
			out[q] = b
			s.cls.finished(p)
		}
		return out, nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu      sync.Mutex
		curves  = make([][]learning.Epoch, len(ps))
		done    = make([]bool, len(ps))
		errs    = make([]error, len(ps))
		emitted int
		next    atomic.Int64
		wg      sync.WaitGroup
	)
	for w := range threads {
		wg.Go(func() {
			s := s
			s.store = stores[w]
			for {
				q := int(next.Add(1) - 1)
				if q >= len(ps) || ctx.Err() != nil {
					return
				}
				var curve []learning.Epoch
				b, err := solve(ctx, ps[q], s, func(iters int, obj float64) {
					curve = append(curve, learning.Epoch{Mistakes: iters, Risk: obj, Machine: q})
				})
				s.cls.finished(ps[q])
				mu.Lock()
				out[q], errs[q], curves[q], done[q] = b, err, curve, true
				if err != nil {
					cancel()
				}
				for emitted < len(ps) && done[emitted] && errs[emitted] == nil {
					for _, e := range curves[emitted] {
						record(e)
					}
					curves[emitted] = nil
					emitted++
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	for q := range ps {
		if errs[q] != nil {
			return nil, errs[q]
		}
	}
	if err := ctx.Err(); err != nil && emitted < len(ps) {
		return nil, err
	}
	return out, nil
}

// collectCache lets go of the stores of a fit that has ended and, when
// they held at least 1 MiB in all, collects them and gives their pages
// back to the system: the model is assembled next, and would otherwise be
// allocated beside them, raising the fit's peak memory by the model's size
// — collecting alone is not enough, as the runtime takes the lowest free
// pages first, which are seldom the caches'. A fold of cross-validation
// is such a fit too (Fashion-MNIST's 10 classes, 10k rows, five folds:
// its 7 MB of stores, left to the collector's pace below the 32 MiB of
// issue 39's start, raised fit --cv's peak RSS from 67 to 75 MB). Small
// fits (the lab's, the panel's) are left to the collector's own pace.
func collectCache(stores []*rowStore, shared int64) {
	bytes := int(shared)
	for k, s := range stores {
		if s != nil {
			bytes += s.bytes()
			stores[k] = nil
		}
	}
	if bytes >= 1<<20 {
		debug.FreeOSMemory()
	}
}

// status sums up the machines in one sentence.
func (km *KernelModel) status(s Settings) string {
	if len(km.Machines) == 1 {
		return km.Machines[0].Message
	}
	iter := 0
	for _, mc := range km.Machines {
		iter += mc.Iter
	}
	for _, mc := range km.Machines {
		if !mc.Status.Converged() {
			return fmt.Sprintf("%d %s machines; classes %d vs %s: %s", len(km.Machines), km.Strategy, mc.Pos, negName(mc.Neg), mc.Message)
		}
	}
	what := fmt.Sprintf("optimal to eps %g", s.Eps)
	if s.Hard {
		what = "hard margin, all separable"
	}
	tot, nb := km.SupportVectors()
	return fmt.Sprintf("%d %s machines, %s; %d support vectors (%d bounded), %d iterations, smallest margin %.4g",
		len(km.Machines), km.Strategy, what, tot, nb, iter, km.Margin())
}

func negName(c int) string {
	if c < 0 {
		return "rest"
	}
	return fmt.Sprint(c)
}

// LinearModel is a trained linear SVM: one machine for two classes (class
// Pos[0] on the positive side), otherwise one per class against the rest.
type LinearModel struct {
	Classes int
	// Pos[m] is the class on the positive side of machine m; Neg is the
	// negative class of a two-class model and −1 otherwise.
	Pos      []int
	Neg      int
	Machines []*LinearBinary
	sv, bsv  int
}

var (
	_ learning.Model           = (*LinearModel)(nil)
	_ learning.Scorer          = (*LinearModel)(nil)
	_ learning.Margined        = (*LinearModel)(nil)
	_ learning.SupportVectored = (*LinearModel)(nil)
)

// Scores sets dst[c] to the decision value of class c's machine (±f(x)
// for two classes; −Inf for classes absent from the training data) and
// returns dst, grown to Classes if needed.
func (lm *LinearModel) Scores(dst, x []float64) []float64 {
	dst = slices.Grow(dst[:0], lm.Classes)[:lm.Classes]
	for c := range dst {
		dst[c] = math.Inf(-1)
	}
	for m, mc := range lm.Machines {
		f := mc.Decision(x)
		dst[lm.Pos[m]] = f
		if lm.Neg >= 0 {
			dst[lm.Neg] = -f
		}
	}
	return dst
}

// Predict returns the class with the largest decision value (for two
// classes, Pos[0] when f(x) > 0).
func (lm *LinearModel) Predict(x []float64) int {
	if lm.Neg >= 0 {
		if lm.Machines[0].Decision(x) > 0 {
			return lm.Pos[0]
		}
		return lm.Neg
	}
	return argmax(lm.Scores(nil, x))
}

// Margin returns the smallest margin 1/‖w‖ over the machines (input space,
// bias weight left out).
func (lm *LinearModel) Margin() float64 {
	m := math.Inf(1)
	for _, mc := range lm.Machines {
		m = math.Min(m, mc.Margin())
	}
	return m
}

// SupportVectors returns the number of training examples with α > 0 in at
// least one machine and of those at the bound α = C in at least one (always
// 0 for SquaredHinge, whose α are unbounded).
func (lm *LinearModel) SupportVectors() (total, bounded int) { return lm.sv, lm.bsv }

// fitLinear trains the machines of a linear SVM.
func fitLinear(ctx context.Context, d *learning.Data, s LinearSettings, rec learning.Recorder) (*LinearModel, *learning.Result, error) {
	cs, err := classes(d)
	if err != nil {
		return nil, nil, err
	}
	if err := checkLinearSettings(&s); err != nil {
		return nil, nil, err
	}
	if err := linearNeed(ctx, d, cs); err != nil {
		return nil, nil, err
	}
	lm := &LinearModel{Classes: d.Classes, Neg: -1}
	res := &learning.Result{Model: lm, Status: learning.Converged}
	ld := newLinData(d.Features(), s.Bias)
	rng := rand.New(rand.NewPCG(s.Seed, 0x5eed))
	sv := make([]uint8, d.Len()) // bit 0: α > 0 somewhere, bit 1: α = C somewhere
	targets := cs
	if len(cs) == 2 {
		targets = cs[:1]
		lm.Neg = cs[1]
	}
	epoch := 0
	for mi, c := range targets {
		y := make([]int8, len(d.Y))
		for i, yc := range d.Y {
			y[i] = -1
			if yc == c {
				y[i] = 1
			}
		}
		progress := func(pass, updates int, obj float64) {
			epoch++
			e := learning.Epoch{Epoch: epoch, Mistakes: updates, Risk: obj, Machine: mi}
			res.Curve = append(res.Curve, e)
			if rec != nil {
				_ = rec.Record(e) // a stop asked for arrives through ctx (stoppable)
			}
		}
		m, err := ld.solve(ctx, y, s, rng, progress)
		if err != nil {
			return nil, nil, err
		}
		for i, a := range m.Alpha {
			if a > 0 {
				sv[i] |= 1
				if s.Loss == Hinge && a == s.C {
					sv[i] |= 2
				}
			}
		}
		m.Alpha = nil
		lm.Pos = append(lm.Pos, c)
		lm.Machines = append(lm.Machines, m)
		res.Epochs += m.Iter
		if !m.Status.Converged() && res.Status == learning.Converged {
			res.Status = m.Status.Learning()
		}
	}
	for _, f := range sv {
		if f&1 != 0 {
			lm.sv++
		}
		if f&2 != 0 {
			lm.bsv++
		}
	}
	res.Updates = res.Epochs
	if len(lm.Machines) == 1 {
		res.Summary = lm.Machines[0].Message
	} else {
		res.Summary = fmt.Sprintf("%d one-vs-rest machines, all optimal to eps %g; %d passes", len(lm.Machines), s.Eps, res.Epochs)
		for m, mc := range lm.Machines {
			if !mc.Status.Converged() {
				res.Summary = fmt.Sprintf("%d one-vs-rest machines; class %d vs rest: %s", len(lm.Machines), lm.Pos[m], mc.Message)
				break
			}
		}
	}
	return lm, res, nil
}
