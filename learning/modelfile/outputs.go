package modelfile

import (
	"context"
	"fmt"
	"io"
	"os"

	"mark1/dataset"
	"mark1/internal/base/atomicfile"
)

// Outputs are the files a fit writes: the mark1 model file and, where
// their paths are not "", its exports in LIBSVM's and LIBLINEAR's model
// formats (Squared: as LIBLINEAR's squared-hinge solver, -s 1) and the
// test predictions' text, PredictionText (Fitted.Measure's), written
// last.
type Outputs struct {
	Model, LIBSVM, LIBLINEAR, Predictions string
	Squared                               bool
	PredictionText                        []byte
}

// An ExportError is a model that an export's format cannot hold; Format
// is "libsvm" or "liblinear".
type ExportError struct {
	Format string
	Err    error
}

func (e *ExportError) Error() string { return fmt.Sprintf("%s model: %v", e.Format, e.Err) }

func (e *ExportError) Unwrap() error { return e.Err }

// Write writes f to every output, each atomically, stopping once ctx is
// done (atomicfile.ContextWriter: nothing is left of a file cut short).
// Nothing is written unless every export is possible.
func (o Outputs) Write(ctx context.Context, f *File) error {
	type output struct {
		path, format string
		write        func(io.Writer) error
	}
	var outs []output
	for _, e := range []output{
		{o.LIBSVM, "libsvm", func(w io.Writer) error { return WriteLIBSVM(w, f) }},
		{o.LIBLINEAR, "liblinear", func(w io.Writer) error { return WriteLIBLINEAR(w, f, o.Squared) }},
	} {
		if e.path == "" {
			continue
		}
		if err := e.write(io.Discard); err != nil {
			return &ExportError{Format: e.format, Err: err}
		}
		outs = append(outs, e)
	}
	if o.Predictions != "" {
		outs = append(outs, output{path: o.Predictions, write: func(w io.Writer) error { _, err := w.Write(o.PredictionText); return err }})
	}
	for _, e := range append([]output{{path: o.Model, write: f.Write}}, outs...) {
		if err := atomicfile.Write(e.path, func(fh *os.File) error { return e.write(atomicfile.ContextWriter(ctx, fh)) }); err != nil {
			return err
		}
	}
	return nil
}

// Apply predicts the data file at path with f as mark1 apply does: a
// classifier's rows a block at a time (ApplyFile), a value model's read
// whole within o.Read.MaxBytes (ApplyValues). The predictions, one a line
// in the file's order, go to predPath when it is not "", atomically:
// nothing is written on an error or once ctx is done. On an error the
// Applied returned describes the data read when there were any (Data).
func Apply(ctx context.Context, f *File, path string, o ApplyOptions, predPath string) (a *Applied, err error) {
	if !f.Values() {
		if predPath == "" {
			return ApplyFile(ctx, f, path, o, io.Discard)
		}
		err = atomicfile.Write(predPath, func(fh *os.File) error {
			a, err = ApplyFile(ctx, f, path, o, fh)
			return err
		})
		return a, err
	}
	rctx := o.ReadContext
	if rctx == nil {
		rctx = ctx
	}
	test, err := dataset.ReadFileContext(rctx, path, o.Read)
	if err != nil {
		return &Applied{}, err
	}
	if o.OnData != nil {
		o.OnData(test.Describe())
	}
	if err := ctx.Err(); err != nil { // interrupted while the data were read
		return &Applied{Data: test}, err
	}
	if a, err = ApplyValues(f, test, o.Name); err != nil {
		return a, err
	}
	if err := ctx.Err(); err != nil { // nothing is written once interrupted
		return a, err
	}
	if predPath != "" {
		err = atomicfile.Write(predPath, func(fh *os.File) error { return a.WritePredictions(fh) })
	}
	return a, err
}
