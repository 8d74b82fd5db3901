package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"mark1/dataset"
	"mark1/internal/base/atomicfile"
	"mark1/learning/kernel"
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
	threadsFlag(fs, &c.threads, "the cross-validation folds")
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

// axes returns the grid's C values and γ values (with their base-2
// exponents when given as ranges), each checked by the registry as fit's
// --C and --gamma are.
func (g *gridFlags) axes(fs *pflag.FlagSet, l modelfile.Setup) (cs []float64, gs []string, lc, lg []float64, err error) {
	if !l.Spec.Reads("C") {
		return nil, nil, nil, nil, usagef("--learner %s: the grid searches C (and γ): a learner with C (svm, linear-svm)", l.Spec.Name)
	}
	if l.Options.Hard {
		return nil, nil, nil, nil, usagef("--hard: the grid searches C, and a hard margin has none")
	}
	if cs, lc, err = g.cAxis(fs, l); err != nil {
		return nil, nil, nil, nil, err
	}
	if !l.HasGamma() {
		if fs.Changed("gamma") || fs.Changed("log2g") {
			return nil, nil, nil, nil, usagef("--gamma/--log2g: the %s learner with kernel %s has no γ", l.Spec.Name, l.Options.Kernel)
		}
		return cs, []string{""}, lc, nil, nil
	}
	if gs, lg, err = g.gammaAxis(fs, l); err != nil {
		return nil, nil, nil, nil, err
	}
	return cs, gs, lc, lg, nil
}

// rangeErr words a selection.RangeError with the flag that gave the text.
func rangeErr(flag string, err error) error {
	var re *selection.RangeError
	if errors.As(err, &re) {
		return usagef("--%s %q: %s", flag, re.Text, re.Problem)
	}
	return err
}

// cAxis returns the values of C, from --C or --log2c (with the exponents),
// each checked by the learner's own rules.
func (g *gridFlags) cAxis(fs *pflag.FlagSet, l modelfile.Setup) (cs, lc []float64, err error) {
	if fs.Changed("C") {
		if fs.Changed("log2c") {
			return nil, nil, usagef("--C and --log2c: give one")
		}
		if cs, err = selection.ParseList("C", g.cList); err != nil {
			return nil, nil, rangeErr("C", err)
		}
	} else if cs, lc, err = selection.ParseLog2Range("C", g.log2c); err != nil {
		return nil, nil, rangeErr("log2c", err)
	}
	for _, c := range cs {
		o := l.Options
		o.C = c
		if err := l.Spec.Check(o); err != nil {
			return nil, nil, usagef("C %g (--C/--log2c): %v", c, err)
		}
	}
	return cs, lc, nil
}

// gammaAxis returns the values of γ as the plan writes them, from --gamma
// or --log2g (with the exponents), each checked by the kernel's rules.
func (g *gridFlags) gammaAxis(fs *pflag.FlagSet, l modelfile.Setup) (gs []string, lg []float64, err error) {
	switch {
	case fs.Changed("gamma") && fs.Changed("log2g"):
		return nil, nil, usagef("--gamma and --log2g: give one")
	case fs.Changed("gamma"):
		for _, t := range strings.Split(g.gList, ",") {
			if t = strings.TrimSpace(t); t == "scale" || t == "auto" {
				gs = append(gs, t)
				continue
			}
			v, err := selection.ParseList("gamma", t)
			if err != nil {
				return nil, nil, rangeErr("gamma", err)
			}
			gs = append(gs, strconv.FormatFloat(v[0], 'g', -1, 64))
		}
		if len(slices.Compact(slices.Sorted(slices.Values(gs)))) != len(gs) {
			return nil, nil, usagef("--gamma %q: a value appears twice", g.gList)
		}
	default:
		var gv []float64
		if gv, lg, err = selection.ParseLog2Range("gamma", g.log2g); err != nil {
			return nil, nil, rangeErr("log2g", err)
		}
		for _, v := range gv {
			gs = append(gs, strconv.FormatFloat(v, 'g', -1, 64))
		}
	}
	for _, t := range gs {
		o := l.Options
		if o.Gamma, err = kernel.ParseGamma(t); err == nil {
			var ks kernel.Spec
			if ks, err = o.KernelSpec(); err == nil {
				err = ks.Validate()
			}
		}
		if err != nil {
			return nil, nil, usagef("γ %s (--gamma/--log2g): %v", t, err)
		}
	}
	return gs, lg, nil
}

