package modelfile

import (
	"context"
	"fmt"
	"math"
	"runtime/debug"
	"strconv"

	"mark1/dataset"
	"mark1/learning"
	"mark1/learning/learners"
	"mark1/learning/svm"
)

// FitOptions says how Fit trains.
type FitOptions struct {
	// Scaler, if not nil, is how the rows were scaled before Fit; the
	// model file records it, so that what it predicts is scaled alike.
	Scaler *dataset.Scaler
	// Recorder, if not nil, is told each epoch (a progress line).
	Recorder learning.Recorder
	// KeepRows keeps the learner's compact rows and their labels in the
	// order it learned them (Fitted.Rows, Fitted.Y), to predict them again
	// (the training accuracy); otherwise they are let go after the fit.
	KeepRows bool
	// Compact, if not nil, holds the training rows dense and compact
	// (dataset.ReadFileCompact), in place of train's and the blocks'; the
	// learner uses its bytes or float32 values in place, reordered where
	// it learns from another order, with no copy of them.
	Compact *dataset.Compact
}

// Fitted is what Fit made: the model file, the learner's result and how
// the registry built it, and, with FitOptions.KeepRows, the rows.
type Fitted struct {
	File   *File
	Result *learning.Result
	Built  learners.Built
	Rows   learning.Rows
	Y      []int
}

// Fit trains spec's classifier with opts on train, whose rows are those of
// blocks (read a block at a time; nil for train's own), as fit does: the
// learner reads its own compact copy of the rows (dense, bytes, bits or
// float32; sparse rows are shared), in the order it learns from fastest,
// every block let go and its pages given back to the system once copied,
// so that the parsed rows and their copy are never all in memory. γ =
// scale is the variance of the values as read (float64), as
// scikit-learn's. It returns the model file (with train's schema). train's
// rows are let go. Errors are the learner's, the data's or a field error
// of an option (a γ of scale out of range on these data, a class weight
// for a label the data lack), to be named by the caller.
func Fit(ctx context.Context, spec learners.Spec, opts learners.Options, train *dataset.Set, blocks []*dataset.Set, o FitOptions) (*Fitted, error) {
	d, built, _, err := prepare(spec, opts, train, blocks, o)
	if err != nil {
		return nil, err
	}
	rows, y := d.Rows, d.Y
	res, err := built.Learner.Fit(ctx, d, o.Recorder)
	if err != nil {
		return nil, err
	}
	fitted := &Fitted{Result: res, Built: built}
	if o.KeepRows {
		fitted.Rows, fitted.Y = rows, y
	}
	// The fit's working memory (the kernel cache) and, unless kept, the
	// rows are garbage now: given back to the system, the model file is
	// built in fresh pages rather than beside them.
	rows, d.Rows = nil, nil
	debug.FreeOSMemory()
	if fitted.File, err = FromModel(spec.Name, res.Model, train.Classes, train.Dim, o.Scaler, built.Gamma, built.Bias); err != nil {
		return nil, err
	}
	fitted.File.Schema = SchemaOf(train)
	return fitted, nil
}

// prepare makes train ready for spec's learner as Fit does, and returns
// the data in the learner's order (row order[k] of train at row k; nil
// order: as they are) and the learner built on them.
func prepare(spec learners.Spec, opts learners.Options, train *dataset.Set, blocks []*dataset.Set, o FitOptions) (*learning.Data, learners.Built, []int, error) {
	var read learning.Rows
	var stack *learning.Stack
	var err error
	compact := o.Compact
	o.Compact = nil
	switch {
	case compact != nil && compact.Grey != nil:
		read, err = learning.GreyOf(compact.Dim, compact.Grey)
	case compact != nil:
		read, err = learning.Float32Of(compact.Dim, compact.Float32)
	default:
		if blocks == nil {
			blocks = []*dataset.Set{train}
		}
		stack, err = stackRows(blocks)
		read = stack
	}
	if err != nil {
		return nil, learners.Built{}, nil, err
	}
	d := &learning.Data{Rows: read, Y: train.Y, Classes: len(train.Classes)}
	switch {
	case compact != nil && compact.Exact:
		// γ = scale is the variance of the values as read, summed over the
		// non-zeros as the parsed rows would give them: bytes and exact
		// float32 values give them back exactly.
		d.Rows = &nonZeros{Rows: read}
	case compact != nil:
		// float32 rows hold the values rounded: the reader's variance of
		// the values as read.
		d.Rows = withVariance{read, compact.Variance}
	}
	built, err := spec.New(opts, d)
	if err != nil {
		return nil, learners.Built{}, nil, err
	}
	weights, err := learners.ClassWeights(opts.ClassWeight, train.Classes, train.Y, SameLabel)
	if err != nil {
		return nil, learners.Built{}, nil, err
	}
	built.SetClassWeights(weights)
	var order []int
	if r, ok := built.Learner.(interface{ RowOrder([]int, int) []int }); ok {
		order = r.RowOrder(train.Y, len(train.Classes))
	}
	train.RowStart, train.Index, train.Value = []int{0}, nil, nil
	var rows learning.Rows
	switch {
	case compact == nil:
		rows = stack.Compact32(order, debug.FreeOSMemory)
	case compact.Grey != nil:
		permuteRows(compact.Grey, compact.Dim, order)
		rows = read
	default:
		permuteRows(compact.Float32, compact.Dim, order)
		rows = read
	}
	y := train.Y
	if order != nil {
		y = make([]int, len(order))
		for k, i := range order {
			y[k] = train.Y[i]
		}
	}
	d.Rows, d.Y = rows, y
	d.Rows, d.Y = rows, y
	return d, built, order, nil
}

