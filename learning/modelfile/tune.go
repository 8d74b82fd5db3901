package modelfile

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strconv"

	"mark1/dataset"
	"mark1/learning"
	"mark1/learning/kernel"
	"mark1/learning/learners"
	"mark1/learning/selection"
	"mark1/learning/svm"
)

// A Setup is a learner as a cross-validation plan records it: the
// registry's entry, its options, and the scaling fitted on each fold's
// training rows ("none", or a dataset.FitScaler method). It turns a plan's
// folds into fits (FoldFit, ValueFit), so that fit --cv, grid and a
// sweep's tasks fit a fold exactly as fit fits a file.
type Setup struct {
	Spec    learners.Spec
	Options learners.Options
	Scale   string
}

// CheckScale refuses an unknown scaling method before any data are read.
func CheckScale(scale string) error {
	if scale == "none" {
		return nil
	}
	_, err := dataset.FitScaler(&dataset.Set{}, scale)
	return err
}

// Rows gives a numeric data set's rows to the learners in their compact
// form.
func Rows(s *dataset.Set) (learning.Rows, error) {
	rows, err := learning.NewSparse(s.Dim, s.RowStart, s.Index, s.Value)
	if err != nil {
		return nil, err
	}
	return rows.Compact32(), nil
}

// HasGamma reports whether the learner's kernel has a γ.
func (l Setup) HasGamma() bool {
	if !l.Spec.Needs.Kernel {
		return false
	}
	ks, err := l.Options.KernelSpec()
	return err == nil && ks.UsesGamma()
}

// notPlanned are the options a plan does not record: C and gamma are the
// grid's, and no result depends on threads or cache-mb.
func notPlanned(name string) bool {
	switch name {
	case "C", "gamma", "threads", "cache-mb":
		return true
	}
	return false
}

// PlanOptions are the settings a plan records: every registry option the
// learner reads, by name, but those of notPlanned, and the scaling.
func (l Setup) PlanOptions() map[string]string {
	o := map[string]string{"scale": l.Scale}
	for _, op := range learners.OptionList() {
		if !notPlanned(op.Name) && l.Spec.Reads(op.Name) {
			o[op.Name] = l.Options.Get(op.Name)
		}
	}
	return o
}

// SetupOf rebuilds the learner a plan records, from the registry's
// defaults and the plan's options, checked as fit checks them.
func SetupOf(p *selection.Plan) (Setup, error) {
	l := Setup{Options: learners.Defaults(), Scale: "none"}
	var err error
	if l.Spec, err = learners.Lookup(p.Learner); err != nil {
		return l, err
	}
	for k, v := range p.Options {
		if k == "scale" {
			l.Scale = v
			continue
		}
		if notPlanned(k) {
			return l, fmt.Errorf("option %q is not a plan's", k)
		}
		if err := l.Options.Set(k, v); err != nil {
			return l, err
		}
	}
	if err := CheckScale(l.Scale); err != nil {
		return l, err
	}
	return l, l.Spec.Check(l.Options)
}

// foldRows scales a fold as Scale says (fitted on its training rows,
// applied to both) and returns its training rows in the learners' compact
// form beside the scaled sets.
func (l Setup) foldRows(train, test *dataset.Set) (*dataset.Set, *dataset.Set, learning.Rows, error) {
	if l.Scale != "none" {
		sc, err := dataset.FitScaler(train, l.Scale)
		if err != nil {
			return nil, nil, nil, err
		}
		if train, err = sc.Apply(train, 0); err != nil {
			return nil, nil, nil, err
		}
		if test, err = sc.Apply(test, 0); err != nil {
			return nil, nil, nil, err
		}
	}
	rows, err := Rows(train)
	return train, test, rows, err
}

// foldOptions are the options of a fold's fit: the learner's, with
// threads, cacheMB and the column's γ.
func (l Setup) foldOptions(threads int, cacheMB float64, gamma string) (learners.Options, error) {
	o := l.Options
	o.Threads, o.CacheMB = threads, cacheMB
	if gamma != "" {
		var err error
		if o.Gamma, err = kernel.ParseGamma(gamma); err != nil {
			return o, err
		}
	}
	return o, nil
}

