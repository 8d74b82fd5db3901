package compare

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"mark1/dataset"
	"mark1/internal/base/memguard"
	"mark1/learning"
	"mark1/learning/modelfile"
)

// Raw is the Features name of rows that hold numeric data as they were
// read ("--features raw"): not pictures, so the retina, the A-units and the
// hardware learners do not apply.
const Raw = "raw"

// RunRaw trains the software learners of spec on feature vectors as they
// are — numeric data that are not pictures — and measures them on train and
// test (test may have no rows). spec.Features is ignored (every row is
// "raw"). The hardware learners ("hardware", "ideal", and the memistor
// ADALINE, which sees the machine's A-units) need pictures: they are left
// out, and the report's Notes say so in one line. name and classes
// describe the data for the report. Errors are as for Run.
func RunRaw(ctx context.Context, name string, classes []string, train, test *learning.Data, spec Spec, progress func(learner, features string)) (*Report, error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	spec = spec.withDefaults()
	rep := &Report{Data: name, Classes: classes, Train: train.Len(), Test: test.Len(), Kernel: spec.kernelWord()}
	if test.Len() > 0 {
		c := learning.Chance(test.Y)
		rep.Chance = &c
	}
	var hardware []string
	var jobs []job
	for _, l := range spec.Learners {
		if isHardware(l) || l == MemistorName {
			hardware = append(hardware, l)
			continue
		}
		ll, err := learner(l, spec, nil, train)
		if err != nil {
			return nil, fmt.Errorf("%s on %s: %w", l, Raw, err)
		}
		jobs = append(jobs, job{name: l, kind: Raw, label: Raw, l: ll, tr: train, te: test})
	}
	perceptronMistakes, err := rep.run(ctx, jobs, spec, progress, train.Len())
	if err != nil {
		return nil, err
	}
	if len(hardware) > 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("%s: left out — the Mark I sees pictures through its photocells (and the memistor ADALINE its A-units), and these are %d numeric features", joinNames(hardware), train.Features().Dim()))
	}
	if len(classes) == 2 && !spec.NoTheory {
		th, err := theoryLine(ctx, train, Raw, perceptronMistakes(Raw), spec, rep.Rows)
		if err != nil {
			return nil, err
		}
		rep.Theory = append(rep.Theory, th)
	}
	return rep, nil
}

// joinNames joins names as "a", "a and b", "a, b and c".
func joinNames(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// RawParts returns numeric data's training and held-out parts for RunSets:
// all and test, test relabelled to all's classes and both as wide as the
// wider, when a held-out set is given; otherwise all split by seed, the
// fraction testSplit held out (dataset.Set.Split). A training part of
// fewer than two classes is an error.
func RawParts(all, test *dataset.Set, testSplit float64, seed uint64) (*dataset.Set, *dataset.Set, error) {
	train := all
	if test != nil {
		if err := test.Relabel(all.Classes); err != nil {
			return nil, nil, err
		}
		test.Dim = max(test.Dim, train.Dim)
		train.Dim = test.Dim
	} else {
		train, test = all.Split(testSplit, seed)
	}
	if len(train.Classes) < 2 {
		return nil, nil, fmt.Errorf("%s: every row has the label %q; a comparison needs at least two classes", all.Name, train.Classes[0])
	}
	return train, test, nil
}

// RunSets is RunRaw on numeric data sets, their rows as they are (in the
// learners' compact form, modelfile.Rows) and the classes of train; path
// is the data file's, named by its base name in the report. The learners
// may take what ctx's memory budget leaves beside the sets and their
// compact rows (modelfile.LearnerBudget).
func RunSets(ctx context.Context, path string, train, test *dataset.Set, spec Spec, progress func(learner, features string)) (*Report, error) {
	trR, err := modelfile.Rows(train)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	teR, err := modelfile.Rows(test)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	k := len(train.Classes)
	// The learners' budget is what the sets and their compact rows leave.
	ctx = modelfile.LearnerBudget(ctx)
	return RunRaw(ctx, filepath.Base(path), train.Classes, &learning.Data{Rows: trR, Y: train.Y, Classes: k},
		&learning.Data{Rows: teR, Y: test.Y, Classes: k}, spec, progress)
}

// NumericData names numeric data for a comparison (RunSets) and how to
// read them.
type NumericData struct {
	// Path is the data file (libsvm, CSV, text or IDX, dataset.ReadFile).
	Path string
	// Test, if not "", is the held-out file; otherwise TestSplit of Path's
	// rows are held out, drawn by Seed (RawParts).
	Test      string
	TestSplit float64
	Seed      uint64
	// Scale is the scaling fitted on the training part and applied to both
	// parts: "" or "none", or a dataset.FitScaler method.
	Scale string
	// MaxBytes bounds what the reader keeps of each file
	// (dataset.Options.MaxBytes); 0 means the reader's default.
	MaxBytes int64
}

// NumericParts are numeric data read, split and scaled for RunSets.
type NumericParts struct {
	Train, Test *dataset.Set
	// Side is k when the rows could be k×k pictures, 0 otherwise, and
	// Grey whether the values as read are already grey levels in [0,1]
	// (SquarePictures of the file's rows, as wide as the held-out file's).
	Side int
	Grey bool
}

// ReadNumeric reads d's files, under the memory guard's own context
// (memguard.Unguarded) so that a reader's errors name the file and line,
// splits them (RawParts) and scales both parts with a scaler fitted on the
// training part, within what the memory budget leaves beside them
// (modelfile.Scale). A scaling that fails is a *modelfile.ScaleError.
func ReadNumeric(ctx context.Context, d NumericData) (*NumericParts, error) {
	read := func(path string) (*dataset.Set, error) {
		return dataset.ReadFileContext(memguard.Unguarded(ctx), path, dataset.Options{MaxBytes: d.MaxBytes})
	}
	all, err := read(d.Path)
	if err != nil {
		return nil, err
	}
	var test *dataset.Set
	if d.Test != "" {
		if test, err = read(d.Test); err != nil {
			return nil, err
		}
	}
	p := &NumericParts{}
	if p.Train, p.Test, err = RawParts(all, test, d.TestSplit, d.Seed); err != nil {
		return nil, err
	}
	p.Side, p.Grey = SquarePictures(all) // as wide as the test file's, as read
	if d.Scale == "" || d.Scale == "none" {
		return p, nil
	}
	sc, err := dataset.FitScaler(p.Train, d.Scale)
	if err != nil {
		return nil, &modelfile.ScaleError{Path: d.Path, Method: d.Scale, Err: err}
	}
	for _, s := range []**dataset.Set{&p.Train, &p.Test} {
		if *s, err = modelfile.Scale(ctx, sc, *s); err != nil {
			if errors.Is(err, dataset.ErrTooLarge) {
				err = &modelfile.ScaleError{Path: d.Path, Method: d.Scale, Err: err}
			}
			return nil, err
		}
	}
	return p, nil
}
