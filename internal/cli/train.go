package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"mark1/associator"
	"mark1/dials"
	"mark1/internal/base/atomicfile"
	"mark1/internal/progress"
	"mark1/machine"

	"github.com/spf13/pflag"
)

type trainOptions struct {
	data       dataFlags
	machine    machineFlags
	fs         *pflag.FlagSet // the recipe's flags (machine.RecipeOptions)
	out        string
	quiet      bool
	resume     string
	checkpoint int
	record     string     // --record DIR: pot snapshots per epoch (dials.Record)
	seeds      string     // --seeds A-B: repeat over seeds and report mean ± spread (trainSeeds)
	stopOnFail bool       // --stop-on-write-error
	threads    int        // --threads: cores for the --seeds runs
	jsonOut    bool       // --json: the report (machine.Report, machine.SeedSummary) as JSON
	fields     fieldFlags // the recipe's and the save plan's fields → the flags that set them

	dataName string // the training cards' name (session)
}

// resumeFlag reports whether a flag may be given with --resume; everything
// else comes from the machine file.
func resumeFlag(name string) bool {
	switch name {
	case "resume", "out", "quiet", "json", "epochs", "checkpoint-every", "record", "stop-on-write-error", "max-memory":
		return true
	}
	return false
}

// trainFlags registers train's flags on a new flag set.
func trainFlags(env *Env, o *trainOptions) *pflag.FlagSet {
	fs := newFlags(env, "train [flags]", `Builds a simulated Mark I, trains it with the perceptron error-correction rule
carried out by its motors, reports each epoch, and saves the machine.
Without --data it trains on the built-in task "`+defaultTask+`".
Flags marked [history] follow the record; [guess] marks documented guesses.
Interrupted (Ctrl-C), it saves the machine as of the last complete epoch;
"mark1 train --resume FILE" then ends exactly where an uninterrupted run would.`)
	o.data.register(fs, true)
	o.machine.listings = true
	o.machine.fourLayer = true
	o.machine.register(fs, o.data.memory)
	o.fields = fieldFlags{"checkpoint": "--checkpoint-every"} // the save plan's (machine.SavePlan)
	addOptions(fs, o.fields, machine.RecipeOptions())
	fs.StringVar(&o.out, "out", "mark1.json", "where to save the trained machine (with --resume: the resumed file)")
	fs.BoolVar(&o.quiet, "quiet", false, "print only the summary")
	fs.BoolVar(&o.jsonOut, "json", false, "print only the report, as JSON (docs/outputs.md)")
	fs.StringVar(&o.resume, "resume", "", "continue training this machine file (a checkpoint or a finished run) on the data it records")
	fs.StringVar(&o.record, "record", "", "keep the pot positions after every epoch in this folder (for mark1 dials --animate)")
	fs.StringVar(&o.seeds, "seeds", "", "repeat the run for each of these master seeds (A-B or a list 1,4,9), on all cores,\nand print one row per seed and the mean ± standard deviation; saves no machine")
	fs.IntVar(&o.checkpoint, "checkpoint-every", 0, "also save the machine to --out every N epochs (0 = only at the end or when interrupted)")
	threadsFlag(fs, &o.threads, "the --seeds runs, one machine a core")
	fs.BoolVar(&o.stopOnFail, "stop-on-write-error", false, "stop training when a checkpoint or --record write fails (default: report it at once and go on; the final save is always tried)")
	o.fs = fs
	return fs
}

func runTrain(ctx context.Context, env *Env, args []string) error {
	var o trainOptions
	fs := trainFlags(env, &o)
	if err := env.parse(fs, args); err != nil {
		return err
	}
	g := given(fs)
	if err := o.check(g); err != nil {
		return err
	}
	if o.seeds != "" {
		return trainSeeds(ctx, env, g, &o)
	}
	if !g.has("out") && o.resume == "" && atomicfile.Exists(o.out) {
		// The default name never replaces a machine behind the reader's
		// back: each run that makes one names its file.
		return usagef("train: %s exists, a machine an earlier run saved: name this one with --out FILE (--out %s replaces it; --resume %s trains it on)", o.out, o.out, o.out)
	}
	s, before, err := o.session(ctx, env, g)
	if err != nil {
		return err
	}
	if s.Done() {
		if o.jsonOut {
			return writeJSON(env.Stdout, s.Report())
		}
		return nil
	}
	if o.jsonOut {
		o.quiet = true
	} else if err := s.WriteHeader(env.Stdout, o.dataName, o.resume, !o.quiet); err != nil {
		return err
	}
	start := time.Now()
	res, runErr := o.train(ctx, env, s)
	if res.Interrupted {
		return reportInterrupt(env, s.Machine(), res, runErr)
	}
	elapsed := time.Since(start)
	if runErr != nil && !errors.Is(runErr, machine.ErrWrites) {
		return runErr
	}
	if o.jsonOut {
		err = writeJSON(env.Stdout, s.Report())
	} else if err = s.Report().WriteText(env.Stdout, elapsed); err == nil {
		_, err = fmt.Fprintf(env.Stdout, "Saved the machine to %s. Next: mark1 predict --machine %s IMAGE, or mark1 wiring --machine %s.\n", o.out, o.out, o.out)
	}
	if err != nil {
		return err
	}
	// What the trained machine's answers say, after the summary.
	printWarnings(env.Stderr, s.Warnings()[before:])
	if res.WriteFails > 0 {
		return fmt.Errorf("the machine was saved to %s, but %d checkpoint or --record writes failed, the last: %w", o.out, res.WriteFails, res.LastWriteErr)
	}
	return nil
}