// checkWeights refuses, before any work, class weights for labels the
// data do not have (each fold's training part has every class).
func checkWeights(path string, set *dataset.Set, opts learners.Options) error {
	if _, err := learners.ClassWeights(opts.ClassWeight, set.Classes, set.Y, modelfile.SameLabel); err != nil {
		return fmt.Errorf("%s: %w", path, fieldFlags{"class-weight": "--class-weight"}.named(err))
	}
	return nil
}

// dataRef records how a data file was read, so that sweep run reads it
// the same way (0-based or 1-based indices as they were found).
func dataRef(path string, set *dataset.Set, labelColumn string) selection.Data {
	d := selection.Data{Path: path, Format: set.Format.String(), LabelColumn: labelColumn, Indices: dataset.AutoIndices.String()}
	if set.Format == dataset.LibSVM {
		d.Indices = dataset.OneBased.String()
		if set.ZeroBased {
			d.Indices = dataset.ZeroBased.String()
		}
	}
	return d
}

// newPlan makes a plan, mapping the library's errors to the flags; warm
// asks for warm starts along C, which the kernel SVM has.
func newPlan(set *dataset.Set, d selection.Data, l modelfile.Setup, cs []float64, gs []string, folds int, seed uint64, foldsFlag string, warm bool) (*selection.Plan, error) {
	if len(set.Classes) < 2 {
		return nil, fmt.Errorf("%s: every row has the label %q; a classifier needs at least two classes", d.Path, set.Classes[0])
	}
	p, err := selection.NewPlan(set, d, l.Spec.Name, l.PlanOptions(), cs, gs, folds, seed)
	var fe *selection.FoldError
	if errors.As(err, &fe) {
		if fe.Class < 0 {
			return nil, usagef("%s %d out of range: want at least 2", foldsFlag, folds)
		}
		return nil, usagef("%s %d: %s has %d rows of class %q; every fold needs one of every class", foldsFlag, folds, d.Path, fe.Rows, set.Classes[fe.Class])
	}
	if err != nil {
		return nil, err
	}
	p.WarmStart = warm && l.Spec.Form == learners.KernelSVMForm && len(cs) > 1
	return p, nil
}

// runAll runs every task of p on set (Setup.CrossValidate) on --threads
// cores (0: all).
func runAll(ctx context.Context, p *selection.Plan, set *dataset.Set, l modelfile.Setup, threads int) (*selection.Table, error) {
	cores, err := workers(threads)
	if err != nil {
		return nil, err
	}
	return l.CrossValidate(ctx, p, set, cores)
}

