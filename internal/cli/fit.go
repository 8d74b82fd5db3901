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

// setRows gives a numeric data set's rows to the learners as they are
// stored, sparse, or in the more compact dense, byte, bit-set or float32
// form when that is smaller (learning.Sparse.Compact32: dense values that
// are not bytes are kept to float32's 7 significant digits, more than a
// data file usually carries): never a dense copy of sparse data.
func setRows(s *dataset.Set) (learning.Rows, error) {
	rows, err := learning.NewSparse(s.Dim, s.RowStart, s.Index, s.Value)
	if err != nil {
		return nil, err
	}
	return rows.Compact32(), nil
}

// fitBlockRows is the number of rows fit reads and turns into their
// compact form at a time: 4,096 rows of 400 grey levels are about 12 MB
// of parsed rows.
const fitBlockRows = 4096

// stackRows returns the rows of blocks of one data file as one Stack,
// sharing their arrays.
func stackRows(blocks []*dataset.Set) (*learning.Stack, error) {
	parts := make([]*learning.Sparse, len(blocks))
	for k, b := range blocks {
		p, err := learning.NewSparse(b.Dim, b.RowStart, b.Index, b.Value)
		if err != nil {
			return nil, err
		}
		parts[k] = p
	}
	return learning.NewStack(parts)
}

// readNumeric reads a numeric data file within limit bytes (the command's
// --max-memory), and says which flag raises the budget when the file is
// over it.
func readNumeric(ctx context.Context, limit int64, path string, opt dataset.Options) (*dataset.Set, error) {
	s, _, err := readNumericBlocks(ctx, limit, path, opt, 0)
	return s, err
}

// readNumericBlocks is readNumeric with the rows in blocks of at most
// rows rows (dataset.ReadFileBlocks) when rows > 0.
func readNumericBlocks(ctx context.Context, limit int64, path string, opt dataset.Options, rows int) (s *dataset.Set, blocks []*dataset.Set, err error) {
	opt.MaxBytes = limit
	if rows > 0 {
		s, blocks, err = dataset.ReadFileBlocks(readContext(ctx), path, opt, rows)
	} else {
		s, err = dataset.ReadFileContext(readContext(ctx), path, opt)
	}
	if err != nil {
		return nil, nil, budgetHint(err)
	}
	return s, blocks, nil
}

// gcPercent is the collector's target while fit and apply run: the heap
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

