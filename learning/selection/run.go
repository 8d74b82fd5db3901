package selection

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"mark1/dataset"
	"mark1/internal/base/atomicfile"
)

// Result is what one task found: for every C of the plan, the right
// predictions among its fold's rows and the solver's iterations.
type Result struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	// Plan is the plan's ID.
	Plan string `json:"plan"`
	Task int    `json:"task"`
	// Gamma, Fold and C repeat the task's column, for people reading the
	// file; Merge checks them against the plan.
	Gamma string    `json:"gamma"`
	Fold  int       `json:"fold"`
	Rows  int       `json:"rows"`
	C     []float64 `json:"c"`
	// Right[k] counts the right predictions of the fit with C[k] and
	// Iterations[k] its solver's iterations (learning.Result.Epochs: SMO
	// iterations for the kernel SVM, passes for the linear one).
	Right      []int `json:"right"`
	Iterations []int `json:"iterations"`
	// Of a plan split by pair: Pair is the task's binary problem, Votes
	// holds for every C a bit per row of the fold, 1 where the machine
	// votes for the pair's first class (base64 of the bits, the first row
	// in the lowest bit), and Right is empty; the task of pair 0 of each
	// fold also records the fold's labels, a class index a byte (base64).
	Pair   int      `json:"pair,omitempty"`
	Votes  []string `json:"votes,omitempty"`
	Labels string   `json:"labels,omitempty"`
	// Machine is a final plan's task's binary machine (RunFinal); nil
	// for the others.
	Machine *Machine `json:"machine,omitempty"`
	// Checksum is the SHA-256 of the result as written with Checksum
	// empty: merge refuses a result edited by hand (WriteResult sets it,
	// ReadResults checks it).
	Checksum string `json:"sha256"`
}

