package cli

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"mark1/images"
	"mark1/internal/base/param"
	"mark1/machine"
)

func runStimuli(ctx context.Context, env *Env, args []string) error {
	var task, out, format string
	var n, size int
	var seed uint64
	fs := newFlags(env, "stimuli --task NAME --n N --out DIR [--format png|idx|libsvm]", `Writes a built-in task's cards as PNG files, one sub-folder per class, so you can
see what the machine sees (and train on them with --data DIR). --format idx
writes OUT-images-idx3-ubyte.gz and OUT-labels-idx1-ubyte.gz (MNIST's layout);
--format libsvm writes the file OUT, a line per card: the class number, then
every pixel's grey level (0 black, 255 white) as features 1 to size².`)
	fs.StringVar(&task, "task", defaultTask, "the task (see mark1 tasks)")
	fs.IntVar(&n, "n", 20, "cards per class")
	fs.IntVar(&size, "card-size", 20, "side of a card in pixels")
	fs.StringVar(&out, "out", "", "the folder to create (must not exist or be empty)")
	fs.Uint64Var(&seed, "seed", 1, "seed for drawing the cards")
	fs.StringVar(&format, "format", "png", "png (class folders), idx (gzipped MNIST-style pair) or libsvm (text)")
	if err := env.parse(fs, args); err != nil {
		return err
	}
	if out == "" {
		return usagef("stimuli: --out DIR is required")
	}
	// The cards' sizes are images' rule, as for train's --n and --card-size
	// (0 asks for none, never for the default).
	src := images.Source{Task: task, PerClass: param.None(n), CardSize: param.None(size)}
	if err := src.Validate(); err != nil {
		return fieldFlags{"n": "--n", "card_size": "--card-size"}.refuse(err, given(fs))
	}
	if !slices.Contains(images.WriteFormats(), format) {
		return usagef("stimuli: --format %q: want png, idx or libsvm", format)
	}
	d, err := images.GenerateContext(ctx, task, n, size, seed)
	if err != nil || ctx.Err() != nil { // or interrupted while the cards were drawn
		return cmp.Or(ctx.Err(), error(usageError{err}))
	}
	if out, err = images.WriteAs(ctx, d, size, format, out, env.marker("out")); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "Wrote %d cards of task %q (%d classes) to %s.\n", d.Len(), task, len(d.Classes), out)
	return nil
}

func runTasks(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "tasks", "Lists the built-in tasks and the machine presets.")
	if err := env.parse(fs, args); err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, "Built-in tasks (mark1 train --task NAME; mark1 stimuli --task NAME --out DIR):")
	if err := images.WriteTaskList(env.Stdout); err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, "\nMachine presets (mark1 train --preset NAME):")
	return machine.WritePresetList(env.Stdout)
}
