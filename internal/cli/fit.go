package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"mark1/dataset"
	"mark1/internal/atomicfile"
	"mark1/learning"
	"mark1/learning/kernel"
	"mark1/learning/modelfile"
	"mark1/learning/svm"
)

// fitLearners are the learners fit trains, by name.
var fitLearners = []string{"svm", "linear-svm", "perceptron", "averaged", "pocket", "batch-gd", "kernel-perceptron"}

// numericFlags are how fit and apply read data files.
type numericFlags struct {
	format, labelColumn string
	zeroBased           bool
	fs                  *pflag.FlagSet // for --max-memory
	stderr              io.Writer      // for notes
}

func (n *numericFlags) register(fs *pflag.FlagSet, stderr io.Writer) {
	n.fs, n.stderr = fs, stderr
	memoryFlag(fs)
	fs.StringVar(&n.format, "format", "auto", "data format: auto (by extension and content), libsvm, csv, text")
	fs.StringVar(&n.labelColumn, "label-column", "", `CSV label column: a 1-based position or a header name (default: the column named label, class, target or y, else the last)`)
	fs.BoolVar(&n.zeroBased, "zero-based", false, "libsvm indices start at 0 (=false: at 1, as LIBSVM's); default: 0-based when a file has an index 0, as scikit-learn's load_svmlight_file(zero_based=\"auto\")")
}

// setRows gives a numeric data set's rows to the learners as they are
// stored, sparse, or in the more compact dense, byte or bit-set form when
// that is smaller (learning.Sparse.Compact): never a dense copy of sparse
// data.
func setRows(s *dataset.Set) (learning.Rows, error) {
	rows, err := learning.NewSparse(s.Dim, s.RowStart, s.Index, s.Value)
	if err != nil {
		return nil, err
	}
	return rows.Compact(), nil
}

// readNumeric reads a numeric data file within the command's --max-memory,
// and says which flag raises the budget when the file is over it.
func readNumeric(fs *pflag.FlagSet, path string, opt dataset.Options) (*dataset.Set, error) {
	limit, err := memoryLimit(fs)
	if err != nil {
		return nil, err
	}
	opt.MaxBytes = limit
	s, err := dataset.ReadFile(path, opt)
	if errors.Is(err, dataset.ErrTooLarge) {
		return nil, fmt.Errorf("%w (raise the budget with --max-memory)", err)
	}
	return s, err
}

// fitSettings are fit's learner flags.
type fitSettings struct {
	learner, kernel, gamma, scale, loss string
	degree                              int
	coef0, c, eps, cacheMB, bias        float64
	epochs                              int
	seed                                uint64
}

// resolveGamma turns --gamma into a number for data of dim features whose
// entries have variance v: scikit-learn's "scale" 1/(dim·v) (1/dim when v =
// 0), "auto" 1/dim (LIBSVM's default), or a number > 0.
func resolveGamma(spec string, dim int, v float64) (float64, error) {
	switch spec {
	case "scale":
		if v == 0 {
			v = 1
		}
		return 1 / (float64(dim) * v), nil
	case "auto":
		return 1 / float64(dim), nil
	}
	g, err := strconv.ParseFloat(spec, 64)
	if err != nil || !(g > 0) || math.IsInf(g, 0) {
		return 0, usagef("--gamma %q: want scale, auto or a number > 0", spec)
	}
	return g, nil
}

// numericGamma reports whether --gamma is a number rather than scale or
// auto, which depend on the training data.
func (s *fitSettings) numericGamma() bool { return s.gamma != "scale" && s.gamma != "auto" }

// gammaKernel returns LIBSVM's poly or rbf kernel (--kernel) with γ = g.
func (s *fitSettings) gammaKernel(g float64) kernel.Kernel {
	if s.kernel == "rbf" {
		return kernel.Gaussian{Sigma: 1 / math.Sqrt(2*g)}
	}
	return kernel.Polynomial{Degree: s.degree, Gamma: g, Coef0: s.coef0}
}

