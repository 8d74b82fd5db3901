package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"mark1/dataset"
	"mark1/internal/base/atomicfile"
	"mark1/internal/base/memguard"
	"mark1/learning/learners"
	"mark1/learning/modelfile"
)

// numericFlags are how fit and apply read data files.
type numericFlags struct {
	format, labelColumn string
	zeroBased           bool
	fs                  *pflag.FlagSet // to tell --zero-based=false from none
	memory              *budget        // --max-memory
	stderr              io.Writer      // for notes
}

func (n *numericFlags) register(fs *pflag.FlagSet, stderr io.Writer) {
	n.fs, n.stderr = fs, stderr
	n.memory = memoryFlag(fs)
	fs.StringVar(&n.format, "format", "auto", "data format: auto (by extension and content), libsvm, csv, text, idx (MNIST's images file: its labels file beside it, or IMAGES,LABELS; pixel b is b/255)")
	fs.StringVar(&n.labelColumn, "label-column", "", `CSV label column: a 1-based position or a header name (default: the column named label, class, target or y, else the last)`)
	fs.BoolVar(&n.zeroBased, "zero-based", false, "libsvm indices start at 0 (=false: at 1, as LIBSVM's); default: 0-based when a file has an index 0, as scikit-learn's load_svmlight_file(zero_based=\"auto\")")
}

// readNumeric reads a numeric data file within limit bytes (the command's
// --max-memory), and says which flag raises the budget when the file is
// over it.
func readNumeric(ctx context.Context, limit int64, path string, opt dataset.Options) (*dataset.Set, error) {
	opt.MaxBytes = limit
	s, err := dataset.ReadFileContext(readContext(ctx), path, opt)
	return s, budgetHint(err)
}

// gcPercent is the collector's target while fit, apply, grid and a
// sweep's task run (memguard.HoldGC): the heap
// may grow 5% past the live data before a collection, not Go's default
// 100%. Their data are large arrays without pointers (rows, kernel cache,
// support vectors), cheap to mark, so the extra collections cost little,
// and the peak RSS stays near the data (10k pictures: 88 -> 64 MB at 25%;
// 60k: the 45 pairs' working arrays, some 1.7 MB each, pile up as 10 MB of
// garbage beside the cache, not 50).
const gcPercent = 5

// fitOptions are fit's flags.
type fitOptions struct {
	data                                                                numericFlags
	quiet, trainAcc, jsonOut                                            bool
	lf                                                                  learnerFlags
	scale                                                               string
	cv                                                                  cvFlags
	trainPath, testPath, modelPath, libsvmPath, liblinearPath, predPath string
}

// fitFlags registers fit's flags on a new flag set.
func fitFlags(env *Env, o *fitOptions) *pflag.FlagSet {
	fs := newFlags(env, "fit --data TRAIN [--test TEST] [flags]",
		"Trains one software learner on numeric data (libsvm, CSV, text or IDX files) as LIBSVM's svm-train\n"+
			"and LIBLINEAR's train do, saves the model, and prints the accuracy on the training and test data.")
	fs.StringVar(&o.trainPath, "data", "", "training data file (required)")
	fs.StringVar(&o.testPath, "test", "", "test data file: accuracy and, with --predictions, one predicted label per line")
	o.data.register(fs, env.Stderr)
	o.lf.register(fs, fieldFlags{}, "svm", "threads")
	fs.BoolVar(&o.trainAcc, "train-accuracy", false, "also predict every training row and print the training accuracy (svm-train does not; it can cost as much as the fit)")
	fs.BoolVar(&o.quiet, "quiet", false, "print no progress line on standard error (it is drawn only on a terminal, for fits over a second)")
	fs.BoolVar(&o.jsonOut, "json", false, "print one JSON object instead of text (docs/libsvm.md describes its fields)")
	o.cv.register(fs)
	fs.StringVar(&o.scale, "scale", "none", "scale every feature, fitted on the training data and saved with the model: none, 01 ([0,1] as svm-scale -l 0), pm1 ([-1,1] as svm-scale), std (zero mean, unit variance)")
	fs.StringVar(&o.modelPath, "model", "model.json", "the mark1 model file to write")
	fs.StringVar(&o.libsvmPath, "libsvm-model", "", "also write the svm in LIBSVM's model format, for svm-predict")
	fs.StringVar(&o.liblinearPath, "liblinear-model", "", "also write a linear model in LIBLINEAR's model format, for liblinear-predict")
	fs.StringVar(&o.predPath, "predictions", "", "write the test predictions here, one label per line in test-file order (needs --test)")
	return fs
}

