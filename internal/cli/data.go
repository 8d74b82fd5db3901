package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"

	"github.com/spf13/pflag"

	"mark1/dataset"
	"mark1/images"
	"mark1/internal/base/limit"
	"mark1/internal/base/memguard"
	"mark1/machine"
)

// defaultTask is what train and compare use when given no data.
const defaultTask = "shapes"

// dataFlags choose the pictures a command works on: a Source's options
// (images.SourceOptions) and --max-memory.
type dataFlags struct {
	fs     *pflag.FlagSet // the Source's options' flags
	memory *budget        // --max-memory
	fields fieldFlags     // images.Source's fields → the flags that set them
	// scaled, when set, is read instead of --data's file: compare's
	// scaled copy of it (--as-pictures --scale).
	scaled string
}

// register registers the data flags on fs; split adds --test and
// --test-split, for commands that hold data out.
func (d *dataFlags) register(fs *pflag.FlagSet, split bool) {
	d.fs, d.fields = fs, fieldFlags{"max_bytes": "--max-memory"}
	addOptions(fs, d.fields, images.SourceOptions(), "task", "data", "n", "card-size", "max-pixels")
	d.memory = memoryFlag(fs)
	if split {
		addOptions(fs, d.fields, images.SourceOptions(), "test", "test-split")
	}
}

// maxMemoryHelp describes --max-memory.
const maxMemoryHelp = "bytes (2e9, 512MB, 2GiB): refuse data whose samples, or the machine's fitted cards, would take more than this many bytes (checked before reading),\nand any machine, configuration or wiring file or animation larger than this; it is also Go's soft memory limit\n(GOMEMLIMIT overrides), and fit and compare stop once their live memory passes it"

// A budget is a command's --max-memory: the bound on the data it reads,
// the cards it fits, every machine, configuration or wiring file it reads
// whole, the animations it draws, and (as Go's soft memory limit) its
// heap. It is registered once (memoryFlag), checked once when the flags
// are parsed (parse), and then passed down as a value.
type budget struct{ limit.Bytes }

// parseBytes reads a size in bytes as budget.Set describes it
// (limit.ParseBytes).
func parseBytes(s string) (int64, error) { return limit.ParseBytes(s) }

// Type is "int64", as an Int64 flag's (the help says "int"): with the
// size's own Set and String (limit.Bytes), a budget is a pflag.Value.
func (b *budget) Type() string { return "int64" }

// bytes returns the budget in bytes.
func (b *budget) bytes() int64 { return int64(b.Bytes) }

// maxMemory is the largest --max-memory: 1 PiB, far above any machine, and
// far enough below the largest int64 that sums of sizes against it cannot
// overflow.
const maxMemory = 1 << 50

// check refuses a budget out of range, naming the flag.
func (b *budget) check(flag string) error {
	if v := b.bytes(); v < 1<<20 || v > maxMemory {
		return usagef("--%s %d out of range [%d (1 MiB), %d (1 PiB)]", flag, v, 1<<20, int64(maxMemory))
	}
	return nil
}

// memoryFlag registers --max-memory on fs and returns its budget, the
// default until the flags are parsed.
func memoryFlag(fs *pflag.FlagSet) *budget {
	b := budget{images.DefaultMaxBytes}
	fs.Var(&b, "max-memory", maxMemoryHelp)
	return &b
}

// sizes returns what the data flags set, refusing the sizes out of range
// by the data's own rules (images.Source.Validate), every one whether or
// not the data use it; 0 asks for none (the options' param.None), where
// images.Source reads 0 as its default. The task and the path are
// source's to check. given are the flags given. It changes nothing in d:
// a seed experiment loads its seeds' data at once.
func (d *dataFlags) sizes(given givenFlags) (images.Source, error) {
	set := images.Source{MaxBytes: d.memory.bytes()}
	if err := setOptions(d.fs, &set, images.SourceOptions(), false); err != nil {
		return set, err
	}
	sizes := set
	sizes.Task, sizes.Path = "", ""
	return set, d.fields.refuse(sizes.Validate(), given)
}

