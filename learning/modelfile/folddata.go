package modelfile

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"slices"

	"mark1/dataset"
	"mark1/internal/base/memguard"
	"mark1/learning"
	"mark1/learning/selection"
)

// This file reads a data file once for the cross-validation of a
// classifier (fit --cv, grid) and takes every fold's rows from what it
// holds, in the form the learners would have copied them into from the
// rows as read (learning.Sparse.Compact32Rows, FoldFit's), to the bit.
// Unscaled dense rows are held once, compact (bytes or float32: 1 or 4
// bytes a feature) and grouped by class, and a fold's rows are a view of
// them in data order (learning.Grey.View, learning.Float32.View), whose
// one-vs-one pairs the SVM reads where they lie, two runs of memory with
// the test rows' gaps, rather than gathered into a copy; sparse rows are
// held as parsed and each fold's copied from them, as FoldFit copies them
// from a Set. No full-precision copy of dense rows is kept beside their
// compact form, and no fold's copy beside either (Fashion-MNIST's 10
// classes, 4,000 rows of 400 six-digit values: 14 MB of parsed rows and
// 5 MB a fold before, 6.4 MB in all now).

// foldBlockRows is the number of rows ReadFolds parses at a time before
// they are held compact: 256 rows of 400 values are about 1.2 MB parsed.
const foldBlockRows = 256

// FoldData is a data file read for the cross-validation of a classifier
// (Setup.ReadFolds): its description and labels, its fingerprint, and its
// rows, held as the folds take them.
type FoldData struct {
	// Set describes the file (Classes, Dim, every label in Y); it holds
	// the rows only when they are scaled fold by fold (read whole, as
	// FoldFit takes them).
	Set *dataset.Set

	path        string
	read        dataset.Options
	fingerprint string
	asRead      bool // fingerprint is the rows' as read (else as held: heldFingerprint)
	// unscaled dense rows: all of them compact (one of grey, f32), and
	// each as read (info)
	grey *learning.Grey
	f32  *learning.Float32
	info []dataset.RowInfo
	pos  []int // row i as read is row pos[i] of grey or f32
	// unscaled sparse rows, as parsed
	stack *learning.Stack
}

// Fingerprint returns the fingerprint of the rows as read
// (dataset.Set.Fingerprint).
func (d *FoldData) Fingerprint() string { return d.fingerprint }

// ReadFolds reads the data file at path for the learner's
// cross-validation: scaled fold by fold (the Setup's Scale), whole, as
// FoldFit takes a Set; otherwise a block of rows at a time into the form
// the folds take them from (dataset.ReadFileDescribed): dense rows
// compact, sparse ones as parsed. The reader counts what it keeps against
// read.MaxBytes, under a memory guard with the guard's own context, as
// ReadData's. Its errors are the reader's.
func (l Setup) ReadFolds(ctx context.Context, path string, read dataset.Options) (*FoldData, error) {
	return l.readFolds(ctx, path, read, true)
}

// readFolds is ReadFolds; without exact, the fingerprint of dense rows is
// that of the rows as held (heldFingerprint), which a plan never written
// (fit --cv's) may take: the rows' as read would need them read again or
// more memory while they are read.
func (l Setup) readFolds(ctx context.Context, path string, read dataset.Options, exact bool) (*FoldData, error) {
	d := &FoldData{path: path, read: read, asRead: true}
	if l.Scale != "none" {
		r, err := ReadData(ctx, path, DataOptions{Read: read})
		if err != nil {
			return nil, err
		}
		d.Set, d.fingerprint = r.Train, r.Train.Fingerprint()
		return d, nil
	}
	set, comp, blocks, err := dataset.ReadFileDescribed(memguard.Unguarded(ctx), path, read, foldBlockRows, exact)
	if err != nil {
		return nil, err
	}
	d.Set = set
	if comp == nil {
		return d, d.stackOf(blocks)
	}
	d.fingerprint, d.info = comp.Fingerprint, comp.Info
	if !exact {
		d.fingerprint, d.asRead = heldFingerprint(set, comp), false
	}
	d.byClass(comp)
	if comp.Grey != nil {
		d.grey, err = learning.GreyOf(comp.Dim, comp.Grey)
	} else {
		d.f32, err = learning.Float32Of(comp.Dim, comp.Float32)
	}
	return d, err
}