func runFit(ctx context.Context, env *Env, args []string) (err error) {
	defer memguard.HoldGC(gcPercent)()
	var o fitOptions
	fs := fitFlags(env, &o)
	if err := env.parse(fs, args); err != nil {
		return err
	}
	spec, opts, err := o.check()
	if err != nil {
		return err
	}
	ctx, finish := guardMemory(ctx, "fit", o.data.memory.bytes())
	defer func() { err = finish(err) }()
	if o.cv.folds != 0 {
		return o.crossValidate(ctx, env, fs, spec, opts)
	}
	d, err := o.readData(ctx, env, spec)
	if err != nil {
		return err
	}
	if spec.Needs.Values {
		return o.fitValues(ctx, env, spec, opts, d)
	}
	return o.fitClasses(ctx, env, spec, opts, d)
}

// readData reads fit's training data as the fit takes them and checks its
// test data (modelfile.ReadData), within --max-memory.
func (o *fitOptions) readData(ctx context.Context, env *Env, spec learners.Spec) (*modelfile.Data, error) {
	opt, err := o.data.options()
	if err != nil {
		return nil, err
	}
	opt.MaxBytes = o.data.memory.bytes()
	classes := !spec.Needs.Values
	d, err := modelfile.ReadData(ctx, o.trainPath, modelfile.DataOptions{Read: opt, Test: o.testPath, Scale: o.scale, Compact: classes, Model: true, Classes: classes,
		OnData: func(train, test *dataset.Set) { noteData(env.Stderr, train, test) }})
	if se := (*modelfile.ScaleError)(nil); errors.As(err, &se) && !errors.Is(err, dataset.ErrTooLarge) {
		return nil, usagef("--scale: %v", se.Err)
	}
	return d, dataError(err)
}

// fitClasses is fit for the classifiers: it trains on the rows as read
// (compact or in blocks) or scaled, measures the training rows and the
// test file when asked, and prints and writes it all (fitOptions.report).
func (o *fitOptions) fitClasses(ctx context.Context, env *Env, spec learners.Spec, opts learners.Options, d *modelfile.Data) (err error) {
	train := d.Train
	rec, endProgress := fitProgress(ctx, env.Stderr, o.quiet, spec.Name, len(train.Classes), opts.Epochs)
	fitted, err := modelfile.Fit(modelfile.LearnerBudget(ctx), spec, opts, train, d.Blocks, modelfile.FitOptions{Scaler: d.Fit.Scaler, Recorder: rec, KeepRows: o.trainAcc, Compact: d.Fit.Compact})
	endProgress()
	if err != nil {
		if m := o.lf.fields.message(err); m != "" {
			return fmt.Errorf("%s: %s", o.trainPath, m)
		}
		return fmt.Errorf("%s: %w", o.trainPath, err)
	}
	return o.report(ctx, env, spec, opts, fitted, train, d)
}

// crossValidate is fit --cv: no model is written, so the flags that name
// one or its outputs are refused.
func (o *fitOptions) crossValidate(ctx context.Context, env *Env, fs *pflag.FlagSet, spec learners.Spec, opts learners.Options) error {
	if o.testPath != "" || o.predPath != "" || fs.Changed("model") || o.libsvmPath != "" || o.liblinearPath != "" {
		return usagef("fit: --cv measures by cross-validation and writes no model: --test, --predictions and the model flags do not apply")
	}
	return runCV(ctx, env, &o.data, o.trainPath, spec, opts, o.scale, o.cv)
}

