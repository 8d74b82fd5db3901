package modelfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"mark1/dataset"
	"mark1/learning/learners"
	"mark1/learning/selection"
)

// This file is a sweep's work on files (docs/sweeps.md): a plan made from
// a data file (PlanGrid, PlanFinal), a task run from the plan and its
// result written (RunSweepTask), and a final plan's machines joined into
// the model file fit writes (MergeFinal).

// CheckWeights refuses class weights (the learner's ClassWeight) for
// labels the data at path, set, do not have, with the registry's field
// error, so that every fold's training part, which has every class, takes
// them.
func (l Setup) CheckWeights(path string, set *dataset.Set) error {
	if _, err := learners.ClassWeights(l.Options.ClassWeight, set.Classes, set.Y, SameLabel); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// GridOptions say how PlanGrid reads the data and deals the folds.
type GridOptions struct {
	// Read is how the data file reads (ReadData's Read).
	Read dataset.Options
	// Folds folds dealt with Seed; Warm asks for warm starts along C,
	// which the kernel SVM has (NewPlan).
	Folds int
	Seed  uint64
	Warm  bool
	// OnData, if not nil, is given the data as soon as they are read.
	OnData func(*dataset.Set)
}

// PlanGrid reads the data file at path whole and unscaled (the grid scales
// each fold's training part) and writes down the grid search of the
// learner on them along g's axes (NewPlan). It returns the plan and the
// data. Its errors are the reader's, the class weights' (CheckWeights),
// one class only (TwoClasses) or a *selection.FoldError.
func (l Setup) PlanGrid(ctx context.Context, path string, g Grid, o GridOptions) (*selection.Plan, *dataset.Set, error) {
	d, err := ReadData(ctx, path, DataOptions{Read: o.Read, OnData: func(s, _ *dataset.Set) { onData(o.OnData, s) }})
	if err != nil {
		return nil, nil, err
	}
	set := d.Train
	if err := l.CheckWeights(path, set); err != nil {
		return nil, nil, err
	}
	if err := TwoClasses(path, set); err != nil {
		return nil, nil, err
	}
	p, err := l.NewPlan(set, selection.DataOf(path, set, o.Read.LabelColumn), g, o.Folds, o.Seed, o.Warm)
	return p, set, err
}

// onData gives s to f, if not nil.
func onData(f func(*dataset.Set), s *dataset.Set) {
	if f != nil {
		f(s)
	}
}

// A PlanError is a final plan the data do not make (selection.NewFinalPlan:
// too many classes for a plan split by pair).
type PlanError struct{ Err error }

func (e *PlanError) Error() string { return e.Err.Error() }

func (e *PlanError) Unwrap() error { return e.Err }

// PlanFinal reads the data file at path as fit reads it (ReadData: compact
// or scaled as the Setup's Scale says) and writes down the final plan of
// the learner, the kernel SVM, with C c and γ gamma on all rows: a task
// per binary problem (selection.NewFinalPlan), the data's fingerprint that
// of the rows as read. Its errors are ReadData's, the class weights'
// (CheckWeights) or a *PlanError.
func (l Setup) PlanFinal(ctx context.Context, path string, c float64, gamma string, read dataset.Options) (*selection.Plan, error) {
	d, err := ReadData(ctx, path, DataOptions{Read: read, Scale: l.Scale, Compact: true, Model: true, Classes: true, Fingerprint: true})
	if err != nil {
		return nil, err
	}
	set := d.Train
	if err := l.CheckWeights(path, set); err != nil {
		return nil, err
	}
	sd := selection.DataOf(path, set, read.LabelColumn)
	sd.Fingerprint, sd.Rows, sd.Dim, sd.Classes = d.Fingerprint, set.Rows(), set.Dim, len(set.Classes)
	p, err := selection.NewFinalPlan(sd, l.Spec.Name, l.PlanOptions(), c, gamma)
	if err != nil {
		return nil, &PlanError{Err: err}
	}
	return p, nil
}

// TaskOptions say how RunSweepTask runs a task of a plan.
type TaskOptions struct {
	// PlanPath names the plan in errors.
	PlanPath string
	// Data is the data file, "" for the path the plan records; its
	// content must be the plan's.
	Data string
	// Out is the folder the result is written into, made if missing.
	Out string
	// Threads are the SVM's goroutines (0: all cores).
	Threads int
	// MaxBytes bounds what the reader keeps (dataset.Options.MaxBytes).
	MaxBytes int64
	// CacheMB is the SVM's kernel cache in MiB; 0 for the learner's
	// default (learners.Options.CacheMB).
	CacheMB float64
}

// A TaskRun is a task RunSweepTask ran: its plan, its result and the
// classes of the plan's data.
type TaskRun struct {
	Plan    *selection.Plan
	Result  selection.Result
	Classes []string
}

// WriteText writes what the task found, one line (selection.Result.WriteText).
func (t *TaskRun) WriteText(w io.Writer) error { return t.Result.WriteText(w, t.Plan, t.Classes) }

// RunSweepTask runs task i of plan p: it reads the plan's data as the plan
// says (ReadPlanData), runs the task — a fold of a grid column
// (Setup.RunTask), or a final plan's binary problem on all rows as fit
// trains it (selection.RunFinal, within LearnerBudget) — and writes its
// result into o.Out, unless ctx was cancelled meanwhile. A task of a plan
// split by pair reads only the rows it uses (Setup.RunPairFile), and so
// does a final plan's task on unscaled rows held dense, its two classes'
// rows (Setup.RunFinalFile). Data that are not the plan's give an error
// wrapping selection.ErrData.
func RunSweepTask(ctx context.Context, p *selection.Plan, i int, o TaskOptions) (*TaskRun, error) {
	l, err := SetupOf(p)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o.PlanPath, err)
	}
	if o.CacheMB > 0 {
		l.Options.CacheMB = o.CacheMB
	}
	var r selection.Result
	var classes []string
	switch {
	case p.Pairs != 0 && !p.Final:
		r, classes, err = l.RunPairFile(ctx, p, o.PlanPath, o.Data, o.MaxBytes, i, o.Threads)
	case p.Final:
		var ok bool
		if r, classes, ok, err = l.RunFinalFile(ctx, p, o.PlanPath, o.Data, o.MaxBytes, i, o.Threads); ok || err != nil {
			break
		}
		fallthrough
	default:
		var d *Data
		if d, err = ReadPlanData(ctx, p, o.PlanPath, o.Data, o.MaxBytes); err != nil {
			return nil, err
		}
		classes = d.Train.Classes
		if p.Final {
			r, err = selection.RunFinal(LearnerBudget(ctx), p, d.Fingerprint, i, l.FinalFit(d.Train, d.Blocks, d.Fit, o.Threads, l.Options.CacheMB))
		} else {
			r, err = l.RunTask(ctx, p, d.Train, i, o.Threads)
		}
	}
	if errors.Is(err, selection.ErrData) {
		return nil, fmt.Errorf("%w: a plan for other data (%s)", err, o.PlanPath)
	}
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return nil, err
	}
	if err := selection.WriteResult(o.Out, r); err != nil {
		return nil, err
	}
	return &TaskRun{Plan: p, Result: r, Classes: classes}, nil
}