// runCV is fit --cv K: K-fold stratified cross-validation of the learner
// of s, printed as svm-train -v prints it.
func runCV(ctx context.Context, env *Env, data *numericFlags, path string, spec learners.Spec, opts learners.Options, scale string, cv cvFlags) error {
	if _, err := workers(cv.threads); err != nil {
		return err
	}
	if err := modelfile.CheckScale(scale); err != nil {
		return usagef("--scale: %v", err)
	}
	if spec.Needs.Unlabelled {
		return usagef("fit: --cv: --learner %s learns without labels, so cross-validation has nothing to compare its answers with", spec.Name)
	}
	l := modelfile.Setup{Spec: spec, Options: opts, Scale: scale}
	set, _, _, err := data.readPair(ctx, path, "", 0)
	if err != nil {
		return err
	}
	if spec.Needs.Values {
		return runRegressionCV(ctx, env, set, path, l, cv)
	}
	if err := checkWeights(path, set, opts); err != nil {
		return err
	}
	noteData(env.Stderr, set)
	opt, _ := data.options()
	g := ""
	if l.HasGamma() {
		g = opts.Gamma.String()
	}
	p, err := newPlan(set, dataRef(path, set, opt.LabelColumn), l, []float64{opts.C}, []string{g}, cv.folds, cv.seed, "--cv", false)
	if err != nil {
		return err
	}
	t, err := runAll(ctx, p, set, l, cv.threads)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	fmt.Fprintf(env.Stdout, "%d-fold cross-validation of %s on %s: %d rows, %d features, %d classes\n", cv.folds, p.Describe(), path, set.Rows(), set.Dim, len(set.Classes))
	fmt.Fprintf(env.Stdout, "Cross Validation Accuracy = %.6g%%\n", t.Accuracy(0, 0))
	if cv.folds == set.Rows() && spec.Form == learners.KernelSVMForm && spec.Reads("C") {
		return printLOOBound(ctx, env.Stdout, set, l, cv.threads, 1-t.Accuracy(0, 0)/100)
	}
	return nil
}

// printLOOBound prints, beside a C-SVM's leave-one-out error, the
// fraction of the rows that are support vectors of the SVM trained on them
// all, a bound on it (Setup.SupportVectors).
func printLOOBound(ctx context.Context, w io.Writer, set *dataset.Set, l modelfile.Setup, threads int, loo float64) error {
	n, ok, err := l.SupportVectors(ctx, set, threads)
	if err != nil || !ok {
		return err
	}
	fmt.Fprintf(w, "Leave-one-out error = %.6g%% ≤ #SV/n = %d/%d = %.6g%% (the SVM on all rows; a row it does not keep as a support vector is classified rightly without it)\n",
		100*loo, n, set.Rows(), 100*float64(n)/float64(set.Rows()))
	return nil
}