// kernelFor builds the kernel of --kernel: LIBSVM's linear, poly and rbf
// with --gamma, --degree and --coef0, or any kernel.Parse form. gamma is nil
// when the kernel has none. check has refused every flag out of range
// before the data were read; what fails here is a γ of scale or auto that
// the training data make out of range (exit 1).
func (s *fitSettings) kernelFor(train *dataset.Set) (kernel.Kernel, *float64, error) {
	switch s.kernel {
	case "linear":
		return kernel.Linear{}, nil, nil
	case "poly", "rbf":
		g, err := resolveGamma(s.gamma, max(train.Dim, 1), train.Variance())
		if err != nil {
			return nil, nil, err
		}
		k := s.gammaKernel(g)
		if err := kernel.Validate(k); err != nil {
			return nil, nil, fmt.Errorf("--gamma %s gives γ = %g on this data: %v", s.gamma, g, err)
		}
		return k, &g, nil
	}
	k, err := kernel.Parse(s.kernel)
	if err != nil {
		return nil, nil, usagef("--kernel: %v", err)
	}
	return k, nil, nil
}

// maxCacheMB bounds --cache-mb (a pebibyte): the SVM counts its cache in
// bytes in an int64.
const maxCacheMB = 1 << 30

// check refuses a learner flag out of range, each with its own line naming
// the flag, the value and the range, before any data are read. --gamma
// scale and auto are checked once the data give them a value (kernelFor).
func (s *fitSettings) check() error {
	switch {
	case !(s.c > 0) || math.IsInf(s.c, 0):
		return usagef("--C %v out of range: must be a finite number > 0", s.c)
	case !(s.eps >= 0) || math.IsInf(s.eps, 0):
		return usagef("--eps %v out of range: must be a finite number ≥ 0 (0: the learner's default)", s.eps)
	case !(s.cacheMB > 0) || s.cacheMB > maxCacheMB:
		return usagef("--cache-mb %v out of range (0, %d]", s.cacheMB, maxCacheMB)
	case s.epochs < 1:
		return usagef("--epochs %d out of range: must be ≥ 1", s.epochs)
	case math.IsNaN(s.bias) || math.IsInf(s.bias, 0) || s.bias == 0:
		return usagef("--bias %v out of range: want a finite number, > 0 for a bias feature or negative for none", s.bias)
	}
	if !slices.Contains(fitLearners, s.learner) {
		return usagef("--learner %q: want one of %s", s.learner, strings.Join(fitLearners, ", "))
	}
	if s.loss != "hinge" && s.loss != "squared-hinge" {
		return usagef("--loss %q: want hinge or squared-hinge", s.loss)
	}
	g := 1.0 // scale and auto: γ is checked with the data (kernelFor)
	if s.numericGamma() && (s.kernel == "poly" || s.kernel == "rbf") {
		var err error
		if g, err = resolveGamma(s.gamma, 1, 0); err != nil {
			return err
		}
	}
	// --degree is checked whatever the kernel, as every flag's value is.
	if err := kernel.Validate(kernel.Polynomial{Degree: s.degree, Gamma: 1}); err != nil {
		return usagef("--degree %d: %v", s.degree, err)
	}
	switch s.kernel {
	case "linear":
	case "rbf":
		if err := kernel.Validate(s.gammaKernel(g)); err != nil && s.numericGamma() {
			return usagef("--gamma %s: σ = 1/√(2γ): %v", s.gamma, err)
		}
	case "poly": // --degree and γ are checked above: what is left is --coef0
		if err := kernel.Validate(s.gammaKernel(g)); err != nil {
			return usagef("--coef0 %v: %v", s.coef0, err)
		}
	default:
		k, err := kernel.Parse(s.kernel)
		if err == nil {
			err = kernel.Validate(k)
		}
		if err != nil {
			return usagef("--kernel: %v", err)
		}
	}
	return nil
}

