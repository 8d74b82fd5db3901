package cli

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/pflag"

	"mark1/dataset"
	"mark1/internal/base/memguard"
	"mark1/learning/modelfile"
	"mark1/learning/selection"
)

// This file is the sweep of the final model (docs/sweeps.md): sweep plan
// --final writes a plan whose tasks each train one binary problem of the
// SVM on all rows, sweep run runs them, and sweep merge --model joins
// their machines into the model file fit writes.

// finalData reads a final plan's data as fit reads them: in blocks kept
// compact when unscaled, else whole and scaled; it returns them with
// their fingerprint (modelfile.FitFingerprint, of the rows as read).
func finalData(ctx context.Context, limit int64, path string, opt dataset.Options, scale string) (*dataset.Set, []*dataset.Set, modelfile.FitOptions, string, error) {
	var o modelfile.FitOptions
	blockRows := 0
	if scale == "none" {
		blockRows = fitBlockRows
	}
	opt.MaxBytes = limit
	read, err := dataset.ReadPair(readContext(ctx), path, "", opt, blockRows, 0)
	if err != nil {
		return nil, nil, o, "", budgetHint(err)
	}
	set := read.Train
	fp := modelfile.FitFingerprint(set, read.Blocks, read.Compact)
	o.Compact = read.Compact
	if scale != "none" {
		if o.Scaler, err = dataset.FitScaler(set, scale); err != nil {
			return nil, nil, o, "", fmt.Errorf("%s: scale %s: %w", path, scale, err)
		}
		if set, err = scaleSet(ctx, o.Scaler, set); err != nil {
			return nil, nil, o, "", err
		}
	}
	return set, read.Blocks, o, fp, nil
}

// planFinal is sweep plan --final: the plan of the final model's fit with
// the grid flags' one C and one γ, a task per binary problem.
func planFinal(ctx context.Context, fs *pflag.FlagSet, c *gridCommand) (*selection.Plan, error) {
	if c.path == "" {
		return nil, usagef("sweep plan: --data TRAIN is required")
	}
	for _, f := range []string{"folds", "cv-seed", "warm-start"} {
		if fs.Changed(f) {
			return nil, usagef("sweep plan --final: --%s is a search's; the final model is trained once on all rows", f)
		}
	}
	opts, err := c.lf.options()
	if err != nil {
		return nil, err
	}
	spec, err := c.lf.spec(opts)
	if err != nil {
		return nil, err
	}
	if spec.Name != "svm" {
		return nil, usagef("sweep plan --final: --learner %s has no one-vs-one binary problems; --final is for svm (fit trains the others in one process)", spec.Name)
	}
	if err := modelfile.CheckScale(c.scale); err != nil {
		return nil, usagef("--scale: %v", err)
	}
	l := modelfile.Setup{Spec: spec, Options: opts, Scale: c.scale}
	g, err := c.g.axes(fs, l)
	if err != nil {
		return nil, err
	}
	cs, gs := g.C, g.Gamma
	if len(cs) != 1 || len(gs) != 1 {
		return nil, usagef("sweep plan --final: %d values of C and %d of γ; give one of each (--C 8 --gamma 0.0625: the best cell of a merged grid)", len(cs), len(gs))
	}
	opt, err := c.data.options()
	if err != nil {
		return nil, err
	}
	set, _, _, fp, err := finalData(ctx, c.data.memory.bytes(), c.path, opt, c.scale)
	if err != nil {
		return nil, err
	}
	if err := modelDim(c.path, set); err != nil {
		return nil, err
	}
	if len(set.Classes) < 2 {
		return nil, fmt.Errorf("%s: every row has the label %q; a classifier needs at least two classes", c.path, set.Classes[0])
	}
	if err := checkWeights(c.path, set, opts); err != nil {
		return nil, err
	}
	d := selection.DataOf(c.path, set, opt.LabelColumn)
	d.Fingerprint, d.Rows, d.Dim, d.Classes = fp, set.Rows(), set.Dim, len(set.Classes)
	p, err := selection.NewFinalPlan(d, spec.Name, l.PlanOptions(), cs[0], gs[0])
	if err != nil {
		return nil, usagef("sweep plan --final: %v", err)
	}
	return p, nil
}

