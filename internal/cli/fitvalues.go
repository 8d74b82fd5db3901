package cli

import (
	"context"
	"fmt"
	"io"

	"mark1/dataset"
	"mark1/learning/learners"
	"mark1/learning/modelfile"
)

// valueRun is what fitValues needs of fit's flags and data.
type valueRun struct {
	train                                                                      *dataset.Set
	test                                                                       *testData // read once the model is fitted
	limit                                                                      int64     // --max-memory
	scale, trainPath, testPath, modelPath, libsvmPath, liblinearPath, predPath string
	quiet, json, trainAcc                                                      bool
}

// fitValues is fit for the one-class SVM and the SVRs, which predict a
// number per row: it trains, prints LIBSVM's obj, rho, nSV and nBSV and
// the regression scores (MSE, R², squared correlation) or the one-class
// fraction inside, and writes the model as fit does.
func fitValues(ctx context.Context, env *Env, spec learners.Spec, opts learners.Options, fields fieldFlags, run valueRun) error {
	train := run.train
	var sc *dataset.Scaler
	if run.scale != "none" {
		var err error
		if sc, err = dataset.FitScaler(train, run.scale); err != nil {
			return usagef("--scale: %v", err)
		}
		if train, err = sc.Apply(train, 0); err != nil {
			return err
		}
	}
	rec, endProgress := fitProgress(ctx, env.Stderr, run.quiet, spec.Name, 2, opts.Epochs)
	fitted, err := modelfile.FitValues(ctx, spec, opts, train, run.train, sc, rec)
	endProgress()
	if err != nil {
		if m := fields.message(err); m != "" { // a γ of scale or auto out of range on these data
			return fmt.Errorf("%s: %s", run.trainPath, m)
		}
		return err
	}
	return reportValues(ctx, env, spec, opts, fitted, train, run)
}

// reportValues prints what a value learner's fit made (or, with --json,
// gathers it), predicts the training rows and the test file when asked, and
// writes the model files and the predictions.
func reportValues(ctx context.Context, env *Env, spec learners.Spec, opts learners.Options, fitted *modelfile.ValuesFitted, train *dataset.Set, run valueRun) error {
	f, m, built := fitted.File, fitted.Model, fitted.Built
	w := env.Stdout
	if run.json {
		w = io.Discard
	}
	report := modelfile.ReportValues(spec, opts, fitted, train, run.trainPath, run.modelPath)
	fmt.Fprintf(w, "%s on %s: %d rows, %d features\n", describe(spec, opts, built), run.trainPath, train.Rows(), train.Dim)
	fmt.Fprintf(w, "obj = %.10g, rho = %.10g, nSV = %d, nBSV = %d, %d iterations\n", m.Obj, m.Rho, len(m.Coef), m.Bounded, m.Iter)
	fmt.Fprintf(w, "%s\n", m.Message)
	if run.trainAcc {
		// Measure through the saved form, so fit and apply predict alike.
		tr, err := modelfile.ApplyValues(f, run.train, "being fitted")
		if err != nil {
			return err
		}
		report.Training = tr.Metrics("")
		fmt.Fprintf(w, "training: %s\n", valueSummary(f, tr))
	}
	var preds []string
	if run.test != nil {
		test, err := readNumeric(ctx, run.limit, run.test.path, run.test.opt)
		if err != nil {
			return err
		}
		r, err := modelfile.ApplyValues(f, test, "being fitted")
		if err != nil {
			return err
		}
		preds = r.Preds
		report.Test = r.Metrics(run.testPath)
		fmt.Fprintf(w, "test on %s: %s\n", run.testPath, valueSummary(f, r))
	}
	if err := ctx.Err(); err != nil { // interrupted as the fit ended: write nothing
		return err
	}
	if err := writeModelFiles(ctx, f, run.modelPath, run.libsvmPath, run.liblinearPath, false); err != nil {
		return err
	}
	if run.predPath != "" {
		if err := writePredictions(run.predPath, preds); err != nil {
			return err
		}
	}
	if run.json {
		return writeJSON(env.Stdout, report)
	}
	return nil
}

// valueSummary says in one line how a value model did.
func valueSummary(f *modelfile.File, r *modelfile.Applied) string {
	n := r.Rows
	if f.OneClass() {
		line := fmt.Sprintf("%s of the rows inside (+1)", percent(*r.Inside, n))
		if r.Right != nil {
			line += fmt.Sprintf("; accuracy against the labels (1 inside, -1 outside) %s", accuracy(r))
		}
		return line
	}
	if r.Values == nil {
		return fmt.Sprintf("%d rows predicted; the data have no labels, so no error", n)
	}
	return fmt.Sprintf("mean squared error %.6g, R² %.6g, squared correlation %.6g (%d rows)", r.Values.MSE, r.Values.R2, r.Values.SquaredCorrelation, n)
}
