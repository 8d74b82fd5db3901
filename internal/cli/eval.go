package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"io"
	"os"

	"mark1/images"
	"mark1/internal/base/atomicfile"
	"mark1/machine"

	"github.com/spf13/pflag"
)

// loadMachine reads the machine file path named by --machine, at most
// limit bytes (the command's --max-memory); an interrupt while it is read
// or decoded is ctx's error at once.
func loadMachine(ctx context.Context, limit int64, path string) (*machine.Machine, error) {
	if path == "" {
		return nil, usagef("--machine FILE is required (train one with: mark1 train)")
	}
	return machine.LoadContext(ctx, path, limit, "--max-memory")
}

// machineFileFlag registers --machine, the machine file a command reads.
func machineFileFlag(fs *pflag.FlagSet) *string {
	return fs.String("machine", "mark1.json", "the machine file")
}

func runEval(ctx context.Context, env *Env, args []string) error {
	var data dataFlags
	fs := newFlags(env, "eval --machine FILE [--data PATH | --task NAME] [--json]", "Measures a saved machine, weights frozen: accuracy and a confusion matrix.")
	path, asJSON := machineFileFlag(fs), fs.Bool("json", false, "print the accuracy and the confusion matrix as JSON (fields in the README)")
	data.register(fs, false)
	seed := fs.Uint64("seed", 2, "seed for a built-in task's cards (differs from train's default, so the cards are new)")
	if err := env.parse(fs, args); err != nil {
		return err
	}
	m, err := loadMachine(ctx, data.memory.bytes(), *path)
	if err != nil {
		return err
	}
	g := given(fs)
	if g["task"] == "" && g["data"] == "" {
		return usagef("eval: give --data PATH or --task NAME")
	}
	d, _, err := data.load(ctx, g, *seed)
	if err != nil {
		return err
	}
	if err := m.Relabel(d); err != nil {
		return err
	}
	if err := data.checkFit(m.Config, d); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil { // interrupted while the data were read
		return err
	}
	e, err := machine.Evaluate(ctx, m, *path, d)
	if err != nil || *asJSON {
		return cmp.Or(err, writeJSON(env.Stdout, e))
	}
	return e.WriteText(env.Stdout)
}

// writeJSON writes v as indented JSON, one document.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func runPredict(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "predict --machine FILE [--json] IMAGE...", "Shows each picture to a saved machine and prints its answer, each R-unit's sum\nand output, and P_a, the fraction of A-units that fired.")
	path, asJSON := machineFileFlag(fs), fs.Bool("json", false, "print the answers as one JSON document (fields in the README)")
	fields := fieldFlags{}
	addOptions(fs, fields, images.SourceOptions(), "max-pixels")
	memory := memoryFlag(fs)
	if err := env.parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("predict: give one or more image files")
	}
	src := images.Source{MaxBytes: memory.bytes()} // the pictures' limits, by the data's rules
	if err := setOptions(fs, &src, images.SourceOptions(), false); err != nil {
		return err
	}
	if err := src.Validate(); err != nil {
		return fields.refuse(err, given(fs))
	}
	m, err := loadMachine(ctx, memory.bytes(), *path)
	if err != nil {
		return err
	}
	p, err := m.Predict(ctx, *path, fs.Args(), images.Limits{MaxPixels: src.MaxPixels})
	if err != nil {
		return err
	}
	return emit(env.Stdout, *asJSON, p)
}

func runWiring(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "wiring --machine FILE [--out FILE]", "Prints the machine's plugboard: each A-unit's threshold and its excitatory and\ninhibitory origin points (row,col). Edit it and train again with --wiring FILE.")
	path, out := machineFileFlag(fs), fs.String("out", "", "write the listing to this file instead of standard output")
	memory := memoryFlag(fs)
	if err := env.parse(fs, args); err != nil {
		return err
	}
	m, err := loadMachine(ctx, memory.bytes(), *path)
	if err != nil {
		return err
	}
	if *out == "" {
		return m.WriteWiring(env.Stdout)
	}
	return atomicfile.Write(*out, func(f *os.File) error { return m.WriteWiring(f) })
}