// heldFingerprint returns the SHA-256, in hexadecimal, of compact rows as
// held, their labels and classes.
func heldFingerprint(s *dataset.Set, c *dataset.Compact) string {
	h := sha256.New()
	buf := make([]byte, 0, 64<<10)
	flush := func(room int) {
		if len(buf)+room > cap(buf) {
			h.Write(buf)
			buf = buf[:0]
		}
	}
	put := func(v uint64) {
		flush(8)
		buf = binary.LittleEndian.AppendUint64(buf, v)
	}
	put(uint64(c.Dim))
	for _, name := range s.Classes {
		put(uint64(len(name)))
		flush(cap(buf))
		h.Write([]byte(name))
	}
	for _, y := range s.Y {
		put(uint64(y))
	}
	flush(cap(buf))
	h.Write(c.Grey)
	for _, v := range c.Float32 {
		flush(4)
		buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(v))
	}
	h.Write(buf)
	return hex.EncodeToString(h.Sum(nil))
}

// stackOf holds the blocks of parsed rows as the data's rows, and their
// fingerprint.
func (d *FoldData) stackOf(blocks []*dataset.Set) error {
	s := d.Set
	f := dataset.NewFingerprinter(s.Dim, s.Classes, s.Rows())
	r := 0
	for _, b := range blocks {
		for i := range b.Rows() {
			idx, val := b.Row(i)
			f.Add(s.Y[r], idx, val)
			r++
		}
	}
	d.fingerprint = f.Sum()
	stack, err := stackRows(blocks)
	d.stack, d.grey, d.f32, d.info = stack, nil, nil, nil
	return err
}

// rowsAt is FoldFit's rowsAtFunc on the data.
func (d *FoldData) rowsAt(l Setup) rowsAtFunc {
	if d.stack == nil && d.grey == nil && d.f32 == nil {
		return l.foldRowsAt // rows scaled fold by fold
	}
	return func(s *dataset.Set, tr, te []int) ([]int, learning.Rows, func() (learning.Rows, error), error) {
		y, rows, test := foldAt(s.Y, tr, te, d.rows)
		return y, rows, test, nil
	}
}

// byClass puts the compact rows in class order (each class's rows in data
// order), in place, so that the rows of a pair of classes lie in two runs
// of memory with the test rows' gaps.
func (d *FoldData) byClass(c *dataset.Compact) {
	y := d.Set.Y
	order := make([]int, len(y)) // row k of the class order is order[k] as read
	at := make([]int, len(d.Set.Classes)+1)
	for _, c := range y {
		at[c+1]++
	}
	for c := range d.Set.Classes {
		at[c+1] += at[c]
	}
	d.pos = make([]int, len(y))
	for i, c := range y {
		order[at[c]], d.pos[i] = i, at[c]
		at[c]++
	}
	if c.Grey != nil {
		permuteRows(c.Grey, c.Dim, order)
	} else {
		permuteRows(c.Float32, c.Dim, order)
	}
}

// rows returns rows idx in the form Compact32Rows gives them: a view of
// the compact rows (which hold them so: viewable), or a copy of the
// parsed ones.
func (d *FoldData) rows(idx []int) learning.Rows {
	if d.stack != nil {
		return d.stack.Compact32Rows(idx)
	}
	at := make([]int, len(idx))
	for k, i := range idx {
		at[k] = d.pos[i]
	}
	if d.grey != nil {
		return d.grey.View(at)
	}
	return d.f32.View(at)
}

// partInfo is what Compact32Rows chooses the form of some rows by, summed
// over their RowInfo: the rows, their non-zero values, and the rows whose
// values are not all 1 and not all grey levels.
type partInfo struct{ n, nnz, notOnes, notGrey int }

// add counts row r in.
func (p *partInfo) add(r dataset.RowInfo) {
	p.n++
	p.nnz += int(r.NonZeros)
	if !r.Ones {
		p.notOnes++
	}
	if !r.Grey {
		p.notGrey++
	}
}

// minus returns the counts of p's rows but q's, which are some of them.
func (p partInfo) minus(q partInfo) partInfo {
	return partInfo{p.n - q.n, p.nnz - q.nnz, p.notOnes - q.notOnes, p.notGrey - q.notGrey}
}

// held reports whether Compact32Rows gives rows so counted the form the
// compact rows are held in: dense (learning.ChooseForm), as bytes when
// every value is a grey level, else as float32 (every value held is
// within float32's range).
func (d *FoldData) held(p partInfo) bool {
	if learning.ChooseForm(p.notOnes == 0, p.nnz, p.n, d.Set.Dim) != learning.FormDense {
		return false
	}
	return (p.notGrey == 0) == (d.grey != nil)
}