// fold prepares a fold's fit: the options with threads, cacheMB and the
// column's γ, the fold scaled (foldRows) with its training rows in the
// learners' form, and the class weights resolved on its training part.
func (l Setup) fold(threads int, cacheMB float64, gamma string, train, test *dataset.Set) (learners.Options, *dataset.Set, *dataset.Set, learning.Rows, []float64, error) {
	o, err := l.foldOptions(threads, cacheMB, gamma)
	if err != nil {
		return o, nil, nil, nil, nil, err
	}
	train, test, rows, err := l.foldRows(train, test)
	if err != nil {
		return o, nil, nil, nil, nil, err
	}
	weights, err := learners.ClassWeights(o.ClassWeight, train.Classes, train.Y, SameLabel)
	return o, train, test, rows, weights, err
}

// foldRowsAt returns the labels of rows tr of s, rows tr in the learners'
// compact form, and the function that returns rows te so, scaled as Scale
// says. Without scaling they are read where they lie in s
// (learning.Sparse.Compact32Rows), each in the form Rows gives a copy of
// them, so that a fold takes the memory of its compact rows alone, and the
// test rows are copied only when test is first called: after the fit,
// whose kernel caches are gone by then, rather than beside them (Fashion
// 10k, fit --cv 5: 2,000 rows of 400 float32s, 3.2 MB); a scaling is
// fitted and applied on copies of the fold's rows (foldRows).
func (l Setup) foldRowsAt(s *dataset.Set, tr, te []int) (y []int, rows learning.Rows, test func() (learning.Rows, error), err error) {
	if l.Scale != "none" {
		train, test, rows, err := l.foldRows(s.Subset(tr), s.Subset(te))
		if err != nil {
			return nil, nil, nil, err
		}
		testRows, err := Rows(test)
		return train.Y, rows, func() (learning.Rows, error) { return testRows, err }, nil
	}
	all, err := learning.NewSparse(s.Dim, s.RowStart, s.Index, s.Value)
	if err != nil {
		return nil, nil, nil, err
	}
	y, rows, test = foldAt(s.Y, tr, te, all.Compact32Rows)
	return y, rows, test, nil
}

// foldAt returns the labels of rows tr (of labels y), rows tr as rowsOf
// gives them, and the function that gives rows te so when first called.
func foldAt(y, tr, te []int, rowsOf func([]int) learning.Rows) ([]int, learning.Rows, func() (learning.Rows, error)) {
	ty := make([]int, len(tr))
	for k, i := range tr {
		ty[k] = y[i]
	}
	var testRows learning.Rows
	test := func() (learning.Rows, error) {
		if testRows == nil {
			testRows = rowsOf(te)
		}
		return testRows, nil
	}
	return ty, rowsOf(tr), test
}

// rowsAtFunc is foldRowsAt's signature: a fold's labels, training rows and
// test rows (when first asked) of rows tr and te of s.
type rowsAtFunc func(s *dataset.Set, tr, te []int) ([]int, learning.Rows, func() (learning.Rows, error), error)

// FoldFit is selection.FitFunc for the learner: each fold's training part
// scaled (when asked) and fitted as fit would fit it with each C in turn,
// γ of scale or auto and balanced class weights resolved on it; the SVM's
// binary problems solved on threads goroutines (0: all cores) with cacheMB
// of kernel cache; when warm, every C of each binary problem in turn on
// one solver, each from the previous C's solution (svm.Kernel.FitPath).
// The fold's rows are taken from the data set into the learners' form
// without a copy as a Set first (foldRowsAt).
func (l Setup) FoldFit(threads int, cacheMB float64) selection.FitFunc {
	return l.foldFit(threads, cacheMB, l.foldRowsAt)
}

