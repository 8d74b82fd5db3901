package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"mark1/dataset"
	"mark1/internal/base/atomicfile"
	"mark1/internal/base/memguard"
	"mark1/learning/learners"
	"mark1/learning/modelfile"
	"mark1/learning/selection"
)

// cvFlags are fit's cross-validation flags.
type cvFlags struct {
	folds   int
	seed    uint64
	threads int
}

func (c *cvFlags) register(fs *pflag.FlagSet) {
	fs.IntVar(&c.folds, "cv", 0, "K: K-fold stratified cross-validation instead of a fit, as svm-train -v K (no model written); see docs/model-selection.md")
	fs.Uint64Var(&c.seed, "cv-seed", 1, "seed of the cross-validation folds")
	threadsFlag(fs, &c.threads, "the fit's binary problems, or with --cv the folds")
}

// gridFlags are the grid's and the folds' flags of grid and sweep plan.
type gridFlags struct {
	log2c, log2g, cList, gList string
	folds                      int
	seed                       uint64
	warm                       bool
}

func (g *gridFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&g.log2c, "log2c", "-5,15,2", "C = 2^e for e = begin,end,step (grid.py's -log2c)")
	fs.StringVar(&g.log2g, "log2g", "3,-15,-2", "γ = 2^e for e = begin,end,step (grid.py's -log2g); for the kernels with a γ (rbf, poly, sigmoid)")
	fs.StringVar(&g.cList, "C", "", "a list of C values instead of --log2c: 0.1,1,10")
	fs.StringVar(&g.gList, "gamma", "", "a list of γ values instead of --log2g: 0.01,0.1 (or scale, auto)")
	fs.IntVar(&g.folds, "folds", 5, "folds of the stratified cross-validation")
	fs.Uint64Var(&g.seed, "cv-seed", 1, "seed of the folds")
	fs.BoolVar(&g.warm, "warm-start", true, "svm: start each C's fit from the solution for the C below it (--warm-start=false: every fit from α = 0)")
}

// axes returns the grid's axes (modelfile.Setup.Grid), each value
// checked by the registry as fit's --C and --gamma are.
func (g *gridFlags) axes(fs *pflag.FlagSet, l modelfile.Setup) (modelfile.Grid, error) {
	switch {
	case !l.Spec.Reads("C"):
		return modelfile.Grid{}, usagef("--learner %s: the grid searches C (and γ): a learner with C (svm, linear-svm)", l.Spec.Name)
	case l.Options.Hard:
		return modelfile.Grid{}, usagef("--hard: the grid searches C, and a hard margin has none")
	case fs.Changed("C") && fs.Changed("log2c"):
		return modelfile.Grid{}, usagef("--C and --log2c: give one")
	case !l.HasGamma() && (fs.Changed("gamma") || fs.Changed("log2g")):
		return modelfile.Grid{}, usagef("--gamma/--log2g: the %s learner with kernel %s has no γ", l.Spec.Name, l.Options.Kernel)
	case fs.Changed("gamma") && fs.Changed("log2g"):
		return modelfile.Grid{}, usagef("--gamma and --log2g: give one")
	}
	t := modelfile.GridText{Log2C: g.log2c, Log2Gamma: g.log2g}
	if fs.Changed("C") {
		t.C, t.Log2C = g.cList, ""
	}
	if fs.Changed("gamma") {
		t.Gamma, t.Log2Gamma = g.gList, ""
	}
	grid, err := l.Grid(t)
	var ge *modelfile.GridError
	var re *selection.RangeError
	switch {
	case !errors.As(err, &ge):
		return grid, err
	case ge.Value != "" && ge.Field == "C":
		return grid, usagef("C %s (--C/--log2c): %v", ge.Value, ge.Err)
	case ge.Value != "":
		return grid, usagef("γ %s (--gamma/--log2g): %v", ge.Value, ge.Err)
	case errors.As(err, &re):
		return grid, usagef("--%s %q: %s", ge.Field, re.Text, re.Problem)
	}
	return grid, err
}

