package cli

import (
	"context"
	"errors"

	"github.com/spf13/pflag"

	"mark1/internal/base/memguard"
	"mark1/learning/learners"
	"mark1/learning/modelfile"
	"mark1/learning/selection"
)

// This file is the sweep of the final model (docs/sweeps.md): sweep plan
// --final writes a plan whose tasks each train one binary problem of the
// SVM on all rows, sweep run runs them, and sweep merge --model joins
// their machines into the model file fit writes.

// planFinal is sweep plan --final: the plan of the final model's fit with
// the grid flags' one C and one γ, a task per binary problem.
func planFinal(ctx context.Context, fs *pflag.FlagSet, c *gridCommand) (*selection.Plan, error) {
	for _, f := range []string{"folds", "cv-seed", "warm-start"} {
		if fs.Changed(f) {
			return nil, usagef("sweep plan --final: --%s is a search's; the final model is trained once on all rows", f)
		}
	}
	l, g, err := c.setup(fs, "sweep plan", func(spec learners.Spec) error {
		if spec.Name != "svm" {
			return usagef("sweep plan --final: --learner %s has no one-vs-one binary problems; --final is for svm (fit trains the others in one process)", spec.Name)
		}
		return nil
	})
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
	p, err := l.PlanFinal(ctx, c.path, cs[0], gs[0], opt)
	if pe := (*modelfile.PlanError)(nil); errors.As(err, &pe) {
		return nil, usagef("sweep plan --final: %v", pe.Err)
	}
	return p, dataUsage(err, c.path, "", 0, nil)
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
	f, err := modelfile.MergeFinal(ctx, p, fs.Args(), modelfile.MergeOptions{PlanPath: planPath, Data: m.data, Model: m.model, MaxBytes: m.memory.bytes()})
	if err != nil {
		return dataError(err)
	}
	return f.WriteText(env.Stdout)
}