// runRegressionCV is fit --cv K for a regression (an SVR): plain K folds,
// printed as svm-train -v prints a regression's, with R² beside.
func runRegressionCV(ctx context.Context, env *Env, set *dataset.Set, path string, l modelfile.Setup, cv cvFlags) error {
	z, err := modelfile.Targets(set)
	if err != nil {
		return err
	}
	noteData(env.Stderr, set)
	r, err := selection.CrossValidateRegression(ctx, set, z, cv.folds, cv.seed, l.ValueFit(cv.threads))
	var fe *selection.FoldError
	if errors.As(err, &fe) {
		if fe.Class == -1 {
			return usagef("--cv %d out of range: want at least 2", cv.folds)
		}
		return usagef("--cv %d: %s has %d rows; every fold needs one", cv.folds, path, fe.Rows)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	w := env.Stdout
	fmt.Fprintf(w, "%d-fold cross-validation of %s on %s: %d rows, %d features (plain folds: the targets are numbers)\n", cv.folds, l.Spec.Name, path, set.Rows(), set.Dim)
	fmt.Fprintf(w, "Cross Validation Mean squared error = %.6g\n", r.MSE)
	fmt.Fprintf(w, "Cross Validation Squared correlation coefficient = %.6g\n", r.SquaredCorrelation)
	fmt.Fprintf(w, "Cross Validation R² (coefficient of determination) = %.6g\n", r.R2)
	return nil
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

// plan checks the flags, reads the data and makes the plan.
func (c *gridCommand) plan(ctx context.Context, fs *pflag.FlagSet, cmd string) (*selection.Plan, *dataset.Set, modelfile.Setup, error) {
	var l modelfile.Setup
	p, set, err := c.planSetup(ctx, fs, cmd, &l)
	return p, set, l, err
}

func (c *gridCommand) planSetup(ctx context.Context, fs *pflag.FlagSet, cmd string, l *modelfile.Setup) (*selection.Plan, *dataset.Set, error) {
	if c.path == "" {
		return nil, nil, usagef("%s: --data TRAIN is required", cmd)
	}
	opts, err := c.lf.options()
	if err != nil {
		return nil, nil, err
	}
	spec, err := c.lf.spec(opts)
	if err != nil {
		return nil, nil, err
	}
	if spec.Needs.Values {
		return nil, nil, usagef("%s: --learner %s predicts a number, not a class, and the grid compares classifiers' accuracies: cross-validate it with fit --cv K", cmd, spec.Name)
	}
	if err := modelfile.CheckScale(c.scale); err != nil {
		return nil, nil, usagef("--scale: %v", err)
	}
	*l = modelfile.Setup{Spec: spec, Options: opts, Scale: c.scale}
	cs, gs, lc, lg, err := c.g.axes(fs, *l)
	if err != nil {
		return nil, nil, err
	}
	if c.g.folds < 2 {
		return nil, nil, usagef("--folds %d out of range: want at least 2", c.g.folds)
	}
	set, _, _, err := c.data.readPair(ctx, c.path, "", 0)
	if err != nil {
		return nil, nil, err
	}
	if err := checkWeights(c.path, set, opts); err != nil {
		return nil, nil, err
	}
	opt, _ := c.data.options()
	p, err := newPlan(set, dataRef(c.path, set, opt.LabelColumn), *l, cs, gs, c.g.folds, c.g.seed, "--folds", c.g.warm)
	if err != nil {
		return nil, nil, err
	}
	p.Log2C, p.Log2Gamma = lc, lg
	return p, set, nil
}

func runGrid(ctx context.Context, env *Env, args []string) (err error) {
	var c gridCommand
	var png string
	var threads int
	fs := newFlags(env, "grid --data TRAIN [--log2c B,E,S | --C LIST] [--log2g B,E,S | --gamma LIST] [flags]",
		"Searches C and γ by stratified K-fold cross-validation, as LIBSVM's grid.py: every cell's accuracy,\n"+
			"the best (C, γ), and a contour picture of the accuracy over (log2 C, log2 γ). Each task is one γ on\n"+
			"one fold with every C, each C's fit warm-started from the C below it; they are the tasks of the plan\n"+
			"that mark1 sweep runs on a job array (docs/model-selection.md, docs/sweeps.md).")
	c.register(fs, env)
	fs.StringVar(&png, "png", "", "draw the contour picture to this PNG file (grid.py draws grid.png; mark1 only when asked)")
	threadsFlag(fs, &threads, "the grid's tasks")
	if err := env.parse(fs, args); err != nil {
		return err
	}
	if _, err := workers(threads); err != nil {
		return err
	}
	ctx, finish := guardMemory(ctx, "grid", c.data.memory.bytes())
	defer func() { err = finish(err) }()
	p, set, l, err := c.plan(ctx, fs, "grid")
	if err != nil {
		return err
	}
	t, err := runAll(ctx, p, set, l, threads)
	if err != nil {
		return fmt.Errorf("%s: %w", c.path, err)
	}
	return report(env, t, png)
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

// taskEnv are the variables job-array engines number their tasks with.
var taskEnv = []string{"SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX", "PBS_ARRAY_INDEX"}

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
		p, _, l, err = c.plan(ctx, fs, "sweep plan")
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
	if p.Final {
		fmt.Fprintln(env.Stdout, finalPlanLine(planPath, p))
		return nil
	}
	pairs := ""
	if p.Pairs != 0 {
		pairs = fmt.Sprintf(" × %d binary problems", p.Pairs)
	}
	fmt.Fprintf(env.Stdout, "%s: %d tasks (%d γ × %d folds%s, each fitting %d values of C) of %d-fold cross-validation of %s on %s (sha256 %.12s)\n",
		planPath, p.Tasks, len(p.Gamma), p.Folds, pairs, len(p.C), p.Folds, p.Describe(), p.Data.Path, p.Data.Fingerprint)
	return nil
}

// taskIndex is --task, or the job array's index from the environment.
func taskIndex(fs *pflag.FlagSet, task int, p *selection.Plan) (int, error) {
	if !fs.Changed("task") {
		var name string
		for _, n := range taskEnv {
			if v, ok := os.LookupEnv(n); ok {
				name = n
				t, err := strconv.Atoi(strings.TrimSpace(v))
				if err != nil {
					return 0, usagef("$%s %q is not a task number", n, v)
				}
				task = t
				break
			}
		}
		if name == "" {
			return 0, usagef("sweep run: no --task and none of $%s set", strings.Join(taskEnv, ", $"))
		}
		if task < 0 || task >= p.Tasks {
			return 0, usagef("$%s %d out of the plan's range [0, %d)", name, task, p.Tasks)
		}
	}
	if task < 0 || task >= p.Tasks {
		return 0, usagef("--task %d out of the plan's range [0, %d)", task, p.Tasks)
	}
	return task, nil
}

func runSweepRun(ctx context.Context, env *Env, args []string) (err error) {
	var planPath, out, dataPath string
	var task, threads int
	fs := newFlags(env, "sweep run --plan PLAN --out DIR [--task I]",
		"Runs one task of a plan (a fold of a grid column: one γ, every C) and writes its result into DIR. Without --task the\n"+
			"index is $SLURM_ARRAY_TASK_ID, $JOB_COMPLETION_INDEX or $PBS_ARRAY_INDEX (docs/sweeps.md).")
	fs.StringVar(&planPath, "plan", "", "the plan file (required)")
	fs.StringVar(&out, "out", "", "the folder to write the result into (required; made if missing)")
	fs.IntVar(&task, "task", 0, "the task, in [0, tasks)")
	fs.StringVar(&dataPath, "data", "", "the data file, when not at the plan's path on this machine (its content must be the plan's)")
	threadsFlag(fs, &threads, "the task's SVM")
	memory := memoryFlag(fs)
	if err := env.parse(fs, args); err != nil {
		return err
	}
	p, i, l, err := sweepTask(fs, planPath, out, task, threads)
	if err != nil {
		return err
	}
	ctx, finish := guardMemory(ctx, "sweep run", memory.bytes())
	defer func() { err = finish(err) }()
	if p.Final {
		return runFinalTask(ctx, env, p, i, l, planPath, out, dataPath, threads, memory.bytes())
	}
	set, err := readPlanData(ctx, p, planPath, dataPath, memory.bytes())
	if err != nil {
		return err
	}
	var r selection.Result
	if p.Pairs != 0 {
		r, err = selection.RunPair(ctx, p, set, i, l.PairFit(threads, l.Options.CacheMB))
	} else {
		r, err = selection.Run(ctx, p, set, i, l.FoldFit(threads, l.Options.CacheMB))
	}
	if err := saveResult(ctx, r, err, out, planPath); err != nil {
		return err
	}
	if p.Pairs != 0 {
		c := p.Column(i)
		fmt.Fprintf(env.Stdout, "task %d of %d (gamma %s, fold %d, classes %s vs %s): votes on %d rows for C = %s\n", i, p.Tasks, orDash(r.Gamma), r.Fold, set.Classes[c.A], set.Classes[c.B], r.Rows, joinG(r.C))
		return nil
	}
	fmt.Fprintf(env.Stdout, "task %d of %d (gamma %s, fold %d): right of %d for C = %s: %s\n", i, p.Tasks, orDash(r.Gamma), r.Fold, r.Rows, joinG(r.C), joinInts(r.Right))
	return nil
}

// sweepTask reads sweep run's plan and finds its task (--task or the job
// array's index) and learner, checking the flags before any work.
func sweepTask(fs *pflag.FlagSet, planPath, out string, task, threads int) (*selection.Plan, int, modelfile.Setup, error) {
	if planPath == "" || out == "" {
		return nil, 0, modelfile.Setup{}, usagef("sweep run: --plan PLAN and --out DIR are required")
	}
	if _, err := workers(threads); err != nil {
		return nil, 0, modelfile.Setup{}, err
	}
	p, err := selection.ReadPlan(planPath)
	if err != nil {
		return nil, 0, modelfile.Setup{}, err
	}
	i, err := taskIndex(fs, task, p)
	if err != nil {
		return nil, 0, modelfile.Setup{}, err
	}
	l, err := modelfile.SetupOf(p)
	if err != nil {
		return nil, 0, l, fmt.Errorf("%s: %w", planPath, err)
	}
	return p, i, l, checkOut(out, p)
}

// readPlanData reads the plan's data, from dataPath if given, else from
// the path the plan records, as the plan says they were read; a file that
// does not read so is refused without echoing what it holds.
func readPlanData(ctx context.Context, p *selection.Plan, planPath, dataPath string, limit int64) (*dataset.Set, error) {
	if dataPath == "" {
		dataPath = p.Data.Path
	}
	opt, err := planRead(p)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", planPath, err)
	}
	set, err := readNumeric(ctx, limit, dataPath, opt)
	if errors.Is(err, dataset.ErrFormat) {
		return nil, fmt.Errorf("%s: not the data of plan %s: it does not read as %s data", dataPath, planPath, p.Data.Format)
	}
	return set, err
}

// joinG writes numbers as %g, separated by commas.
func joinG(v []float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.FormatFloat(x, 'g', 6, 64)
	}
	return strings.Join(s, ",")
}

