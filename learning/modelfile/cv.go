package modelfile

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"runtime"

	"mark1/dataset"
	"mark1/learning"
	"mark1/learning/learners"
	"mark1/learning/selection"
)

// A CVReport is what K-fold cross-validation of a learner on a data file
// found (fit --cv), printed as LIBSVM's svm-train -v prints it (WriteText).
type CVReport struct {
	Folds int
	// Learner names the learner and its settings (Plan.Describe; a
	// regression's, its name alone).
	Learner                 string
	File                    string
	Rows, Features, Classes int
	// Accuracy is a classifier's, in percent.
	Accuracy float64
	// SupportVectors is, for leave-one-out of a C-SVM, the support vectors
	// of the SVM trained on every row: #SV/n bounds its leave-one-out
	// error (Setup.SupportVectors). Nil otherwise.
	SupportVectors *int
	// Regression holds a regression's scores; nil for a classifier.
	Regression *learning.Regression
}

// CrossValidateClasses cross-validates the classifier on d, its data
// (ReadFolds), along the plan p of one cell (its C and γ) with cores cores
// (CrossValidateFolds) and, for leave-one-out of a C-SVM, counts the
// support vectors of the SVM trained on every row.
func (l Setup) CrossValidateClasses(ctx context.Context, p *selection.Plan, d *FoldData, cores int) (*CVReport, error) {
	t, err := l.CrossValidateFolds(ctx, p, d, cores)
	if err != nil {
		return nil, err
	}
	set := d.Set
	r := &CVReport{Folds: p.Folds, Learner: p.Describe(), File: p.Data.Path, Rows: set.Rows(), Features: set.Dim, Classes: len(set.Classes), Accuracy: t.Accuracy(0, 0)}
	if p.Folds == set.Rows() && l.Spec.Form == learners.KernelSVMForm && l.Spec.Reads("C") {
		n, ok, err := l.supportVectorsFolds(ctx, p, d, cores)
		if err != nil {
			return nil, err
		}
		if ok {
			r.SupportVectors = &n
		}
	}
	return r, nil
}

// CrossValidateValues cross-validates the regression on set, the data
// file at path, in folds plain folds dealt with seed
// (selection.CrossValidateRegression), on threads goroutines.
func (l Setup) CrossValidateValues(ctx context.Context, set *dataset.Set, path string, folds int, seed uint64, threads int) (*CVReport, error) {
	z, err := Targets(set)
	if err != nil {
		return nil, err
	}
	cv, err := selection.CrossValidateRegression(ctx, set, z, folds, seed, l.ValueFit(threads))
	if err != nil {
		return nil, err
	}
	return &CVReport{Folds: folds, Learner: l.Spec.Name, File: path, Rows: set.Rows(), Features: set.Dim, Regression: &cv.Regression}, nil
}

// WriteText writes the report in svm-train -v's words: the accuracy (with
// the leave-one-out bound when measured), or a regression's mean squared
// error, squared correlation coefficient and R².
func (r *CVReport) WriteText(w io.Writer) error {
	t := bufio.NewWriter(w)
	if g := r.Regression; g != nil {
		fmt.Fprintf(t, "%d-fold cross-validation of %s on %s: %d rows, %d features (plain folds: the targets are numbers)\n", r.Folds, r.Learner, r.File, r.Rows, r.Features)
		fmt.Fprintf(t, "Cross Validation Mean squared error = %.6g\n", g.MSE)
		fmt.Fprintf(t, "Cross Validation Squared correlation coefficient = %.6g\n", g.SquaredCorrelation)
		fmt.Fprintf(t, "Cross Validation R² (coefficient of determination) = %.6g\n", g.R2)
		return t.Flush()
	}
	fmt.Fprintf(t, "%d-fold cross-validation of %s on %s: %d rows, %d features, %d classes\n", r.Folds, r.Learner, r.File, r.Rows, r.Features, r.Classes)
	fmt.Fprintf(t, "Cross Validation Accuracy = %.6g%%\n", r.Accuracy)
	if n := r.SupportVectors; n != nil {
		loo := 1 - r.Accuracy/100
		fmt.Fprintf(t, "Leave-one-out error = %.6g%% ≤ #SV/n = %d/%d = %.6g%% (the SVM on all rows; a row it does not keep as a support vector is classified rightly without it)\n",
			100*loo, *n, r.Rows, 100*float64(*n)/float64(r.Rows))
	}
	return t.Flush()
}

// CVOptions say how CrossValidateFile reads the data and deals the folds.
type CVOptions struct {
	// Read is how the data file reads (ReadData's Read).
	Read dataset.Options
	// Folds folds dealt with Seed: stratified for a classifier, plain for
	// a regression.
	Folds int
	Seed  uint64
	// Threads are the goroutines of the folds and the SVM (0: all cores).
	Threads int
	// OnData, if not nil, is given the data once read and checked.
	OnData func(*dataset.Set)
}

// CrossValidateFile reads the data file at path and cross-validates the
// learner on it in o.Folds folds: a regression's plain folds on the data
// read whole (CrossValidateValues), a classifier's stratified ones along
// the plan of its one C and γ on the data read as its folds take them
// (ReadFolds, CrossValidateClasses). Its errors are the reader's, the
// class weights' (CheckWeights), one class only (TwoClasses), a
// *selection.FoldError, or the learners' naming path.
func (l Setup) CrossValidateFile(ctx context.Context, path string, o CVOptions) (*CVReport, error) {
	var r *CVReport
	if l.Spec.Needs.Values {
		d, err := ReadData(ctx, path, DataOptions{Read: o.Read})
		if err != nil {
			return nil, err
		}
		onData(o.OnData, d.Train)
		if r, err = l.CrossValidateValues(ctx, d.Train, path, o.Folds, o.Seed, o.Threads); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return r, nil
	}
	d, err := l.readFolds(ctx, path, o.Read, false)
	if err != nil {
		return nil, err
	}
	if err := l.CheckWeights(path, d.Set); err != nil {
		return nil, err
	}
	onData(o.OnData, d.Set)
	g := Grid{C: []float64{l.Options.C}, Gamma: []string{""}}
	if l.HasGamma() {
		g.Gamma[0] = l.Options.Gamma.String()
	}
	p, err := l.planFolds(path, d, g, o.Read.LabelColumn, o.Folds, o.Seed, false)
	if err != nil {
		return nil, err
	}
	if r, err = l.CrossValidateClasses(ctx, p, d, cores(o.Threads)); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

// cores is threads, or all cores for 0.
func cores(threads int) int {
	if threads == 0 {
		return runtime.GOMAXPROCS(0)
	}
	return threads
}
