package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"mark1/compare"
	"mark1/dataset"
	"mark1/dials"
	"mark1/images"
	"mark1/internal/base/atomicfile"
	"mark1/internal/progress"
	"mark1/internal/progress/fitline"
	"mark1/learning/modelfile"
	"mark1/machine"
	"mark1/memistors"

	"github.com/spf13/pflag"
)

// compareOptions are compare's flags.
type compareOptions struct {
	data                                                  dataFlags
	mf                                                    machineFlags
	lf                                                    learnerFlags
	learnerList, features, plotPath, export, scale, seeds string
	adalineBank, rule                                     string
	jsonOut, csvOut, quiet, asPictures, noTheory          bool
	threads, prCards                                      int
	fs                                                    *pflag.FlagSet
}

// compareFlags registers compare's flags on a new flag set.
func compareFlags(env *Env, o *compareOptions) *pflag.FlagSet {
	fs := newFlags(env, "compare [--task NAME | --data PATH] [flags]", `Trains the Mark I's motor-driven rule and software learners on the same seeded
split and prints one table: P_r (train accuracy), P_g (test accuracy), mistakes or
updates, epochs, margin, support vectors, time; for the hardware also simulated
machine time and motor pulses. "hardware" is the --preset machine, "ideal" the
same wiring with ideal pots; "memistor-adaline" is Widrow and Hoff's ADALINE (1960)
with memistor weights (bounded, slowly plated, noisy, leaking) trained by α-LMS
on the same machine's A-units, its plating pulses and time in the same columns;
software learners see the retina's pixels or the same machine's A-unit outputs
(--features).`)
	o.data.register(fs, true)
	o.mf.fourLayer = true
	o.mf.register(fs, o.data.memory)
	fs.StringVar(&o.learnerList, "learners", strings.Join(compare.DefaultLearners(), ","), "comma-separated: "+strings.Join(compare.Learners(), ", "))
	fs.StringVar(&o.features, "features", "pixels,association", "comma-separated: pixels (S-units), association (A-units); numeric data files: raw (their values, the default)")
	// The learners' options, as fit takes them; --seed is the machine's
	// master seed, which seeds the learners too, --threads compare's, and
	// --bias the machine's R-unit bias (the learners keep their default
	// constant input 1).
	o.lf.register(fs, fieldFlags{}, "", "seed", "threads", "bias", "epsilon", "class-weight")
	fs.StringVar(&o.rule, "rule", "error-correction", "how hardware and ideal train, as train's --rule: error-correction, forced, forced-monovalent,\ntrial-and-error or spontaneous (no labels: reported as clusters of the hidden classes,\npurity and responses used, not P_r and P_g); the last three need --code one-per-class")
	fs.StringVar(&o.adalineBank, "adaline-bank", "memistors", "the weights of memistor-adaline, trained by α-LMS with --alpha (0.1 when 0): memistors (the 1960 plated memistors: bounded, slow, noisy,\nleaking; docs/record.md), rheostats (hand-set knobs, 21 settings), ideal (exact numbers: what the memistors cost)")
	fs.BoolVar(&o.jsonOut, "json", false, "print the report as JSON")
	fs.BoolVar(&o.csvOut, "csv", false, "print the table as CSV")
	fs.BoolVar(&o.quiet, "quiet", false, "print no progress on standard error")
	fs.IntVar(&o.threads, "threads", 0, "cores for the SVM's binary problems and predictions (0: all); results do not depend on it")
	fs.IntVar(&o.prCards, "pr-cards", 10000, "measure P_r on a seeded sample of this many training cards when there are more, the same for every learner (0: all)")
	fs.BoolVar(&o.noTheory, "no-theory", false, "leave out the convergence theorem's line for two classes (otherwise it takes at most a fifth of the learners' time, at least half a second)")
	fs.StringVar(&o.plotPath, "plot", "", "draw the learning curves to this PNG, one panel per quantity: mistakes per epoch (online\nlearners, hardware), the objective (batch GD, SVMs), P_g per epoch (hardware, memistor ADALINE); what is not drawn is named")
	fs.StringVar(&o.seeds, "seeds", "", "repeat the comparison for each of these master seeds (A-B or a list), on all cores,\nand print mean ± standard deviation per row")
	fs.StringVar(&o.export, "export-libsvm", "", "also write the features as libsvm files in this folder, to check results with LIBSVM")
	fs.BoolVar(&o.asPictures, "as-pictures", false, "read a libsvm file whose rows are k×k pictures as pictures (values in [0,1] or [0,255] as grey levels), for the hardware")
	fs.StringVar(&o.scale, "scale", "none", "numeric data: scale each feature, fitted on the training part: none, 01, pm1, std (with --as-pictures: 01 makes the values grey levels)")
	o.fs = fs
	return fs
}

