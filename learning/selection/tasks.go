package selection

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"mark1/dataset"
)

// DataOf records how the data file at path was read into s — its format,
// the CSV label column asked for, and libsvm indices as they were found
// (0-based or 1-based) — so that a task reads it the same way
// (Data.ReadOptions). NewPlan fills in the rest.
func DataOf(path string, s *dataset.Set, labelColumn string) Data {
	d := Data{Path: path, Format: s.Format.String(), LabelColumn: labelColumn, Indices: dataset.AutoIndices.String()}
	if s.Format == dataset.LibSVM {
		d.Indices = dataset.OneBased.String()
		if s.ZeroBased {
			d.Indices = dataset.ZeroBased.String()
		}
	}
	return d
}

// ReadOptions are the dataset.Options the data were read with.
func (d Data) ReadOptions() (dataset.Options, error) {
	f, err := dataset.ParseFormat(d.Format)
	if err != nil {
		return dataset.Options{}, err
	}
	opt := dataset.Options{Format: f, LabelColumn: d.LabelColumn}
	switch d.Indices {
	case dataset.ZeroBased.String():
		opt.Indices = dataset.ZeroBased
	case dataset.OneBased.String():
		opt.Indices = dataset.OneBased
	case dataset.AutoIndices.String():
	default:
		return opt, fmt.Errorf("data indices %q: want auto, 0-based or 1-based", d.Indices)
	}
	return opt, nil
}

// ArrayVariables are the environment variables job-array engines number
// their tasks with: Slurm's, Kubernetes' indexed Jobs' and PBS's.
func ArrayVariables() []string {
	return []string{"SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX", "PBS_ARRAY_INDEX"}
}

// ArrayTask returns the task a job array gave this process: the value of
// the first of ArrayVariables that lookup (os.LookupEnv) finds, checked to
// be a task of p; ok is false when none is set.
func (p *Plan) ArrayTask(lookup func(string) (string, bool)) (task int, ok bool, err error) {
	for _, n := range ArrayVariables() {
		v, ok := lookup(n)
		if !ok {
			continue
		}
		t, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return 0, true, fmt.Errorf("$%s %q is not a task number", n, v)
		}
		if t < 0 || t >= p.Tasks {
			return 0, true, fmt.Errorf("$%s %d out of the plan's range [0, %d)", n, t, p.Tasks)
		}
		return t, true, nil
	}
	return 0, false, nil
}

// CheckOut refuses a results folder that holds files other than results of
// p, naming the first: results are never mixed or overwritten across
// plans.
func CheckOut(dir string, p *Plan) error {
	_, err := ReadResults(p, []string{dir})
	var me *MergeError
	if errors.As(err, &me) && len(me.Foreign) > 0 {
		return fmt.Errorf("%s holds files that are not this plan's results (%s)", dir, me.Foreign[0])
	}
	return nil
}

// Summary says in one line what the plan holds: its tasks, its grid and
// folds, the learner and the data.
func (p *Plan) Summary() string {
	if p.Final {
		tasks := fmt.Sprintf("%d tasks", p.Tasks)
		if p.Tasks == 1 {
			tasks = "1 task"
		}
		return fmt.Sprintf("the final model of %s (C %g, gamma %s) on all %d rows of %s (sha256 %.12s): %s, a binary problem each",
			p.Learner, p.C[0], GammaText(p.Gamma[0]), p.Data.Rows, p.Data.Path, p.Data.Fingerprint, tasks)
	}
	pairs := ""
	if p.Pairs != 0 {
		pairs = fmt.Sprintf(" × %d binary problems", p.Pairs)
	}
	return fmt.Sprintf("%d tasks (%d γ × %d folds%s, each fitting %d values of C) of %d-fold cross-validation of %s on %s (sha256 %.12s)",
		p.Tasks, len(p.Gamma), p.Folds, pairs, len(p.C), p.Folds, p.Describe(), p.Data.Path, p.Data.Fingerprint)
}