// foldUsage words a *selection.FoldError with the flag of the folds and
// the data's classes.
func foldUsage(err error, flag string, k int, path string, classes []string) error {
	var fe *selection.FoldError
	switch {
	case !errors.As(err, &fe):
		return err
	case fe.Class == -1:
		return usagef("%s %d out of range: want at least 2", flag, k)
	case fe.Class < 0: // a regression's rows
		return usagef("%s %d: %s has %d rows; every fold needs one", flag, k, path, fe.Rows)
	}
	return usagef("%s %d: %s has %d rows of class %q; every fold needs one of every class", flag, k, path, fe.Rows, classes[fe.Class])
}

// gridCommand is what grid and sweep plan share: the data and learner
// flags and the grid.
type gridCommand struct {
	data  numericFlags
	lf    learnerFlags
	scale string
	g     gridFlags
	path  string
}

func (c *gridCommand) register(fs *pflag.FlagSet, env *Env) {
	fs.StringVar(&c.path, "data", "", "training data file (required)")
	c.data.register(fs, env.Stderr)
	c.lf.register(fs, fieldFlags{}, "svm", "threads", "C", "gamma")
	fs.StringVar(&c.scale, "scale", "none", "scale every feature, fitted on each fold's training part: none, 01, pm1, std (as fit's --scale)")
	c.g.register(fs)
}

// setup checks the flags of the learner (check, of its registry entry),
// --scale and the grid, and returns the learner and the grid.
func (c *gridCommand) setup(fs *pflag.FlagSet, cmd string, check func(learners.Spec) error) (modelfile.Setup, modelfile.Grid, error) {
	var l modelfile.Setup
	if c.path == "" {
		return l, modelfile.Grid{}, usagef("%s: --data TRAIN is required", cmd)
	}
	opts, err := c.lf.options()
	if err != nil {
		return l, modelfile.Grid{}, err
	}
	if l.Spec, err = c.lf.spec(opts); err != nil {
		return l, modelfile.Grid{}, err
	}
	if err := check(l.Spec); err != nil {
		return l, modelfile.Grid{}, err
	}
	if err := modelfile.CheckScale(c.scale); err != nil {
		return l, modelfile.Grid{}, usagef("--scale: %v", err)
	}
	l.Options, l.Scale = opts, c.scale
	g, err := c.g.axes(fs, l)
	return l, g, err
}

// plan checks the flags, reads the data and makes the plan: sweep plan's
// of the data read whole (modelfile.Setup.PlanGrid), grid's of the data
// read as its folds take them (PlanFolds, held).
func (c *gridCommand) plan(ctx context.Context, fs *pflag.FlagSet, cmd string, held bool) (*selection.Plan, *modelfile.FoldData, modelfile.Setup, error) {
	l, g, err := c.setup(fs, cmd, func(spec learners.Spec) error {
		if spec.Needs.Values {
			return usagef("%s: --learner %s predicts a number, not a class, and the grid compares classifiers' accuracies: cross-validate it with fit --cv K", cmd, spec.Name)
		}
		return nil
	})
	if err != nil {
		return nil, nil, l, err
	}
	if c.g.folds < 2 {
		return nil, nil, l, usagef("--folds %d out of range: want at least 2", c.g.folds)
	}
	opt, err := c.data.options()
	if err != nil {
		return nil, nil, l, err
	}
	var classes []string
	o := modelfile.GridOptions{Read: opt, Folds: c.g.folds, Seed: c.g.seed, Warm: c.g.warm,
		OnData: func(s *dataset.Set) { classes = s.Classes }}
	var p *selection.Plan
	var d *modelfile.FoldData
	if held {
		p, d, err = l.PlanFolds(ctx, c.path, g, o)
	} else {
		p, _, err = l.PlanGrid(ctx, c.path, g, o)
	}
	return p, d, l, dataUsage(err, c.path, "--folds", c.g.folds, classes)
}