// check checks the flags that need no data and returns the learner and its
// options.
func (o *fitOptions) check() (learners.Spec, learners.Options, error) {
	if o.trainPath == "" {
		return learners.Spec{}, learners.Options{}, usagef("fit: --data TRAIN is required")
	}
	if o.predPath != "" && o.testPath == "" {
		return learners.Spec{}, learners.Options{}, usagef("fit: --predictions needs --test")
	}
	if o.modelPath == "" {
		return learners.Spec{}, learners.Options{}, usagef("fit: --model is empty: give the model file to write")
	}
	opts, err := o.lf.options()
	if err != nil {
		return learners.Spec{}, opts, err
	}
	spec, err := o.lf.spec(opts)
	if err != nil {
		return spec, opts, err
	}
	if spec.Form == learners.NoFile {
		return spec, opts, usagef("--learner %s out of range: want one whose model a file stores (%s); compare runs %s", spec.Name, strings.Join(modelfile.Learners(), ", "), spec.Name)
	}
	return spec, opts, nil
}

// report gathers what the fit made, predicts the training rows and the
// test file when asked, and prints and writes it all (fitOptions.write).
func (o *fitOptions) report(ctx context.Context, env *Env, spec learners.Spec, opts learners.Options, fitted *modelfile.Fitted, train *dataset.Set, d *modelfile.Data) error {
	report := modelfile.ReportFit(spec, opts, fitted, train, o.trainPath, o.modelPath)
	var err error
	if o.trainAcc {
		if report.Training, err = fitted.TrainingMetrics(train.Dim); err != nil {
			return fmt.Errorf("%s: %w", o.trainPath, err)
		}
	}
	var preds bytes.Buffer // the test predictions' text, written after the model
	if d.Test != nil {
		// The test file is read again and predicted a block at a time,
		// as apply does; the model file keeps its support vectors.
		g := *fitted.File
		r, err := applyTo(ctx, io.Discard, &g, o.testPath, d.TestOptions, o.data.memory.bytes(), "being fitted", "", &preds)
		if err != nil {
			return err
		}
		report.Test = r.Metrics(o.testPath)
		if r.Unseen != nil {
			report.Unseen = r.Unseen
		}
	}
	return o.write(ctx, env, report, fitted.File, preds.Bytes(), opts.Loss == "squared-hinge")
}

// write prints the report as text, writes the model files and the
// predictions (nothing once interrupted), and with --json prints the
// report as JSON.
func (o *fitOptions) write(ctx context.Context, env *Env, report *modelfile.FitReport, f *modelfile.File, preds []byte, squared bool) error {
	if !o.jsonOut {
		if err := report.WriteText(atomicfile.ContextWriter(ctx, env.Stdout)); err != nil {
			return err
		}
	}
	if err := ctx.Err(); err != nil { // interrupted as the fit ended: write nothing
		return err
	}
	err := modelfile.Outputs{Model: o.modelPath, LIBSVM: o.libsvmPath, LIBLINEAR: o.liblinearPath, Squared: squared}.Write(ctx, f)
	if ee := (*modelfile.ExportError)(nil); errors.As(err, &ee) {
		return usagef("--%s-model: %v", ee.Format, ee.Err)
	}
	if err != nil {
		return err
	}
	if o.predPath != "" {
		if err := atomicfile.WriteBytes(o.predPath, preds); err != nil {
			return err
		}
	}
	if o.jsonOut {
		return writeJSON(env.Stdout, report)
	}
	return nil
}