// foldFit is FoldFit with each fold's rows taken by at.
func (l Setup) foldFit(threads int, cacheMB float64, at rowsAtFunc) selection.FitFunc {
	return func(ctx context.Context, s *dataset.Set, tr, te []int, cs []float64, gamma string, warm bool) ([]selection.Fit, error) {
		o, err := l.foldOptions(threads, cacheMB, gamma)
		if err != nil {
			return nil, err
		}
		// The last fold's rows and kernel caches are garbage now: given
		// back before this fold's are made, rather than left beside them
		// (Fashion 10k, five folds: 92 -> 86 MB peak RSS).
		debug.FreeOSMemory()
		y, rows, test, err := at(s, tr, te)
		if err != nil {
			return nil, err
		}
		weights, err := learners.ClassWeights(o.ClassWeight, s.Classes, y, SameLabel)
		if err != nil {
			return nil, err
		}
		d := &learning.Data{Rows: rows, Y: y, Classes: len(s.Classes)}
		fits := make([]selection.Fit, len(cs))
		predict := func(k int, res *learning.Result) error {
			testRows, err := test()
			if err != nil {
				return err
			}
			fits[k].Pred, err = PredictRows(res.Model, testRows, 0)
			fits[k].Iterations = res.Epochs
			return err
		}
		for k, c := range cs {
			o.C = c
			built, err := l.Spec.New(o, d)
			if err != nil {
				return nil, err
			}
			built.SetClassWeights(weights)
			if km, ok := built.Learner.(svm.Kernel); ok && warm {
				// the whole column at once, each C from the last
				if err := km.FitPath(ctx, d, cs, predict); err != nil {
					return nil, err
				}
				return fits, nil
			}
			res, err := built.Learner.Fit(ctx, d, nil)
			if err != nil {
				return nil, err
			}
			if err := predict(k, res); err != nil {
				return nil, err
			}
		}
		return fits, nil
	}
}

// ValueFit is selection.ValueFitFunc for a regression: trained on a fold's
// training rows (scaled as Scale says, fitted on them), predicting its
// test rows, on threads goroutines.
func (l Setup) ValueFit(threads int) selection.ValueFitFunc {
	return func(ctx context.Context, train *dataset.Set, z []float64, test *dataset.Set) ([]float64, error) {
		o := l.Options
		o.Threads = threads
		train, test, rows, err := l.foldRows(train, test)
		if err != nil {
			return nil, err
		}
		built, err := l.Spec.New(o, &learning.Data{Rows: rows, Y: train.Y, Classes: len(train.Classes)})
		if err != nil {
			return nil, err
		}
		m, err := built.Values.FitValues(ctx, rows, z, nil)
		if err != nil {
			return nil, err
		}
		testRows, err := Rows(test)
		if err != nil {
			return nil, err
		}
		return m.LabelRows(nil, testRows, threads), nil
	}
}

// CrossValidate runs every task of p on set with workers tasks at once
// (at least one), each solving its SVM on an equal share of the cores
// (cores in all; one each when there are more tasks than cores) and of the
// cache, and merges them into the plan's table.
func (l Setup) CrossValidate(ctx context.Context, p *selection.Plan, set *dataset.Set, cores int) (*selection.Table, error) {
	w := max(1, min(cores, p.Tasks))
	res, err := selection.RunAll(ctx, p, set, w, l.FoldFit(max(1, cores/w), l.Options.CacheMB/float64(w)), nil)
	if err != nil {
		return nil, err
	}
	return selection.Merge(p, res), nil
}

// SupportVectors fits the learner on all of set and returns how many of
// its rows the model keeps as support vectors (ok false for a model that
// keeps none): the leave-one-out bound's numerator, since removing a row
// that is not a support vector leaves the solution as it is, and that
// solution classifies the row rightly, so a C-SVM's leave-one-out errors
// fall on support vectors and their fraction is at most #SV/n.
func (l Setup) SupportVectors(ctx context.Context, set *dataset.Set, threads int) (n int, ok bool, err error) {
	train, _, rows, err := l.foldRows(set, set)
	if err != nil {
		return 0, false, err
	}
	return l.supportVectors(ctx, &learning.Data{Rows: rows, Y: train.Y, Classes: len(train.Classes)}, threads)
}