// learnerFor builds the learner of flags check has passed; bias is the
// linear SVM's bias feature (nil without one).
func (s *fitSettings) learnerFor(k kernel.Kernel) (l learning.Learner, bias *float64, err error) {
	switch s.learner {
	case "svm":
		return svm.Kernel{Kernel: k, Settings: svm.Settings{C: s.c, Eps: s.eps, CacheMB: s.cacheMB}}, nil, nil
	case "linear-svm":
		loss := svm.Hinge
		switch s.loss {
		case "hinge":
		case "squared-hinge":
			loss = svm.SquaredHinge
		default:
			return nil, nil, usagef("--loss %q: want hinge or squared-hinge", s.loss)
		}
		ls := svm.LinearSettings{C: s.c, Loss: loss, Eps: s.eps, Bias: s.bias, Seed: s.seed}
		if s.bias < 0 {
			ls.Bias = -1
		} else {
			bias = &s.bias
		}
		return svm.Linear{Settings: ls}, bias, nil
	case "perceptron":
		return learning.Perceptron{MaxEpochs: s.epochs, Seed: s.seed}, nil, nil
	case "averaged":
		return learning.AveragedPerceptron{MaxEpochs: s.epochs, Seed: s.seed}, nil, nil
	case "pocket":
		return learning.Pocket{MaxEpochs: s.epochs, Seed: s.seed}, nil, nil
	case "batch-gd":
		return learning.BatchGD{LineSearch: true, MaxEpochs: s.epochs, Seed: s.seed}, nil, nil
	case "kernel-perceptron":
		return learning.KernelPerceptron{Kernel: k, MaxEpochs: s.epochs, Seed: s.seed}, nil, nil
	}
	return nil, nil, usagef("--learner %q: want one of %s", s.learner, strings.Join(fitLearners, ", "))
}

