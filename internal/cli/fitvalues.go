package cli

import (
	"bytes"
	"context"
	"fmt"

	"mark1/learning/learners"
	"mark1/learning/modelfile"
)

// fitValues is fit for the one-class SVM and the SVRs, which predict a
// number per row: it trains, measures the training rows and the test file
// when asked, and prints and writes it all as fit does (fitOptions.write).
func (o *fitOptions) fitValues(ctx context.Context, env *Env, spec learners.Spec, opts learners.Options, d *modelfile.Data) error {
	raw, train, sc := d.Raw, d.Train, d.Fit.Scaler
	rec, endProgress := fitProgress(ctx, env.Stderr, o.quiet, spec.Name, 2, opts.Epochs)
	fitted, err := modelfile.FitValues(ctx, spec, opts, train, raw, sc, rec)
	endProgress()
	if err != nil {
		if m := o.lf.fields.message(err); m != "" { // a γ of scale or auto out of range on these data
			return fmt.Errorf("%s: %s", o.trainPath, m)
		}
		return err
	}
	report := modelfile.ReportValues(spec, opts, fitted, train, o.trainPath, o.modelPath)
	if o.trainAcc {
		// Measure through the saved form, so fit and apply predict alike.
		tr, err := modelfile.ApplyValues(fitted.File, raw, "being fitted")
		if err != nil {
			return err
		}
		report.Training = tr.Metrics("")
	}
	var preds bytes.Buffer
	if d.Test != nil {
		set, err := readNumeric(ctx, o.data.memory.bytes(), o.testPath, d.TestOptions)
		if err != nil {
			return err
		}
		r, err := modelfile.ApplyValues(fitted.File, set, "being fitted")
		if err != nil {
			return err
		}
		report.Test = r.Metrics(o.testPath)
		r.WritePredictions(&preds)
	}
	return o.write(ctx, env, report, fitted.File, preds.Bytes(), false)
}