func runCompare(ctx context.Context, env *Env, args []string) (err error) {
	var o compareOptions
	fs := compareFlags(env, &o)
	if err := env.parse(fs, args); err != nil {
		return err
	}
	spec, err := o.spec()
	if err != nil {
		return err
	}
	ctx, finish := guardMemory(ctx, "compare", o.data.memory.bytes())
	defer func() { err = finish(err) }()
	g := given(fs)
	if path := g["data"]; path != "" && !o.asPictures && dataset.IsNumericFile(path) {
		if fs.Changed("features") && o.features != compare.Raw {
			return usagef("--features %s: %s holds numeric data, not pictures; its features are raw (or read square rows as pictures with --as-pictures)", o.features, path)
		}
		return o.compareRaw(ctx, env, spec)
	}
	if fs.Changed("features") && o.features == compare.Raw {
		return usagef("--features raw is for numeric data files (libsvm, CSV, text), not pictures")
	}
	if o.scale != "none" && !o.asPictures {
		return usagef("--scale is for numeric data files (libsvm, CSV, text)")
	}
	cleanup := func() {}
	if o.asPictures && o.scale != "none" {
		scaled, remove, err := scaledCopy(ctx, o.data.memory.bytes(), g["data"], o.scale)
		if err != nil {
			return err
		}
		defer remove()
		o.data.scaled, cleanup = scaled, remove
	}
	cfg, err := o.mf.build(g)
	if err != nil {
		return err
	}
	if err := spec.Recipe.CheckMachine(cfg); err != nil {
		return usagef("--rule %s: %s needs one R-unit per class: add --code one-per-class", o.rule, o.rule)
	}
	if o.seeds != "" {
		return o.runSeeds(ctx, env, cfg, spec, cleanup)
	}
	return o.runOne(ctx, env, cfg, spec, g["data"], cleanup)
}

// spec checks the flags that need no data and returns the comparison they
// ask for, validated by compare.Spec.Validate.
func (o *compareOptions) spec() (compare.Spec, error) {
	fs := o.fs
	if o.jsonOut && o.csvOut {
		return compare.Spec{}, usagef("give --json or --csv, not both")
	}
	for _, l := range [...]struct{ name, v string }{{"learners", o.learnerList}, {"features", o.features}} {
		if fs.Changed(l.name) && len(split(l.v)) == 0 {
			return compare.Spec{}, usagef("--%s %q names none; give a comma-separated list", l.name, l.v)
		}
	}
	if o.plotPath != "" && !strings.HasSuffix(strings.ToLower(o.plotPath), ".png") {
		return compare.Spec{}, usagef("--plot %s: the curves are drawn as PNG; give a file name ending in .png", o.plotPath)
	}
	opts, err := o.lf.options()
	if err != nil {
		return compare.Spec{}, err
	}
	if _, err := workers(o.threads); err != nil { // the one rule for --threads, as train and ablate
		return compare.Spec{}, err
	}
	spec := compare.Spec{Learners: split(o.learnerList), Features: pictureFeatures(o.features), Options: opts, Seed: o.mf.seed, NoTheory: o.noTheory, Threads: o.threads, PrSample: o.prCards}
	bank, err := memistors.Kind(o.adalineBank)
	if err != nil {
		return compare.Spec{}, usagef("--adaline-bank %q: want %s", o.adalineBank, strings.Join(memistors.Kinds(), ", "))
	}
	spec.Memistors = &bank
	rule, err := machine.ParseRule(o.rule)
	if err != nil {
		return compare.Spec{}, usageError{fmt.Errorf("--rule: %w", err)}
	}
	spec.Recipe.Rule = rule
	o.lf.fields.add("learners", "learners")
	o.lf.fields.add("features", "features")
	o.lf.fields.add("pr-sample", "pr-cards")
	o.lf.fields.add("threads", "threads")
	if err := spec.Validate(); err != nil {
		if m := o.lf.fields.message(err); m != "" {
			return spec, usageError{errors.New(m)}
		}
		return spec, usageError{err}
	}
	return spec, nil
}

