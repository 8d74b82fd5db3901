package modelfile

import (
	"context"
	"errors"
	"fmt"

	"mark1/dataset"
	"mark1/internal/base/memguard"
	"mark1/learning"
	"mark1/learning/selection"
)

// This file reads training data as Fit takes them: compact or in blocks
// when unscaled, else whole and scaled within what the memory budget
// leaves beside them (ReadData), for fit and for a sweep's final model.

// fitBlockRows is the number of rows ReadData reads and turns into their
// compact form at a time (dataset.ReadFileCompact): 256 rows of 400
// values are about 1.2 MB of parsed rows beside the compact ones (4,096
// rows took 20 MB, the peak of a 10k-row fit's memory).
const fitBlockRows = 256

// DataOptions say how ReadData reads training data. The zero value reads
// the training file whole, unscaled, with the reader's defaults.
type DataOptions struct {
	// Read is how the files read (format, label column, libsvm indices);
	// its MaxBytes bounds what the reader keeps, as the memory budget
	// (dataset.Options.MaxBytes).
	Read dataset.Options
	// Test, if not "", is the test file, read through once for its errors
	// before any work (dataset.ReadPair): Data.Test describes it.
	Test string
	// Scale is the scaling fitted on the training rows and applied to
	// them: "" or "none", or a dataset.FitScaler method (CheckScale).
	Scale string
	// Compact reads the training rows a block at a time, kept compact or
	// in blocks (dataset.ReadFileCompact), when they are not scaled: what
	// Fit takes of a classifier's rows. Otherwise they are read whole.
	Compact bool
	// Model refuses more features than a model file holds
	// (dataset.DefaultMaxDim) with a *DimError, before any scaling.
	Model bool
	// Classes refuses training rows of fewer than two classes.
	Classes bool
	// KeepRaw keeps the rows as read beside the scaled ones (Data.Raw),
	// on which a value model measures its training rows through its saved
	// form; otherwise they are let go once scaled.
	KeepRaw bool
	// Fingerprint asks for Data.Fingerprint (FitFingerprint of the rows as
	// read, before scaling), which a sweep's final plan records.
	Fingerprint bool
	// OnData, if not nil, is given the training data and the test file's
	// description (nil without one) as soon as they are read.
	OnData func(train, test *dataset.Set)
}

// Data are training data as ReadData read them.
type Data struct {
	// Train is the training rows, scaled when asked; read compact, its
	// rows are in Fit.Compact or Blocks instead.
	Train *dataset.Set
	// Raw is the training rows as read: Train when unscaled; scaled, nil
	// unless DataOptions.KeepRaw.
	Raw    *dataset.Set
	Blocks []*dataset.Set
	// Fit holds the Scaler fitted (nil unscaled) and the Compact rows, as
	// Fit, FitPair and JoinPairs take them.
	Fit FitOptions
	// Fingerprint is FitFingerprint of the rows as read, when asked.
	Fingerprint string
	// Test describes the test file (nil without one); TestOptions read it
	// again, its libsvm indices decided with the training file's.
	Test        *dataset.Set
	TestOptions dataset.Options
}

// A DimError refuses training data of more features than a model file
// holds (dataset.DefaultMaxDim): what reads them back could not.
type DimError struct {
	Path string
	Dim  int
}

func (e *DimError) Error() string {
	return fmt.Sprintf("%s: %d features, above %d, the most a model file holds", e.Path, e.Dim, dataset.DefaultMaxDim)
}

// A ScaleError is a scaling that failed on the training data: its method
// unknown or out of range on them (from dataset.FitScaler), or its scaled
// values beyond what the memory budget leaves (Err wraps
// dataset.ErrTooLarge).
type ScaleError struct {
	Path, Method string
	Err          error
}

func (e *ScaleError) Error() string { return fmt.Sprintf("%s: scale %s: %v", e.Path, e.Method, e.Err) }

func (e *ScaleError) Unwrap() error { return e.Err }