func runFit(ctx context.Context, env *Env, args []string) (err error) {
	defer holdGC()()
	var data numericFlags
	var quiet, trainAcc, jsonOut bool
	var lf learnerFlags
	var scale string
	var cv cvFlags
	var trainPath, testPath, modelPath, libsvmPath, liblinearPath, predPath string
	fs := newFlags(env, "fit --data TRAIN [--test TEST] [flags]",
		"Trains one software learner on numeric data (libsvm, CSV, text or IDX files) as LIBSVM's svm-train\n"+
			"and LIBLINEAR's train do, saves the model, and prints the accuracy on the training and test data.")
	fs.StringVar(&trainPath, "data", "", "training data file (required)")
	fs.StringVar(&testPath, "test", "", "test data file: accuracy and, with --predictions, one predicted label per line")
	data.register(fs, env.Stderr)
	lf.register(fs, fieldFlags{}, "svm", "threads")
	fs.BoolVar(&trainAcc, "train-accuracy", false, "also predict every training row and print the training accuracy (svm-train does not; it can cost as much as the fit)")
	fs.BoolVar(&quiet, "quiet", false, "print no progress line on standard error (it is drawn only on a terminal, for fits over a second)")
	fs.BoolVar(&jsonOut, "json", false, "print one JSON object instead of text (docs/libsvm.md describes its fields)")
	cv.register(fs)
	fs.StringVar(&scale, "scale", "none", "scale every feature, fitted on the training data and saved with the model: none, 01 ([0,1] as svm-scale -l 0), pm1 ([-1,1] as svm-scale), std (zero mean, unit variance)")
	fs.StringVar(&modelPath, "model", "model.json", "the mark1 model file to write")
	fs.StringVar(&libsvmPath, "libsvm-model", "", "also write the svm in LIBSVM's model format, for svm-predict")
	fs.StringVar(&liblinearPath, "liblinear-model", "", "also write a linear model in LIBLINEAR's model format, for liblinear-predict")
	fs.StringVar(&predPath, "predictions", "", "write the test predictions here, one label per line in test-file order (needs --test)")
	if err := env.parse(fs, args); err != nil {
		return err
	}
	if trainPath == "" {
		return usagef("fit: --data TRAIN is required")
	}
	if predPath != "" && testPath == "" {
		return usagef("fit: --predictions needs --test")
	}
	if modelPath == "" {
		return usagef("fit: --model is empty: give the model file to write")
	}
	opts, err := lf.options()
	if err != nil {
		return err
	}
	spec, err := lf.spec(opts)
	if err != nil {
		return err
	}
	if spec.Form == learners.NoFile {
		return usagef("--learner %s out of range: want one whose model a file stores (%s); compare runs %s", spec.Name, strings.Join(modelfile.Learners(), ", "), spec.Name)
	}
	ctx, finish := guardMemory(ctx, "fit", data.memory.bytes())
	defer func() { err = finish(err) }()
	if cv.folds != 0 {
		if testPath != "" || predPath != "" || fs.Changed("model") || libsvmPath != "" || liblinearPath != "" {
			return usagef("fit: --cv measures by cross-validation and writes no model: --test, --predictions and the model flags do not apply")
		}
		return runCV(ctx, env, &data, trainPath, spec, opts, scale, cv)
	}
	blockRows := 0
	if !spec.Needs.Values && scale == "none" {
		// The training rows are read in blocks and turned into their
		// compact form a block at a time (Stack.Compact32 below).
		blockRows = fitBlockRows
	}
	train, blocks, test, err := data.readPair(ctx, trainPath, testPath, blockRows)
	if err != nil {
		return err
	}
	noteData(env.Stderr, train, test.set())
	if spec.Needs.Values {
		return fitValues(ctx, env, spec, opts, lf.fields, valueRun{train: train, test: test, limit: data.memory.bytes(), scale: scale, trainPath: trainPath, testPath: testPath,
			modelPath: modelPath, libsvmPath: libsvmPath, liblinearPath: liblinearPath, predPath: predPath, quiet: quiet, json: jsonOut, trainAcc: trainAcc})
	}
	if len(train.Classes) < 2 {
		return fmt.Errorf("%s: every row has the label %q; a classifier needs at least two classes", trainPath, train.Classes[0])
	}
	var sc *dataset.Scaler
	if scale != "none" {
		if sc, err = dataset.FitScaler(train, scale); err != nil {
			return usagef("--scale: %v", err)
		}
		if train, err = scaleSet(ctx, sc, train); err != nil {
			return err
		}
	}
	if blocks == nil {
		blocks = []*dataset.Set{train}
	}
	read, err := stackRows(blocks)
	if err != nil {
		return fmt.Errorf("%s: %w", trainPath, err)
	}
	blocks = nil
	// γ = scale is the variance of the values as read (float64), as
	// scikit-learn's; the learner then reads them in their compact form.
	d := &learning.Data{Rows: read, Y: train.Y, Classes: len(train.Classes)}
	built, err := spec.New(opts, d)
	if err != nil { // a γ of scale or auto out of range on these data
		return fmt.Errorf("%s: %w", trainPath, lf.fields.named(err))
	}
	weights, err := learners.ClassWeights(opts.ClassWeight, train.Classes, train.Y, modelfile.SameLabel)
	if err != nil { // a label that is none of the data's classes
		return fmt.Errorf("%s: %w", trainPath, lf.fields.named(err))
	}
	built.SetClassWeights(weights)
	// The learner reads its own compact copy of the rows (dense, bytes,
	// bits or float32; sparse rows are shared), in the order it learns
	// from fastest, every block let go, and its pages given back to the
	// system, once copied: the parsed rows and their copy are never all
	// in memory (the fit's kernel cache is one block that cannot reuse
	// their pages).
	var order []int
	if o, ok := built.Learner.(interface{ RowOrder([]int, int) []int }); ok {
		order = o.RowOrder(train.Y, len(train.Classes))
	}
	train.RowStart, train.Index, train.Value = []int{0}, nil, nil
	rows := read.Compact32(order, debug.FreeOSMemory)
	read = nil
	y := train.Y
	if order != nil {
		y = make([]int, len(order))
		for k, i := range order {
			y[k] = train.Y[i]
		}
	}
	d.Rows, d.Y = rows, y
	rec, endProgress := fitProgress(ctx, env.Stderr, quiet, spec.Name, len(train.Classes), opts.Epochs)
	res, err := built.Learner.Fit(learnerBudget(ctx), d, rec)
	endProgress()
	if err != nil {
		return fmt.Errorf("%s: %w", trainPath, err)
	}
	if !trainAcc {
		// The model keeps what it needs of the rows (copied, or shared).
		rows, d.Rows = nil, nil
	}
	// The fit's working memory (the kernel cache) and, unless the training
	// accuracy is wanted, the training rows are garbage now: give them back
	// to the system, so that the model file is built in fresh pages rather
	// than beside them (the runtime would take the lowest free pages first,
	// not theirs).
	debug.FreeOSMemory()
	f, err := modelfile.FromModel(spec.Name, res.Model, train.Classes, train.Dim, sc, built.Gamma, built.Bias)
	if err != nil {
		return err
	}
	f.Schema = modelfile.SchemaOf(train)
	w := env.Stdout
	if jsonOut {
		w = io.Discard
	}
	report := fitReport(spec, opts, built, f, res, train, trainPath, modelPath)
	fmt.Fprintf(w, "%s on %s: %d rows, %d features, %d classes (%s)\n", describe(spec, opts, built), trainPath, train.Rows(), train.Dim, len(train.Classes), strings.Join(train.Classes, " "))
	if err := printMachines(ctx, w, res.Model, train.Classes); err != nil {
		return err
	}
	fmt.Fprintf(w, "%s\n", res.Summary)
	if trainAcc {
		// Measure through the saved form, so fit and apply predict alike.
		saved, err := f.Model(train.Dim)
		if err != nil {
			return err
		}
		right := 0
		trainPreds, err := modelfile.PredictRows(saved, rows, 0)
		if err != nil {
			return fmt.Errorf("%s: %w", trainPath, err)
		}
		for i, c := range trainPreds { // the rows and y in the learner's order
			if c == y[i] {
				right++
			}
		}
		report.Training = accuracyJSON("", right, train.Rows())
		fmt.Fprintf(w, "training accuracy %s\n", percent(right, train.Rows()))
	}
	var preds bytes.Buffer // the test predictions' text, written after the model
	if test != nil {
		// The test file is read again and predicted a block at a time,
		// as apply does; the model file keeps its support vectors.
		g := *f
		_, r, err := applyTo(ctx, io.Discard, &g, test.path, test.opt, data.memory.bytes(), "being fitted", &preds)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "test accuracy %s on %s\n", r.accuracy, testPath)
		r.printUnseen(w)
		report.Test = r.metrics(testPath, test.info)
		report.Unseen = r.unseenJSON()
	}
	if err := ctx.Err(); err != nil { // interrupted as the fit ended: write nothing
		return err
	}
	if err := writeModelFiles(ctx, f, modelPath, libsvmPath, liblinearPath, opts.Loss == "squared-hinge"); err != nil {
		return err
	}
	if predPath != "" {
		if err := atomicfile.Write(predPath, func(fh *os.File) error { _, err := fh.Write(preds.Bytes()); return err }); err != nil {
			return err
		}
	}
	if jsonOut {
		return writeJSON(env.Stdout, report)
	}
	return nil
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

