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
// (FinalFit), to the bit. The file is read through once for its labels
// (dataset.ReadLabels), once for the two classes' rows in the form, Exact
// and Variance the whole file's compact rows have
// (dataset.ReadFileCompactRows), and once more, a block at a time, for
// the fingerprint of the rows as fit holds them (FitFingerprint, checked
// against the plan's before the fit); a γ of scale on rows held exactly
// reads it twice more (the variance of all the values, as
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
	read := memguard.Unguarded(ctx)
	labels, err := dataset.ReadLabels(read, path, opt, fitBlockRows)
	if err != nil {
		return r, nil, false, p.ReadError(planPath, path, err)
	}
	if err := p.CheckShape(labels.Name, labels.Rows(), labels.Dim, len(labels.Classes)); err != nil {
		return r, nil, false, err
	}
	col := p.Column(i)
	keep := make([]bool, len(labels.Y))
	for k, c := range labels.Y {
		keep[k] = c == col.A || c == col.B
	}
	labels = nil
	set, compact, err := dataset.ReadFileCompactRows(read, path, opt, fitBlockRows, keep)
	if err != nil || compact == nil {
		return r, nil, false, p.ReadError(planPath, path, err)
	}
	opts, err := l.cell(threads, l.Options.CacheMB, p.C[0], p.Gamma[0])
	if err != nil {
		return r, nil, false, err
	}
	ks, err := opts.KernelSpec()
	if err != nil {
		return r, nil, false, err
	}
	var fp string
	variance := compact.Variance
	if ks.NeedsData() && ks.Gamma.Rule == kernel.GammaScale && compact.Exact {
		// the variance of every value as read, as learners.Variance finds
		// it of the rows held exactly: its sum over the fingerprint's pass
		passes := 0
		variance, err = learners.VarianceOf(float64(len(set.Y))*float64(set.Dim), func(visit func([]float64)) error {
			var err error
			if passes++; passes == 1 {
				fp, err = streamFingerprint(read, path, opt, set, compact, visit)
			} else {
				_, err = streamFingerprint(read, path, opt, set, nil, visit)
			}
			return err
		})
	} else {
		fp, err = streamFingerprint(read, path, opt, set, compact, nil)
	}
	if err != nil {
		return r, nil, false, p.ReadError(planPath, path, err)
	}
	fit := func(ctx context.Context, q int, c float64, gamma string) (selection.Machine, int, error) {
		pm, err := l.fitKeptPair(ctx, opts, set, compact, keep, q, variance)
		if err != nil {
			return selection.Machine{}, 0, err
		}
		return selection.Machine{SV: pm.SV, Coef: pm.Coef, Rho: pm.Rho, Gamma: pm.Gamma}, pm.Iterations, nil
	}
	r, err = selection.RunFinal(LearnerBudget(ctx), p, fp, i, fit)
	return r, set.Classes, true, err
}

// fitKeptPair trains binary problem q of the one-vs-one kernel SVM with
// opts on the rows of set that keep marks, those of the pair's two
// classes held compact in the whole file's form (ReadFileCompactRows), as
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

// streamFingerprint returns FitFingerprint of the file at path as fit
// reads it compact — set's labels, compact's form, Exact and Variance —
// from the file read again a block at a time, each row turned into its
// compact form as the reader turns it (bytes b for a grey level b/255,
// else float32) and hashed, never all held; visit, if not nil, is given
// each row's non-zero values in turn. With a nil compact it only visits
// them and returns "". A label that is not set's is an error: the file
// changed.
func streamFingerprint(ctx context.Context, path string, opt dataset.Options, set *dataset.Set, compact *dataset.Compact, visit func([]float64)) (string, error) {
	h := sha256.New()
	dim := set.Dim
	if compact != nil {
		fitHead(h, set, nil, &dataset.Compact{Dim: compact.Dim, Exact: compact.Exact, Variance: compact.Variance})
		dim = compact.Dim
	}
	grey := make([]byte, dim)
	f32 := make([]float32, dim)
	err := dataset.ReadBlocks(ctx, path, opt, fitBlockRows, func(b *dataset.Set, first int) error {
		for k := range b.Rows() {
			r := first + k
			if r >= len(set.Y) || b.Classes[b.Y[k]] != set.Classes[set.Y[r]] {
				return fmt.Errorf("%s: row %d is not the row first read: the file changed while read", path, r+1)
			}
			idx, val := b.Row(k)
			if visit != nil {
				visit(val)
			}
			if compact == nil {
				continue
			}
			if compact.Grey != nil {
				clear(grey)
				for m, j := range idx {
					grey[j] = uint8(math.Round(val[m] * 255))
				}
				h.Write(grey)
				continue
			}
			clear(f32)
			for m, j := range idx {
				f32[j] = float32(val[m])
			}
			writeFloat32s(h, f32)
		}
		return nil
	})
	if err != nil || compact == nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
