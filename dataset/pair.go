package dataset

import "context"

// A Pair is a training file read for a fit and the test file beside it
// checked before the fit (ReadPair).
type Pair struct {
	// Train is the training data. Read in blocks, its rows are in Compact
	// (dense) or Blocks instead (ReadFileCompact).
	Train   *Set
	Compact *Compact
	Blocks  []*Set
	// Test describes the test file without its rows (Describe, with the
	// query ids of all its rows counted); nil without a test file.
	// TestOptions are how to read it again, its libsvm indices decided
	// with the training file's.
	Test        *Set
	TestOptions Options
}

// ReadPair reads the training file at trainPath and, when testPath is not
// "", reads the test file through once, scanRows rows at a time (Scan), so
// that its errors are found before any work on the training data and its
// rows are not held meanwhile. libsvm text is read as scikit-learn's
// load_svmlight_files reads several files: with opt.Indices AutoIndices,
// both files are 0-based when either has an index 0. With blockRows > 0
// the training rows are read a block of that many rows at a time and come
// compact or in blocks (ReadFileCompact), Train holding none.
func ReadPair(ctx context.Context, trainPath, testPath string, opt Options, blockRows, scanRows int) (*Pair, error) {
	p := &Pair{}
	if err := p.readTrain(ctx, trainPath, opt, blockRows); err != nil {
		return nil, err
	}
	if testPath == "" {
		return p, nil
	}
	if p.Train.Format == LibSVM && p.Train.ZeroBased && opt.Indices == AutoIndices {
		opt.Indices = ZeroBased
	}
	p.TestOptions = opt
	var err error
	if p.Test, err = Scan(ctx, testPath, opt, scanRows); err != nil {
		return nil, err
	}
	if p.Test.Format == LibSVM && p.Test.ZeroBased && p.Train.Format == LibSVM && !p.Train.ZeroBased && opt.Indices == AutoIndices {
		p.TestOptions.Indices = ZeroBased
		if err := p.readTrain(ctx, trainPath, p.TestOptions, blockRows); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// readTrain reads the training file, letting go of what was read before.
func (p *Pair) readTrain(ctx context.Context, path string, opt Options, blockRows int) (err error) {
	p.Train, p.Compact, p.Blocks = nil, nil, nil
	if blockRows > 0 {
		p.Train, p.Compact, p.Blocks, err = ReadFileCompact(ctx, path, opt, blockRows)
	} else {
		p.Train, err = ReadFileContext(ctx, path, opt)
	}
	return err
}

// Scan reads the data file at path through, rows rows at a time
// (ReadBlocks), to find its errors, and returns its description without
// rows (Describe) with the query ids of all its rows counted.
func Scan(ctx context.Context, path string, opt Options, rows int) (*Set, error) {
	var info *Set
	err := ReadBlocks(ctx, path, opt, rows, func(b *Set, _ int) error {
		if info == nil {
			info = b.Describe()
		}
		info.QueryIDs += b.QueryIDs
		return nil
	})
	return info, err
}
