package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"mark1/associator"
	"mark1/chart"
	"mark1/dataset"
	"mark1/internal/base/atomicfile"
	"mark1/internal/base/memguard"
	"mark1/learning/selection"
)

// The frame. Every command is a line of the table in commands(): its name,
// the files it reads (with their companions) and writes, and its run
// function. Run dispatches to it and, for every command alike:
//
//   - marks the declared flags as inputs and outputs when the command's
//     flags are parsed (Env.parse), so no command can forget one;
//   - refuses, before any work, by the file rules of atomicfile
//     (CheckOutputs), an output that names an input or one of an input's
//     companions (the IDX labels file beside its images, the data a sweep
//     plan names) by file identity, through symbolic and hard links, an
//     output that would replace a file inside an input folder, two outputs
//     naming one file, and each output its kind refuses (Output.Check): a
//     file that cannot be written atomically (a folder, a device, a missing
//     or read-only folder), a folder that is a system folder, or exists and
//     holds what the command must not replace;
//   - after a failure or an interrupt, removes a folder output the command
//     made and left empty (the files themselves are written atomically:
//     nothing half-written is ever in place);
//   - maps the error to one line on standard error and an exit status
//     (Main).
//
// The hostile-input tests are generated from the same table
// (frame_test.go): a new command gets its rows by being declared.

// A command is one line of the command table.
type command struct {
	name    string // "fit", or "sweep run" for a subcommand
	summary string
	in      []input
	out     []output
	// argsIn marks the positional arguments as inputs (files or folders).
	argsIn bool
	run    func(ctx context.Context, env *Env, args []string) error
}

// An input is a flag naming a file or folder the command reads.
type input struct {
	flag string
	kind inKind
}

type inKind int

const (
	inFile   inKind = iota // a file or folder, read as it is
	inData                 // numeric or picture data: IMAGES,LABELS or an IDX images file beside its labels
	inPlan                 // a sweep plan: the data file it names is read too
	inWiring               // a wiring's name (random, local:D: no file) or a plugboard listing file
)

// An output is a flag naming what the command writes.
type output struct {
	flag string
	kind atomicfile.Kind
	// marker is the kind of folder an atomicfile.Folder output makes
	// (atomicfile.WriteDirMarked): "cards", "lab site".
	marker string
	// owns, for an atomicfile.Results folder, tells the names of files the
	// command may add to: a folder holding anything else is refused.
	owns func(name string) bool
	// rewrites names the input flags this output may replace (train
	// --resume F --out F resumes a run in place).
	rewrites []string
	// paths, when set, gives the files or folders the flag's value stands
	// for (stimuli --format idx --out X writes X-images-idx3-ubyte.gz and
	// X-labels-idx1-ubyte.gz), each with its kind.
	paths func(fs *pflag.FlagSet, v string) []atomicfile.Output
}

// targets returns what output o writes given its flag's value v.
func (o output) targets(fs *pflag.FlagSet, v string) []atomicfile.Output {
	if o.paths != nil {
		return o.paths(fs, v)
	}
	return []atomicfile.Output{{Path: v, Kind: o.kind, Marker: o.marker, Owns: o.owns}}
}

// find returns the command that args name, and the arguments left for it.
func find(cmds []command, args []string) (*command, []string) {
	if len(args) > 1 {
		for i := range cmds {
			if cmds[i].name == args[0]+" "+args[1] {
				return &cmds[i], args[2:]
			}
		}
	}
	for i := range cmds {
		if cmds[i].name == args[0] {
			return &cmds[i], args[1:]
		}
	}
	return nil, nil
}

// subcommands returns the commands whose names begin with group and a
// space ("sweep run" for "sweep").
func subcommands(cmds []command, group string) []command {
	var sub []command
	for _, c := range cmds {
		if strings.HasPrefix(c.name, group+" ") {
			sub = append(sub, c)
		}
	}
	return sub
}

