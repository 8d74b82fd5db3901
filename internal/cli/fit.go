package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/spf13/pflag"

	"mark1/dataset"
	"mark1/internal/base/atomicfile"
	"mark1/learning"
	"mark1/learning/kernel"
	"mark1/learning/learners"
	"mark1/learning/modelfile"
	"mark1/learning/svm"
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

// fitBlockRows is the number of rows fit reads and turns into their
// compact form at a time (dataset.ReadFileCompact): 4,096 rows of 400 grey levels are about 12 MB
// of parsed rows.
const fitBlockRows = 4096

// readNumeric reads a numeric data file within limit bytes (the command's
// --max-memory), and says which flag raises the budget when the file is
// over it.
func readNumeric(ctx context.Context, limit int64, path string, opt dataset.Options) (*dataset.Set, error) {
	s, _, err := readNumericBlocks(ctx, limit, path, opt, 0)
	return s, err
}

// trainRows are the rows of a training file read for the learners: held
// dense and compact (bytes or float32), or in blocks of parsed rows.
type trainRows struct {
	blocks  []*dataset.Set
	compact *dataset.Compact
}

// readNumericBlocks is readNumeric with the rows, when rows > 0, read a
// block of at most rows rows at a time and kept compact when dense, else
// in those blocks (dataset.ReadFileCompact).
func readNumericBlocks(ctx context.Context, limit int64, path string, opt dataset.Options, rows int) (s *dataset.Set, r trainRows, err error) {
	opt.MaxBytes = limit
	if rows > 0 {
		s, r.compact, r.blocks, err = dataset.ReadFileCompact(readContext(ctx), path, opt, rows)
	} else {
		s, err = dataset.ReadFileContext(readContext(ctx), path, opt)
	}
	if err != nil {
		return nil, trainRows{}, budgetHint(err)
	}
	return s, r, nil
}

// gcPercent is the collector's target while fit, apply, grid and a sweep's task run: the heap
// may grow 5% past the live data before a collection, not Go's default
// 100%. Their data are large arrays without pointers (rows, kernel cache,
// support vectors), cheap to mark, so the extra collections cost little,
// and the peak RSS stays near the data (10k pictures: 88 -> 64 MB at 25%;
// 60k: the 45 pairs' working arrays, some 1.7 MB each, pile up as 10 MB of
// garbage beside the cache, not 50).
const gcPercent = 5

// holdGC sets the collector's target to gcPercent (unless GOGC is set)
// and returns the function that restores the previous one.
func holdGC() func() {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(gcPercent)
	return func() { debug.SetGCPercent(old) }
}

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
	defer holdGC()()
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
	blockRows := 0
	if !spec.Needs.Values && o.scale == "none" {
		// The training rows are read in blocks and turned into their
		// compact form a block at a time (modelfile.Fit).
		blockRows = fitBlockRows
	}
	train, read, test, err := o.data.readPair(ctx, o.trainPath, o.testPath, blockRows)
	if err != nil {
		return err
	}
	noteData(env.Stderr, train, test.set())
	if err := modelDim(o.trainPath, train); err != nil {
		return err
	}
	if spec.Needs.Values {
		return fitValues(ctx, env, spec, opts, o.lf.fields, valueRun{train: train, test: test, limit: o.data.memory.bytes(), scale: o.scale, trainPath: o.trainPath, testPath: o.testPath,
			modelPath: o.modelPath, libsvmPath: o.libsvmPath, liblinearPath: o.liblinearPath, predPath: o.predPath, quiet: o.quiet, json: o.jsonOut, trainAcc: o.trainAcc})
	}
	if len(train.Classes) < 2 {
		return fmt.Errorf("%s: every row has the label %q; a classifier needs at least two classes", o.trainPath, train.Classes[0])
	}
	var sc *dataset.Scaler
	if o.scale != "none" {
		if sc, err = dataset.FitScaler(train, o.scale); err != nil {
			return usagef("--scale: %v", err)
		}
		if train, err = scaleSet(ctx, sc, train); err != nil {
			return err
		}
		read = trainRows{}
	}
	rec, endProgress := fitProgress(ctx, env.Stderr, o.quiet, spec.Name, len(train.Classes), opts.Epochs)
	classes, rows := train.Classes, train.Rows()
	fitted, err := modelfile.Fit(learnerBudget(ctx), spec, opts, train, read.blocks, modelfile.FitOptions{Scaler: sc, Recorder: rec, KeepRows: o.trainAcc, Compact: read.compact})
	endProgress()
	if err != nil {
		if m := o.lf.fields.message(err); m != "" {
			return fmt.Errorf("%s: %s", o.trainPath, m)
		}
		return fmt.Errorf("%s: %w", o.trainPath, err)
	}
	return o.report(ctx, env, spec, opts, fitted, train, classes, rows, test)
}

