package cli

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"mark1/internal/base/atomicfile"
	"mark1/internal/base/param"
	"mark1/machine"
)

// machineFlags build a machine configuration: a preset, then a config file,
// then individual flags, each overriding the one before. The flags are the
// configuration's options (machine.ConfigOptions), named, defaulted and
// described as they are.
type machineFlags struct {
	preset, config string
	seed           uint64
	// listings: --wiring may also name a plugboard listing (train), which
	// is then listing, and the configuration's wiring random.
	listings bool
	listing  string
	// fourLayer registers --layers, --eta and --delta (train, compare, serve).
	fourLayer bool

	memory *budget    // bounds the --config file
	fields fieldFlags // the configuration's fields → the flags that set them
}

// register registers the machine flags on fs; memory, the command's
// --max-memory, bounds the --config file.
func (m *machineFlags) register(fs *pflag.FlagSet, memory *budget) {
	m.memory = memory
	fs.StringVar(&m.preset, "preset", "mark1", "machine preset: mark1, ideal, full or worn (see mark1 tasks)")
	fs.StringVar(&m.config, "config", "", "JSON file with a machine configuration (as in a machine file's \"config\")")
	fs.Uint64Var(&m.seed, "seed", 1, "master seed: wiring, cards, split, order and noise all derive from it")
	m.fields = machineFields()
	addOptions(fs, m.fields, m.options())
}

// options returns the configuration's options this command offers, their
// meanings as its flags tell them: the setting under which one takes part
// first, and --wiring's listings where the command reads them.
func (m *machineFlags) options() []param.Option[machine.Config] {
	var opts []param.Option[machine.Config]
	for _, o := range machine.ConfigOptions() {
		if o.With != "" {
			o.Doc = "with --" + o.With + ": " + o.Doc
		}
		if o.Name == "wiring" && m.listings {
			o.Doc += ",\nor a plugboard listing file (from mark1 wiring) to wire the machine exactly"
		}
		if !o.Coupling || m.fourLayer {
			opts = append(opts, o.Option)
		}
	}
	return opts
}

// machineFields is the table of the machine flags: the configuration's
// fields (machine.Config's JSON paths) → the flags that set them.
func machineFields() fieldFlags {
	t := fieldFlags{"preset": "--preset"}
	for _, o := range machine.ConfigOptions() {
		for _, field := range o.Fields {
			t.add(field, o.Name)
		}
	}
	return t
}

// build returns the configuration the flags describe, given being the
// flags given on the command line. A configuration that breaks a part's
// rule is refused naming where the bad value came from: the flags that
// set the setting and those its range depends on (a usage error, exit 2),
// found in the field → flag table (fields); else the --config file and
// its member (a bad file, exit 1). The rules are the parts' own
// (machine.Config.Validate and the stages' Validate).
func (m *machineFlags) build(given givenFlags) (machine.Config, error) {
	base, err := machine.Preset(m.preset)
	if err != nil {
		return base, usageError{err}
	}
	cfg := base
	if m.config != "" {
		if cfg, err = m.readConfig(base); err != nil {
			return cfg, err
		}
	}
	for _, o := range m.options() {
		v, ok := given[o.Name]
		if !ok {
			continue
		}
		err := o.Set(&cfg, v)
		if o.Name == "wiring" && err != nil && m.listings && !strings.HasPrefix(v, "local:") {
			m.listing, err = v, nil // a plugboard listing: the configuration's wiring stays random
		}
		if err != nil {
			return cfg, usagef("--%s: %v", o.Name, err)
		}
	}
	if err := cfg.Validate(); err != nil {
		if msg, ok := m.fields.blame(err, given); ok {
			return cfg, usageError{errors.New(msg)}
		}
		if m.config != "" {
			return cfg, fmt.Errorf("%s: %w", m.config, err)
		}
		return cfg, usageError{err}
	}
	return cfg, nil
}

// readConfig reads the --config file over the preset base. A file that
// breaks a part's rule is a bad file (exit 1), named with the member
// (the field error's path in the configuration).
func (m *machineFlags) readConfig(base machine.Config) (machine.Config, error) {
	b, err := atomicfile.ReadFile(m.config, m.memory.bytes(), "--max-memory")
	if err != nil {
		return base, fmt.Errorf("reading configuration: %w", err)
	}
	cfg, err := machine.DecodeConfig(b, base)
	if err != nil {
		return cfg, fmt.Errorf("%s: %w", m.config, err)
	}
	return cfg, nil
}

// blame says err, a field error, in the words of the given flags that set
// its field and the settings its range depends on (FieldsWith): "--cell-noise
// 2 out of range: want …", "--step 0.05 out of range with --limit 0.01:
// want …", or, when only a setting it depends on was given, "--x 0:
// associator.threshold 2 out of range: want …". ok is false when no given
// flag set any of them.
func (t fieldFlags) blame(err error, given givenFlags) (msg string, ok bool) {
	f, fields := param.As(err), param.Fields(err)
	if f == nil {
		return "", false
	}
	var named []string
	first := false // the field's own flag was given, and sets the field itself
	for i, field := range fields {
		flag, rest, ok := t.flag(field)
		if !ok {
			continue
		}
		v, ok := given[strings.TrimPrefix(flag, "--")]
		if !ok || slices.Contains(named, flag+" "+v) {
			continue
		}
		named = append(named, flag+" "+v)
		first = first || i == 0 && rest == ""
	}
	switch {
	case len(named) == 0:
		return "", false
	case first && len(named) == 1:
		return fmt.Sprintf("%s out of range: want %s", named[0], f.FieldRange()), true
	case first:
		return fmt.Sprintf("%s out of range with %s: want %s", named[0], strings.Join(named[1:], ", "), f.FieldRange()), true
	}
	return fmt.Sprintf("%s: %v", strings.Join(named, " "), f), true
}

// givenFlags are the flags given on a command line, by name, with their
// values as text: what helpers need to know of the command line once it
// is parsed.
type givenFlags map[string]string

// given returns the flags given to fs.
func given(fs *pflag.FlagSet) givenFlags {
	g := givenFlags{}
	fs.Visit(func(f *pflag.Flag) { g[f.Name] = f.Value.String() })
	return g
}

// has reports whether any of the named flags was given.
func (g givenFlags) has(names ...string) bool {
	for _, n := range names {
		if _, ok := g[n]; ok {
			return true
		}
	}
	return false
}

// refuse returns err, a part's refusal of a value, as a usage error
// naming the given flags behind its field (blame), else as it is; nil for
// nil.
func (t fieldFlags) refuse(err error, given givenFlags) error {
	if err == nil {
		return nil
	}
	if msg, ok := t.blame(err, given); ok {
		return usageError{errors.New(msg)}
	}
	return usageError{err}
}

// usageGiven returns err as a usage error naming the given flags behind
// its field (blame); err unchanged when no given flag set it.
func (t fieldFlags) usageGiven(err error, given givenFlags) error {
	if msg, ok := t.blame(err, given); ok {
		return usageError{errors.New(msg)}
	}
	return err
}
