package compare

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"mark1/dataset"
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
// is the data file's, named by its base name in the report.
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
	return RunRaw(ctx, filepath.Base(path), train.Classes, &learning.Data{Rows: trR, Y: train.Y, Classes: k},
		&learning.Data{Rows: teR, Y: test.Y, Classes: k}, spec, progress)
}