func runApply(ctx context.Context, env *Env, args []string) error {
	defer memguard.HoldGC(gcPercent)()
	var data numericFlags
	var modelPath, predPath string
	var noLabels, jsonOut bool
	fs := newFlags(env, "apply --model FILE --data TEST [--predictions FILE]",
		"Predicts with a model saved by mark1 fit, or one LIBSVM's svm-train or LIBLINEAR's train wrote, as\n"+
			"svm-predict does: the accuracy (regressions: MSE, R², squared correlation), and one predicted\n"+
			"label per line in data-file order. The model's scaling is applied to the data first. The data must\n"+
			"have the model's features; a CSV or text file without the label column is recognised (docs/model-selection.md).")
	fs.StringVar(&modelPath, "model", "model.json", "the model file: mark1 fit's, or a LIBSVM or LIBLINEAR model file")
	fs.BoolVar(&jsonOut, "json", false, "print one JSON object instead of text (docs/libsvm.md describes its fields)")
	fs.StringVar(&predPath, "predictions", "", "write the predicted labels here, one per line")
	data.register(fs, env.Stderr)
	var testPath string
	fs.StringVar(&testPath, "data", "", "the data to predict (required; labels, when it has them, are compared with the predictions)")
	fs.BoolVar(&noLabels, "no-labels", false, "the data have no label column: every column is a feature (found by itself from a CSV header or the column count);\nan IDX images file is read alone, without its labels file")
	if err := env.parse(fs, args); err != nil {
		return err
	}
	if testPath == "" {
		return usagef("apply: --data FILE is required")
	}
	f, format, err := modelfile.ReadCompact(modelPath)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("%w (train one with: mark1 fit --data TRAIN --model %s)", err, modelPath)
		}
		return err
	}
	ropt, err := data.optionsFor(f, testPath, noLabels)
	if err != nil {
		return err
	}
	if ropt.NoLabels && !noLabels {
		noteNoLabels(env.Stderr, testPath, f)
	}
	r, err := applyTo(ctx, env.Stderr, f, testPath, ropt, data.memory.bytes(), modelPath, predPath, nil)
	if errors.Is(err, dataset.ErrNoLabelsFile) && !f.Values() {
		return fmt.Errorf("%w, or predict without labels: --no-labels", err)
	}
	if err != nil {
		return err
	}
	report := modelfile.ReportApply(f, format, modelPath, testPath, predPath, r)
	if jsonOut {
		return writeJSON(env.Stdout, report)
	}
	return report.WriteText(env.Stdout)
}

// inputHint adds to a data file's mismatch with the model
// (modelfile.InputError) its likely reason when a text file has one column
// too few: its last column is a feature, not a label.
func inputHint(err error, test *dataset.Set, f *modelfile.File) error {
	var ie *modelfile.InputError
	if errors.As(err, &ie) && test.Format == dataset.Text && !test.Unlabelled && test.Dim+1 == f.Dim {
		return fmt.Errorf("%w (if its last column is a feature, the file has no labels: --no-labels)", err)
	}
	return err
}

// applyTo predicts every row of the data file at path with the model file
// f, read within limit bytes: a classifier's a block at a time, its
// predictions written to out if not nil (modelfile.ApplyFile), else as
// apply writes them, to predPath if not "" (modelfile.Apply). The data's
// notes go to stderr; an error says what raises a limit or, for a text
// file a column short, what the column may be.
func applyTo(ctx context.Context, stderr io.Writer, f *modelfile.File, path string, opt dataset.Options, limit int64, name, predPath string, out io.Writer) (a *modelfile.Applied, err error) {
	opt.MaxBytes = limit
	o := modelfile.ApplyOptions{Read: opt, Name: name, ReadContext: readContext(ctx), OnData: func(info *dataset.Set) { noteData(stderr, info) }}
	if out != nil {
		a, err = modelfile.ApplyFile(ctx, f, path, o, out)
	} else {
		a, err = modelfile.Apply(ctx, f, path, o, predPath)
	}
	if err != nil {
		if a != nil && a.Data != nil {
			err = inputHint(err, a.Data, f)
		}
		return nil, budgetHint(err)
	}
	if a.Data.QueryIDs > 0 {
		noteData(stderr, &dataset.Set{Name: a.Data.Name, QueryIDs: a.Data.QueryIDs})
	}
	return a, nil
}