// runSeeds repeats the comparison over --seeds (compare.SeedExperiment).
func (o *compareOptions) runSeeds(ctx context.Context, env *Env, cfg machine.Config, spec compare.Spec, cleanup func()) error {
	for _, name := range []string{"seed", "plot", "export-libsvm", "csv"} {
		if o.fs.Changed(name) {
			return usagef("compare --seeds: --%s works on one run; drop it", name)
		}
	}
	list, err := parseSeeds(o.seeds)
	if err != nil {
		return usageError{err}
	}
	nw, err := workers(o.threads)
	if err != nil {
		return err
	}
	exp := compare.SeedExperiment{Config: cfg, Spec: spec, Threads: nw, Load: func(ctx context.Context, seed uint64) (*images.Dataset, *images.Dataset, error) {
		return o.data.load(ctx, given(o.fs), seed)
	}}
	rep, err := exp.Run(ctx, list)
	cleanup()
	if err != nil {
		return err
	}
	if o.jsonOut {
		return writeJSON(env.Stdout, rep)
	}
	return rep.WriteText(env.Stdout)
}

// runOne runs one comparison, writing the --export-libsvm files first.
func (o *compareOptions) runOne(ctx context.Context, env *Env, cfg machine.Config, spec compare.Spec, origData string, cleanup func()) (err error) {
	seeds := machine.SeedsFrom(o.mf.seed)
	train, test, err := o.data.load(ctx, given(o.fs), seeds.Master)
	cleanup() // the scaled copy is read
	if err != nil {
		return err
	}
	if o.data.scaled != "" { // name the user's file, not the scaled copy
		name := origData + " scaled " + o.scale
		train.Name = strings.Replace(train.Name, o.data.scaled, name, 1)
		test.Name = strings.Replace(test.Name, o.data.scaled, name, 1)
	}
	if err := o.data.checkFit(cfg, train, test); err != nil {
		return err
	}
	if o.export != "" {
		undo, xerr := compare.ExportLibSVM(ctx, o.export, cfg, seeds, train, test)
		if xerr != nil {
			return fmt.Errorf("--export-libsvm: %w", xerr)
		}
		// The export is one of the command's outputs: a comparison that is
		// interrupted or fails afterwards leaves none of them.
		defer func() {
			if err != nil {
				undo()
			}
		}()
	}
	// On a terminal, a progress line (fitline.Compare) counts the learners
	// and shows the one that reported last: its epoch, pair or pass, rate
	// and time left; elsewhere a line per learner.
	prog := o.startProgress(env, &spec, len(train.Classes), false)
	rep, err := compare.Run(modelfile.LearnerBudget(ctx), cfg, seeds, train, test, spec, prog.Start)
	prog.End()
	if err != nil {
		return err
	}
	return o.emit(env, rep)
}

