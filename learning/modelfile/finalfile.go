package modelfile

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"slices"

	"mark1/dataset"
	"mark1/internal/base/memguard"
	"mark1/learning"
	"mark1/learning/kernel"
	"mark1/learning/learners"
	"mark1/learning/selection"
	"mark1/learning/svm"
)

// This file runs a final plan's task on its binary problem's rows alone:
// the two classes' rows of a large file, not all of them.

// RunFinalFile does task i of final plan p on the plan's data in the file
// at path ("" for the plan's path; planPath names the plan in errors),
// read within maxBytes, on threads goroutines with the Setup's cache,
// holding only the rows of the task's two classes:
// the result selection.RunFinal finds with the data as fit reads them
// (FinalFit), to the bit. The file is read through twice
// (dataset.ReadFileCompactVisit): once for its labels, the form, Exact
// and Variance its compact rows would have, and — for a γ of scale — the
// sum of its values; then once for the two classes' rows, held in that
// form, every row hashed into the fingerprint of the rows as fit holds
// them (FitFingerprint, checked against the plan's before the fit) and,
// for γ scale, its squared deviations (the variance of all the values, as
// learners.Variance finds it of them held). ok is false, and nothing is
// done, for data this does not read so — scaled (the scaling is fitted on
// every row), or rows not held dense — which the caller reads whole
// (ReadPlanData). It returns the result and the data's classes.
func (l Setup) RunFinalFile(ctx context.Context, p *selection.Plan, planPath, path string, maxBytes int64, i, threads int) (r selection.Result, classes []string, ok bool, err error) {
	switch {
	case !p.Final:
		return r, nil, false, errors.New("not a final plan: its tasks are folds of a grid")
	case i < 0 || i >= p.Tasks:
		return r, nil, false, fmt.Errorf("task %d out of range [0, %d)", i, p.Tasks)
	case l.Scale != "" && l.Scale != "none":
		return r, nil, false, nil
	}
	path, opt, err := p.DataFile(planPath, path, maxBytes)
	if err != nil {
		return r, nil, false, err
	}
	opts, err := l.cell(threads, l.Options.CacheMB, p.C[0], p.Gamma[0])
	if err != nil {
		return r, nil, false, err
	}
	ks, err := opts.KernelSpec()
	if err != nil {
		return r, nil, false, err
	}
	read := memguard.Unguarded(ctx)
	fr := finalRead{path: path, opt: opt, col: p.Column(i)}
	variance := 0.0
	if ks.NeedsData() && ks.Gamma.Rule == kernel.GammaScale {
		passes := 0
		variance, err = learners.VarianceOfCount(func() float64 { return float64(len(fr.set.Y)) * float64(fr.set.Dim) }, func(visit func([]float64)) error {
			if passes++; passes == 1 {
				return fr.describe(read, p, visit)
			}
			return fr.rows(read, visit)
		})
	} else if err = fr.describe(read, p, nil); err == nil {
		err = fr.rows(read, nil)
	}
	switch {
	case errors.Is(err, errNotHeld):
		return r, nil, false, nil
	case err != nil:
		return r, nil, false, p.ReadError(planPath, path, err)
	}
	if !fr.desc.Exact {
		variance = fr.desc.Variance // the values as read, which float32 rows no longer hold
	}
	fit := func(ctx context.Context, q int, c float64, gamma string) (selection.Machine, int, error) {
		pm, err := l.fitKeptPair(ctx, opts, fr.set, fr.compact, fr.keep, q, variance)
		if err != nil {
			return selection.Machine{}, 0, err
		}
		return selection.Machine{SV: pm.SV, Coef: pm.Coef, Rho: pm.Rho, Gamma: pm.Gamma}, pm.Iterations, nil
	}
	r, err = selection.RunFinal(LearnerBudget(ctx), p, fr.fingerprint, i, fit)
	return r, fr.set.Classes, true, err
}

// errNotHeld is finalRead's: the rows are not held dense, so the task
// reads the data whole.
var errNotHeld = errors.New("rows not held dense")

// finalRead is RunFinalFile's two reads of the data file.
type finalRead struct {
	path string
	opt  dataset.Options
	col  selection.Column
	// the first read's: the file's labels, and the form, Exact and
	// Variance of its compact rows (no rows)
	set  *dataset.Set
	desc *dataset.Compact
	// the second read's: the rows kept, those of the task's two classes,
	// in that form, and the fingerprint of every row
	keep        []bool
	compact     *dataset.Compact
	fingerprint string
}

// describe reads the file for its labels and its rows' form, checks them
// against the plan p, and visits every row's non-zero values if visit is
// not nil; errNotHeld if the rows are not held dense.
func (fr *finalRead) describe(ctx context.Context, p *selection.Plan, visit func([]float64)) error {
	set, desc, err := dataset.ReadFileCompactVisit(ctx, fr.path, fr.opt, fitBlockRows, nil, visitValues(visit))
	if err != nil {
		return err
	}
	if desc == nil {
		return errNotHeld
	}
	if err := p.CheckShape(set.Name, set.Rows(), set.Dim, len(set.Classes)); err != nil {
		return err
	}
	fr.set, fr.desc = set, desc
	fr.keep = make([]bool, len(set.Y))
	for k, c := range set.Y {
		fr.keep[k] = c == fr.col.A || c == fr.col.B
	}
	return nil
}

