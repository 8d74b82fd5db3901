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
	classes := !spec.Needs.Values
	d, err := modelfile.ReadData(ctx, o.trainPath, modelfile.DataOptions{Read: opt, Test: o.testPath, Scale: o.scale, Compact: classes, Model: true, Classes: classes, KeepRaw: !classes,
		OnData: func(train, test *dataset.Set) { noteData(env.Stderr, train, test) }})
	return d, scaleError(err)
}

// fitClasses is fit for the classifiers: it trains on the rows as read
// (compact or in blocks) or scaled, measures the training rows and the
// test file when asked (modelfile.Fitted.Measure), and prints and writes
// it all (fitOptions.write).
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
	var preds bytes.Buffer // the test predictions' text, written after the model
	report, err := fitted.Measure(ctx, spec, opts, train, o.measure(d, &preds))
	if err != nil {
		return applyError(err, nil)
	}
	return o.write(ctx, env, report, fitted.File, preds.Bytes(), opts.Loss == "squared-hinge")
}

// crossValidate is fit --cv K: K-fold cross-validation of the learner
// (stratified for a classifier, plain for a regression), printed as
// svm-train -v prints it. No model is written, so the flags that name one
// or its outputs are refused.
func (o *fitOptions) crossValidate(ctx context.Context, env *Env, fs *pflag.FlagSet, spec learners.Spec, opts learners.Options) error {
	if o.testPath != "" || o.predPath != "" || fs.Changed("model") || o.libsvmPath != "" || o.liblinearPath != "" {
		return usagef("fit: --cv measures by cross-validation and writes no model: --test, --predictions and the model flags do not apply")
	}
	if err := modelfile.CheckScale(o.scale); err != nil {
		return usagef("--scale: %v", err)
	}
	if spec.Needs.Unlabelled {
		return usagef("fit: --cv: --learner %s learns without labels, so cross-validation has nothing to compare its answers with", spec.Name)
	}
	opt, err := o.data.options()
	if err != nil {
		return err
	}
	l := modelfile.Setup{Spec: spec, Options: opts, Scale: o.scale}
	var classes []string
	r, err := l.CrossValidateFile(ctx, o.trainPath, modelfile.CVOptions{Read: opt, Folds: o.cv.folds, Seed: o.cv.seed, Threads: o.cv.threads,
		OnData: func(s *dataset.Set) { classes = s.Classes; noteData(env.Stderr, s) }})
	if err != nil {
		return dataUsage(err, o.trainPath, "--cv", o.cv.folds, classes)
	}
	return r.WriteText(env.Stdout)
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
	if _, err := workers(o.cv.threads); err != nil {
		return learners.Spec{}, opts, err
	}
	if o.cv.folds == 0 {
		opts.Threads = o.cv.threads // the fit's cores; with --cv, the folds'
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

// measure says what a fit's Measure measures: the training rows with
// --train-accuracy, the test file within --max-memory, its predictions to
// preds.
func (o *fitOptions) measure(d *modelfile.Data, preds io.Writer) modelfile.MeasureOptions {
	to := d.TestOptions
	to.MaxBytes = o.data.memory.bytes()
	return modelfile.MeasureOptions{TrainPath: o.trainPath, ModelPath: o.modelPath, Training: o.trainAcc, Test: o.testPath, TestOptions: to, Predictions: preds}
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
	err := modelfile.Outputs{Model: o.modelPath, LIBSVM: o.libsvmPath, LIBLINEAR: o.liblinearPath, Predictions: o.predPath, Squared: squared, PredictionText: preds}.Write(ctx, f)
	if ee := (*modelfile.ExportError)(nil); errors.As(err, &ee) {
		return usagef("--%s-model: %v", ee.Format, ee.Err)
	}
	if err != nil {
		return err
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
	opt, err := data.options()
	if err != nil {
		return err
	}
	if noLabels && opt.LabelColumn != "" {
		return usagef("--no-labels and --label-column %q: give one", opt.LabelColumn)
	}
	pr, err := modelfile.Predict(ctx, modelPath, testPath, modelfile.PredictOptions{Read: opt, NoLabels: noLabels, Predictions: predPath,
		OnData: func(s *dataset.Set) { noteData(env.Stderr, s) }})
	switch {
	case pr == nil && errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("%w (train one with: mark1 fit --data TRAIN --model %s)", err, modelPath)
	case pr == nil:
		return err
	case pr.FoundNoLabels:
		noteNoLabels(env.Stderr, testPath, pr.File)
	}
	if err != nil {
		return applyError(err, pr.File)
	}
	return emit(env.Stdout, jsonOut, pr.Report)
}

// applyError adds to an error predicting a data file with a model what
// may help: that a text file one column short may have no labels
// (modelfile.MaybeUnlabelledError), which flag predicts without a labels
// file (dataset.ErrNoLabelsFile) or raises a bound (budgetHint). f is the
// model file, if known.
func applyError(err error, f *modelfile.File) error {
	if errors.As(err, new(*modelfile.MaybeUnlabelledError)) {
		err = fmt.Errorf("%w (if its last column is a feature, the file has no labels: --no-labels)", err)
	}
	err = budgetHint(err)
	if errors.Is(err, dataset.ErrNoLabelsFile) && f != nil && !f.Values() {
		return fmt.Errorf("%w, or predict without labels: --no-labels", err)
	}
	return err
}
