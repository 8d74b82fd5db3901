package modelfile

import (
	"context"
	"errors"
	"fmt"

	"mark1/dataset"
	"mark1/internal/base/memguard"
	"mark1/learning"
	"mark1/learning/kernel"
	"mark1/learning/learners"
	"mark1/learning/selection"
)

// pairBlockRows is the number of rows RunPairFile parses at a time.
const pairBlockRows = 4096

// RunPairFile does task i of plan p, split by pair, on the plan's data in
// the file at path ("" for the plan's path; planPath names the plan in
// errors), read within maxBytes: the result RunTask finds with the data in
// memory, to the bit, and the data's classes. It holds only the rows the
// task uses: the file is read through once for its labels
// (dataset.ReadLabels), which deal the task's rows (selection.Plan.PairTask),
// then once more a block at a time, every row hashed into the data's
// fingerprint (checked against the plan's before any fit) and the rows of
// the pair's two classes in the fold's training part, and every row of the
// fold, kept in the learners' compact form (learning.Collector: bytes for
// grey levels, float32 otherwise). A scaling, fitted on the whole training
// part, is fitted on a pass of its own before that one (dataset.ScalerFit;
// two for "std", its mean and then its deviations), which hashes the rows
// instead, and each row kept is then scaled as the whole data would be
// (dataset.Scaler.Apply). A γ of scale, the variance of the whole training
// part's values, reads the file twice more (learners.VarianceOf).
func (l Setup) RunPairFile(ctx context.Context, p *selection.Plan, planPath, path string, maxBytes int64, i, threads int) (selection.Result, []string, error) {
	path, opt, err := p.DataFile(planPath, path, maxBytes)
	if err != nil {
		return selection.Result{}, nil, err
	}
	switch {
	case p.Pairs == 0 || p.Final:
		return selection.Result{}, nil, errors.New("not a plan split by pair (RunTask)")
	case i < 0 || i >= p.Tasks:
		return selection.Result{}, nil, fmt.Errorf("task %d out of range [0, %d)", i, p.Tasks)
	}
	o, err := l.foldOptions(threads, l.Options.CacheMB, p.Gamma[p.Column(i).Gamma])
	if err != nil {
		return selection.Result{}, nil, err
	}
	labels, err := dataset.ReadLabels(memguard.Unguarded(ctx), path, opt, pairBlockRows)
	if err != nil {
		return selection.Result{}, nil, p.ReadError(planPath, path, err)
	}
	if err := p.CheckShape(labels.Name, labels.Rows(), labels.Dim, len(labels.Classes)); err != nil {
		return selection.Result{}, nil, err
	}
	t, err := p.PairTask(labels.Y, labels.Classes, i)
	if err != nil {
		return selection.Result{}, nil, err
	}
	var sc *dataset.Scaler
	if l.Scale != "none" {
		var fp string
		if sc, fp, err = fitPairScaler(ctx, path, opt, labels, t.Train, l.Scale); err != nil {
			return selection.Result{}, nil, p.ReadError(planPath, path, err)
		}
		if err := p.CheckData(labels.Name, fp); err != nil {
			return selection.Result{}, nil, err
		}
	}
	ks, err := o.KernelSpec()
	if err != nil {
		return selection.Result{}, nil, err
	}
	var counts *learning.RowCounts // the whole training part's, for a γ of scale
	if ks.NeedsData() && ks.Gamma.Rule == kernel.GammaScale {
		counts = learning.NewRowCounts(labels.Dim)
	}
	d, err := readPairRows(ctx, path, opt, labels, t, sc, counts)
	if err != nil {
		return selection.Result{}, nil, p.ReadError(planPath, path, err)
	}
	if sc == nil { // else checked as the scaler was fitted
		if err := p.CheckData(labels.Name, d.fingerprint); err != nil {
			return selection.Result{}, nil, err
		}
	}
	trainY := make([]int, len(t.Train))
	for k, r := range t.Train {
		trainY[k] = labels.Y[r]
	}
	weights, err := learners.ClassWeights(o.ClassWeight, labels.Classes, trainY, SameLabel)
	variance := 0.0 // γ of auto is 1/features, the pair's rows' as the whole part's
	if err == nil && counts != nil {
		variance, err = trainVariance(ctx, path, opt, labels.Dim, t.Train, sc, counts)
		err = p.ReadError(planPath, path, err)
	}
	if err == nil {
		o, err = l.wholeGamma(o, &learning.Data{Rows: withVariance{d.pair.Rows, variance}, Y: trainY, Classes: len(labels.Classes)})
	}
	var fits []selection.PairFit
	if err == nil {
		fits, err = l.fitPair(ctx, o, pairWeights(weights, t.A, t.B), d.pair, d.test, t.C, t.Warm)
	}
	r, err := t.Result(fits, err)
	return r, labels.Classes, err
}