// crossValidate is fit --cv: no model is written, so the flags that name
// one or its outputs are refused.
func (o *fitOptions) crossValidate(ctx context.Context, env *Env, fs *pflag.FlagSet, spec learners.Spec, opts learners.Options) error {
	if o.testPath != "" || o.predPath != "" || fs.Changed("model") || o.libsvmPath != "" || o.liblinearPath != "" {
		return usagef("fit: --cv measures by cross-validation and writes no model: --test, --predictions and the model flags do not apply")
	}
	return runCV(ctx, env, &o.data, o.trainPath, spec, opts, o.scale, o.cv)
}

// modelDim refuses training data of more features than a model file holds:
// the reader takes what --max-memory holds; a model file, what it reads
// back, at most dataset.DefaultMaxDim.
func modelDim(path string, train *dataset.Set) error {
	if train.Dim > dataset.DefaultMaxDim {
		return fmt.Errorf("%s: %d features, above %d, the most a model file holds (mark1 apply could not read the model back); no flag raises it", path, train.Dim, dataset.DefaultMaxDim)
	}
	return nil
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

// report prints what the fit made (or, with --json, gathers it), predicts
// the training rows and the test file when asked, and writes the model
// files and the predictions.
func (o *fitOptions) report(ctx context.Context, env *Env, spec learners.Spec, opts learners.Options, fitted *modelfile.Fitted, train *dataset.Set, classes []string, rows int, test *testData) error {
	f, res := fitted.File, fitted.Result
	w := env.Stdout
	if o.jsonOut {
		w = io.Discard
	}
	report := modelfile.ReportFit(spec, opts, fitted, train, o.trainPath, o.modelPath)
	fmt.Fprintf(w, "%s on %s: %d rows, %d features, %d classes (%s)\n", describe(spec, opts, fitted.Built), o.trainPath, rows, train.Dim, len(classes), strings.Join(classes, " "))
	if err := printMachines(ctx, w, res.Model, classes); err != nil {
		return err
	}
	fmt.Fprintf(w, "%s\n", res.Summary)
	if o.trainAcc {
		// Measured through the saved form, so fit and apply predict alike.
		right, err := rightOf(f, fitted, train.Dim)
		if err != nil {
			return fmt.Errorf("%s: %w", o.trainPath, err)
		}
		report.Training = modelfile.AccuracyMetrics("", right, rows)
		fmt.Fprintf(w, "training accuracy %s\n", percent(right, rows))
	}
	var preds bytes.Buffer // the test predictions' text, written after the model
	if test != nil {
		// The test file is read again and predicted a block at a time,
		// as apply does; the model file keeps its support vectors.
		g := *f
		r, err := applyTo(ctx, io.Discard, &g, test.path, test.opt, o.data.memory.bytes(), "being fitted", &preds)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "test accuracy %s on %s\n", accuracy(r), o.testPath)
		printUnseen(w, r)
		report.Test = r.Metrics(o.testPath)
		if r.Unseen != nil {
			report.Unseen = r.Unseen
		}
	}
	if err := ctx.Err(); err != nil { // interrupted as the fit ended: write nothing
		return err
	}
	if err := writeModelFiles(ctx, f, o.modelPath, o.libsvmPath, o.liblinearPath, opts.Loss == "squared-hinge"); err != nil {
		return err
	}
	if o.predPath != "" {
		if err := atomicfile.WriteBytes(o.predPath, preds.Bytes()); err != nil {
			return err
		}
	}
	if o.jsonOut {
		return writeJSON(env.Stdout, report)
	}
	return nil
}

// rightOf counts the training rows the saved model predicts as labelled.
func rightOf(f *modelfile.File, fitted *modelfile.Fitted, dim int) (int, error) {
	saved, err := f.Model(dim)
	if err != nil {
		return 0, err
	}
	preds, err := modelfile.PredictRows(saved, fitted.Rows, 0)
	if err != nil {
		return 0, err
	}
	right := 0
	for i, c := range preds { // the rows and y in the learner's order
		if c == fitted.Y[i] {
			right++
		}
	}
	return right, nil
}

