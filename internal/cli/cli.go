// Package cli implements the mark1 command: each subcommand parses its own
// flags, validates them, and calls the packages that do the work. Nothing
// here learns; it reads files, prints and draws.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sort"

	"github.com/spf13/pflag"
)

// Env is what a command may touch: its arguments and standard streams.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

type command struct {
	summary string
	run     func(ctx context.Context, env *Env, args []string) error
}

func commands() map[string]command {
	return map[string]command{
		"train":   {"train a machine on a built-in task or your data, and save it", runTrain},
		"eval":    {"measure a saved machine on data: accuracy and confusion matrix", runEval},
		"predict": {"show pictures to a saved machine: label, R-unit sums, P_a", runPredict},
		"stimuli": {"write a built-in task as PNG class folders, an IDX pair or libsvm text", runStimuli},
		"tasks":   {"list the built-in tasks and presets", runTasks},
		"wiring":  {"print a machine's plugboard as an editable listing", runWiring},
		"compare": {"train the hardware rule and software learners on the same data; one table", runCompare},
		"dials":   {"read a machine's pots: table, summary, dial panel, weight maps, curves, animation", runDials},
		"serve":   {"the operator panel in your browser, live while the machine trains", runServe},
		"pa":      {"P_a of a task's cards beside Rosenblatt's 1958 model, by lit area; a picture", runPa},
		"levels":  {"what the motors cost: P_g of ideal pots against the mark1 preset's, and the pot levels, noise and backlash that keep it", runLevels},
		"curves":  {"Rosenblatt's 1958 learning curves from the papers' equations beside the simulated machine", runCurves},
		"ablate":  {"fail growing fractions of a trained machine's A-units or pots; P_g table and plot", runAblate},
		"lab":     {"the lecture notes, runnable: trace and draw the perceptron, GD, kernels and the SVM on small examples", runLab},
		"fit":     {"train one software learner on numeric data (libsvm, CSV, IDX) as svm-train does; save the model", runFit},
		"apply":   {"predict with a model saved by fit, as svm-predict does: accuracy and predictions", runApply},
		"grid":    {"search C and γ by cross-validation, as LIBSVM's grid.py: table, best, contour picture", runGrid},
		"sweep":   {"a grid search as a job array (Slurm, Kubernetes, GNU parallel): plan, run, merge", runSweep},
	}
}

// usageError marks errors in how the command was called (exit status 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// Main runs the mark1 command line and returns the process exit status: 0 on
// success, 1 when the work failed (bad input, unreadable files), 2 for a
// usage error, 130 when interrupted.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	err := Run(ctx, args, stdin, stdout, stderr)
	switch {
	case err == nil:
		return 0
	case errors.Is(err, pflag.ErrHelp):
		return 0
	case errors.Is(err, context.Canceled):
		fmt.Fprintf(stderr, "mark1: interrupted\n")
		return 130
	}
	fmt.Fprintf(stderr, "mark1: %v\n", err)
	var u usageError
	if errors.As(err, &u) {
		return 2
	}
	return 1
}

// Run runs one mark1 command.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	env := &Env{Stdin: stdin, Stdout: stdout, Stderr: stderr}
	cmds := commands()
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		if len(args) > 1 {
			c, ok := cmds[args[1]]
			if !ok {
				usage(stderr, cmds)
				return usagef("help: unknown command %q", args[1])
			}
			return c.run(ctx, env, []string{"--help"})
		}
		usage(stdout, cmds)
		return nil
	}
	c, ok := cmds[args[0]]
	if !ok {
		usage(stderr, cmds)
		return usagef("unknown command %q", args[0])
	}
	// parse may set the soft memory limit (holdMemory): it lasts as long
	// as the command.
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	return c.run(ctx, env, args[1:])
}

func usage(w io.Writer, cmds map[string]command) {
	fmt.Fprintf(w, `mark1 simulates Frank Rosenblatt's Mark I Perceptron (1958): a 20x20 photocell
retina, 512 randomly wired association units, 8 response units, and weights that
are motor-driven potentiometers.

Usage: mark1 COMMAND [flags]

Commands:
`)
	var names []string
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, cmds[n].summary)
	}
	fmt.Fprintf(w, "\nRun \"mark1 COMMAND --help\" for a command's flags. Start with: mark1 train\n")
}

// newFlags returns a flag set that reports errors instead of exiting.
func newFlags(env *Env, name, synopsis string) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.SortFlags = false
	// Help asked for is the command's output: standard output, exit 0.
	// Only --help calls Usage (errors are returned, not printed, under
	// ContinueOnError); pflag's own warnings stay on standard error.
	fs.Usage = func() {
		fmt.Fprintf(env.Stdout, "Usage: mark1 %s\n\n%s\n\nFlags:\n", name, synopsis)
		fs.SetOutput(env.Stdout)
		fs.PrintDefaults()
		fs.SetOutput(env.Stderr)
	}
	return fs
}

// parse parses args; a flag error becomes a usage error, --help ErrHelp.
// A command's budget (--max-memory) is checked here, and is Go's soft
// memory limit from here on (holdMemory).
func parse(fs *pflag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return err
		}
		return usageError{fmt.Errorf("%s: %w", fs.Name(), err)}
	}
	if err := checkPaths(fs); err != nil {
		return err
	}
	var err error
	fs.VisitAll(func(f *pflag.Flag) {
		if b, ok := f.Value.(*budget); ok && err == nil {
			if err = b.check(f.Name); err == nil {
				holdMemory(b.bytes())
			}
		}
	})
	return err
}