// Run runs one mark1 command.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	env := &Env{Stdin: stdin, Stdout: stdout, Stderr: stderr}
	cmds := commands()
	help := len(args) > 0 && (args[0] == "help" || args[0] == "-h" || args[0] == "--help")
	if len(args) == 0 || help && len(args) == 1 {
		usage(stdout, cmds, "")
		return nil
	}
	if help {
		args = append(args[1:], "--help")
	}
	c, rest := find(cmds, args)
	if c == nil {
		if sub := subcommands(cmds, args[0]); len(sub) > 0 {
			if len(args) > 1 && (args[1] == "-h" || args[1] == "--help") {
				usage(stdout, cmds, args[0])
				return nil
			}
			return usagef("%s: want one of %s (mark1 %s --help)", args[0], subNames(sub), sub[0].name)
		}
		usage(stderr, cmds, "")
		return usagef("unknown command %q", args[0])
	}
	env.cmd = c
	// parse may set the soft memory limit (holdMemory): it lasts as long
	// as the command.
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	err := c.run(ctx, env, rest)
	if err != nil {
		env.tidy()
	}
	return err
}

func subNames(sub []command) string {
	var n []string
	for _, c := range sub {
		n = append(n, strings.Fields(c.name)[1])
	}
	return strings.Join(n, ", ")
}

// parse parses args into fs, the flags of env's command, and applies the
// frame's checks before the command does any work: the declared inputs and
// outputs (see the top of this file), then the command's budget
// (--max-memory), which is Go's soft memory limit from here on
// (holdMemory). A flag error is a usage error; --help is ErrHelp.
func (env *Env) parse(fs *pflag.FlagSet, args []string) error {
	if env.cmd != nil {
		env.declare(fs)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return err
		}
		return usageError{fmt.Errorf("%s: %w", fs.Name(), err)}
	}
	if env.cmd != nil && !env.cmd.argsIn && fs.NArg() > 0 {
		return usagef("%s: unexpected argument %q", env.cmd.name, fs.Arg(0))
	}
	if err := env.checkFiles(fs); err != nil {
		return err
	}
	var err error
	fs.VisitAll(func(f *pflag.Flag) {
		if b, ok := f.Value.(*budget); ok && err == nil {
			if err = b.check(f.Name); err == nil {
				memguard.HoldLimit(b.bytes())
			}
		}
	})
	return err
}

// declare marks the command's declared flags on fs (a declared flag the
// command does not register is a bug in the table: it panics, and every
// command's --help test finds it).
func (env *Env) declare(fs *pflag.FlagSet) {
	var flags []string
	for _, in := range env.cmd.in {
		flags = append(flags, in.flag)
	}
	for _, o := range env.cmd.out {
		flags = append(append(flags, o.flag), o.rewrites...)
	}
	for _, f := range flags {
		if fs.Lookup(f) == nil {
			panic(fmt.Sprintf("cli: %s declares --%s, which it does not register", env.cmd.name, f))
		}
	}
}

// A file is one path a command reads or writes, and the flag (or
// argument) that named it.
type file struct {
	flag string // without dashes; "" for a positional argument
	atomicfile.Output
}

func (f file) name() string {
	if f.flag == "" {
		return "argument " + f.Path
	}
	return "--" + f.flag + " " + f.Path
}

// checkFiles is the frame's check of a parsed command line
// (atomicfile.CheckOutputs): every output against every input (companions
// included) and every other output, then each output on its own; the
// trouble is worded with the flags. It records the folders an output may
// make, for tidy.
func (env *Env) checkFiles(fs *pflag.FlagSet) error {
	if env.cmd == nil {
		return nil
	}
	ins, outs := env.inputs(fs), env.outputs(fs)
	var inPaths []string
	for _, in := range ins {
		inPaths = append(inPaths, in.Path)
	}
	var targets []atomicfile.Output
	for _, o := range outs {
		targets = append(targets, o.Output)
	}
	err := atomicfile.CheckOutputs(targets, inPaths, func(o, in int) bool {
		return slices.Contains(env.cmd.outputNamed(outs[o].flag).rewrites, ins[in].flag)
	})
	var clash *atomicfile.Clash
	var bad *atomicfile.OutputError
	switch {
	case errors.As(err, &clash):
		return clashError(fs, clash, outs, ins)
	case errors.As(err, &bad) && errors.Is(err, atomicfile.ErrExists):
		return usagef("--%s %v", outs[bad.Out].flag, bad.Err)
	case errors.As(err, &bad):
		return fmt.Errorf("--%s: %w", outs[bad.Out].flag, bad.Err)
	}
	for _, o := range outs {
		if (o.Kind == atomicfile.Folder || o.Kind == atomicfile.Results) && !atomicfile.Exists(o.Path) {
			env.made = append(env.made, o.Path)
		}
	}
	return nil
}