// joinInts writes integers separated by commas.
func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// checkOut refuses an output folder that holds results of another plan
// (results are never mixed or overwritten across plans).
func checkOut(dir string, p *selection.Plan) error {
	_, err := selection.ReadResults(p, []string{dir})
	var me *selection.MergeError
	if errors.As(err, &me) && len(me.Foreign) > 0 {
		return fmt.Errorf("%s holds files that are not this plan's results (%s): give another --out", dir, me.Foreign[0])
	}
	return nil
}

// planRead are the dataset.Options the plan's data were read with.
func planRead(p *selection.Plan) (dataset.Options, error) {
	f, err := dataset.ParseFormat(p.Data.Format)
	if err != nil {
		return dataset.Options{}, err
	}
	opt := dataset.Options{Format: f, LabelColumn: p.Data.LabelColumn}
	switch p.Data.Indices {
	case dataset.ZeroBased.String():
		opt.Indices = dataset.ZeroBased
	case dataset.OneBased.String():
		opt.Indices = dataset.OneBased
	case dataset.AutoIndices.String():
	default:
		return opt, fmt.Errorf("data indices %q: want auto, 0-based or 1-based", p.Data.Indices)
	}
	return opt, nil
}

func runSweepMerge(ctx context.Context, env *Env, args []string) error {
	var planPath, png string
	fs := newFlags(env, "sweep merge --plan PLAN DIR...",
		"Merges the results of a plan's tasks from the folders given into the table mark1 grid prints, byte\n"+
			"for byte; a task without a result, with two, or a result of another plan is an error naming it.")
	fs.StringVar(&planPath, "plan", "", "the plan file (required)")
	fs.StringVar(&png, "png", "", "draw the contour picture to this PNG file (grid.py draws grid.png; mark1 only when asked)")
	var fm finalMerge
	fm.register(fs)
	if err := env.parse(fs, args); err != nil {
		return err
	}
	if planPath == "" || fs.NArg() == 0 {
		return usagef("sweep merge: --plan PLAN and at least one results folder are required")
	}
	p, err := selection.ReadPlan(planPath)
	if err != nil {
		return err
	}
	if p.Final || fs.Changed("model") || fs.Changed("data") {
		return fm.merge(ctx, env, fs, p, planPath, png)
	}
	res, err := selection.ReadResults(p, fs.Args())
	if err != nil {
		return fmt.Errorf("%s: %w", planPath, err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return report(env, selection.Merge(p, res), png)
}