// supportVectors is SupportVectors of the learner fitted on d.
func (l Setup) supportVectors(ctx context.Context, d *learning.Data, threads int) (n int, ok bool, err error) {
	o := l.Options
	o.Threads = threads
	built, err := l.Spec.New(o, d)
	if err != nil {
		return 0, false, err
	}
	res, err := built.Learner.Fit(ctx, d, nil)
	if err != nil {
		return 0, false, err
	}
	sv, ok := res.Model.(learning.SupportVectored)
	if !ok {
		return 0, false, nil
	}
	n, _ = sv.SupportVectors()
	return n, true, nil
}

// PairFit is selection.PairFitFunc for a one-vs-one kernel SVM: the
// binary problem of classes a and b trained on their rows of the fold's
// training part as the SVM trains it within its fit of the whole part —
// the scaling, a γ of scale or auto and balanced class weights resolved on
// the whole part, the rows of a before those of b, each in data order —
// along every C (warm when asked), voting on every test row.
func (l Setup) PairFit(threads int, cacheMB float64) selection.PairFitFunc {
	return func(ctx context.Context, train, test *dataset.Set, a, b int, cs []float64, gamma string, warm bool) ([]selection.PairFit, error) {
		o, train, test, rows, weights, err := l.fold(threads, cacheMB, gamma, train, test)
		if err != nil {
			return nil, err
		}
		if o, err = l.wholeGamma(o, &learning.Data{Rows: rows, Y: train.Y, Classes: len(train.Classes)}); err != nil {
			return nil, err
		}
		var idx []int
		var y []int
		for i, c := range train.Y {
			if c == a || c == b {
				idx, y = append(idx, i), append(y, btoi(c == b))
			}
		}
		subRows, err := Rows(train.Subset(idx))
		if err != nil {
			return nil, err
		}
		testRows, err := Rows(test)
		if err != nil {
			return nil, err
		}
		return l.fitPair(ctx, o, pairWeights(weights, a, b), &learning.Data{Rows: subRows, Y: y, Classes: 2}, testRows, cs, warm)
	}
}

// wholeGamma returns o with its γ a number: a γ of scale or auto
// resolved on d, the whole training part of a fold, as the SVM's fit of d
// resolves it for every binary problem.
func (l Setup) wholeGamma(o learners.Options, d *learning.Data) (learners.Options, error) {
	whole, err := l.Spec.New(o, d)
	if err != nil {
		return o, err
	}
	if whole.Gamma != nil {
		o.Gamma, err = kernel.ParseGamma(strconv.FormatFloat(*whole.Gamma, 'g', -1, 64))
	}
	return o, err
}

// pairWeights are the weights of classes a and b among weights (nil for
// none).
func pairWeights(weights []float64, a, b int) []float64 {
	if weights == nil {
		return nil
	}
	return []float64{weights[a], weights[b]}
}

// fitPair trains a binary problem of the one-vs-one kernel SVM on d (its
// rows those of the pair's two classes, class 0 the first) with options o
// (γ resolved) and class weights (nil for none), along every C of cs (warm
// when asked), and returns the machine's votes for class 0 on every row of
// test for each.
func (l Setup) fitPair(ctx context.Context, o learners.Options, weights []float64, d *learning.Data, testRows learning.Rows, cs []float64, warm bool) ([]selection.PairFit, error) {
	built, err := l.Spec.New(o, d)
	if err != nil {
		return nil, err
	}
	if weights != nil {
		built.SetClassWeights(weights)
	}
	fits := make([]selection.PairFit, len(cs))
	vote := func(k int, res *learning.Result) error {
		pred, err := predictStopping(ctx, res.Model, testRows)
		if err != nil {
			return err
		}
		fits[k].Votes, fits[k].Iterations = make([]bool, len(pred)), res.Epochs
		for r, c := range pred {
			fits[k].Votes[r] = c == 0
		}
		return nil
	}
	km, ok := built.Learner.(svm.Kernel)
	if !ok {
		return nil, fmt.Errorf("%s: a plan split by pair is for the kernel SVM's one-vs-one problems", l.Spec.Name)
	}
	if warm {
		return fits, km.FitPath(ctx, d, cs, vote)
	}
	for k, c := range cs {
		km.Settings.C = c
		res, err := km.Fit(ctx, d, nil)
		if err != nil {
			return nil, err
		}
		if err := vote(k, res); err != nil {
			return nil, err
		}
	}
	return fits, nil
}

