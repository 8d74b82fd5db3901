package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"mark1/dataset"
	"mark1/learning/modelfile"
)

// options are the dataset.Options of the data flags.
func (n *numericFlags) options() (dataset.Options, error) {
	f, err := dataset.ParseFormat(n.format)
	if err != nil {
		return dataset.Options{}, usagef("--format: %v", err)
	}
	opt := dataset.Options{Format: f, LabelColumn: n.labelColumn}
	if n.fs.Changed("zero-based") {
		opt.Indices = dataset.OneBased
		if n.zeroBased {
			opt.Indices = dataset.ZeroBased
		}
	}
	return opt, nil
}

// testData is fit's test file as read before the fit: how it is read
// (its format, and libsvm indices decided with the training file's), and
// what a first pass found, its rows dropped (info: Name, Format, Dim,
// ZeroBased, Unlabelled, QueryIDs). Once the model is fitted the file is
// read again and predicted a block at a time (applyTo), so that its rows
// are never held during the fit.
type testData struct {
	path string
	opt  dataset.Options
	info *dataset.Set
}

// readPair reads fit's training data and, when testPath is not empty,
// checks its test data by reading them through once (testData). libsvm
// text is read as scikit-learn's load_svmlight_files reads several files:
// with --zero-based unset, both are 0-based when either has an index 0.
// With trainBlocks > 0 the training rows are read a block of that many
// rows at a time and come dense and compact, or in those blocks
// (dataset.ReadFileCompact), train holding none.
func (n *numericFlags) readPair(ctx context.Context, trainPath, testPath string, trainBlocks int) (train *dataset.Set, rows trainRows, test *testData, err error) {
	opt, err := n.options()
	if err != nil {
		return nil, trainRows{}, nil, err
	}
	if train, rows, err = readNumericBlocks(ctx, n.memory.bytes(), trainPath, opt, trainBlocks); err != nil {
		return nil, trainRows{}, nil, err
	}
	if testPath == "" {
		return train, rows, nil, nil
	}
	if train.Format == dataset.LibSVM && train.ZeroBased && opt.Indices == dataset.AutoIndices {
		opt.Indices = dataset.ZeroBased
	}
	test = &testData{path: testPath, opt: opt}
	if test.info, err = scanNumeric(ctx, n.memory.bytes(), testPath, opt); err != nil {
		return nil, trainRows{}, nil, err
	}
	if test.info.Format == dataset.LibSVM && test.info.ZeroBased && train.Format == dataset.LibSVM && !train.ZeroBased && opt.Indices == dataset.AutoIndices {
		opt.Indices = dataset.ZeroBased
		test.opt = opt
		rows = trainRows{}
		if train, rows, err = readNumericBlocks(ctx, n.memory.bytes(), trainPath, opt, trainBlocks); err != nil {
			return nil, trainRows{}, nil, err
		}
	}
	return train, rows, test, nil
}

// scanNumeric reads the data file at path through, a block at a time
// within limit bytes, to find its errors before a fit, and returns its
// description without rows (Name, Format, Dim, ZeroBased, Unlabelled,
// QueryIDs).
func scanNumeric(ctx context.Context, limit int64, path string, opt dataset.Options) (*dataset.Set, error) {
	var info *dataset.Set
	opt.MaxBytes = limit
	err := dataset.ReadBlocks(readContext(ctx), path, opt, modelfile.DefaultBlockRows, func(b *dataset.Set, _ int) error {
		if info == nil {
			info = b.Describe()
		}
		info.QueryIDs += b.QueryIDs
		return nil
	})
	return info, budgetHint(err)
}

// budgetHint adds to an error over a limit on data what raises it:
// --max-memory for the memory budget and what the reader derives from it
// (rows, values, features, a line's length), nothing for a bound of the
// format (dataset.BoundOf). The readers here give no counts of their own,
// so a limit given elsewhere (a model file's) is the budget's too.
func budgetHint(err error) error {
	if !errors.Is(err, dataset.ErrTooLarge) {
		return err
	}
	if dataset.BoundOf(err) == dataset.BoundFormat {
		return fmt.Errorf("%w; no flag raises it", err)
	}
	return fmt.Errorf("%w; raise it with --max-memory", err)
}

// noteNoLabels says on w that the data file at path was found to have no
// label column (numericFlags.optionsFor).
func noteNoLabels(w io.Writer, path string, f *modelfile.File) {
	fmt.Fprintf(w, "note: %s has no label column: its header has the model's %d features and no column named as a label\n", path, f.Dim)
}

// optionsFor returns how apply reads the data file at path for the model
// f: the file's head decides, with the model's schema, whether it has
// labels and where (modelfile.File.ReadOptions); --no-labels and
// --label-column decide when given. Its Format is the file's.
func (n *numericFlags) optionsFor(f *modelfile.File, path string, noLabels bool) (dataset.Options, error) {
	opt, err := n.options()
	if err != nil {
		return opt, err
	}
	if noLabels && opt.LabelColumn != "" {
		return opt, usagef("--no-labels and --label-column %q: give one", opt.LabelColumn)
	}
	opt.NoLabels = noLabels
	h, err := dataset.ReadHead(path, opt.Format)
	if err != nil {
		return opt, err
	}
	return f.ReadOptions(h, opt), nil
}

// noteData says on w what was read in a way a user may not expect: 0-based
// libsvm indices found by themselves, svmlight query ids ignored.
func noteData(w io.Writer, sets ...*dataset.Set) {
	for _, s := range sets {
		if s == nil {
			continue
		}
		if s.QueryIDs > 0 {
			fmt.Fprintf(w, "note: %s: %d svmlight query ids (qid:N) ignored: no learner here ranks\n", s.Name, s.QueryIDs)
		}
		if s.Format == dataset.LibSVM && s.ZeroBased && s.Dim > 0 {
			fmt.Fprintf(w, "note: %s: libsvm indices read as 0-based (scikit-learn's dump_svmlight_file default)\n", s.Name)
		}
	}
}

// set returns the test file's description, nil for no test file.
func (t *testData) set() *dataset.Set {
	if t == nil {
		return nil
	}
	return t.info
}