// pairRows are the rows a task split by pair uses (readPairRows).
type pairRows struct {
	pair        *learning.Data // the pair's training rows, class 0 the pair's first
	test        learning.Rows  // the fold's rows
	fingerprint string         // the whole file's (dataset.Set.Fingerprint); "" when scaled
}

// readPairRows reads the file at path a block at a time and keeps task t's
// rows, scaled by sc (nil: as read), in Compact32's form; rows the
// Collector held rounded that their form needs exact are read again, held
// exact. Counts, when not nil, count the training part's rows. Rows read
// unscaled are hashed into the data's fingerprint; scaled rows were hashed
// as the scaler was fitted (fitPairScaler), and are not again.
func readPairRows(ctx context.Context, path string, opt dataset.Options, labels *dataset.Set, t *selection.PairTask, sc *dataset.Scaler, counts *learning.RowCounts) (*pairRows, error) {
	const pair, test, train = 1, 2, 3 // else 0: not used
	use := make([]uint8, labels.Rows())
	var y []int
	for _, r := range t.Train {
		use[r] = train
		if c := labels.Y[r]; c == t.A || c == t.B {
			use[r] = pair
			y = append(y, btoi(c == t.B))
		}
	}
	for _, r := range t.Test {
		use[r] = test
	}
	for _, exact := range []bool{false, true} {
		if exact && counts != nil {
			counts = learning.NewRowCounts(labels.Dim)
		}
		pc := learning.NewCollector(labels.Dim, len(y), exact)
		tc := learning.NewCollector(labels.Dim, len(t.Test), exact)
		fp := dataset.NewFingerprinter(labels.Dim, labels.Classes, labels.Rows())
		var used []int // a block's rows the task uses
		err := dataset.ReadBlocks(ctx, path, opt, pairBlockRows, func(b *dataset.Set, first int) error {
			if first+b.Rows() > len(use) {
				return fmt.Errorf("%s: more than the %d rows its labels were read with: the file changed while read", path, len(use))
			}
			used := used[:0]
			for k := range b.Rows() {
				idx, val := b.Row(k)
				if sc == nil {
					fp.Add(labels.Y[first+k], idx, val)
				}
				if use[first+k] != 0 {
					used = append(used, k)
				}
			}
			return blockRows(ctx, b, used, sc, func(k int, idx []int32, val []float64) {
				r := first + used[k]
				if counts != nil && (use[r] == pair || use[r] == train) {
					counts.Add(val)
				}
				switch use[r] {
				case pair:
					pc.Add(idx, val)
				case test:
					tc.Add(idx, val)
				}
			})
		})
		if err != nil {
			return nil, err
		}
		d := &pairRows{}
		if sc == nil {
			d.fingerprint = fp.Sum()
		}
		pr, err := pc.Rows()
		if errors.Is(err, learning.ErrRounded) {
			continue
		}
		if d.test, err = tc.Rows(); errors.Is(err, learning.ErrRounded) {
			continue
		}
		d.pair = &learning.Data{Rows: pr, Y: y, Classes: 2}
		return d, nil
	}
	panic("modelfile: an exact Collector's rows rounded")
}

// trainVariance returns the variance of the values of the rows train of
// the file (in data order: a task's training part), scaled by sc (nil: as
// read), as learners.Variance finds it of their Compact32 form, which
// counts counted: the file read twice more, the rows visited as that form
// holds them (learners.VarianceOf).
func trainVariance(ctx context.Context, path string, opt dataset.Options, dim int, train []int, sc *dataset.Scaler, counts *learning.RowCounts) (float64, error) {
	var buf []float64
	var rows []int // a block's training rows
	return learners.VarianceOf(float64(len(train))*float64(dim), func(visit func([]float64)) error {
		k := 0
		return dataset.ReadBlocks(ctx, path, opt, pairBlockRows, func(b *dataset.Set, first int) error {
			rows = rows[:0]
			for ; k < len(train) && train[k] < first+b.Rows(); k++ {
				rows = append(rows, train[k]-first)
			}
			return blockRows(ctx, b, rows, sc, func(_ int, idx []int32, val []float64) {
				buf = counts.Values(buf, idx, val)
				visit(buf)
			})
		})
	})
}