// check checks, before any data are read, the recipe, the save plan and
// --threads (whether or not --seeds uses it).
func (o *trainOptions) check(g givenFlags) error {
	if _, err := o.recipe(g); err != nil {
		return err
	}
	if o.out == "" {
		return usagef("--out must name a file")
	}
	if err := (machine.SavePlan{Out: o.out, Checkpoint: o.checkpoint}).Validate(); err != nil {
		return o.fields.usageGiven(err, g)
	}
	_, err := workers(o.threads)
	return err
}

// reportInterrupt says, on standard error, what an interrupted run saved
// and how to continue it.
func reportInterrupt(env *Env, m *machine.Machine, res machine.SavedRun, runErr error) error {
	if res.Kept != "" {
		fmt.Fprintf(env.Stderr, "Interrupted: %s holds an earlier machine, kept as it is.\n", res.Kept)
	}
	if runErr != nil && !errors.Is(runErr, context.Canceled) {
		return runErr
	}
	n := len(m.History)
	fmt.Fprintf(env.Stderr, "Interrupted in epoch %d: saved the machine as of epoch %d to %s.\nContinue with: mark1 train --resume %s\n",
		n+1, n, res.Path, res.Path)
	return runErr
}

// session makes the training session the flags describe, a new machine or
// one resumed from its file, and prints what the data do to the machine
// (the warnings before the first epoch; their count is returned). A
// resumed run that has finished says so and is Done.
func (o *trainOptions) session(ctx context.Context, env *Env, g givenFlags) (*machine.Session, int, error) {
	// The output must be writable before any work is done, and a new run
	// interrupted early must not replace a different machine there.
	out, outFlag := o.out, "--out"
	if o.resume != "" && !g.has("out") {
		out, outFlag = o.resume, "--resume" // saved over the file it resumes
	}
	if err := atomicfile.Check(out); err != nil {
		return nil, 0, fmt.Errorf("%s: %w", outFlag, err)
	}
	t, err := o.training(ctx, g)
	if err != nil {
		return nil, 0, err
	}
	o.dataName = t.Train.Name
	s, err := t.Session(ctx)
	if err != nil {
		return nil, 0, err
	}
	before := s.Warnings()
	printWarnings(env.Stderr, before)
	if s.Done() && !o.jsonOut {
		if err := s.WriteFinished(env.Stdout, o.resume); err != nil {
			return nil, 0, err
		}
	}
	return s, len(before), nil
}

// training returns the machine to train, its recipe and its cards:
// resumed from --resume, or new from the flags.
func (o *trainOptions) training(ctx context.Context, g givenFlags) (*machine.Training, error) {
	if o.resume == "" {
		// newTraining checks the machine and the cards' memory before it
		// makes the machine.
		return newTraining(ctx, g, o)
	}
	var bad []string
	for name := range g {
		if !resumeFlag(name) {
			bad = append(bad, "--"+name)
		}
	}
	slices.Sort(bad)
	if len(bad) > 0 {
		return nil, usagef("train --resume takes the data, machine and rule from the file; %s cannot be changed", strings.Join(bad, ", "))
	}
	if !g.has("out") {
		o.out = o.resume
	}
	m, err := loadMachine(ctx, o.data.memory.bytes(), o.resume)
	if err != nil {
		return nil, err
	}
	lim, err := o.data.limits(g)
	if err != nil {
		return nil, err
	}
	t, err := m.Resume(ctx, o.resume, lim)
	if err != nil {
		return nil, dataHint(err)
	}
	return t, setOptions(o.fs, &t.Recipe, machine.RecipeOptions(), true) // --epochs, the one recipe flag given
}

