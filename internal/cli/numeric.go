package cli

import (
	"errors"
	"fmt"
	"io"

	"mark1/dataset"
	"mark1/learning/modelfile"
)

// options are the dataset.Options of the data flags, their MaxBytes
// --max-memory.
func (n *numericFlags) options() (dataset.Options, error) {
	f, err := dataset.ParseFormat(n.format)
	if err != nil {
		return dataset.Options{}, usagef("--format: %v", err)
	}
	opt := dataset.Options{Format: f, LabelColumn: n.labelColumn, MaxBytes: n.memory.bytes()}
	if n.fs.Changed("zero-based") {
		opt.Indices = dataset.OneBased
		if n.zeroBased {
			opt.Indices = dataset.ZeroBased
		}
	}
	return opt, nil
}

// dataError words an error of training data (modelfile.ReadData) with
// the flags: the scaled values over --max-memory (scaleHint), more
// features than a model file holds, a bound on the data (budgetHint).
func dataError(err error) error {
	var se *modelfile.ScaleError
	var de *modelfile.DimError
	switch {
	case errors.As(err, &se) && errors.Is(se.Err, dataset.ErrTooLarge):
		return scaleHint(se.Method, se.Err)
	case errors.As(err, &de):
		return fmt.Errorf("%w (mark1 apply could not read the model back); no flag raises it", de)
	}
	return budgetHint(err)
}

// scaleError is dataError, a scaling refused on the data (its method out of
// range on them) a usage error of --scale.
func scaleError(err error) error {
	if se := (*modelfile.ScaleError)(nil); errors.As(err, &se) && !errors.Is(err, dataset.ErrTooLarge) {
		return usagef("--scale: %v", se.Err)
	}
	return dataError(err)
}

// dataUsage words an error of a plan made from a data file
// (modelfile.Setup.PlanGrid, PlanFinal, CrossValidateFile) with the flags:
// a class weight's (--class-weight), the folds' (foldUsage with flag,
// k and the data's classes), the data's (dataError).
func dataUsage(err error, path, flag string, k int, classes []string) error {
	if m := (fieldFlags{"class-weight": "--class-weight"}).message(err); m != "" {
		return fmt.Errorf("%s: %s", path, m)
	}
	return foldUsage(dataError(err), flag, k, path, classes)
}

// budgetHint adds to an error over a limit on data what raises it:
// --max-memory for the memory budget and what the reader derives from it
// (rows, values, features, a line's length), nothing for a bound of the
// format (dataset.BoundOf). The readers here give no counts of their own,
// so a limit given elsewhere (a model file's) is the budget's too.
func budgetHint(err error) error {
	if !errors.Is(err, dataset.ErrTooLarge) {
		return err
	}
	if dataset.BoundOf(err) == dataset.BoundFormat {
		return fmt.Errorf("%w; no flag raises it", err)
	}
	return fmt.Errorf("%w; raise it with --max-memory", err)
}

// noteNoLabels says on w that the data file at path was found to have no
// label column (modelfile.Prediction.FoundNoLabels).
func noteNoLabels(w io.Writer, path string, f *modelfile.File) {
	fmt.Fprintf(w, "note: %s has no label column: its header has the model's %d features and no column named as a label\n", path, f.Dim)
}

// noteData says on w what was read in a way a user may not expect: 0-based
// libsvm indices found by themselves, svmlight query ids ignored.
func noteData(w io.Writer, sets ...*dataset.Set) {
	for _, s := range sets {
		if s == nil {
			continue
		}
		if s.QueryIDs > 0 {
			fmt.Fprintf(w, "note: %s: %d svmlight query ids (qid:N) ignored: no learner here ranks\n", s.Name, s.QueryIDs)
		}
		if s.Format == dataset.LibSVM && s.ZeroBased && s.Dim > 0 {
			fmt.Fprintf(w, "note: %s: libsvm indices read as 0-based (scikit-learn's dump_svmlight_file default)\n", s.Name)
		}
	}
}
