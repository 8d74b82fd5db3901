package selection

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"mark1/dataset"
	"mark1/internal/atomicfile"
)

// Result is what one task found: the right predictions among its fold's
// rows.
type Result struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	// Plan is the plan's ID.
	Plan string `json:"plan"`
	Task int    `json:"task"`
	// C, Gamma and Fold repeat the task's cell, for people reading the
	// file; Merge checks them against the plan.
	C     float64 `json:"c"`
	Gamma string  `json:"gamma"`
	Fold  int     `json:"fold"`
	Right int     `json:"right"`
	Rows  int     `json:"rows"`
}

// FitFunc trains on train with the grid's c and gamma (a number, "scale",
// "auto" or "" as in Plan.Gamma) and returns the class (an index into the
// data's classes) predicted for every row of test.
type FitFunc func(ctx context.Context, train, test *dataset.Set, c float64, gamma string) ([]int, error)

// ErrData is wrapped by Run's error when the data are not the plan's.
var ErrData = errors.New("not the plan's data")

// Run does task i of plan p on data s: it checks that s is the plan's data
// (its fingerprint), trains with fit on the other folds and counts the
// right predictions on fold i mod Folds.
func Run(ctx context.Context, p *Plan, s *dataset.Set, i int, fit FitFunc) (Result, error) {
	if fp := s.Fingerprint(); fp != p.Data.Fingerprint {
		return Result{}, fmt.Errorf("%w: %s has fingerprint %.12s…, the plan's data %s %.12s… (%d rows, %d features)", ErrData, s.Name, fp, p.Data.Path, p.Data.Fingerprint, p.Data.Rows, p.Data.Dim)
	}
	if i < 0 || i >= p.Tasks {
		return Result{}, fmt.Errorf("task %d out of range [0, %d)", i, p.Tasks)
	}
	folds, err := Folds(s.Y, len(s.Classes), p.Folds, p.Seed)
	if err != nil {
		return Result{}, err
	}
	return runFolds(ctx, p, s, folds, i, fit)
}

func runFolds(ctx context.Context, p *Plan, s *dataset.Set, folds []int, i int, fit FitFunc) (Result, error) {
	cell := p.Cell(i)
	var tr, te []int
	for r, f := range folds {
		if f == cell.Fold {
			te = append(te, r)
		} else {
			tr = append(tr, r)
		}
	}
	test := s.Subset(te)
	pred, err := fit(ctx, s.Subset(tr), test, p.C[cell.C], p.Gamma[cell.Gamma])
	if err != nil {
		return Result{}, fmt.Errorf("task %d (C %g, gamma %s, fold %d): %w", i, p.C[cell.C], gammaText(p.Gamma[cell.Gamma]), cell.Fold, err)
	}
	res := Result{Format: ResultFormat, Version: Version, Plan: p.ID(), Task: i, C: p.C[cell.C], Gamma: p.Gamma[cell.Gamma], Fold: cell.Fold, Rows: len(te)}
	for k, c := range pred {
		if c == test.Y[k] {
			res.Right++
		}
	}
	return res, nil
}

func gammaText(g string) string {
	if g == "" {
		return "-"
	}
	return g
}

// RunAll does every task of p on s with workers goroutines (at least 1),
// each taking the next task in order, and calls done (if not nil) with each
// result as it is found, one at a time. The results, returned in task
// order, do not depend on workers. The first error stops the rest.
func RunAll(ctx context.Context, p *Plan, s *dataset.Set, workers int, fit FitFunc, done func(Result)) ([]Result, error) {
	if fp := s.Fingerprint(); fp != p.Data.Fingerprint {
		return nil, fmt.Errorf("%w: %s has fingerprint %.12s…, the plan's data %.12s…", ErrData, s.Name, fp, p.Data.Fingerprint)
	}
	folds, err := Folds(s.Y, len(s.Classes), p.Folds, p.Seed)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := make([]Result, p.Tasks)
	errs := make([]error, p.Tasks)
	var (
		next atomic.Int64
		mu   sync.Mutex
		wg   sync.WaitGroup
	)
	for range max(1, min(workers, p.Tasks)) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= p.Tasks || ctx.Err() != nil {
					return
				}
				r, err := runFolds(ctx, p, s, folds, i, fit)
				mu.Lock()
				out[i], errs[i] = r, err
				if err != nil {
					cancel()
				} else if done != nil {
					done(r)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	var first error
	for _, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return nil, err
		}
		if first == nil {
			first = err
		}
	}
	if first != nil {
		return nil, first
	}
	for i := range out {
		if out[i].Format == "" { // stopped (interrupted) before task i ran
			return nil, ctx.Err()
		}
	}
	return out, nil
}