func runGrid(ctx context.Context, env *Env, args []string) (err error) {
	var c gridCommand
	var threads int
	fs := newFlags(env, "grid --data TRAIN [--log2c B,E,S | --C LIST] [--log2g B,E,S | --gamma LIST] [flags]",
		"Searches C and γ by stratified K-fold cross-validation, as LIBSVM's grid.py: every cell's accuracy,\n"+
			"the best (C, γ), and a contour picture of the accuracy over (log2 C, log2 γ). Each task is one γ on\n"+
			"one fold with every C, each C's fit warm-started from the C below it; they are the tasks of the plan\n"+
			"that mark1 sweep runs on a job array (docs/model-selection.md, docs/sweeps.md).")
	c.register(fs, env)
	png := pngFlag(fs)
	threadsFlag(fs, &threads, "the grid's tasks")
	if err := env.parse(fs, args); err != nil {
		return err
	}
	cores, err := workers(threads)
	if err != nil {
		return err
	}
	defer memguard.HoldGC(gcPercent)()
	ctx, finish := guardMemory(ctx, "grid", c.data.memory.bytes())
	defer func() { err = finish(err) }()
	p, d, l, err := c.plan(ctx, fs, "grid", true)
	if err != nil {
		return err
	}
	t, err := l.CrossValidateFolds(ctx, p, d, cores)
	if err != nil {
		return fmt.Errorf("%s: %w", c.path, err)
	}
	return report(env, t, *png)
}

// planFlag is sweep run's and merge's --plan.
func planFlag(fs *pflag.FlagSet) *string { return fs.String("plan", "", "the plan file (required)") }

// pngFlag is grid's and sweep merge's --png.
func pngFlag(fs *pflag.FlagSet) *string {
	return fs.String("png", "", "draw the contour picture to this PNG file (grid.py draws grid.png; mark1 only when asked)")
}

// report prints a merged table and draws its picture.
func report(env *Env, t *selection.Table, png string) error {
	if err := t.Write(env.Stdout); err != nil {
		return err
	}
	if png == "" {
		return nil
	}
	d, err := gridPicture(t)
	if err != nil {
		fmt.Fprintf(env.Stderr, "note: no picture: %v\n", err)
		return nil
	}
	if err := atomicfile.Write(png, func(f *os.File) error { return d.WritePNG(f) }); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "contour picture: %s\n", png)
	return nil
}