// applied is what applyBlocks or applyValues found: the number of rows
// predicted, the accuracy ("" without labels), and the labels the model
// never saw with their row counts.
type applied struct {
	// n is the number of rows predicted; preds holds applyValues'
	// predictions (applyBlocks writes them as they come).
	n        int
	preds    []string
	accuracy string
	unseen   []string
	rows     []int
	right    *int // rows predicted right, when the data have labels
	// values, inside and oneClass are set by applyValues instead: the
	// regression's scores against the labels, or the one-class SVM's rows
	// inside.
	values   *learning.Regression
	inside   int
	oneClass bool
}

// printUnseen says which labels of the data the model was not trained on.
func (r applied) printUnseen(w io.Writer) {
	for k, c := range r.unseen {
		fmt.Fprintf(w, "label %q (%d rows) was not among the training data's classes: those rows count as wrong\n", c, r.rows[k])
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
	var test *dataset.Set
	var r applied
	if !f.Values() {
		// The data are read and predicted a block at a time, the
		// predictions written as they come (svm-predict's memory).
		if ropt.NoLabels && !noLabels {
			noteNoLabels(env.Stderr, testPath, f)
		}
		if test, r, err = applyBlocks(ctx, env.Stderr, f, testPath, ropt, data.memory.bytes(), modelPath, predPath); err != nil {
			if errors.Is(err, dataset.ErrNoLabelsFile) {
				return fmt.Errorf("%w, or predict without labels: --no-labels", err)
			}
			return err
		}
	} else {
		if test, err = data.readFor(ctx, f, testPath, noLabels); err != nil {
			return err
		}
		noteData(env.Stderr, test, nil)
		if err := ctx.Err(); err != nil { // interrupted while the data were read
			return err
		}
		if r, err = applyValues(f, test, modelPath); err != nil {
			return inputHint(err, test, f)
		}
		if err := ctx.Err(); err != nil { // nothing is written once interrupted
			return err
		}
		if predPath != "" {
			if err := writePredictions(predPath, r.preds); err != nil {
				return err
			}
		}
	}
	if jsonOut {
		return writeJSON(env.Stdout, applyReport(f, format, modelPath, testPath, predPath, test, r))
	}
	switch {
	case f.Values():
		fmt.Fprintf(env.Stdout, "%s on %s: %s\n", modelPath, testPath, r.valueSummary(f))
	case r.accuracy != "":
		fmt.Fprintf(env.Stdout, "%s on %s: accuracy %s\n", modelPath, testPath, r.accuracy)
	default:
		fmt.Fprintf(env.Stdout, "%s on %s: %d rows predicted; the data have no labels, so no accuracy\n", modelPath, testPath, r.n)
	}
	if !f.Values() {
		r.printUnseen(env.Stdout)
	}
	return nil
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
func applyBlocks(ctx context.Context, stderr io.Writer, f *modelfile.File, path string, opt dataset.Options, limit int64, name, predPath string) (info *dataset.Set, r applied, err error) {
	if predPath == "" {
		return applyTo(ctx, stderr, f, path, opt, limit, name, io.Discard)
	}
	err = atomicfile.Write(predPath, func(fh *os.File) error {
		info, r, err = applyTo(ctx, stderr, f, path, opt, limit, name, fh)
		return err
	})
	return info, r, err
}

// applyTo is applyBlocks writing the predictions to out.
func applyTo(ctx context.Context, stderr io.Writer, f *modelfile.File, path string, opt dataset.Options, limit int64, name string, out io.Writer) (*dataset.Set, applied, error) {
	opt.MaxBytes = limit
	a, err := modelfile.ApplyFile(ctx, f, path, modelfile.ApplyOptions{Read: opt, Name: name, ReadContext: readContext(ctx),
		OnData: func(info *dataset.Set) { noteData(stderr, info) }}, out)
	if err != nil {
		if a.Data != nil {
			err = inputHint(err, a.Data, f)
		}
		return nil, applied{}, budgetHint(err)
	}
	if a.Data.QueryIDs > 0 {
		noteData(stderr, &dataset.Set{Name: a.Data.Name, QueryIDs: a.Data.QueryIDs})
	}
	r := applied{n: a.Rows, right: a.Right}
	if a.Right != nil {
		r.accuracy = percent(*a.Right, a.Rows)
	}
	for _, u := range a.Unseen {
		r.unseen, r.rows = append(r.unseen, u.Label), append(r.rows, u.Rows)
	}
	return a.Data, r, nil
}
