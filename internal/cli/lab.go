package cli

import (
	"cmp"
	"context"
	"fmt"
	"image/gif"
	"os"
	"strconv"
	"strings"

	"mark1/internal/base/atomicfile"
	"mark1/internal/base/param"
	"mark1/internal/labsite"
	"mark1/lab"

	"github.com/spf13/pflag"
)

type labOptions struct {
	job       lab.Job    // lab.JobOptions
	fields    fieldFlags // the job's and the learner's fields → the flags that set them
	list      bool
	lf        learnerFlags
	shuffle   bool // --shuffle, the old word for --order shuffle
	maxEpochs int  // --max-epochs, the old word for --epochs
	start     string
	site      string
	trace     bool
	asJSON    bool
	png, svg  string
	gifPath   string
}

// labFlags registers lab's flags on a new flag set.
func labFlags(env *Env, o *labOptions) *pflag.FlagSet {
	fs := newFlags(env, "lab [--example NAME] [flags]", `The lecture notes, runnable. Runs a learner on one of the notes' small
examples and writes it down step by step as the notes do (--trace, the
default; --json for the same trace as data), or draws it: --png/--svg a
picture of one --view at one --step, --gif an animation over every step.

Examples (--list shows them with what each teaches): `+strings.Join(lab.Names(), ", ")+`.
Views: notes (x-space, the dual chart and R(w) side by side), x, w, risk,
paths (batch GD against the perceptron on R(w)), bias (the bias trick in 3-D),
regions (kernel perceptron / SVM decision regions), margin (hard against soft
margin), theorem (mistakes so far against (R/γ)²); for --learner sgd: notes (x-space with
the loss's line beside the loss's risk over w-space), x, risk, losses (every loss side by side);
for --learner a-layer: notes (the R-unit's regions beside the A-space view), regions, units (one
thumbnail per random A-unit: where it fires), aspace (the samples' A-vectors and scores w·a + b), theorem;
for --data of 3 or 4 classes: classes (the regions of one-vs-rest by sign, of one R-unit per
class whose largest response wins, and of one-vs-one votes, side by side).

  mark1 lab --example notes-004 --trace
  mark1 lab --example needs-bias --learner batch-gd --bias --eps 0.5
  mark1 lab --example xor --learner kernel-perceptron --kernel poly:d=2,gamma=1
  mark1 lab --example overlap --learner sgd --loss logistic --batch 4 --eps 0.5
  mark1 lab --example overlap --learner sgd --loss squared --batch 16 --eps 0.05 --png squared.png
  mark1 lab --example xor --learner a-layer --units 16 --seed 3 --view units --png units.png
  mark1 lab --example notes-004 --view notes --gif notes-004.gif
  mark1 lab --data three-classes.csv --bias --png classes.png`)
	o.fields = fieldFlags{}
	addOptions(fs, o.fields, lab.JobOptions(), "example", "data", "format", "label-column")
	fs.BoolVar(&o.list, "list", false, "list the examples and what each teaches")
	fs.StringVar(&o.site, "site", "", "write the lab page as a static site to this folder, its learners compiled to WebAssembly:\nany static file server serves it, with no mark1 server and no Go (the WebAssembly is built into mark1, see docs/lab.md)")
	// The learners' options are the registry's, as fit and compare take
	// them; an --example runs as the notes do unless told otherwise.
	o.lf.lab = true
	o.lf.register(fs, o.fields, "perceptron", "tol", "cache-mb", "threads", "nu", "epsilon", "class-weight", "mu", "alpha", "decay")
	fs.Lookup("learner").Usage = "the learner: " + strings.Join(lab.Learners(), ", ")
	fs.Lookup("bias").NoOptDefVal = "1" // --bias alone: the bias trick x → (x, 1)
	fs.Lookup("order").Usage += "\n(an --example runs as the notes do: --bias -1 --order given --line-search=false --kernel linear\n--loss perceptron, unless given; --data takes the defaults)"
	fs.BoolVar(&o.shuffle, "shuffle", false, "the same as --order shuffle")
	fs.IntVar(&o.maxEpochs, "max-epochs", 0, "the same as --epochs")
	_ = fs.MarkHidden("shuffle")
	_ = fs.MarkHidden("max-epochs")
	fs.StringVar(&o.start, "start", "", "the perceptron's or batch GD's starting w, comma-separated (with --bias, b last); default 0")
	fs.BoolVar(&o.trace, "trace", false, "print the trace as the notes write it (the default when nothing is drawn)")
	fs.BoolVar(&o.asJSON, "json", false, "print the trace as JSON")
	addOptions(fs, o.fields, lab.JobOptions(), "view", "step")
	fs.StringVar(&o.png, "png", "", "draw the view at --step to this PNG file")
	fs.StringVar(&o.svg, "svg", "", "draw the view at --step to this SVG file")
	fs.StringVar(&o.gifPath, "gif", "", "draw the view at every step to this animated GIF")
	addOptions(fs, o.fields, under("--gif", lab.JobOptions()), "delay", "max-frames")
	return fs
}