// clashError words a clash between the command's files with their flags.
func clashError(fs *pflag.FlagSet, c *atomicfile.Clash, outs, ins []file) error {
	o := outs[c.Out]
	switch c.Kind {
	case atomicfile.ClashOutput:
		if o2 := outs[c.With]; o.flag != o2.flag {
			return usagef("--%s and --%s both name %s: two outputs cannot be written to one file", o.flag, o2.flag, o.Path)
		}
		return usagef("--%s %s writes two files of one name", o.flag, o.Path)
	case atomicfile.ClashInside:
		return usagef("--%s %s is inside input folder %s: refusing to replace a file of an input (choose another --%s)", o.flag, o.Path, ins[c.With].Path, o.flag)
	}
	in := ins[c.With]
	if in.flag != "" && in.Path != fs.Lookup(in.flag).Value.String() {
		return usagef("--%s %s is read with --%s %s: refusing to replace an input with an output (choose another --%s)", o.flag, o.Path, in.flag, fs.Lookup(in.flag).Value.String(), o.flag)
	}
	return usagef("--%s %s is also %s: refusing to replace an input with an output (choose another --%s)", o.flag, o.Path, in.name(), o.flag)
}

// outputNamed returns the declaration of output flag name.
func (c *command) outputNamed(name string) output {
	for _, o := range c.out {
		if o.flag == name {
			return o
		}
	}
	return output{}
}

// inputs returns the files env's command reads, as given: every declared
// input flag that is set (a default counts as much as a given value), its
// companions, and the positional arguments if they are inputs.
func (env *Env) inputs(fs *pflag.FlagSet) []file {
	var ins []file
	for _, in := range env.cmd.in {
		v := fs.Lookup(in.flag).Value.String()
		if v == "" || v == "-" {
			continue
		}
		if _, err := associator.ParseWiring(v); in.kind == inWiring && err == nil {
			continue
		}
		for _, p := range append([]string{v}, companions(in.kind, v)...) {
			ins = append(ins, file{flag: in.flag, Output: atomicfile.Output{Path: p}})
		}
	}
	if env.cmd.argsIn {
		for _, a := range fs.Args() {
			ins = append(ins, file{Output: atomicfile.Output{Path: a}})
		}
	}
	return ins
}

// outputs returns every path env's command will write: each declared
// output flag that is set, as its targets.
func (env *Env) outputs(fs *pflag.FlagSet) []file {
	var outs []file
	for _, o := range env.cmd.out {
		v := fs.Lookup(o.flag).Value.String()
		if v == "" || v == "-" {
			continue
		}
		for _, t := range o.targets(fs, v) {
			outs = append(outs, file{flag: o.flag, Output: t})
		}
	}
	return outs
}

// companions returns the files read beside an input of kind k named v: the
// two files of IMAGES,LABELS, the labels file beside an IDX images file
// (dataset.Files), and for a sweep plan the data it names (and their
// companions).
func companions(k inKind, v string) []string {
	switch k {
	case inData:
		return slices.DeleteFunc(dataset.Files(v), func(f string) bool { return f == v })
	case inPlan:
		if data := selection.PlanData(v); data != "" {
			return append([]string{data}, companions(inData, data)...)
		}
	}
	return nil
}

// marker is the kind of folder output flag makes whole, as the table
// declares it (atomicfile.WriteDirMarked).
func (env *Env) marker(flag string) string {
	return env.cmd.outputNamed(flag).marker
}

// tidy, after a command failed or was interrupted, removes each folder
// output that did not exist before the command and that it left empty.
func (env *Env) tidy() {
	for _, dir := range env.made {
		atomicfile.RemoveIfEmpty(dir)
	}
}

// writeDrawing writes d to the PNG file png and the SVG file svg, each if
// named ("" for none), atomically: the one way every command writes its
// pictures.
func writeDrawing(d *chart.Drawing, png, svg string) error {
	if png != "" {
		if err := atomicfile.Write(png, func(f *os.File) error { return d.WritePNG(f) }); err != nil {
			return err
		}
	}
	if svg != "" {
		return atomicfile.Write(svg, func(f *os.File) error { return d.WriteSVG(f) })
	}
	return nil
}