// limits returns the bounds the flags put on the data a command reads:
// --max-memory and --max-pixels, as one value, once the flags are checked
// (sizes). A machine file's recorded data are held to them too
// (machine.Recipe.Load).
func (d *dataFlags) limits(given givenFlags) (images.Limits, error) {
	set, err := d.sizes(given)
	if err != nil {
		return images.Limits{}, err
	}
	return set.Limits(), nil
}

// source returns the data the flags describe, drawn and split with seed;
// given are the flags given (an empty --data is not none). Out-of-range
// flags are usage errors.
func (d *dataFlags) source(given givenFlags, seed uint64) (images.Source, error) {
	if given["task"] != "" && given["data"] != "" {
		return images.Source{}, usagef("give --task or --data, not both")
	}
	for _, name := range []string{"data", "task", "test"} {
		if v, ok := given[name]; ok && v == "" {
			return images.Source{}, usagef("--%s is empty: name a %s", name, map[string]string{"data": "data file or folder", "task": "task (see mark1 tasks)", "test": "data file or folder"}[name])
		}
	}
	src, err := d.sizes(given)
	if err != nil {
		return images.Source{}, err
	}
	src.Path, src.Seed = cmp.Or(d.scaled, src.Path), seed
	src = src.Used()
	if err := src.Validate(); err != nil { // the task and the path
		return images.Source{}, usageError{err}
	}
	return src, nil
}

// load reads the data set and splits off the held-out part (which may be
// empty). seed draws built-in cards and the split; given are the flags
// given.
func (d *dataFlags) load(ctx context.Context, given givenFlags, seed uint64) (train, test *images.Dataset, err error) {
	src, err := d.source(given, seed)
	if err != nil {
		return nil, nil, err
	}
	train, test, err = src.LoadContext(memguard.Unguarded(ctx))
	return train, test, dataHint(err)
}

// machineCards returns the training and held-out cards of a machine
// loaded from path: --task's or --data's, drawn and split with seed and
// labelled as the machine's classes, else those the machine file records
// (machine.Recipe.Load, within the data limits). cmd names the command.
func (d *dataFlags) machineCards(ctx context.Context, g givenFlags, m *machine.Machine, path string, seed uint64, cmd string) (train, test *images.Dataset, err error) {
	var src *images.Source
	if g["task"] != "" || g["data"] != "" {
		s, err := d.source(g, seed)
		if err != nil {
			return nil, nil, err
		}
		src = &s
	} else if g.has("test", "test-split", "n", "card-size") {
		return nil, nil, usagef("%s: --test, --test-split, --n and --card-size need --task or --data", cmd)
	}
	lim, err := d.limits(g)
	if err != nil {
		return nil, nil, err
	}
	train, test, err = m.Cards(memguard.Unguarded(ctx), src, path, lim)
	if errors.Is(err, machine.ErrNoRecipe) {
		return nil, nil, fmt.Errorf("%w: give --task or --data", err)
	}
	return train, test, dataHint(err)
}

// checkFit refuses a machine of configuration cfg for the data sets' classes
// if the machine itself, or the cards fitted onto its retina, would take
// more than --max-memory bytes; call it before machine.New, m.Fields or
// m.Fit.
func (d *dataFlags) checkFit(cfg machine.Config, sets ...*images.Dataset) error {
	return dataHint(cfg.CheckData(d.memory.bytes(), sets...))
}

// dataHint adds to err the flags that would help: --max-memory when it
// refuses something over the memory budget (images.ErrMemory, or a limit
// dataset derives from it), that none would for a bound of the format
// (dataset.BoundFormat), the data
// limits and how to see the details when it refuses data a machine file
// records (machine.RecordedDataError). Other errors are returned as they
// are.
func dataHint(err error) error {
	var rec *machine.RecordedDataError
	switch {
	case errors.As(err, &rec) && errors.Is(rec.Kind, dataset.ErrTooLarge):
		return fmt.Errorf("%w; raise the limits with --max-memory or --max-pixels", err)
	case errors.As(err, &rec):
		return fmt.Errorf("%w; name the data yourself, as in mark1 eval --data PATH, to see the details", err)
	case errors.Is(err, images.ErrMemory), dataset.BoundOf(err) == dataset.BoundBudget:
		return fmt.Errorf("%w (raise it with --max-memory)", err)
	case dataset.BoundOf(err) == dataset.BoundFormat:
		return fmt.Errorf("%w (no flag raises it)", err)
	}
	return err
}