func runLab(ctx context.Context, env *Env, args []string) error {
	var o labOptions
	fs := labFlags(env, &o)
	if err := env.parse(fs, args); err != nil {
		return err
	}
	if o.site != "" {
		if err := atomicfile.WriteDirMarked(o.site, env.marker("site"), func(tmp string) error { return writeSite(ctx, tmp) }); err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "wrote the lab site to %s: serve it with any static file server, e.g. python3 -m http.server -d %s\n", o.site, o.site)
		return nil
	}
	if o.list {
		return lab.WriteExamples(env.Stdout)
	}
	setup, err := o.setup(fs)
	if err != nil {
		return err
	}
	data, err := o.examples(ctx, env)
	if err != nil {
		return err
	}
	run, err := data.Start(ctx, setup)
	if err != nil {
		return o.fail(ctx, err)
	}
	return writeLabRun(ctx, env, o, run)
}

// setup checks the flags, sets the job (lab.JobOptions) and returns the
// learner's setup they describe.
func (o *labOptions) setup(fs *pflag.FlagSet) (lab.Setup, error) {
	var none lab.Setup
	if o.asJSON && o.trace {
		return none, usagef("lab: give --trace or --json, not both")
	}
	if err := setOptions(fs, &o.job, lab.JobOptions(), false); err != nil { // --format checked whether or not --data uses it
		return none, usagef("lab: %v", err)
	}
	if o.shuffle && !fs.Changed("order") {
		*o.lf.text["order"] = "shuffle"
	}
	if fs.Changed("max-epochs") {
		if fs.Changed("epochs") {
			return none, usagef("lab: --max-epochs is the old name of --epochs: give one")
		}
		*o.lf.text["epochs"] = strconv.Itoa(o.maxEpochs)
		o.fields.add("epochs", "max-epochs")
	}
	if o.job.Data == "" { // the notes' settings, unless given
		for name, v := range lab.NotesSettings() {
			if !fs.Changed(name) {
				*o.lf.text[name] = v
			}
		}
	}
	opts, err := o.lf.options()
	if err != nil {
		return none, err
	}
	if f := param.As(o.job.Picture.Validate()); f != nil { // lab's rules: "[lo, hi]" or "at least lo"
		sep := map[bool]string{true: " ", false: ": "}[strings.HasPrefix(f.FieldRange(), "[")]
		return none, usagef("lab: --%s %s out of range%s%s", f.FieldName(), f.FieldValue(), sep, f.FieldRange())
	}
	if o.gifPath != "" && !strings.HasSuffix(strings.ToLower(o.gifPath), ".gif") {
		return none, usagef("lab: --gif %s: the animation is a GIF; name the file .gif", o.gifPath)
	}
	start, err := lab.ParseStart(o.start)
	if err != nil {
		return none, usagef("lab: --start %q: %v", o.start, err)
	}
	setup, err := lab.NewSetup(o.lf.learner, opts, start)
	if err != nil {
		return none, o.fields.usage(err)
	}
	return setup, nil
}

// examples returns the run's data: the --example, or the --data file of
// two classes or more (lab.Job.Load).
func (o *labOptions) examples(ctx context.Context, env *Env) (lab.Data, error) {
	d, err := o.job.Load(ctx)
	switch {
	case err != nil && o.job.Data == "":
		return d, usagef("lab: --example: %v", err)
	case err != nil:
		return d, fmt.Errorf("lab: --data: %w", err)
	case o.job.Data != "":
		fmt.Fprintf(env.Stderr, "%s: %v\n", o.job.Data, d)
	}
	return d, nil
}

// writeLabRun draws run's --png, --svg and --gif (in --view, or the run's
// default view when none is given) and writes its trace as text or --json.
func writeLabRun(ctx context.Context, env *Env, o labOptions, run lab.Runner) error {
	drawing := o.png != "" || o.svg != "" || o.gifPath != ""
	if o.job.Picture.View != "" && !drawing {
		return usagef("lab: --view draws a picture: give --png FILE, --svg FILE or --gif FILE")
	}
	if o.job.Picture.Step >= run.Frames() {
		return usagef("lab: --step %d: the run has steps 0 to %d", o.job.Picture.Step, run.Frames()-1)
	}
	if o.png != "" || o.svg != "" {
		d, err := o.job.Picture.Draw(ctx, run)
		if err != nil {
			return o.fail(ctx, err)
		}
		if err := writeDrawing(d, o.png, o.svg); err != nil {
			return err
		}
	}
	if o.gifPath != "" {
		g, err := o.job.Picture.Animate(ctx, run)
		if err != nil {
			return o.fail(ctx, err)
		}
		if err := atomicfile.Write(o.gifPath, func(f *os.File) error { return gif.EncodeAll(f, g) }); err != nil {
			return err
		}
	}
	switch {
	case o.asJSON:
		return run.WriteJSON(env.Stdout)
	case o.trace || !drawing:
		return run.WriteText(env.Stdout)
	}
	return nil
}

// fail is how lab reports a run or picture that failed: an interrupt as
// such (exit 130), anything else as a problem with the flags, named by the
// flag of its field (the learner's options, --view, --max-frames) if any.
func (o *labOptions) fail(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if m := o.fields.message(err); m != "" {
		return usagef("lab: %s", m)
	}
	return usagef("lab: %v", err)
}

// writeSite writes the static lab site to dir (labsite.WriteSite).
func writeSite(ctx context.Context, dir string) error {
	if err := labsite.WriteSite(ctx, dir); err != nil {
		return cmp.Or(ctx.Err(), fmt.Errorf("lab: --site: %w", err))
	}
	return nil
}