// train runs the session to its end, an epoch a line (unless --quiet), with
// a progress line on standard error, the recording and the checkpoints.
func (o *trainOptions) train(ctx context.Context, env *Env, s *machine.Session) (machine.SavedRun, error) {
	w, m := env.Stdout, s.Machine()
	// --record: a snapshot of the pots after every epoch (dials.Record).
	record := func(machine.Epoch) error { return nil }
	if o.record != "" {
		var err error
		if record, err = dials.Record(o.record, m); err != nil {
			return machine.SavedRun{}, err
		}
	}
	// A progress line on standard error (internal/progress), when it is a terminal.
	prog := progress.New(env.Stderr, o.quiet, time.Now)
	prog.Begin(progress.Run{Label: "training", Unit: "epoch", Base: len(m.History), Total: s.Recipe().MaxEpochs, Limit: true, Tick: 250 * time.Millisecond})
	defer prog.End()
	// Checkpoints, the save when interrupted and the replace policy are
	// the library's (machine.Session.RunSaved); a failed --record or
	// checkpoint write is reported at once.
	plan := machine.SavePlan{Out: o.out, Resumed: o.resume, Checkpoint: o.checkpoint, StopOnWriteError: o.stopOnFail,
		OnWriteError: func(err error) {
			fmt.Fprintf(env.Stderr, "mark1: %v; training goes on (--stop-on-write-error stops it)\n", err)
		},
		OnCheckpoint: func(epoch int, path string) {
			if !o.quiet {
				fmt.Fprintf(w, "         checkpoint: saved epoch %d to %s\n", epoch, path)
			}
		},
	}
	return s.RunSaved(ctx, plan, machine.RecorderFunc(func(e machine.Epoch) error {
		line, note := s.EpochLine(e, o.quiet)
		if line != "" {
			prog.Before(w)
			fmt.Fprint(w, line)
		}
		prog.Set(e.Epoch, note)
		if err := record(e); err != nil {
			return fmt.Errorf("--record after epoch %d: %w", e.Epoch, err)
		}
		return nil
	}))
}

// printWarnings prints each warning as a paragraph on w, with the flags
// that change the settings its advice names.
func printWarnings(w io.Writer, ws []machine.Warning) {
	fields := machineFields()
	for _, x := range ws {
		var flags []string
		for _, s := range x.Settings {
			f, _, ok := fields.flag(s.Field)
			switch {
			case !ok:
			case s.Value == "" || s.Value == "true": // a direction, or a switch
				flags = append(flags, f)
			default:
				flags = append(flags, f+" "+s.Value)
			}
		}
		if len(flags) == 0 {
			fmt.Fprintf(w, "warning: %s\n", x.Text)
			continue
		}
		fmt.Fprintf(w, "warning: %s The flags: %s.\n", x.Text, strings.Join(flags, ", "))
	}
}

// recipe returns the training the flags describe (rule, value system,
// pulses, epochs, decay, feedback; the data come later), checked by the
// recipe's own rules (machine.Recipe.Validate), a value out of range
// blamed on its flag.
func (o *trainOptions) recipe(g givenFlags) (machine.Recipe, error) {
	var r machine.Recipe
	if err := setOptions(o.fs, &r, machine.RecipeOptions(), false); err != nil {
		return r, err
	}
	if err := r.Validate(); err != nil {
		return r, o.fields.usageGiven(err, g)
	}
	return r, nil
}

// newTraining builds a new machine, its recipe and its data from the flags
// (machine.NewTraining).
func newTraining(ctx context.Context, g givenFlags, o *trainOptions) (*machine.Training, error) {
	r, err := o.recipe(g)
	if err != nil {
		return nil, err
	}
	cfg, err := o.machine.build(g)
	if err != nil {
		return nil, err
	}
	plug, err := o.plugboard(cfg, g)
	if err != nil {
		return nil, err
	}
	seeds := machine.SeedsFrom(o.machine.seed)
	src, err := o.data.source(g, seeds.Master)
	if err != nil {
		return nil, err
	}
	opts := machine.TrainOptions{Config: cfg, Plugboard: plug, Seeds: seeds, Recipe: r, Data: src, MaxBytes: o.data.memory.bytes()}
	if err := opts.Validate(); err != nil {
		return nil, o.fields.usageGiven(err, g)
	}
	t, err := machine.NewTraining(ctx, opts)
	return t, dataHint(err)
}

// plugboard reads the plugboard listing --wiring names, if it names one:
// it says how many A-units there are, and --a-units, if given, must
// agree.
func (o *trainOptions) plugboard(cfg machine.Config, g givenFlags) (*associator.Plugboard, error) {
	if o.machine.listing == "" {
		return nil, nil
	}
	b, err := atomicfile.ReadFile(o.machine.listing, o.data.memory.bytes(), "--max-memory")
	if err != nil {
		return nil, fmt.Errorf("reading plugboard: %w", err)
	}
	plug, err := associator.Read(bytes.NewReader(b), o.machine.listing)
	if err != nil {
		return nil, err
	}
	if n := len(plug.Units); g.has("a-units") && cfg.Associator.Defaults().Units != n {
		return nil, usagef("--a-units %d, but the plugboard listing %s wires %d A-units", cfg.Associator.Defaults().Units, o.machine.listing, n)
	}
	return plug, nil
}