// MergeOptions say how MergeFinal joins a final plan's machines.
type MergeOptions struct {
	// PlanPath names the plan in errors.
	PlanPath string
	// Data is the data file, "" for the path the plan records.
	Data string
	// Model is the model file to write.
	Model string
	// MaxBytes bounds what the reader keeps (dataset.Options.MaxBytes).
	MaxBytes int64
}

// A FinalModel is the model file MergeFinal wrote: the plan's and the
// file's.
type FinalModel struct {
	Plan  *selection.Plan
	Model string
	File  *File
}

// WriteText says in one line what the model file holds: the learner, its C
// and γ, the data, its machines and support vectors.
func (m *FinalModel) WriteText(w io.Writer) error {
	p := m.Plan
	_, err := fmt.Fprintf(w, "%s: the final model of %s (C %g, gamma %s) on %s (%d rows, %d classes): %s, %s\n",
		m.Model, p.Learner, p.C[0], selection.GammaText(p.Gamma[0]), p.Data.Path, p.Data.Rows, p.Data.Classes,
		counted(len(m.File.Machines), "machine"), counted(len(m.File.SV), "support vector"))
	return err
}

// counted writes n things, "1 task" or "45 tasks".
func counted(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// MergeFinal joins the machines of final plan p's results in dirs
// (selection.ReadResults) with the plan's data, read as fit reads them
// (ReadPlanData), into the model file fit writes (Setup.Join), byte for
// byte, and writes it to o.Model unless ctx was cancelled meanwhile. Data
// that are not the plan's give an error wrapping selection.ErrData.
func MergeFinal(ctx context.Context, p *selection.Plan, dirs []string, o MergeOptions) (*FinalModel, error) {
	l, err := SetupOf(p)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o.PlanPath, err)
	}
	res, err := selection.ReadResults(p, dirs)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o.PlanPath, err)
	}
	d, err := ReadPlanData(ctx, p, o.PlanPath, o.Data, o.MaxBytes)
	if err != nil {
		return nil, err
	}
	if d.Fingerprint != p.Data.Fingerprint {
		return nil, fmt.Errorf("%s: %w: a plan for other data (%s)", d.Train.Name, selection.ErrData, o.PlanPath)
	}
	f, err := l.Join(LearnerBudget(ctx), p, res, d.Train, d.Blocks, d.Fit)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o.PlanPath, err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := (Outputs{Model: o.Model}).Write(ctx, f); err != nil {
		return nil, err
	}
	return &FinalModel{Plan: p, Model: o.Model, File: f}, nil
}