// describe names the learner and the settings that shape its model in
// one phrase: its kernel as used (with γ, and the rule that gave it), its
// loss and its C.
func describe(spec learners.Spec, o learners.Options, b learners.Built) string {
	var parts []string
	if b.Kernel != nil {
		parts = append(parts, "kernel "+b.Kernel.String())
		if b.Gamma != nil {
			g := fmt.Sprintf("gamma %.6g", *b.Gamma)
			if o.Gamma.Rule != kernel.GammaValue {
				g += " (" + o.Gamma.String() + ")"
			}
			parts = append(parts, g)
		}
	}
	if spec.Reads("loss") {
		parts = append(parts, o.Loss+" loss")
	}
	if spec.Reads("C") {
		parts = append(parts, fmt.Sprintf("C %g", o.C))
	}
	if spec.Reads("nu") {
		parts = append(parts, fmt.Sprintf("nu %g", o.Nu))
	}
	if spec.Reads("epsilon") {
		parts = append(parts, fmt.Sprintf("epsilon %g", o.Epsilon))
	}
	if spec.Reads("class-weight") && o.ClassWeight != "" {
		parts = append(parts, "class-weight "+o.ClassWeight)
	}
	if len(parts) == 0 {
		return spec.Name
	}
	return fmt.Sprintf("%s (%s)", spec.Name, strings.Join(parts, ", "))
}

// printMachines prints each binary machine's dual objective and threshold
// in LIBSVM's words (obj, rho, nSV, nBSV), for the SVMs.
func printMachines(ctx context.Context, w io.Writer, m learning.Model, classes []string) error {
	neg := func(c int) string {
		if c < 0 {
			return "rest"
		}
		return classes[c]
	}
	switch m := m.(type) {
	case *svm.KernelModel:
		for q, mc := range m.Machines {
			if q%1024 == 0 && ctx.Err() != nil { // one-vs-one of many classes prints millions
				return ctx.Err()
			}
			fmt.Fprintf(w, "machine %s vs %s: obj = %.10g, rho = %.10g, nSV = %d, nBSV = %d, %d iterations\n",
				classes[mc.Pos], neg(mc.Neg), mc.Obj, mc.Rho, len(mc.SV), mc.Bounded, mc.Iter)
		}
	case *svm.LinearModel:
		for k, mc := range m.Machines {
			n := m.Neg
			if len(m.Machines) > 1 {
				n = -1
			}
			fmt.Fprintf(w, "machine %s vs %s: obj = %.10g, nSV = %d, %d passes\n", classes[m.Pos[k]], neg(n), mc.Obj, mc.SV, mc.Iter)
		}
	}
	return nil
}

func percent(right, n int) string {
	if n == 0 {
		return "n/a (no rows)"
	}
	return fmt.Sprintf("%.2f%% (%d/%d)", 100*float64(right)/float64(n), right, n)
}

// accuracy says the accuracy a model had on a data file: a percentage
// and its count, or "" without labels.
func accuracy(a *modelfile.Applied) string {
	if a.Right == nil {
		return ""
	}
	return percent(*a.Right, a.Rows)
}

// printUnseen says which labels of the data the model was not trained on.
func printUnseen(w io.Writer, a *modelfile.Applied) {
	for _, u := range a.Unseen {
		fmt.Fprintf(w, "label %q (%d rows) was not among the training data's classes: those rows count as wrong\n", u.Label, u.Rows)
	}
}

// writeModelFiles writes the mark1 model and the LIBSVM/LIBLINEAR exports
// asked for; nothing is written unless every export is possible.
func writeModelFiles(ctx context.Context, f *modelfile.File, modelPath, libsvmPath, liblinearPath string, squared bool) error {
	var exports []func() error
	if libsvmPath != "" {
		if err := modelfile.WriteLIBSVM(io.Discard, f); err != nil {
			return usagef("--libsvm-model: %v", err)
		}
		exports = append(exports, func() error {
			return atomicfile.Write(libsvmPath, func(fh *os.File) error { return modelfile.WriteLIBSVM(atomicfile.ContextWriter(ctx, fh), f) })
		})
	}
	if liblinearPath != "" {
		if err := modelfile.WriteLIBLINEAR(io.Discard, f, squared); err != nil {
			return usagef("--liblinear-model: %v", err)
		}
		exports = append(exports, func() error {
			return atomicfile.Write(liblinearPath, func(fh *os.File) error {
				return modelfile.WriteLIBLINEAR(atomicfile.ContextWriter(ctx, fh), f, squared)
			})
		})
	}
	if err := atomicfile.Write(modelPath, func(fh *os.File) error { return f.Write(atomicfile.ContextWriter(ctx, fh)) }); err != nil {
		return err
	}
	for _, e := range exports {
		if err := e(); err != nil {
			return err
		}
	}
	return nil
}