// compareRaw runs compare's software learners on a numeric data file's
// values as they are (scaled if asked, fitted on the training part), and
// says in the report's note how square rows could be seen as pictures.
func (o *compareOptions) compareRaw(ctx context.Context, env *Env, spec compare.Spec) error {
	src, err := o.data.sizes(given(o.fs)) // checked whether or not numeric data use them
	if err != nil {
		return err
	}
	parts, err := compare.ReadNumeric(ctx, compare.NumericData{Path: src.Path, Test: src.TestPath, TestSplit: src.TestSplit,
		Seed: spec.Seed, Scale: o.scale, MaxBytes: src.MaxBytes})
	if err != nil {
		return scaleError(err)
	}
	prog := o.startProgress(env, &spec, len(parts.Train.Classes), true)
	rep, err := compare.RunSets(ctx, src.Path, parts.Train, parts.Test, spec, prog.Start)
	prog.End()
	if err != nil {
		return err
	}
	if parts.Side > 0 && len(rep.Notes) > 0 {
		how := "--as-pictures (the values are grey levels in [0,1])"
		if !parts.Grey {
			how = "--as-pictures --scale 01 (to make the values grey levels in [0,1])"
		}
		rep.Notes[0] += fmt.Sprintf("; the %d features could be %dx%d pictures: compare them on the machine with %s", parts.Train.Dim, parts.Side, parts.Side, how)
	}
	return o.emit(env, rep)
}

// scaledCopy reads a numeric data file, scales it with method within the
// memory budget (modelfile.ReadData) and writes it as libsvm text to a
// temporary file, for --as-pictures --scale; cleanup removes the file.
func scaledCopy(ctx context.Context, limit int64, path, method string) (string, func(), error) {
	d, err := modelfile.ReadData(ctx, path, modelfile.DataOptions{Read: dataset.Options{MaxBytes: limit}, Scale: method})
	if err != nil {
		return "", nil, scaleError(err)
	}
	return dataset.WriteTempLibSVM(d.Train)
}

// silent reports whether compare prints nothing on standard error.
func (o *compareOptions) silent() bool { return o.quiet || o.jsonOut || o.csvOut }

// startProgress starts the progress of spec's learners on classes classes
// and sets spec.Record to feed it; raw is true for numeric data (one run
// per software learner, no hardware).
func (o *compareOptions) startProgress(env *Env, spec *compare.Spec, classes int, raw bool) *fitline.Compare {
	runs, epochs := spec.Runs(raw)
	log := io.Writer(env.Stderr) // a line per learner where no progress line is drawn
	if o.silent() {
		log = nil
	}
	prog := fitline.NewCompare(progress.New(env.Stderr, o.silent(), time.Now), log, runs, classes, epochs, time.Now)
	spec.Record, spec.Checking = prog.Record, prog.Checking
	return prog
}

// emit draws the --plot and prints the report as JSON, CSV or the table.
func (o *compareOptions) emit(env *Env, rep *compare.Report) error {
	if o.plotPath != "" {
		d, missing, err := dials.CompareReport(rep)
		if err != nil {
			return fmt.Errorf("plotting %s: %w", o.plotPath, err)
		}
		if err := atomicfile.Write(o.plotPath, func(f *os.File) error { return d.WritePNG(f) }); err != nil {
			return err
		}
		if !o.silent() {
			fmt.Fprintf(env.Stderr, "Wrote the learning curves to %s; not drawn:\n", o.plotPath)
			for _, m := range missing {
				fmt.Fprintf(env.Stderr, "  %s\n", m)
			}
		}
	}
	switch {
	case o.jsonOut:
		return writeJSON(env.Stdout, rep)
	case o.csvOut:
		return rep.WriteCSV(env.Stdout)
	}
	return rep.WriteText(env.Stdout)
}

// pictureFeatures is the --features list for picture data; "raw" (numeric
// data) leaves the choice to the raw path.
func pictureFeatures(s string) []string {
	if s == compare.Raw {
		return nil
	}
	return split(s)
}

func split(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}