// checksum returns the SHA-256, in hex, of r as written with no checksum.
func (r Result) checksum() string {
	r.Checksum = ""
	b, _ := json.MarshalIndent(r, "", " ")
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Fit is what a FitFunc found with one C: the class (an index into the
// data's classes) predicted for every test row, and the solver's
// iterations.
type Fit struct {
	Pred       []int
	Iterations int
}

// FitFunc trains on rows train of s with gamma (a number, "scale", "auto"
// or "" as in Plan.Gamma) and each value of cs in turn — given in
// increasing order, so that a fit may start from the one before it when
// warm is true — and returns a Fit for each, in the order of cs, with a
// prediction for each of rows test of s. train and test are row indices of
// s in data order, so that a fold is not a copy of its rows: a FitFunc
// reads them where they lie, or copies them (s.Subset) when it must. Its
// answers must depend on its arguments alone.
type FitFunc func(ctx context.Context, s *dataset.Set, train, test []int, cs []float64, gamma string, warm bool) ([]Fit, error)

// PairFit is what a PairFitFunc found with one C: for every test row,
// whether the binary machine votes for the pair's first class, and the
// solver's iterations.
type PairFit struct {
	Votes      []bool
	Iterations int
}

// PairFitFunc trains the one-vs-one binary problem of classes a and b
// (indices into train's classes) on train, as the SVM trains it inside its
// multi-class fit of all of train (γ of scale or auto and class weights
// resolved on all of train), with gamma and each value of cs in turn, and
// returns the machine's votes on every row of test for each.
type PairFitFunc func(ctx context.Context, train, test *dataset.Set, a, b int, cs []float64, gamma string, warm bool) ([]PairFit, error)

// ErrData is wrapped by Run's error when the data are not the plan's.
var ErrData = errors.New("not the plan's data")

// Run does task i of plan p on data s: it checks that s is the plan's data
// (its fingerprint), trains with fit on the other folds with every C (in
// increasing order, each from the last when p.WarmStart) and the task's
// γ, and counts the right predictions on the task's fold. A plan split by
// pair needs RunPair.
func Run(ctx context.Context, p *Plan, s *dataset.Set, i int, fit FitFunc) (Result, error) {
	folds, err := p.taskFolds(s, i)
	if err != nil {
		return Result{}, err
	}
	if p.Pairs != 0 {
		return Result{}, errors.New("a plan split by pair: its tasks are binary problems (RunPair)")
	}
	return runFolds(ctx, p, s, folds, i, fit)
}

// RunPair does task i of plan p split by pair on data s, as Run does, with
// fit training the task's binary problem; it records the machine's votes
// on the task's fold for every C. A task that does not hold the data
// deals itself on their labels (PairTask) and checks them (CheckData).
func RunPair(ctx context.Context, p *Plan, s *dataset.Set, i int, fit PairFitFunc) (Result, error) {
	if p.Final {
		return Result{}, errFinal
	}
	if err := p.CheckData(s.Name, s.Fingerprint()); err != nil {
		return Result{}, err
	}
	t, err := p.PairTask(s.Y, s.Classes, i)
	if err != nil {
		return Result{}, err
	}
	fits, err := fit(ctx, s.Subset(t.Train), s.Subset(t.Test), t.A, t.B, t.C, t.Gamma, t.Warm)
	return t.Result(fits, err)
}

var errFinal = errors.New("a final plan: its tasks train the final model's binary problems (RunFinal)")

// taskFolds checks that s is p's data and i one of its tasks, and deals
// the folds.
func (p *Plan) taskFolds(s *dataset.Set, i int) ([]int, error) {
	if p.Final {
		return nil, errFinal
	}
	if err := p.CheckData(s.Name, s.Fingerprint()); err != nil {
		return nil, err
	}
	return p.dealFolds(s.Y, len(s.Classes), i)
}

// CheckData returns an error wrapping ErrData when fp, the fingerprint of
// the data named name (dataset.Set.Fingerprint), is not the plan's.
func (p *Plan) CheckData(name, fp string) error {
	if fp != p.Data.Fingerprint {
		return fmt.Errorf("%w: %s has fingerprint %.12s…, the plan's data %s %.12s… (%d rows, %d features)", ErrData, name, fp, p.Data.Path, p.Data.Fingerprint, p.Data.Rows, p.Data.Dim)
	}
	return nil
}

// dealFolds checks that i is one of p's tasks and deals the folds of rows
// of classes y (of classes), checking them against the plan's.
func (p *Plan) dealFolds(y []int, classes, i int) ([]int, error) {
	if i < 0 || i >= p.Tasks {
		return nil, fmt.Errorf("task %d out of range [0, %d)", i, p.Tasks)
	}
	folds, err := Folds(y, classes, p.Folds, p.Seed)
	if err != nil {
		return nil, err
	}
	rows := make([]int, p.Folds)
	for _, f := range folds {
		rows[f]++
	}
	if !slices.Equal(rows, p.FoldRows) {
		return nil, fmt.Errorf("the plan's fold sizes %v are not its data's folds %v (the plan was edited)", p.FoldRows, rows)
	}
	return folds, nil
}

// A PairTask is a task of a plan split by pair dealt on the labels of the
// plan's data (Plan.PairTask): the binary problem of classes A and B of
// one fold of one γ, the rows it trains on and those it votes on.
type PairTask struct {
	Column
	// Gamma is the task's γ (as in Plan.Gamma), C the plan's values of C
	// in increasing order, Warm whether each C's fit starts from the last.
	Gamma string
	C     []float64
	Warm  bool
	// Train holds the rows of the fold's training part (the pair's are
	// those of classes A and B), Test the rows of the fold, each in data
	// order.
	Train, Test []int

	plan    *Plan
	order   []int
	classes []string
	labels  []int // the classes of rows Test
}

// PairTask deals task i of p, a plan split by pair, on y, the classes (of
// classes, their labels) of the rows of p's data — all a task needs to
// know which rows it reads (dataset.ReadLabels reads them without the
// rows). It checks the task and that y deals the plan's folds; the data
// are checked once read (CheckData).
func (p *Plan) PairTask(y []int, classes []string, i int) (*PairTask, error) {
	switch {
	case p.Final:
		return nil, errFinal
	case p.Pairs == 0:
		return nil, errors.New("a plan not split by pair: its tasks are whole folds (Run)")
	}
	folds, err := p.dealFolds(y, len(classes), i)
	if err != nil {
		return nil, err
	}
	col := p.Column(i)
	t := &PairTask{Column: col, Gamma: p.Gamma[col.Gamma], Warm: p.WarmStart, plan: p, classes: classes}
	t.Train, t.Test = split(folds, col.Fold)
	t.C, t.order = p.cValues()
	t.labels = make([]int, len(t.Test))
	for k, r := range t.Test {
		t.labels[k] = y[r]
	}
	return t, nil
}

// Result returns the task's result from the fits its PairFitFunc found
// for its C values in increasing order (t.C), or err, the fit's error,
// naming the task.
func (t *PairTask) Result(fits []PairFit, err error) (Result, error) {
	p, i, te, g := t.plan, t.Task, t.Test, t.Gamma
	if err == nil && len(fits) != len(t.C) {
		err = fmt.Errorf("%d fits for %d values of C", len(fits), len(t.C))
	}
	if err != nil {
		return Result{}, fmt.Errorf("task %d (gamma %s, fold %d, classes %s and %s): %w", i, GammaText(g), t.Fold, t.classes[t.A], t.classes[t.B], err)
	}
	res := Result{Format: ResultFormat, Version: Version, Plan: p.ID(), Task: i, Gamma: g, Fold: t.Fold, Rows: len(te),
		C: p.C, Iterations: make([]int, len(p.C)), Pair: t.Pair, Votes: make([]string, len(p.C))}
	for k, f := range fits {
		c := t.order[k]
		if len(f.Votes) != len(te) {
			return Result{}, fmt.Errorf("task %d (C %g, gamma %s, fold %d): %d votes for %d rows", i, p.C[c], GammaText(g), t.Fold, len(f.Votes), len(te))
		}
		bits := make([]byte, (len(te)+7)/8)
		for r, v := range f.Votes {
			if v {
				bits[r/8] |= 1 << (r % 8)
			}
		}
		res.Votes[c], res.Iterations[c] = base64.StdEncoding.EncodeToString(bits), f.Iterations
	}
	if t.Pair == 0 {
		labels := make([]byte, len(te))
		for r, y := range t.labels {
			labels[r] = byte(y)
		}
		res.Labels = base64.StdEncoding.EncodeToString(labels)
	}
	return res, nil
}

// split returns the rows of fold f (test) and of the others (train).
func split(folds []int, f int) (tr, te []int) {
	for r, k := range folds {
		if k == f {
			te = append(te, r)
		} else {
			tr = append(tr, r)
		}
	}
	return tr, te
}

// cValues returns the plan's C in increasing order, and their indices.
func (p *Plan) cValues() (cs []float64, order []int) {
	order = p.cOrder()
	cs = make([]float64, len(order))
	for k, c := range order {
		cs[k] = p.C[c]
	}
	return cs, order
}

// taskFits is what a task's fit gave: the test rows te of its fold, its C
// in increasing order (their indices, order), its γ, and one fit a C.
type taskFits[F any] struct {
	col   Column
	te    []int
	order []int
	gamma string
	fits  []F
}

// fitTask runs fit for task i of p on s: on the other folds' rows, tested
// on the task's fold, with every C in increasing order; an error names the
// task, its γ and fold.
func fitTask[F any](p *Plan, s *dataset.Set, folds []int, i int, fit func(train, test []int, cs []float64, gamma string) ([]F, error)) (taskFits[F], error) {
	col := p.Column(i)
	tr, te := split(folds, col.Fold)
	cs, order := p.cValues()
	g := p.Gamma[col.Gamma]
	fits, err := fit(tr, te, cs, g)
	if err == nil && len(fits) != len(cs) {
		err = fmt.Errorf("%d fits for %d values of C", len(fits), len(cs))
	}
	if err != nil {
		return taskFits[F]{}, fmt.Errorf("task %d (gamma %s, fold %d): %w", i, GammaText(g), col.Fold, err)
	}
	return taskFits[F]{col, te, order, g, fits}, nil
}

// result is the task's Result before its fits are counted in.
func (t taskFits[F]) result(p *Plan, i int) Result {
	return Result{Format: ResultFormat, Version: Version, Plan: p.ID(), Task: i, Gamma: t.gamma, Fold: t.col.Fold, Rows: len(t.te),
		C: p.C, Iterations: make([]int, len(p.C))}
}

func runFolds(ctx context.Context, p *Plan, s *dataset.Set, folds []int, i int, fit FitFunc) (Result, error) {
	col := p.Column(i)
	t, err := fitTask(p, s, folds, i, func(train, test []int, cs []float64, g string) ([]Fit, error) {
		return fit(ctx, s, train, test, cs, g, p.WarmStart)
	})
	if err != nil {
		return Result{}, err
	}
	te, order, g, fits := t.te, t.order, t.gamma, t.fits
	res := t.result(p, i)
	res.Right = make([]int, len(p.C))
	for k, f := range fits {
		c := order[k]
		if len(f.Pred) != len(te) {
			return Result{}, fmt.Errorf("task %d (C %g, gamma %s, fold %d): %d predictions for %d rows", i, p.C[c], GammaText(g), col.Fold, len(f.Pred), len(te))
		}
		for r, y := range f.Pred {
			if y == s.Y[te[r]] {
				res.Right[c]++
			}
		}
		res.Iterations[c] = f.Iterations
	}
	return res, nil
}

// cOrder returns the indices of p.C in increasing order of C.
func (p *Plan) cOrder() []int {
	idx := make([]int, len(p.C))
	for k := range idx {
		idx[k] = k
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(p.C[a], p.C[b]) })
	return idx
}

// GammaText is γ as plans and results print it: g, or "-" for a kernel
// without γ.
func GammaText(g string) string {
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
	return RunAllOn(ctx, p, s, s.Fingerprint(), workers, fit, done)
}

// RunAllOn is RunAll on data whose rows fit holds itself (a
// cross-validation that reads a file's rows into the learners' form once
// and takes every fold from them): s describes the data (their classes and
// every row's label; it need hold no rows), fingerprint is that of their
// rows (dataset.Set.Fingerprint), and fit is given s with each task's row
// indices.
func RunAllOn(ctx context.Context, p *Plan, s *dataset.Set, fingerprint string, workers int, fit FitFunc, done func(Result)) ([]Result, error) {
	if fp := fingerprint; fp != p.Data.Fingerprint {
		return nil, fmt.Errorf("%w: %s has fingerprint %.12s…, the plan's data %.12s…", ErrData, s.Name, fp, p.Data.Fingerprint)
	}
	if p.Pairs != 0 {
		return nil, errors.New("a plan split by pair runs a task at a time (RunPair)")
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

// IsResultName reports whether name is a ResultName.
func IsResultName(name string) bool {
	var i int
	n, err := fmt.Sscanf(name, "task-%07d.json", &i)
	return err == nil && n == 1 && i >= 0 && name == ResultName(i)
}

// WriteResult writes r into dir as ResultName(r.Task), atomically.
func WriteResult(dir string, r Result) error {
	r.Checksum = r.checksum()
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
			if e.plan != nil && e.plan.Final && len(m) < 10 {
				c := e.plan.Column(t)
				m = append(m, fmt.Sprintf("%d (classes %d and %d)", t, c.A, c.B))
			} else if e.plan != nil && len(m) < 10 {
				c := e.plan.Column(t)
				m = append(m, fmt.Sprintf("%d (gamma %s, fold %d)", t, GammaText(e.plan.Gamma[c.Gamma]), c.Fold))
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
// against p: of this plan (its ID), of a task in range whose column, C
// values and fold rows are the plan's, one result per task, none missing. It returns the
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
				if v, ok := resultVersion(f); ok && v != Version {
					err = fmt.Errorf("%s: a mark1 sweep result of version %d; this mark1 reads version %d (make the plan and run it again)", f, v, Version)
				}
				me.Foreign = append(me.Foreign, err.Error())
				continue
			}
			if why := p.foreign(r, id); why != "" {
				me.Foreign = append(me.Foreign, f+": "+why)
				continue
			}
			if r.Checksum != r.checksum() {
				me.Foreign = append(me.Foreign, f+": its sha256 does not match its content: the result was edited or damaged (run the task again)")
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

// resultVersion returns the version of a sweep result file of any
// version (false when it is not one).
func resultVersion(path string) (int, bool) {
	var h struct {
		Format  string `json:"format"`
		Version int    `json:"version"`
	}
	fh, err := atomicfile.Open(path) // a regular file, as readJSON's
	if err != nil {
		return 0, false
	}
	defer fh.Close()
	b, err := io.ReadAll(io.LimitReader(fh, maxFileBytes+1))
	if err != nil || len(b) > maxFileBytes || json.Unmarshal(b, &h) != nil {
		return 0, false
	}
	return h.Version, h.Format == ResultFormat
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
	if p.Final {
		return p.foreignFinal(r)
	}
	if r.Machine != nil {
		return fmt.Sprintf("task %d records a machine, which only a final plan's tasks do", r.Task)
	}
	c := p.Column(r.Task)
	if !slices.Equal(r.C, p.C) || r.Gamma != p.Gamma[c.Gamma] || r.Fold != c.Fold || r.Rows != p.FoldRows[c.Fold] ||
		len(r.Iterations) != len(p.C) || slices.ContainsFunc(r.Iterations, func(n int) bool { return n < 0 }) {
		return fmt.Sprintf("task %d's column, C values, fold or counts disagree with the plan", r.Task)
	}
	if p.Pairs == 0 {
		if len(r.Right) != len(p.C) || slices.ContainsFunc(r.Right, func(n int) bool { return n < 0 || n > r.Rows }) ||
			r.Votes != nil || r.Labels != "" || r.Pair != 0 {
			return fmt.Sprintf("task %d's counts disagree with the plan", r.Task)
		}
		return ""
	}
	if r.Right != nil || r.Pair != c.Pair || len(r.Votes) != len(p.C) {
		return fmt.Sprintf("task %d's pair or votes disagree with the plan", r.Task)
	}
	for _, v := range r.Votes {
		if b, err := base64.StdEncoding.DecodeString(v); err != nil || len(b) != (r.Rows+7)/8 {
			return fmt.Sprintf("task %d's votes are not %d bits", r.Task, r.Rows)
		}
	}
	labels, err := base64.StdEncoding.DecodeString(r.Labels)
	switch {
	case c.Pair != 0 && r.Labels != "":
		return fmt.Sprintf("task %d records labels, which pair 0's task of its fold holds", r.Task)
	case c.Pair == 0 && (err != nil || len(labels) != r.Rows || slices.ContainsFunc(labels, func(y byte) bool { return int(y) >= p.Data.Classes })):
		return fmt.Sprintf("task %d's labels are not %d classes of the plan's %d", r.Task, r.Rows, p.Data.Classes)
	}
	return ""
}

// composeVotes turns the results of a plan split by pair (checked by
// ReadResults, in task order) into a whole fold's: each row's class is
// the one with the most votes over the pairs, ties to the smaller class
// index, as the SVM predicts one-vs-one; Iterations add up over the
// pairs.
func composeVotes(p *Plan, results []Result) []Result {
	k := p.Data.Classes
	out := make([]Result, len(p.Gamma)*p.Folds)
	for t := range out {
		base := results[t*p.Pairs]
		labels, _ := base64.StdEncoding.DecodeString(base.Labels)
		r := Result{Task: t, Gamma: base.Gamma, Fold: base.Fold, Rows: base.Rows, C: p.C, Right: make([]int, len(p.C)), Iterations: make([]int, len(p.C))}
		count := make([]int, base.Rows*k)
		for c := range p.C {
			clear(count)
			for q := range p.Pairs {
				pr := results[t*p.Pairs+q]
				a, b := PairClasses(q, k)
				bits, _ := base64.StdEncoding.DecodeString(pr.Votes[c])
				for row := range base.Rows {
					if bits[row/8]>>(row%8)&1 == 1 {
						count[row*k+a]++
					} else {
						count[row*k+b]++
					}
				}
				r.Iterations[c] += pr.Iterations[c]
			}
			for row := range base.Rows {
				votes := count[row*k : (row+1)*k]
				best := 0
				for y, v := range votes {
					if v > votes[best] {
						best = y
					}
				}
				if best == int(labels[row]) {
					r.Right[c]++
				}
			}
		}
		out[t] = r
	}
	return out
}