// voteRows is the number of rows predictStopping predicts between two
// looks at its context: a fold's 144,000 rows against tens of thousands
// of support vectors take minutes, 1,024 of them a second or two.
const voteRows = 1024

// predictStopping is PredictRows of m on r, the same answers, voteRows
// rows at a time (copied, learning.Subset, where their form is one Subset
// keeps), returning ctx.Err() once ctx is done.
func predictStopping(ctx context.Context, m learning.Model, r learning.Rows) ([]int, error) {
	switch r.(type) {
	case *learning.Grey, *learning.Float32, *learning.Sparse, *learning.Bits, *learning.Dense:
	default:
		return PredictRows(m, r, 0)
	}
	n := r.Len()
	out := make([]int, 0, n)
	idx := make([]int, 0, voteRows)
	for lo := 0; lo < n; lo += voteRows {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		idx = idx[:0]
		for i := lo; i < min(n, lo+voteRows); i++ {
			idx = append(idx, i)
		}
		pred, err := PredictRows(m, learning.Subset(r, idx), lo)
		if err != nil {
			return nil, err
		}
		out = append(out, pred...)
	}
	return out, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// cell returns the learner's options with threads, cacheMB, C c and γ
// gamma (as in selection.Plan.Gamma; "" leaves the kernel's).
func (l Setup) cell(threads int, cacheMB, c float64, gamma string) (learners.Options, error) {
	o := l.Options
	o.Threads, o.CacheMB, o.C = threads, cacheMB, c
	if gamma != "" {
		var err error
		if o.Gamma, err = kernel.ParseGamma(gamma); err != nil {
			return o, err
		}
	}
	return o, nil
}

// FinalFit is selection.FinalFitFunc for the learner on train, its rows
// taken as Fit takes them (blocks, o.Compact) and already scaled as
// o.Scaler says (the Setup's Scale, fitted on train): the binary problem
// trained as fit trains it within its fit (FitPair), on threads
// goroutines (0: all cores) with cacheMB of kernel cache. It trains one
// problem: FitPair lets train's rows go.
func (l Setup) FinalFit(train *dataset.Set, blocks []*dataset.Set, o FitOptions, threads int, cacheMB float64) selection.FinalFitFunc {
	return func(ctx context.Context, pair int, c float64, gamma string) (selection.Machine, int, error) {
		opts, err := l.cell(threads, cacheMB, c, gamma)
		if err != nil {
			return selection.Machine{}, 0, err
		}
		pm, err := FitPair(ctx, l.Spec, opts, train, blocks, o, pair)
		if err != nil {
			return selection.Machine{}, 0, err
		}
		return selection.Machine{SV: pm.SV, Coef: pm.Coef, Rho: pm.Rho, Gamma: pm.Gamma}, pm.Iterations, nil
	}
}

// Join joins the machines of final plan p's results (selection.ReadResults
// checked them, in task order) into the model file fit writes for the
// plan's learner, C and γ on train — rows as Fit takes them, scaled as
// FinalFit's — byte for byte (JoinPairs).
func (l Setup) Join(ctx context.Context, p *selection.Plan, results []selection.Result, train *dataset.Set, blocks []*dataset.Set, o FitOptions) (*File, error) {
	if !p.Final {
		return nil, errors.New("not a final plan: its results are a grid's")
	}
	opts, err := l.cell(0, l.Options.CacheMB, p.C[0], p.Gamma[0])
	if err != nil {
		return nil, err
	}
	pairs := make([]PairModel, len(results))
	for q, m := range selection.Machines(results) {
		a, b := selection.PairClasses(q, p.Data.Classes)
		pairs[q] = PairModel{Pos: a, Neg: b, SV: m.SV, Coef: m.Coef, Rho: m.Rho, Gamma: m.Gamma, Iterations: results[q].Iterations[0]}
	}
	return JoinPairs(ctx, l.Spec, opts, train, blocks, o, pairs)
}
