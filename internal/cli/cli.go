// Package cli implements the mark1 command: each subcommand parses its own
// flags, validates them, and calls the packages that do the work. Nothing
// here learns; it reads files, prints and draws.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"mark1/compare"
	"mark1/dials"
	"mark1/images"
	"mark1/internal/base/atomicfile"
	"mark1/learning/selection"
)

// Env is what a command may touch: its arguments and standard streams.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer

	cmd  *command // the command running, from the table
	made []string // output folders the frame may have to take away (tidy)
}

// commands is mark1's command table: each command's name, what it does,
// the files it reads (with their companions) and writes, and its run
// function. The frame (frame.go) enforces the file rules for every line,
// and the hostile-input tests are generated from it (frame_test.go).
func commands() []command {
	data := input{"data", inData}
	machine := input{"machine", inFile}
	config := input{"config", inFile}
	file := func(flag string) output { return output{flag: flag} }
	return []command{
		{name: "train", summary: "train a machine on a built-in task or your data, and save it",
			in:  []input{data, {"test", inData}, config, {"wiring", inWiring}, {"resume", inFile}},
			out: []output{{flag: "out", rewrites: []string{"resume"}}, {flag: "record", kind: atomicfile.Results, owns: dials.IsRecordName}}, run: runTrain},
		{name: "eval", summary: "measure a saved machine on data: accuracy and confusion matrix",
			in: []input{machine, data}, run: runEval},
		{name: "predict", summary: "show pictures to a saved machine: label, R-unit sums, P_a",
			in: []input{machine}, argsIn: true, run: runPredict},
		{name: "stimuli", summary: "write a built-in task as PNG class folders, an IDX pair or libsvm text",
			out: []output{{flag: "out", paths: stimuliTargets}}, run: runStimuli},
		{name: "tasks", summary: "list the built-in tasks and presets", run: runTasks},
		{name: "wiring", summary: "print a machine's plugboard as an editable listing",
			in: []input{machine}, out: []output{file("out")}, run: runWiring},
		{name: "compare", summary: "train the hardware rule and software learners on the same data; one table",
			in:  []input{data, {"test", inData}, config},
			out: []output{file("plot"), {flag: "export-libsvm", kind: atomicfile.Results, owns: compare.IsExportName}}, run: runCompare},
		{name: "dials", summary: "read a machine's pots: table, summary, dial panel, weight maps, curves, animation",
			in:  []input{machine, data, {"test", inData}, {"image", inFile}, {"record", inFile}},
			out: []output{file("png"), file("svg"), file("animate")}, run: runDials},
		{name: "serve", summary: "the operator panel in your browser, live while the machine trains",
			in: []input{machine, config}, out: []output{file("out")}, run: runServe},
		{name: "pa", summary: "P_a of a task's cards beside Rosenblatt's 1958 model, by lit area; a picture",
			in: []input{data, config}, out: []output{file("png"), file("svg")}, run: runPa},
		{name: "levels", summary: "what the motors cost: P_g of ideal pots against the mark1 preset's, and the pot levels, noise and backlash that keep it",
			out: []output{file("png")}, run: runLevels},
		{name: "curves", summary: "Rosenblatt's 1958 learning curves from the papers' equations beside the simulated machine",
			out: []output{file("png")}, run: runCurves},
		{name: "ablate", summary: "fail growing fractions of a trained machine's A-units or pots; P_g table and plot",
			in: []input{machine, data, {"test", inData}}, out: []output{file("plot")}, run: runAblate},
		{name: "lab", summary: "the lecture notes, runnable: trace and draw the perceptron, GD, kernels and the SVM on small examples",
			in:  []input{data},
			out: []output{file("png"), file("svg"), file("gif"), {flag: "site", kind: atomicfile.Folder, marker: "lab site"}}, run: runLab},
		{name: "fit", summary: "train one software learner on numeric data (libsvm, CSV, IDX) as svm-train does; save the model",
			in:  []input{data, {"test", inData}},
			out: []output{file("model"), file("libsvm-model"), file("liblinear-model"), file("predictions")}, run: runFit},
		{name: "apply", summary: "predict with a model saved by fit, as svm-predict does: accuracy and predictions",
			in: []input{{"model", inFile}, data}, out: []output{file("predictions")}, run: runApply},
		{name: "grid", summary: "search C and γ by cross-validation, as LIBSVM's grid.py: table, best, contour picture",
			in: []input{data}, out: []output{file("png")}, run: runGrid},
		{name: "capacity", summary: "Cover's count (1965): how many labelings of N points a threshold unit realises; exactly 1/2 at N = 2d",
			out: []output{file("png")}, run: runCapacity},
		{name: "limits vc", summary: "the labelings of points in the plane a line separates, by linear programming, drawn as a sheet",
			out: []output{file("png")}, run: runLimitsVC},
		{name: "limits parity", summary: "the order of parity (Minsky and Papert 1969), found by linear programming and proved both ways",
			run: runLimitsParity},
		{name: "limits figures", summary: "Minsky and Papert's four figures (1969): no diameter-limited machine tells all four apart",
			run: runLimitsFigures},
		{name: "sweep plan", summary: "a grid search as a job array (Slurm, Kubernetes, GNU parallel): write the plan",
			in: []input{data}, out: []output{file("plan")}, run: runSweepPlan},
		{name: "sweep run", summary: "run one task of a sweep's plan into a results folder",
			in: []input{{"plan", inPlan}, data}, out: []output{{flag: "out", kind: atomicfile.Results, owns: selection.IsResultName}}, run: runSweepRun},
		{name: "sweep merge", summary: "merge a sweep's results into the table mark1 grid prints",
			in: []input{{"plan", inPlan}, data}, argsIn: true, out: []output{file("png"), file("model")}, run: runSweepMerge},
	}
}