// ReadData reads the training file at path as o says, as Fit takes it:
// unscaled, a block at a time into its compact form (o.Compact); scaled,
// whole, the scaler fitted on its rows and applied within what the memory
// budget (learning.MemoryBudget of ctx) leaves beside them (Scale). The
// reader counts what it keeps against o.Read.MaxBytes, under a memory
// guard with the guard's own context (memguard.Unguarded), so that its
// errors name the file and the line. Its errors are the reader's, a
// *DimError, a *ScaleError, or one class only (o.Classes).
func ReadData(ctx context.Context, path string, o DataOptions) (*Data, error) {
	blockRows := 0
	if o.Compact && (o.Scale == "" || o.Scale == "none") {
		blockRows = fitBlockRows
	}
	pair, err := dataset.ReadPair(memguard.Unguarded(ctx), path, o.Test, o.Read, blockRows, DefaultBlockRows)
	if err != nil {
		return nil, err
	}
	if o.OnData != nil {
		o.OnData(pair.Train, pair.Test)
	}
	d := &Data{Train: pair.Train, Raw: pair.Train, Blocks: pair.Blocks, Fit: FitOptions{Compact: pair.Compact}, Test: pair.Test, TestOptions: pair.TestOptions}
	if o.Model && d.Train.Dim > dataset.DefaultMaxDim {
		return nil, &DimError{Path: path, Dim: d.Train.Dim}
	}
	if o.Classes {
		if err := TwoClasses(path, d.Train); err != nil {
			return nil, err
		}
	}
	if o.Fingerprint {
		d.Fingerprint = FitFingerprint(d.Train, d.Blocks, d.Fit.Compact)
	}
	if o.Scale == "" || o.Scale == "none" {
		return d, nil
	}
	if d.Fit.Scaler, err = dataset.FitScaler(d.Train, o.Scale); err != nil {
		return nil, &ScaleError{Path: path, Method: o.Scale, Err: err}
	}
	if !o.KeepRaw {
		d.Raw = nil
	}
	if d.Train, err = Scale(ctx, d.Fit.Scaler, d.Train); errors.Is(err, dataset.ErrTooLarge) {
		return nil, &ScaleError{Path: path, Method: o.Scale, Err: err}
	}
	if err != nil {
		return nil, err
	}
	return d, nil
}

// TwoClasses refuses a classifier's training data whose rows all have one
// label.
func TwoClasses(path string, s *dataset.Set) error {
	if len(s.Classes) < 2 {
		return fmt.Errorf("%s: every row has the label %q; a classifier needs at least two classes", path, s.Classes[0])
	}
	return nil
}

// ReadPlanData reads the data of plan p from path ("" for the path the
// plan records) as the plan says they were read: a grid's whole
// (selection.Plan.ReadData), a final plan's as Fit takes them with the
// plan's scaling and their fingerprint (ReadData). maxBytes bounds what
// the reader keeps; planPath names the plan in errors. A file that does
// not read so is refused without echoing what it holds.
func ReadPlanData(ctx context.Context, p *selection.Plan, planPath, path string, maxBytes int64) (*Data, error) {
	if !p.Final {
		set, err := p.ReadData(memguard.Unguarded(ctx), planPath, path, maxBytes)
		if err != nil {
			return nil, err
		}
		return &Data{Train: set, Raw: set}, nil
	}
	if path == "" {
		path = p.Data.Path
	}
	opt, err := p.Data.ReadOptions()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", planPath, err)
	}
	opt.MaxBytes = maxBytes
	d, err := ReadData(ctx, path, DataOptions{Read: opt, Scale: p.Options["scale"], Compact: true, Fingerprint: true})
	if errors.Is(err, dataset.ErrFormat) {
		return nil, fmt.Errorf("%s: not the data of plan %s: it does not read as %s data", path, planPath, p.Data.Format)
	}
	return d, err
}

// LearnerBudget returns ctx with the budget a learner's working memory
// may take: ctx's budget (learning.MemoryBudget) less the heap live now
// (memguard.Left), which holds the data the learner is about to be given.
// A learner counts its need against it before allocating
// (learning.CheckMemory), so that the data and the work together stay
// within the budget. Without a budget, ctx.
func LearnerBudget(ctx context.Context) context.Context {
	limit := learning.MemoryBudget(ctx)
	if limit == 0 {
		return ctx
	}
	return learning.WithMemoryBudget(ctx, memguard.Left(limit))
}

// Scale applies sc to s within what the memory budget leaves beside the
// data already read (LearnerBudget), stopping once ctx is cancelled.
// Scaling can densify a sparse file; each scaled value costs an index and
// a number (12 bytes), and as much again for the learners' compact copy
// of the rows (Rows), so the scaled values are counted at 24 bytes. Beyond
// them, an error wraps dataset.ErrTooLarge.
func Scale(ctx context.Context, sc *dataset.Scaler, s *dataset.Set) (*dataset.Set, error) {
	maxValues := 0
	if b := learning.MemoryBudget(LearnerBudget(ctx)); b > 0 {
		maxValues = int(max(1, b/24))
	}
	return sc.ApplyContext(ctx, s, maxValues)
}