// nonZeros shows dense rows as their non-zero values, as
// learners.Variance reads parsed rows, one row at a time.
type nonZeros struct {
	learning.Rows
	row, val []float64
	idx      []int32
}

// NonZeros returns row i's non-zero features and values, in buffers that
// the next call reuses.
func (r *nonZeros) NonZeros(i int) ([]int32, []float64) {
	r.row = r.Row(r.row, i)
	r.idx, r.val = r.idx[:0], r.val[:0]
	for k, v := range r.row {
		if v != 0 {
			r.idx, r.val = append(r.idx, int32(k)), append(r.val, v)
		}
	}
	return r.idx, r.val
}

// withVariance is rows with the variance of the values they were made
// from (learners.Variance asks for it).
type withVariance struct {
	learning.Rows
	v float64
}

// Variance returns the variance of the values the rows were made from.
func (r withVariance) Variance() float64 { return r.v }

// permuteRows puts row order[k] of the rows of v (dim values each) at row
// k, in place, following each cycle of the permutation with one row put
// aside; nil order leaves them.
func permuteRows[T any](v []T, dim int, order []int) {
	if order == nil {
		return
	}
	done := make([]bool, len(order))
	tmp := make([]T, dim)
	row := func(i int) []T { return v[i*dim : (i+1)*dim] }
	for s := range order {
		if done[s] {
			continue
		}
		copy(tmp, row(s))
		k := s
		for {
			done[k] = true
			src := order[k]
			if src == s {
				copy(row(k), tmp)
				break
			}
			copy(row(k), row(src))
			k = src
		}
	}
}

// stackRows returns the rows of blocks of one data file as one Stack,
// sharing their arrays.
func stackRows(blocks []*dataset.Set) (*learning.Stack, error) {
	parts := make([]*learning.Sparse, len(blocks))
	for k, b := range blocks {
		p, err := learning.NewSparse(b.Dim, b.RowStart, b.Index, b.Value)
		if err != nil {
			return nil, err
		}
		parts[k] = p
	}
	return learning.NewStack(parts)
}

// ValuesFitted is what FitValues made: the model file, the value model
// and how the registry built it.
type ValuesFitted struct {
	File  *File
	Model *svm.ValueModel
	Built learners.Built
}

// FitValues trains spec's value learner (an SVR on train's labels read as
// numbers, Targets; the one-class SVM without them) with opts on train,
// already scaled by sc if sc is not nil, and returns its model file (with
// the schema of schemaOf, the data as read). Errors name the data (a
// label that is not a number, the learner's own), but for a field error
// of an option (a γ of scale out of range on these data), which the
// caller names in its words.
func FitValues(ctx context.Context, spec learners.Spec, opts learners.Options, train, schemaOf *dataset.Set, sc *dataset.Scaler, rec learning.Recorder) (*ValuesFitted, error) {
	var z []float64
	if !spec.Needs.Unlabelled {
		var err error
		if z, err = Targets(train); err != nil {
			return nil, err
		}
	}
	rows, err := learning.NewSparse(train.Dim, train.RowStart, train.Index, train.Value)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", train.Name, err)
	}
	compact := rows.Compact32()
	built, err := spec.New(opts, &learning.Data{Rows: compact, Y: train.Y, Classes: len(train.Classes)})
	if err != nil {
		return nil, err
	}
	m, err := built.Values.FitValues(ctx, compact, z, rec)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", train.Name, err)
	}
	f, err := FromValueModel(m, train.Dim, sc, built.Gamma)
	if err != nil {
		return nil, err
	}
	f.Schema = SchemaOf(schemaOf)
	return &ValuesFitted{File: f, Model: m, Built: built}, nil
}

// Targets returns the labels of s as numbers, the targets of a regression.
func Targets(s *dataset.Set) ([]float64, error) {
	z := make([]float64, s.Rows())
	for i := range z {
		v, err := strconv.ParseFloat(s.Label(i), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%s: row %d: the label %q is not a finite number; a regression learns numeric targets", s.Name, i+1, s.Label(i))
		}
		z[i] = v
	}
	return z, nil
}