func runSweepPlan(ctx context.Context, env *Env, args []string) error {
	var c gridCommand
	var planPath string
	var count, byPair, final bool
	fs := newFlags(env, "sweep plan --data TRAIN --plan PLAN [grid flags]",
		"Writes the plan of a grid search — the data's fingerprint, the grid, the folds and their seed — whose\n"+
			"tasks mark1 sweep run runs one at a time (docs/sweeps.md). The same flags as mark1 grid.")
	c.register(fs, env)
	fs.StringVar(&planPath, "plan", "", "the plan file to write (required)")
	fs.BoolVar(&count, "count", false, "print only the number of tasks (for --array=0-$((N-1)))")
	fs.BoolVar(&byPair, "by-pair", false, "a task per one-vs-one binary problem of the svm (k·(k−1)/2 of them for k classes) of\neach fold and γ: more, smaller tasks for many classes and rows; merge counts their votes")
	fs.BoolVar(&final, "final", false, "plan the final model's fit instead of a search: one C and one γ on all rows, a task per binary\nproblem; sweep merge --model joins them into fit's model file")
	if err := env.parse(fs, args); err != nil {
		return err
	}
	if planPath == "" {
		return usagef("sweep plan: --plan FILE is required")
	}
	var p *selection.Plan
	var l modelfile.Setup
	var err error
	if final {
		p, err = planFinal(ctx, fs, &c)
	} else {
		p, _, l, err = c.plan(ctx, fs, "sweep plan", false)
	}
	if err != nil {
		return err
	}
	if byPair && !final {
		if l.Spec.Name != "svm" {
			return usagef("sweep plan --by-pair: --learner %s has no one-vs-one binary problems; --by-pair is for svm", l.Spec.Name)
		}
		if err := p.ByPair(); err != nil {
			return usagef("sweep plan --by-pair: %v", err)
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := selection.WritePlan(planPath, p); err != nil {
		return err
	}
	if count {
		fmt.Fprintln(env.Stdout, p.Tasks)
		return nil
	}
	fmt.Fprintf(env.Stdout, "%s: %s\n", planPath, p.Summary())
	return nil
}

// taskIndex is --task, or the job array's index from the environment
// (selection.Plan.ArrayTask).
func taskIndex(fs *pflag.FlagSet, task int, p *selection.Plan) (int, error) {
	if fs.Changed("task") {
		if task < 0 || task >= p.Tasks {
			return 0, usagef("--task %d out of the plan's range [0, %d)", task, p.Tasks)
		}
		return task, nil
	}
	task, ok, err := p.ArrayTask(os.LookupEnv)
	switch {
	case !ok:
		return 0, usagef("sweep run: no --task and none of $%s set", strings.Join(selection.ArrayVariables(), ", $"))
	case err != nil:
		return 0, usageError{err}
	}
	return task, nil
}

func runSweepRun(ctx context.Context, env *Env, args []string) (err error) {
	var out, dataPath string
	var task, threads int
	fs := newFlags(env, "sweep run --plan PLAN --out DIR [--task I]",
		"Runs one task of a plan (a fold of a grid column: one γ, every C) and writes its result into DIR. Without --task the\n"+
			"index is $SLURM_ARRAY_TASK_ID, $JOB_COMPLETION_INDEX or $PBS_ARRAY_INDEX (docs/sweeps.md).")
	planPath := planFlag(fs)
	fs.StringVar(&out, "out", "", "the folder to write the result into (required; made if missing)")
	fs.IntVar(&task, "task", 0, "the task, in [0, tasks)")
	fs.StringVar(&dataPath, "data", "", "the data file, when not at the plan's path on this machine (its content must be the plan's)")
	threadsFlag(fs, &threads, "the task's SVM")
	cache := cacheFlag(fs)
	memory := memoryFlag(fs)
	if err := env.parse(fs, args); err != nil {
		return err
	}
	cacheMB, err := cache()
	if err != nil {
		return err
	}
	p, i, err := sweepTask(fs, *planPath, out, task, threads)
	if err != nil {
		return err
	}
	defer memguard.HoldGC(gcPercent)()
	ctx, finish := guardMemory(ctx, "sweep run", memory.bytes())
	defer func() { err = finish(err) }()
	r, err := modelfile.RunSweepTask(ctx, p, i, modelfile.TaskOptions{PlanPath: *planPath, Data: dataPath, Out: out, Threads: threads, MaxBytes: memory.bytes(), CacheMB: cacheMB})
	if err != nil {
		return dataError(err)
	}
	return r.WriteText(env.Stdout)
}

// cacheFlag is sweep run's --cache-mb, the registry's option as fit's; the
// function it returns checks it as fit does (a usage error naming it).
func cacheFlag(fs *pflag.FlagSet) func() (float64, error) {
	var lf learnerFlags
	var skip []string
	for _, op := range learners.OptionList() {
		if op.Name != "cache-mb" {
			skip = append(skip, op.Name)
		}
	}
	lf.register(fs, fieldFlags{}, "", skip...)
	return func() (float64, error) {
		o, err := lf.options()
		return o.CacheMB, err
	}
}

// sweepTask reads sweep run's plan and finds its task (--task or the job
// array's index), checking the flags before any work.
func sweepTask(fs *pflag.FlagSet, planPath, out string, task, threads int) (*selection.Plan, int, error) {
	if planPath == "" || out == "" {
		return nil, 0, usagef("sweep run: --plan PLAN and --out DIR are required")
	}
	if _, err := workers(threads); err != nil {
		return nil, 0, err
	}
	p, err := selection.ReadPlan(planPath)
	if err != nil {
		return nil, 0, err
	}
	i, err := taskIndex(fs, task, p)
	if err != nil {
		return nil, 0, err
	}
	if err := selection.CheckOut(out, p); err != nil {
		return nil, 0, fmt.Errorf("%w: give another --out", err)
	}
	return p, i, nil
}

func runSweepMerge(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "sweep merge --plan PLAN DIR...",
		"Merges the results of a plan's tasks from the folders given into the table mark1 grid prints, byte\n"+
			"for byte; a task without a result, with two, or a result of another plan is an error naming it.")
	planPath, png := planFlag(fs), pngFlag(fs)
	var fm finalMerge
	fm.register(fs)
	if err := env.parse(fs, args); err != nil {
		return err
	}
	if *planPath == "" || fs.NArg() == 0 {
		return usagef("sweep merge: --plan PLAN and at least one results folder are required")
	}
	p, err := selection.ReadPlan(*planPath)
	if err != nil {
		return err
	}
	if p.Final || fs.Changed("model") || fs.Changed("data") {
		return fm.merge(ctx, env, fs, p, *planPath, *png)
	}
	t, err := selection.MergeDirs(ctx, p, *planPath, fs.Args())
	if err != nil {
		return err
	}
	return report(env, t, *png)
}