// counted writes n things, "1 task" or "45 tasks".
func counted(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// runFinalTask is sweep run for a final plan: task i trains its binary
// problem on all rows, as fit trains it, and writes its machine into out.
func runFinalTask(ctx context.Context, env *Env, p *selection.Plan, i int, l modelfile.Setup, planPath, out, dataPath string, threads int, limit int64) error {
	defer memguard.HoldGC(gcPercent)()
	set, blocks, o, fp, err := readFinal(ctx, p, planPath, dataPath, limit)
	if err != nil {
		return err
	}
	r, err := selection.RunFinal(learnerBudget(ctx), p, fp, i, l.FinalFit(set, blocks, o, threads, l.Options.CacheMB))
	if err := saveResult(ctx, r, err, out, planPath); err != nil {
		return err
	}
	return r.WriteText(env.Stdout, p, set.Classes)
}

// saveResult writes the result r of a task of plan planPath into out,
// unless the task failed (err) or was interrupted.
func saveResult(ctx context.Context, r selection.Result, err error, out, planPath string) error {
	if errors.Is(err, selection.ErrData) {
		return fmt.Errorf("%w: a plan for other data (%s)", err, planPath)
	}
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	return selection.WriteResult(out, r)
}

// readFinal reads a final plan's data (at dataPath, else at the plan's
// path) as fit reads them, as the plan says they were read.
func readFinal(ctx context.Context, p *selection.Plan, planPath, dataPath string, limit int64) (*dataset.Set, []*dataset.Set, modelfile.FitOptions, string, error) {
	if dataPath == "" {
		dataPath = p.Data.Path
	}
	opt, err := p.Data.ReadOptions()
	if err != nil {
		return nil, nil, modelfile.FitOptions{}, "", fmt.Errorf("%s: %w", planPath, err)
	}
	scale := p.Options["scale"]
	if scale == "" {
		scale = "none"
	}
	set, blocks, o, fp, err := finalData(ctx, limit, dataPath, opt, scale)
	if errors.Is(err, dataset.ErrFormat) {
		return nil, nil, o, "", fmt.Errorf("%s: not the data of plan %s: it does not read as %s data", dataPath, planPath, p.Data.Format)
	}
	return set, blocks, o, fp, err
}

// finalMerge are sweep merge's flags for a final plan.
type finalMerge struct {
	model, data string
	memory      *budget
}

func (m *finalMerge) register(fs *pflag.FlagSet) {
	fs.StringVar(&m.model, "model", "", "a final plan's (sweep plan --final): the model file to write, fit's byte for byte")
	fs.StringVar(&m.data, "data", "", "a final plan's data file, when not at the plan's path (its content must be the plan's)")
	m.memory = memoryFlag(fs)
}

// merge joins a final plan's machines into the model file; flags of a
// final plan on another plan are refused.
func (m *finalMerge) merge(ctx context.Context, env *Env, fs *pflag.FlagSet, p *selection.Plan, planPath string, png string) (err error) {
	if !p.Final {
		return usagef("sweep merge: --model and --data are a final plan's (sweep plan --final); %s is a grid's", planPath)
	}
	if m.model == "" || png != "" {
		return usagef("sweep merge: %s is a final plan: give --model FILE (no --png)", planPath)
	}
	defer memguard.HoldGC(gcPercent)()
	ctx, finish := guardMemory(ctx, "sweep merge", m.memory.bytes())
	defer func() { err = finish(err) }()
	l, err := modelfile.SetupOf(p)
	if err != nil {
		return fmt.Errorf("%s: %w", planPath, err)
	}
	res, err := selection.ReadResults(p, fs.Args())
	if err != nil {
		return fmt.Errorf("%s: %w", planPath, err)
	}
	set, blocks, o, fp, err := readFinal(ctx, p, planPath, m.data, m.memory.bytes())
	if err != nil {
		return err
	}
	if fp != p.Data.Fingerprint {
		return fmt.Errorf("%s: %w: a plan for other data (%s)", set.Name, selection.ErrData, planPath)
	}
	f, err := l.Join(learnerBudget(ctx), p, res, set, blocks, o)
	if err != nil {
		return fmt.Errorf("%s: %w", planPath, err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := (modelfile.Outputs{Model: m.model}).Write(ctx, f); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "%s: the final model of %s (C %g, gamma %s) on %s (%d rows, %d classes): %s, %s\n",
		m.model, p.Learner, p.C[0], selection.GammaText(p.Gamma[0]), p.Data.Path, p.Data.Rows, p.Data.Classes, counted(len(f.Machines), "machine"), counted(len(f.SV), "support vector"))
	return nil
}
