package cli

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"mark1/dataset"
	"mark1/learning"
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
	report := valueReport(spec, opts, built, f, m, train, run.trainPath, run.modelPath)
	fmt.Fprintf(w, "%s on %s: %d rows, %d features\n", describe(spec, opts, built), run.trainPath, train.Rows(), train.Dim)
	fmt.Fprintf(w, "obj = %.10g, rho = %.10g, nSV = %d, nBSV = %d, %d iterations\n", m.Obj, m.Rho, len(m.Coef), m.Bounded, m.Iter)
	fmt.Fprintf(w, "%s\n", m.Message)
	if run.trainAcc {
		// Measure through the saved form, so fit and apply predict alike.
		tr, err := applyValues(f, run.train, "being fitted")
		if err != nil {
			return err
		}
		report.Training = tr.metrics("", run.train)
		fmt.Fprintf(w, "training: %s\n", tr.valueSummary(f))
	}
	var preds []string
	if run.test != nil {
		test, err := readNumeric(ctx, run.limit, run.test.path, run.test.opt)
		if err != nil {
			return err
		}
		r, err := applyValues(f, test, "being fitted")
		if err != nil {
			return err
		}
		preds = r.preds
		report.Test = r.metrics(run.testPath, test)
		fmt.Fprintf(w, "test on %s: %s\n", run.testPath, r.valueSummary(f))
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

// applyValues predicts every row of test with a model whose Values is
// true, after the model's input check and scaling: the value (or ±1), and
// with labels, the regression scores or the one-class agreement with them.
func applyValues(f *modelfile.File, test *dataset.Set, name string) (applied, error) {
	var r applied
	if _, err := f.CheckInput(test, name); err != nil {
		return r, err
	}
	raw := test
	var err error
	if f.Scale != nil {
		if test, err = f.Scale.Apply(test, 0); err != nil {
			return r, err
		}
	}
	dim := max(f.Dim, test.Dim)
	m, err := f.ValueModel(dim)
	if err != nil {
		return r, err
	}
	vals := make([]float64, test.Rows())
	x := make([]float64, dim)
	for i := range vals {
		idx, val := test.Row(i)
		for k, j := range idx {
			x[j] = val[k]
		}
		vals[i] = m.Label(x)
		for _, j := range idx {
			x[j] = 0
		}
	}
	r.n, r.preds = len(vals), make([]string, len(vals))
	r.oneClass = f.OneClass()
	for i, v := range vals {
		r.preds[i] = strconv.FormatFloat(v, 'g', -1, 64)
		if f.OneClass() && v > 0 {
			r.inside++
		}
	}
	if raw.Unlabelled {
		return r, nil
	}
	if f.OneClass() {
		right := 0
		for i, p := range r.preds {
			if modelfile.SameLabel(p, raw.Label(i)) {
				right++
			}
		}
		r.right = &right
		r.accuracy = percent(right, raw.Rows())
		return r, nil
	}
	z, err := modelfile.Targets(raw)
	if err != nil {
		return r, err
	}
	sc := learning.RegressionScores(vals, z)
	r.values = &sc
	return r, nil
}

// valueSummary says in one line how a value model did.
func (r applied) valueSummary(f *modelfile.File) string {
	n := r.n
	if f.OneClass() {
		line := fmt.Sprintf("%s of the rows inside (+1)", percent(r.inside, n))
		if r.accuracy != "" {
			line += fmt.Sprintf("; accuracy against the labels (1 inside, -1 outside) %s", r.accuracy)
		}
		return line
	}
	if r.values == nil {
		return fmt.Sprintf("%d rows predicted; the data have no labels, so no error", n)
	}
	return fmt.Sprintf("mean squared error %.6g, R² %.6g, squared correlation %.6g (%d rows)", r.values.MSE, r.values.R2, r.values.SquaredCorrelation, n)
}
