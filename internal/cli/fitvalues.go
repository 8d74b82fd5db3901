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
	var preds bytes.Buffer
	report, err := fitted.Measure(ctx, spec, opts, train, raw, o.measure(d, &preds))
	if err != nil {
		return budgetHint(err)
	}
	return o.write(ctx, env, report, fitted.File, preds.Bytes(), false)
}