func runFit(ctx context.Context, env *Env, args []string) (err error) {
	var data numericFlags
	var quiet bool
	var s fitSettings
	var trainPath, testPath, modelPath, libsvmPath, liblinearPath, predPath string
	fs := newFlags(env, "fit --data TRAIN [--test TEST] [flags]",
		"Trains one software learner on numeric data (libsvm, CSV or text files) as LIBSVM's svm-train\n"+
			"and LIBLINEAR's train do, saves the model, and prints the accuracy on the training and test data.")
	fs.StringVar(&trainPath, "data", "", "training data file (required)")
	fs.StringVar(&testPath, "test", "", "test data file: accuracy and, with --predictions, one predicted label per line")
	data.register(fs, env.Stderr)
	fs.StringVar(&s.learner, "learner", "svm", "learner: "+strings.Join(fitLearners, ", "))
	fs.StringVar(&s.kernel, "kernel", "rbf", "kernel of svm and kernel-perceptron: linear, poly, rbf (LIBSVM's, with --gamma, --degree, --coef0), or gaussian:sigma=S, laplace:sigma=S\n(laplace is exp(−‖x−z‖/σ) with the Euclidean norm: the notes 004's exp(−‖x−z‖/(2σ²)) is sigma = 2σ²; scikit-learn's\nlaplacian kernel uses the L1 norm)")
	fs.StringVar(&s.gamma, "gamma", "scale", "γ of rbf and poly: scale = 1/(features × variance of the training values), auto = 1/features (LIBSVM's default), or a number")
	fs.IntVar(&s.degree, "degree", 3, "degree of the poly kernel")
	fs.Float64Var(&s.coef0, "coef0", 0, "coef0 of the poly kernel")
	fs.Float64Var(&s.c, "C", 1, "penalty C of svm and linear-svm\n(LIBSVM's convention, ½‖w‖² + C·Σξ: the notes 004 write ‖w‖² + C·Σξ, whose C is twice this one)")
	fs.Float64Var(&s.eps, "eps", 0, "stopping tolerance (0: 0.001 for svm as LIBSVM's -e, 0.1 for linear-svm as LIBLINEAR's)")
	fs.Float64Var(&s.cacheMB, "cache-mb", 100, "svm kernel cache in MiB (LIBSVM's -m)")
	fs.StringVar(&s.loss, "loss", "hinge", "linear-svm loss: hinge (LIBLINEAR -s 3) or squared-hinge (-s 1)")
	fs.Float64Var(&s.bias, "bias", 1, "linear-svm bias feature (LIBLINEAR's -B); negative for none")
	fs.IntVar(&s.epochs, "epochs", 100, "epoch limit of the perceptron learners")
	fs.BoolVar(&quiet, "quiet", false, "print no progress line on standard error (it is drawn only on a terminal, for fits over a second)")
	fs.Uint64Var(&s.seed, "seed", 1, "seed of the presentation order (perceptrons, linear-svm)")
	fs.StringVar(&s.scale, "scale", "none", "scale every feature, fitted on the training data and saved with the model: none, 01 ([0,1] as svm-scale -l 0), pm1 ([-1,1] as svm-scale), std (zero mean, unit variance)")
	fs.StringVar(&modelPath, "model", "model.json", "the mark1 model file to write")
	fs.StringVar(&libsvmPath, "libsvm-model", "", "also write the svm in LIBSVM's model format, for svm-predict")
	fs.StringVar(&liblinearPath, "liblinear-model", "", "also write a linear model in LIBLINEAR's model format, for liblinear-predict")
	fs.StringVar(&predPath, "predictions", "", "write the test predictions here, one label per line in test-file order (needs --test)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("fit: unexpected argument %q", fs.Arg(0))
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
	if err := s.check(); err != nil {
		return err
	}
	ctx, finish, err := guardMemory(ctx, "fit", fs)
	if err != nil {
		return err
	}
	defer func() { err = finish(err) }()
	train, test, err := data.readPair(trainPath, testPath)
	if err != nil {
		return err
	}
	noteData(env.Stderr, train, test)
	if len(train.Classes) < 2 {
		return fmt.Errorf("%s: every row has the label %q; a classifier needs at least two classes", trainPath, train.Classes[0])
	}
	var sc *dataset.Scaler
	if s.scale != "none" {
		if sc, err = dataset.FitScaler(train, s.scale); err != nil {
			return usagef("--scale: %v", err)
		}
		if train, err = sc.Apply(train, 0); err != nil {
			return err
		}
	}
	k, gamma, err := s.kernelFor(train)
	if err != nil {
		return err
	}
	l, bias, err := s.learnerFor(k)
	if err != nil {
		return err
	}
	rows, err := setRows(train)
	if err != nil {
		return fmt.Errorf("%s: %w", trainPath, err)
	}
	rec, endProgress := fitProgress(env.Stderr, quiet, s.learner, len(train.Classes), s.epochs)
	res, err := l.Fit(ctx, &learning.Data{Rows: rows, Y: train.Y, Classes: len(train.Classes)}, rec)
	endProgress()
	if err != nil {
		return fmt.Errorf("%s: %w", trainPath, err)
	}
	f, err := modelfile.FromModel(s.learner, res.Model, train.Classes, train.Dim, sc, gamma, bias)
	if err != nil {
		return err
	}
	f.Schema = modelfile.SchemaOf(train)
	w := env.Stdout
	fmt.Fprintf(w, "%s on %s: %d rows, %d features, %d classes (%s)\n", describe(f, s), trainPath, train.Rows(), train.Dim, len(train.Classes), strings.Join(train.Classes, " "))
	printMachines(w, res.Model, train.Classes)
	fmt.Fprintf(w, "%s\n", res.Status)
	// Measure through the saved form, so fit and apply predict alike.
	saved, err := f.Model(train.Dim)
	if err != nil {
		return err
	}
	right := 0
	for i, c := range predictSet(saved, train, train.Dim) {
		if c == train.Y[i] {
			right++
		}
	}
	fmt.Fprintf(w, "training accuracy %s\n", percent(right, train.Rows()))
	var preds []string
	if test != nil {
		var r applied
		if r, err = applyModel(f, test, "being fitted"); err != nil {
			return err
		}
		preds = r.preds
		fmt.Fprintf(w, "test accuracy %s on %s\n", r.accuracy, testPath)
		r.printUnseen(w)
	}
	if err := ctx.Err(); err != nil { // interrupted as the fit ended: write nothing
		return err
	}
	if err := writeModelFiles(f, modelPath, libsvmPath, liblinearPath, s.loss == "squared-hinge"); err != nil {
		return err
	}
	if predPath != "" {
		if err := writePredictions(predPath, preds); err != nil {
			return err
		}
	}
	return nil
}

// describe names the learner and its settings in one phrase.
func describe(f *modelfile.File, s fitSettings) string {
	switch f.Learner {
	case "svm":
		g := ""
		if f.Gamma != nil {
			g = fmt.Sprintf(", gamma %.6g", *f.Gamma)
			if s.gamma == "scale" || s.gamma == "auto" {
				g += " (" + s.gamma + ")"
			}
		}
		return fmt.Sprintf("svm (kernel %s%s, C %g)", *f.Kernel, g, s.c)
	case "linear-svm":
		return fmt.Sprintf("linear-svm (%s loss, C %g)", s.loss, s.c)
	case "kernel-perceptron":
		return fmt.Sprintf("kernel-perceptron (kernel %s)", *f.Kernel)
	}
	return f.Learner
}

// printMachines prints each binary machine's dual objective and threshold
// in LIBSVM's words (obj, rho, nSV, nBSV), for the SVMs.
func printMachines(w io.Writer, m learning.Model, classes []string) {
	neg := func(c int) string {
		if c < 0 {
			return "rest"
		}
		return classes[c]
	}
	switch m := m.(type) {
	case *svm.KernelModel:
		for _, mc := range m.Machines {
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
}

func percent(right, n int) string {
	if n == 0 {
		return "n/a (no rows)"
	}
	return fmt.Sprintf("%.2f%% (%d/%d)", 100*float64(right)/float64(n), right, n)
}

// applied is what applyModel found: the predicted labels, the accuracy
// ("" without labels), and the labels the model never saw with their row
// counts.
type applied struct {
	preds    []string
	accuracy string
	unseen   []string
	rows     []int
}

// printUnseen says which labels of the data the model was not trained on.
func (r applied) printUnseen(w io.Writer) {
	for k, c := range r.unseen {
		fmt.Fprintf(w, "label %q (%d rows) was not among the training data's classes: those rows count as wrong\n", c, r.rows[k])
	}
}

// applyModel predicts every row of test with the model file's model (scaled
// as it was trained), after checking that test's features are the model's
// (modelfile.File.CheckInput; name names the model). Rows whose label is
// not one of the model's classes count as wrong and are reported.
func applyModel(f *modelfile.File, test *dataset.Set, name string) (applied, error) {
	var r applied
	var err error
	if r.unseen, err = f.CheckInput(test, name); err != nil {
		return r, err
	}
	if f.Scale != nil {
		if test, err = f.Scale.Apply(test, 0); err != nil {
			return r, err
		}
	}
	dim := max(f.Dim, test.Dim)
	m, err := f.Model(dim)
	if err != nil {
		return r, err
	}
	r.preds = make([]string, test.Rows())
	r.rows = make([]int, len(r.unseen))
	right := 0
	for i, c := range predictSet(m, test, dim) {
		r.preds[i] = f.Classes[c]
		if test.Unlabelled {
			continue
		}
		if r.preds[i] == test.Label(i) {
			right++
		}
		if k := slices.Index(r.unseen, test.Label(i)); k >= 0 {
			r.rows[k]++
		}
	}
	if !test.Unlabelled {
		r.accuracy = percent(right, test.Rows())
	}
	return r, nil
}

// predictSet returns m's class for every row of s, each row given to m as a
// dense vector of dim ≥ s.Dim features in one reused buffer (only the
// row's non-zeros are written and cleared, so a row costs its non-zeros
// plus the model's work).
func predictSet(m learning.Model, s *dataset.Set, dim int) []int {
	out := make([]int, s.Rows())
	x := make([]float64, dim)
	for i := range out {
		idx, val := s.Row(i)
		for k, j := range idx {
			x[j] = val[k]
		}
		out[i] = m.Predict(x)
		for _, j := range idx {
			x[j] = 0
		}
	}
	return out
}

// writeModelFiles writes the mark1 model and the LIBSVM/LIBLINEAR exports
// asked for; nothing is written unless every export is possible.
func writeModelFiles(f *modelfile.File, modelPath, libsvmPath, liblinearPath string, squared bool) error {
	var exports []func() error
	if libsvmPath != "" {
		if err := modelfile.WriteLIBSVM(io.Discard, f); err != nil {
			return usagef("--libsvm-model: %v", err)
		}
		exports = append(exports, func() error {
			return atomicfile.Write(libsvmPath, func(fh *os.File) error { return modelfile.WriteLIBSVM(fh, f) })
		})
	}
	if liblinearPath != "" {
		if err := modelfile.WriteLIBLINEAR(io.Discard, f, squared); err != nil {
			return usagef("--liblinear-model: %v", err)
		}
		exports = append(exports, func() error {
			return atomicfile.Write(liblinearPath, func(fh *os.File) error { return modelfile.WriteLIBLINEAR(fh, f, squared) })
		})
	}
	if err := atomicfile.Write(modelPath, func(fh *os.File) error { return f.Write(fh) }); err != nil {
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
	var data numericFlags
	var modelPath, predPath string
	var noLabels bool
	fs := newFlags(env, "apply --model FILE --data TEST [--predictions FILE]",
		"Predicts with a model saved by mark1 fit, as LIBSVM's svm-predict: the accuracy, and one predicted\n"+
			"label per line in data-file order. The model's scaling is applied to the data first. The data must\n"+
			"have the model's features; a CSV or text file without the label column is recognised (docs/model-selection.md).")
	fs.StringVar(&modelPath, "model", "model.json", "the model file written by mark1 fit")
	fs.StringVar(&predPath, "predictions", "", "write the predicted labels here, one per line")
	data.register(fs, env.Stderr)
	var testPath string
	fs.StringVar(&testPath, "data", "", "the data to predict (required; labels, when it has them, are compared with the predictions)")
	fs.BoolVar(&noLabels, "no-labels", false, "the data have no label column: every column is a feature (found by itself from a CSV header or the column count)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("apply: unexpected argument %q", fs.Arg(0))
	}
	if _, err := memoryLimit(fs); err != nil {
		return err
	}
	if testPath == "" {
		return usagef("apply: --data FILE is required")
	}
	f, err := modelfile.Read(modelPath)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("%w (train one with: mark1 fit --data TRAIN --model %s)", err, modelPath)
		}
		return err
	}
	test, err := data.readFor(f, testPath, noLabels)
	if err != nil {
		return err
	}
	noteData(env.Stderr, test, nil)
	if err := ctx.Err(); err != nil { // interrupted while the data were read
		return err
	}
	r, err := applyModel(f, test, modelPath)
	var ie *modelfile.InputError
	if errors.As(err, &ie) && test.Format == dataset.Text && !test.Unlabelled && test.Dim+1 == f.Dim {
		return fmt.Errorf("%w (if its last column is a feature, the file has no labels: --no-labels)", err)
	}
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil { // nothing is written once interrupted
		return err
	}
	if r.accuracy != "" {
		fmt.Fprintf(env.Stdout, "%s on %s: accuracy %s\n", modelPath, testPath, r.accuracy)
	} else {
		fmt.Fprintf(env.Stdout, "%s on %s: %d rows predicted; the data have no labels, so no accuracy\n", modelPath, testPath, test.Rows())
	}
	r.printUnseen(env.Stdout)
	if predPath != "" {
		return writePredictions(predPath, r.preds)
	}
	return nil
}