// rows reads the file again for the rows describe's keep marks, hashing
// every row as fit holds it (FitFingerprint) and visiting its non-zero
// values if visit is not nil. A file that reads otherwise than the first
// time is an error: it changed.
func (fr *finalRead) rows(ctx context.Context, visit func([]float64)) error {
	opt, desc := fr.opt, fr.desc
	if fr.set.Format == dataset.LibSVM { // the numbering the first read found, so that the rows are seen 0-based
		opt.Indices = dataset.OneBased
		if fr.set.ZeroBased {
			opt.Indices = dataset.ZeroBased
		}
	}
	h := sha256.New()
	fitHead(h, fr.set, nil, &dataset.Compact{Dim: desc.Dim, Exact: desc.Exact, Variance: desc.Variance})
	grey := make([]byte, desc.Dim)
	f32 := make([]float32, desc.Dim)
	values := visitValues(visit)
	set, compact, err := dataset.ReadFileCompactVisit(ctx, fr.path, opt, fitBlockRows, fr.keep, func(b dataset.Block) error {
		for k := range b.Rows() {
			idx, val := b.Index[b.RowStart[k]:b.RowStart[k+1]], b.Value[b.RowStart[k]:b.RowStart[k+1]]
			if desc.Grey != nil {
				clear(grey)
				for m, j := range idx {
					grey[j-b.Base] = uint8(math.Round(val[m] * 255))
				}
				h.Write(grey)
				continue
			}
			clear(f32)
			for m, j := range idx {
				f32[j-b.Base] = float32(val[m])
			}
			writeFloat32s(h, f32)
		}
		if values != nil {
			return values(b)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if compact == nil || !slices.Equal(set.Y, fr.set.Y) || !slices.Equal(set.Classes, fr.set.Classes) || set.Dim != fr.set.Dim ||
		(compact.Grey != nil) != (desc.Grey != nil) || compact.Exact != desc.Exact || math.Float64bits(compact.Variance) != math.Float64bits(desc.Variance) {
		return fmt.Errorf("%s: the rows read again are not those first read: the file changed while read", fr.path)
	}
	fr.compact, fr.fingerprint = compact, hex.EncodeToString(h.Sum(nil))
	return nil
}

// visitValues returns a block visitor that gives visit each row's non-zero
// values in turn, or nil for a nil visit.
func visitValues(visit func([]float64)) func(dataset.Block) error {
	if visit == nil {
		return nil
	}
	return func(b dataset.Block) error {
		for k := range b.Rows() {
			visit(b.Value[b.RowStart[k]:b.RowStart[k+1]])
		}
		return nil
	}
}

// fitKeptPair trains binary problem q of the one-vs-one kernel SVM with
// opts on the rows of set that keep marks, those of the pair's two
// classes held compact in the whole file's form (ReadFileCompactVisit), as
// FitPair trains it on all the rows: the class weights resolved on every
// label, γ of scale on variance, that of every value as Fit finds it, and
// the rows of the first class, then the second's, each in file order.
// The compact rows are reordered in place.
func (l Setup) fitKeptPair(ctx context.Context, opts learners.Options, set *dataset.Set, compact *dataset.Compact, keep []bool, q int, variance float64) (*PairModel, error) {
	k := len(set.Classes)
	a, b := selection.PairClasses(q, k)
	var rows []int // the kept rows, file order
	var y []int
	for r, kept := range keep {
		if kept {
			rows, y = append(rows, r), append(y, btoi(set.Y[r] == b))
		}
	}
	if len(rows) != compact.Rows() {
		return nil, fmt.Errorf("%d rows held for the %d of classes %q and %q", compact.Rows(), len(rows), set.Classes[a], set.Classes[b])
	}
	order := svm.Kernel{}.RowOrder(y, 2) // class a's rows, then b's
	var read learning.Rows
	var err error
	if compact.Grey != nil {
		permuteRows(compact.Grey, compact.Dim, order)
		read, err = learning.GreyOf(compact.Dim, compact.Grey)
	} else {
		permuteRows(compact.Float32, compact.Dim, order)
		read, err = learning.Float32Of(compact.Dim, compact.Float32)
	}
	if err != nil {
		return nil, err
	}
	if order != nil {
		sorted := make([]int, len(order))
		for j, at := range order {
			sorted[j] = rows[at]
		}
		rows = sorted
		slices.Sort(y)
	}
	d := &learning.Data{Rows: withVariance{read, variance}, Y: y, Classes: 2}
	if opts, err = l.wholeGamma(opts, d); err != nil {
		return nil, err
	}
	weights, err := learners.ClassWeights(opts.ClassWeight, set.Classes, set.Y, SameLabel)
	if err != nil {
		return nil, err
	}
	d.Rows = read
	built, err := l.Spec.New(opts, d)
	if err != nil {
		return nil, err
	}
	built.SetClassWeights(pairWeights(weights, a, b))
	km, ok := built.Learner.(svm.Kernel)
	if !ok || km.Type != svm.CSVC || km.Multiclass != svm.OneVsOne {
		return nil, fmt.Errorf("%s: a model trained a binary problem at a time is the kernel SVM's (svm), one-vs-one", l.Spec.Name)
	}
	mc, err := km.FitPair(ctx, d, 0)
	if err != nil {
		return nil, err
	}
	for j, r := range mc.SV {
		mc.SV[j] = rows[r]
	}
	return &PairModel{Pos: a, Neg: b, SV: mc.SV, Coef: mc.Coef, Rho: mc.Rho, Gamma: built.Gamma, Iterations: mc.Iter}, nil
}