func writePredictions(path string, preds []string) error {
	return atomicfile.Write(path, func(fh *os.File) error {
		for _, p := range preds {
			if _, err := io.WriteString(fh, p+"\n"); err != nil {
				return err
			}
		}
		return nil
	})
}

func runApply(ctx context.Context, env *Env, args []string) error {
	defer holdGC()()
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
	r, err := applyFile(ctx, env, f, testPath, ropt, data, noLabels, modelPath, predPath)
	if err != nil {
		return err
	}
	if jsonOut {
		return writeJSON(env.Stdout, modelfile.ReportApply(f, format, modelPath, testPath, predPath, r))
	}
	switch {
	case f.Values():
		fmt.Fprintf(env.Stdout, "%s on %s: %s\n", modelPath, testPath, valueSummary(f, r))
	case r.Right != nil:
		fmt.Fprintf(env.Stdout, "%s on %s: accuracy %s\n", modelPath, testPath, accuracy(r))
	default:
		fmt.Fprintf(env.Stdout, "%s on %s: %d rows predicted; the data have no labels, so no accuracy\n", modelPath, testPath, r.Rows)
	}
	if !f.Values() {
		printUnseen(env.Stdout, r)
	}
	return nil
}

// applyFile predicts the data file with f as apply does: a classifier's a
// block at a time, the predictions written as they come (svm-predict's
// memory); a value model's (an SVR, the one-class SVM) on the whole file.
func applyFile(ctx context.Context, env *Env, f *modelfile.File, testPath string, ropt dataset.Options, data numericFlags, noLabels bool, modelPath, predPath string) (*modelfile.Applied, error) {
	if !f.Values() {
		if ropt.NoLabels && !noLabels {
			noteNoLabels(env.Stderr, testPath, f)
		}
		r, err := applyBlocks(ctx, env.Stderr, f, testPath, ropt, data.memory.bytes(), modelPath, predPath)
		if errors.Is(err, dataset.ErrNoLabelsFile) {
			err = fmt.Errorf("%w, or predict without labels: --no-labels", err)
		}
		return r, err
	}
	test, err := data.readFor(ctx, f, testPath, noLabels)
	if err != nil {
		return nil, err
	}
	noteData(env.Stderr, test, nil)
	if err := ctx.Err(); err != nil { // interrupted while the data were read
		return nil, err
	}
	r, err := modelfile.ApplyValues(f, test, modelPath)
	if err != nil {
		return nil, inputHint(err, test, f)
	}
	if err := ctx.Err(); err != nil { // nothing is written once interrupted
		return nil, err
	}
	if predPath != "" {
		if err := writePredictions(predPath, r.Preds); err != nil {
			return nil, err
		}
	}
	return r, nil
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

// applyBlocks predicts every row of the data file at path with the model
// file's model, a block of rows at a time (modelfile.ApplyFile), its
// predictions written to predPath when not empty (atomically: nothing
// written on an error or interrupt). It returns the data's description
// without their rows and what was found; the data's notes go to stderr.
func applyBlocks(ctx context.Context, stderr io.Writer, f *modelfile.File, path string, opt dataset.Options, limit int64, name, predPath string) (r *modelfile.Applied, err error) {
	if predPath == "" {
		return applyTo(ctx, stderr, f, path, opt, limit, name, io.Discard)
	}
	err = atomicfile.Write(predPath, func(fh *os.File) error {
		r, err = applyTo(ctx, stderr, f, path, opt, limit, name, fh)
		return err
	})
	return r, err
}

// applyTo is applyBlocks writing the predictions to out.
func applyTo(ctx context.Context, stderr io.Writer, f *modelfile.File, path string, opt dataset.Options, limit int64, name string, out io.Writer) (*modelfile.Applied, error) {
	opt.MaxBytes = limit
	a, err := modelfile.ApplyFile(ctx, f, path, modelfile.ApplyOptions{Read: opt, Name: name, ReadContext: readContext(ctx),
		OnData: func(info *dataset.Set) { noteData(stderr, info) }}, out)
	if err != nil {
		if a.Data != nil {
			err = inputHint(err, a.Data, f)
		}
		return nil, budgetHint(err)
	}
	if a.Data.QueryIDs > 0 {
		noteData(stderr, &dataset.Set{Name: a.Data.Name, QueryIDs: a.Data.QueryIDs})
	}
	return a, nil
}
