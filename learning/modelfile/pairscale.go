package modelfile

import (
	"context"
	"fmt"

	"mark1/dataset"
)

// fitPairScaler fits a scaler of the given method on the rows train of the
// file at path (in data order: a task's training part) as
// dataset.FitScaler fits it on them held, to the bit (dataset.ScalerFit):
// the file read once, or twice for "std" (its mean, then the deviations
// from it), a block at a time. The first pass hashes every row into the
// data's fingerprint (dataset.Set.Fingerprint), which it returns, so that
// the caller checks it against the plan's before any fit.
func fitPairScaler(ctx context.Context, path string, opt dataset.Options, labels *dataset.Set, train []int, method string) (*dataset.Scaler, string, error) {
	f, err := dataset.NewScalerFit(method, labels.Dim)
	if err != nil {
		return nil, "", err
	}
	fp := dataset.NewFingerprinter(labels.Dim, labels.Classes, labels.Rows())
	for pass := range f.Passes() {
		k := 0
		err := dataset.ReadBlocks(ctx, path, opt, pairBlockRows, func(b *dataset.Set, first int) error {
			if first+b.Rows() > labels.Rows() {
				return fmt.Errorf("%s: more than the %d rows its labels were read with: the file changed while read", path, labels.Rows())
			}
			for r := range b.Rows() {
				if pass == 0 {
					idx, val := b.Row(r)
					fp.Add(labels.Y[first+r], idx, val)
				}
			}
			for ; k < len(train) && train[k] < first+b.Rows(); k++ {
				f.Add(b.Row(train[k] - first))
			}
			return nil
		})
		if err != nil {
			return nil, "", err
		}
		if k != len(train) {
			return nil, "", fmt.Errorf("%s: fewer rows than the %d its labels were read with: the file changed while read", path, labels.Rows())
		}
		f.EndPass()
	}
	return f.Scaler(), fp.Sum(), nil
}

// blockRows calls fn with rows rows of block b (their numbers in the
// block, increasing), each as read or, when sc is not nil, scaled by sc as
// Scaler.Apply scales it in the whole data (the rows of a block scaled at
// once), with its place k in rows.
func blockRows(ctx context.Context, b *dataset.Set, rows []int, sc *dataset.Scaler, fn func(k int, idx []int32, val []float64)) error {
	if sc == nil {
		for k, r := range rows {
			idx, val := b.Row(r)
			fn(k, idx, val)
		}
		return nil
	}
	s, err := sc.ApplyContext(ctx, b.Subset(rows), 0)
	if err != nil {
		return err
	}
	for k := range rows {
		idx, val := s.Row(k)
		fn(k, idx, val)
	}
	return nil
}
