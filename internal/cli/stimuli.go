package cli

import (
	"context"
	"fmt"

	"mark1/images"
	"mark1/machine"
)

func runStimuli(ctx context.Context, env *Env, args []string) error {
	var task, out string
	var n, size int
	var seed uint64
	fs := newFlags(env, "stimuli --task NAME --n N --out DIR", "Writes a built-in task's cards as PNG files, one sub-folder per class, so you can\nsee what the machine sees (and train on them with --data DIR).")
	fs.StringVar(&task, "task", defaultTask, "the task (see mark1 tasks)")
	fs.IntVar(&n, "n", 20, "cards per class")
	fs.IntVar(&size, "card-size", 20, "side of a card in pixels")
	fs.StringVar(&out, "out", "", "the folder to create (must not exist or be empty)")
	fs.Uint64Var(&seed, "seed", 1, "seed for drawing the cards")
	if err := parse(fs, args); err != nil {
		return err
	}
	if out == "" {
		return usagef("stimuli: --out DIR is required")
	}
	if n < 1 || n > 100000 || size < 4 || size > 4096 {
		return usagef("stimuli: --n must be in [1, 100000] and --card-size in [4, 4096]")
	}
	d, err := images.Generate(task, n, size, seed)
	if err != nil {
		return usageError{err}
	}
	if err := images.WriteFolder(ctx, d, out); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "Wrote %d cards of task %q (%d classes) to %s.\n", d.Len(), task, len(d.Classes), out)
	return nil
}

func runTasks(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "tasks", "Lists the built-in tasks and the machine presets.")
	if err := parse(fs, args); err != nil {
		return err
	}
	w := env.Stdout
	fmt.Fprintln(w, "Built-in tasks (mark1 train --task NAME; mark1 stimuli --task NAME --out DIR):")
	for _, t := range images.Tasks() {
		fmt.Fprintf(w, "  %-14s %s (%d classes)\n", t.Name, t.Description, len(t.Classes))
	}
	fmt.Fprintln(w, "\nMachine presets (mark1 train --preset NAME):")
	for _, p := range machine.Presets() {
		fmt.Fprintf(w, "  %-14s %s\n", p.Name, p.Description)
	}
	return nil
}
