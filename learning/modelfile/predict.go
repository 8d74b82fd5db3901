package modelfile

import (
	"context"
	"errors"
	"fmt"
	"io"

	"mark1/dataset"
	"mark1/internal/base/memguard"
	"mark1/learning/learners"
)

// This file is what mark1 apply and fit do with a model once made: the
// data file predicted with a model file (Predict), and a fit measured on
// its training rows and a test file (Fitted.Measure, ValuesFitted.Measure).

// A MaybeUnlabelledError is an InputError of a text file with labels one
// column short of the model: its last column may be a feature, and the
// file have no labels.
type MaybeUnlabelledError struct{ Err error }

func (e *MaybeUnlabelledError) Error() string { return e.Err.Error() }

func (e *MaybeUnlabelledError) Unwrap() error { return e.Err }

// maybeUnlabelled returns err, an error predicting test with f, as a
// *MaybeUnlabelledError when it is one.
func maybeUnlabelled(err error, a *Applied, f *File) error {
	var ie *InputError
	if a == nil || a.Data == nil || !errors.As(err, &ie) {
		return err
	}
	if t := a.Data; t.Format == dataset.Text && !t.Unlabelled && t.Dim+1 == f.Dim {
		return &MaybeUnlabelledError{Err: err}
	}
	return err
}

// PredictOptions say how Predict reads the data file and where its
// predictions go.
type PredictOptions struct {
	// Read is how the data file reads (format, label column, indices,
	// MaxBytes); the file's head decides with the model's schema whether
	// it has labels and where (File.ReadOptions), unless NoLabels.
	Read dataset.Options
	// NoLabels: the data have no label column, every column a feature.
	NoLabels bool
	// Predictions, if not "", is the file the predictions are written to,
	// one a line in the file's order (Apply).
	Predictions string
	// OnData, if not nil, is told the data's description once read, and
	// a libsvm file's query ids once counted.
	OnData func(*dataset.Set)
}

// A Prediction is what Predict did: the model file and its format, the
// data's predictions and their report.
type Prediction struct {
	File   *File
	Format Format
	// FoundNoLabels: the data file was found to have no label column
	// (not told so by PredictOptions.NoLabels).
	FoundNoLabels bool
	Applied       *Applied
	Report        *ApplyReport
}

// Predict predicts every row of the data file at dataPath with the model
// file at modelPath (mark1 fit's, LIBSVM's or LIBLINEAR's: ReadCompact)
// as mark1 apply does (Apply), the reader's budget its own under a memory
// guard (memguard.Unguarded), and reports it (ReportApply). A nil
// Prediction means the model file did not read; otherwise, on an error,
// the Prediction holds the model file. A text file one column short of
// the model gives a *MaybeUnlabelledError.
func Predict(ctx context.Context, modelPath, dataPath string, o PredictOptions) (*Prediction, error) {
	f, format, err := ReadCompact(modelPath)
	if err != nil {
		return nil, err
	}
	pr := &Prediction{File: f, Format: format}
	o.Read.NoLabels = o.NoLabels
	h, err := dataset.ReadHead(dataPath, o.Read.Format)
	if err != nil {
		return pr, err
	}
	opt := f.ReadOptions(h, o.Read)
	pr.FoundNoLabels = opt.NoLabels && !o.NoLabels
	a, err := Apply(ctx, f, dataPath, ApplyOptions{Read: opt, Name: modelPath, ReadContext: memguard.Unguarded(ctx), OnData: o.OnData}, o.Predictions)
	if err != nil {
		return pr, maybeUnlabelled(err, a, f)
	}
	queryIDs(o.OnData, a)
	pr.Applied, pr.Report = a, ReportApply(f, format, modelPath, dataPath, o.Predictions, a)
	return pr, nil
}

// queryIDs tells onData, if not nil, of the query ids a libsvm file's rows
// had, once counted.
func queryIDs(onData func(*dataset.Set), a *Applied) {
	if onData != nil && a.Data.QueryIDs > 0 {
		onData(&dataset.Set{Name: a.Data.Name, QueryIDs: a.Data.QueryIDs})
	}
}

// MeasureOptions say what a fit's Measure measures beside the fit.
type MeasureOptions struct {
	// TrainPath and ModelPath name the training data and the model file
	// in the report.
	TrainPath, ModelPath string
	// Training predicts every training row again (a classifier's kept by
	// FitOptions.KeepRows).
	Training bool
	// Test, if not "", is the test file, read as TestOptions say
	// (dataset.Pair.TestOptions, with MaxBytes) and predicted.
	Test        string
	TestOptions dataset.Options
	// Predictions, if not nil, is given the test predictions, one a line.
	Predictions io.Writer
}

// Measure reports the classifier's fit on train, with spec and opts
// (ReportFit): the training accuracy when asked, and the test file's,
// read again and predicted a block at a time as Predict does, its
// predictions written to o.Predictions. The model file keeps its support
// vectors.
func (f *Fitted) Measure(ctx context.Context, spec learners.Spec, opts learners.Options, train *dataset.Set, o MeasureOptions) (*FitReport, error) {
	r := ReportFit(spec, opts, f, train, o.TrainPath, o.ModelPath)
	var err error
	if o.Training {
		if r.Training, err = f.TrainingMetrics(train.Dim); err != nil {
			return nil, fmt.Errorf("%s: %w", o.TrainPath, err)
		}
	}
	if o.Test == "" {
		return r, nil
	}
	g := *f.File
	out := o.Predictions
	if out == nil {
		out = io.Discard
	}
	a, err := ApplyFile(ctx, &g, o.Test, ApplyOptions{Read: o.TestOptions, Name: "being fitted", ReadContext: memguard.Unguarded(ctx)}, out)
	if err != nil {
		return nil, maybeUnlabelled(err, a, &g)
	}
	r.Test = a.Metrics(o.Test)
	if a.Unseen != nil {
		r.Unseen = a.Unseen
	}
	return r, nil
}

// Measure reports the value model's fit on train, the rows raw scaled
// (ReportValues), with spec and opts: the training rows' scores when
// asked, measured through the saved form on raw so that fit and apply
// predict alike, and the test file's, read whole, its predictions written
// to o.Predictions.
func (f *ValuesFitted) Measure(ctx context.Context, spec learners.Spec, opts learners.Options, train, raw *dataset.Set, o MeasureOptions) (*FitReport, error) {
	r := ReportValues(spec, opts, f, train, o.TrainPath, o.ModelPath)
	if o.Training {
		tr, err := ApplyValues(f.File, raw, "being fitted")
		if err != nil {
			return nil, err
		}
		r.Training = tr.Metrics("")
	}
	if o.Test == "" {
		return r, nil
	}
	set, err := dataset.ReadFileContext(memguard.Unguarded(ctx), o.Test, o.TestOptions)
	if err != nil {
		return nil, err
	}
	a, err := ApplyValues(f.File, set, "being fitted")
	if err != nil {
		return nil, err
	}
	r.Test = a.Metrics(o.Test)
	if o.Predictions != nil {
		err = a.WritePredictions(o.Predictions)
	}
	return r, err
}