// ResultName is the file name of task i's result in an output folder.
func ResultName(i int) string { return fmt.Sprintf("task-%07d.json", i) }

// WriteResult writes r into dir as ResultName(r.Task), atomically.
func WriteResult(dir string, r Result) error {
	b, err := json.MarshalIndent(r, "", " ")
	if err != nil {
		return err
	}
	return atomicfile.WriteBytes(filepath.Join(dir, ResultName(r.Task)), append(b, '\n'))
}

// MergeError names the tasks a merge found missing, repeated or foreign.
type MergeError struct {
	Missing   []int    // tasks without a result
	Duplicate []string // "task N: FILE and FILE"
	Foreign   []string // "FILE: why"
	plan      *Plan
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Error lists the problems, a few of each.
func (e *MergeError) Error() string {
	var parts []string
	if len(e.Foreign) > 0 {
		parts = append(parts, fmt.Sprintf("%s not of this plan (%s)", plural(len(e.Foreign), "result", "results"), few(e.Foreign)))
	}
	if len(e.Duplicate) > 0 {
		parts = append(parts, fmt.Sprintf("%s with two results (%s)", plural(len(e.Duplicate), "task", "tasks"), few(e.Duplicate)))
	}
	if len(e.Missing) > 0 {
		var m []string
		for _, t := range e.Missing {
			if e.plan != nil && len(m) < 10 {
				c := e.plan.Cell(t)
				m = append(m, fmt.Sprintf("%d (C %g, gamma %s, fold %d)", t, e.plan.C[c.C], gammaText(e.plan.Gamma[c.Gamma]), c.Fold))
			} else {
				m = append(m, fmt.Sprint(t))
			}
		}
		parts = append(parts, fmt.Sprintf("%s without a result: %s", plural(len(e.Missing), "task", "tasks"), few(m)))
	}
	return strings.Join(parts, "; ")
}

func few(s []string) string {
	const n = 10
	if len(s) <= n {
		return strings.Join(s, ", ")
	}
	return strings.Join(s[:n], ", ") + fmt.Sprintf(" and %d more", len(s)-n)
}

// ReadResults reads every task-*.json file in dirs and checks each
// against p: of this plan (its ID), of a task in range whose cell and fold
// rows are the plan's, one result per task, none missing. It returns the
// results in task order, or a *MergeError naming every problem.
func ReadResults(p *Plan, dirs []string) ([]Result, error) {
	id := p.ID()
	out := make([]Result, p.Tasks)
	from := make([]string, p.Tasks)
	me := MergeError{plan: p}
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "task-*.json"))
		if err != nil {
			return nil, err
		}
		if files == nil {
			if _, err := os.Stat(dir); err != nil {
				return nil, err
			}
		}
		slices.Sort(files)
		for _, f := range files {
			var r Result
			if err := readJSON(f, &r); err != nil {
				me.Foreign = append(me.Foreign, err.Error())
				continue
			}
			if why := p.foreign(r, id); why != "" {
				me.Foreign = append(me.Foreign, f+": "+why)
				continue
			}
			if from[r.Task] != "" {
				me.Duplicate = append(me.Duplicate, fmt.Sprintf("task %d: %s and %s", r.Task, from[r.Task], f))
				continue
			}
			out[r.Task], from[r.Task] = r, f
		}
	}
	for i, f := range from {
		if f == "" {
			me.Missing = append(me.Missing, i)
		}
	}
	if me.Missing != nil || me.Duplicate != nil || me.Foreign != nil {
		return nil, &me
	}
	return out, nil
}

// foreign says why r is not a result of plan p (ID id), or "".
func (p *Plan) foreign(r Result, id string) string {
	switch {
	case r.Format != ResultFormat || r.Version != Version:
		return fmt.Sprintf("format %q version %d, not a mark1 sweep result", r.Format, r.Version)
	case r.Plan != id:
		return fmt.Sprintf("a result of another plan (%.12s…; this plan is %.12s…)", r.Plan, id)
	case r.Task < 0 || r.Task >= p.Tasks:
		return fmt.Sprintf("task %d out of the plan's range [0, %d)", r.Task, p.Tasks)
	}
	c := p.Cell(r.Task)
	if r.C != p.C[c.C] || r.Gamma != p.Gamma[c.Gamma] || r.Fold != c.Fold || r.Rows != p.FoldRows[c.Fold] || r.Right < 0 || r.Right > r.Rows {
		return fmt.Sprintf("task %d's cell, fold or counts disagree with the plan", r.Task)
	}
	return ""
}