// viewable makes sure that the rows of every fold of p, training and test
// part, and all rows when all (leave-one-out's SVM on every row) are taken
// in the form Compact32Rows gives them: views of compact rows that hold
// them so, else copies. Compact rows that do not hold some of them so (a
// fold of bytes among float32 rows, one sparse among dense ones) are let
// go, and the file read again in blocks of parsed rows, each fold copied
// from them.
func (d *FoldData) viewable(ctx context.Context, p *selection.Plan, all bool) error {
	if d.grey == nil && d.f32 == nil {
		return nil
	}
	s := d.Set
	folds, err := selection.Folds(s.Y, len(s.Classes), p.Folds, p.Seed)
	if err != nil {
		return err
	}
	per := make([]partInfo, p.Folds)
	var whole partInfo
	for i, r := range d.info {
		per[folds[i]].add(r)
		whole.add(r)
	}
	ok := !all || d.held(whole)
	for _, f := range per {
		ok = ok && d.held(f) && d.held(whole.minus(f))
	}
	if ok {
		return nil
	}
	d.grey, d.f32, d.info, d.pos = nil, nil, nil, nil
	set, blocks, err := dataset.ReadFileBlocks(memguard.Unguarded(ctx), d.path, d.read, foldBlockRows)
	if err != nil {
		return err
	}
	if d.asRead {
		d.Set = set
		return d.stackOf(blocks) // the plan's fingerprint says whether the file changed meanwhile
	}
	if set.Dim != s.Dim || !slices.Equal(set.Classes, s.Classes) || !slices.Equal(set.Y, s.Y) {
		return fmt.Errorf("%w: %s changed while it was read", selection.ErrData, d.path)
	}
	held := d.fingerprint
	d.Set = set
	err = d.stackOf(blocks)
	d.fingerprint = held
	return err
}

// PlanFolds reads the data file at path for the learner's
// cross-validation (ReadFolds) and writes down its grid search along g's
// axes (NewPlan), as PlanGrid does of the data read whole. It returns the
// plan and the data, which CrossValidateFolds runs it on. Its errors are
// PlanGrid's.
func (l Setup) PlanFolds(ctx context.Context, path string, g Grid, o GridOptions) (*selection.Plan, *FoldData, error) {
	d, err := l.ReadFolds(ctx, path, o.Read)
	if err != nil {
		return nil, nil, err
	}
	onData(o.OnData, d.Set)
	if err := l.CheckWeights(path, d.Set); err != nil {
		return nil, nil, err
	}
	p, err := l.planFolds(path, d, g, o.Read.LabelColumn, o.Folds, o.Seed, o.Warm)
	return p, d, err
}

// planFolds checks that d, read from path, has two classes or more, and
// writes down the plan of g's axes on it.
func (l Setup) planFolds(path string, d *FoldData, g Grid, labelColumn string, folds int, seed uint64, warm bool) (*selection.Plan, error) {
	set := d.Set
	if err := TwoClasses(path, set); err != nil {
		return nil, err
	}
	sd := selection.DataOf(path, set, labelColumn)
	sd.Fingerprint = d.fingerprint
	return l.NewPlan(set, sd, g, folds, seed, warm)
}

// CrossValidateFolds is CrossValidate on data read by ReadFolds: every
// fold's rows taken from them (views of compact rows, or copies), the
// same results, to the bit, as CrossValidate's on the data read whole.
func (l Setup) CrossValidateFolds(ctx context.Context, p *selection.Plan, d *FoldData, cores int) (*selection.Table, error) {
	if err := d.viewable(ctx, p, false); err != nil {
		return nil, err
	}
	w := max(1, min(cores, p.Tasks))
	fit := l.foldFit(max(1, cores/w), l.Options.CacheMB/float64(w), d.rowsAt(l))
	res, err := selection.RunAllOn(ctx, p, d.Set, d.fingerprint, w, fit, nil)
	if err != nil {
		return nil, err
	}
	return selection.Merge(p, res), nil
}

// supportVectorsFolds is SupportVectors on data read by ReadFolds (of
// plan p).
func (l Setup) supportVectorsFolds(ctx context.Context, p *selection.Plan, d *FoldData, threads int) (n int, ok bool, err error) {
	if d.stack == nil && d.grey == nil && d.f32 == nil {
		return l.SupportVectors(ctx, d.Set, threads) // rows scaled fold by fold: read whole
	}
	if err := d.viewable(ctx, p, true); err != nil {
		return 0, false, err
	}
	s := d.Set
	all := make([]int, s.Rows())
	for i := range all {
		all[i] = i
	}
	return l.supportVectors(ctx, &learning.Data{Rows: d.rows(all), Y: s.Y, Classes: len(s.Classes)}, threads)
}