// stimuliTargets are the files stimuli --out writes, by --format: a folder
// of class folders, one libsvm file, or an IDX pair; none may exist but a
// folder stimuli made before.
func stimuliTargets(fs *pflag.FlagSet, v string) []atomicfile.Output {
	switch fs.Lookup("format").Value.String() {
	case "libsvm":
		return []atomicfile.Output{{Path: v, Kind: atomicfile.NewFile}}
	case "idx":
		imgs, labels := images.IDXPairNames(v)
		return []atomicfile.Output{{Path: imgs, Kind: atomicfile.NewFile}, {Path: labels, Kind: atomicfile.NewFile}}
	}
	return []atomicfile.Output{{Path: v, Kind: atomicfile.Folder, Marker: "cards"}}
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

// groups describes the commands that have subcommands.
var groups = map[string]string{
	"sweep":  "a grid search as a job array (Slurm, Kubernetes, GNU parallel)",
	"limits": "what one threshold unit cannot compute (Minsky and Papert 1969)",
}

// usage lists the commands (of group, if not "": "sweep").
func usage(w io.Writer, cmds []command, group string) {
	if group != "" {
		fmt.Fprintf(w, "Usage: mark1 %s SUBCOMMAND [flags]\n\nSubcommands:\n", group)
		for _, c := range subcommands(cmds, group) {
			fmt.Fprintf(w, "  %-12s %s\n", c.name, c.summary)
		}
		fmt.Fprintf(w, "\nRun \"mark1 %s SUBCOMMAND --help\" for its flags (docs/%ss.md).\n", group, group)
		return
	}
	fmt.Fprintf(w, `mark1 simulates Frank Rosenblatt's Mark I Perceptron (1958): a 20x20 photocell
retina, 512 randomly wired association units, 8 response units, and weights that
are motor-driven potentiometers.

Usage: mark1 COMMAND [flags]

Commands:
`)
	names := map[string]string{}
	for _, c := range cmds {
		group, _, sub := strings.Cut(c.name, " ")
		if sub {
			names[group] = groups[group] + ": " + subNames(subcommands(cmds, group))
			continue
		}
		names[c.name] = c.summary
	}
	for _, n := range slices.Sorted(maps.Keys(names)) {
		fmt.Fprintf(w, "  %-8s %s\n", n, names[n])
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