// WriteText writes a line saying what task r of p found: the right
// answers for each C; for a plan split by pair, the classes whose votes it
// holds; for a final plan, its machine's classes and support vectors
// (classes are the data's).
func (r Result) WriteText(w io.Writer, p *Plan, classes []string) error {
	g := GammaText(r.Gamma)
	if p.Final && r.Machine != nil {
		c := p.Column(r.Task)
		_, err := fmt.Fprintf(w, "task %d of %d (classes %s vs %s, C %g, gamma %s): %d support vectors, %d iterations\n",
			r.Task, p.Tasks, classes[c.A], classes[c.B], p.C[0], g, len(r.Machine.SV), r.Iterations[0])
		return err
	}
	cs := make([]string, len(r.C))
	for i, c := range r.C {
		cs[i] = strconv.FormatFloat(c, 'g', 6, 64)
	}
	var err error
	if p.Pairs != 0 {
		c := p.Column(r.Task)
		_, err = fmt.Fprintf(w, "task %d of %d (gamma %s, fold %d, classes %s vs %s): votes on %d rows for C = %s\n",
			r.Task, p.Tasks, g, r.Fold, classes[c.A], classes[c.B], r.Rows, strings.Join(cs, ","))
	} else {
		right := make([]string, len(r.Right))
		for i, n := range r.Right {
			right[i] = strconv.Itoa(n)
		}
		_, err = fmt.Fprintf(w, "task %d of %d (gamma %s, fold %d): right of %d for C = %s: %s\n",
			r.Task, p.Tasks, g, r.Fold, r.Rows, strings.Join(cs, ","), strings.Join(right, ","))
	}
	return err
}

// ReadData reads the plan's data from path ("" for the path the plan
// records) as the plan says they were read (Data.ReadOptions), within
// maxBytes (dataset.Options.MaxBytes). A file that does not read so is
// refused without echoing what it holds; planPath names the plan in
// errors.
func (p *Plan) ReadData(ctx context.Context, planPath, path string, maxBytes int64) (*dataset.Set, error) {
	path, opt, err := p.DataFile(planPath, path, maxBytes)
	if err != nil {
		return nil, err
	}
	set, err := dataset.ReadFileContext(ctx, path, opt)
	return set, p.ReadError(planPath, path, err)
}

// DataFile returns where the plan's data are (path, or the path the plan
// records when "") and how to read them (Data.ReadOptions, within
// maxBytes); planPath names the plan in errors.
func (p *Plan) DataFile(planPath, path string, maxBytes int64) (string, dataset.Options, error) {
	if path == "" {
		path = p.Data.Path
	}
	opt, err := p.Data.ReadOptions()
	if err != nil {
		return path, opt, fmt.Errorf("%s: %w", planPath, err)
	}
	opt.MaxBytes = maxBytes
	return path, opt, nil
}

// ReadError returns err, an error reading the plan's data at path, with
// a file that does not read as the plan's format said so, without echoing
// what it holds.
func (p *Plan) ReadError(planPath, path string, err error) error {
	if errors.Is(err, dataset.ErrFormat) {
		return fmt.Errorf("%s: not the data of plan %s: it does not read as %s data", path, planPath, p.Data.Format)
	}
	return err
}

// CheckShape returns an error wrapping ErrData when data named name of
// rows rows, dim features and classes classes are not the plan's (before
// their fingerprint, CheckData, is known).
func (p *Plan) CheckShape(name string, rows, dim, classes int) error {
	if rows != p.Data.Rows || dim != p.Data.Dim || classes != p.Data.Classes {
		return fmt.Errorf("%w: %s has %d rows, %d features and %d classes; the plan's data %s %d, %d and %d", ErrData, name, rows, dim, classes, p.Data.Path, p.Data.Rows, p.Data.Dim, p.Data.Classes)
	}
	return nil
}
