package cli

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"mark1/internal/base/param"
	"mark1/learning/learners"
)

// fieldFlags maps the fields of the library's typed errors
// (param.FieldError: "C", "gamma", "recipe.pulses") to the flags that set
// them, built as the flags are registered. A field not in the table but
// under one that is ("kernel.degree", written in --kernel's word) is
// blamed on that flag.
type fieldFlags map[string]string

// add records that flag sets field.
func (t fieldFlags) add(field, flag string) { t[field] = "--" + flag }

// flag returns the flag of field and the rest of the field's name under it
// ("" when the flag sets the field itself).
func (t fieldFlags) flag(field string) (flag, rest string, ok bool) {
	for name := field; ; {
		if f, ok := t[name]; ok {
			return f, strings.TrimPrefix(strings.TrimPrefix(field, name), "."), true
		}
		i := strings.LastIndex(name, ".")
		if i < 0 {
			return "", "", false
		}
		name = name[:i]
	}
}

// message says what is wrong in the flag's words, or "" when err holds no
// field error of a flag in the table.
func (t fieldFlags) message(err error) string {
	f := param.As(err)
	if f == nil {
		return ""
	}
	flag, rest, ok := t.flag(f.FieldName())
	if !ok {
		return ""
	}
	if rest != "" {
		return fmt.Sprintf("%s: %s %s out of range: want %s", flag, rest, f.FieldValue(), f.FieldRange())
	}
	return fmt.Sprintf("%s %s out of range: want %s", flag, f.FieldValue(), f.FieldRange())
}

// usage returns err as a usage error (exit 2) naming the flag of its field,
// for values refused before any data are read; err unchanged when no flag
// of the table set the field.
func (t fieldFlags) usage(err error) error {
	if m := t.message(err); m != "" {
		return usageError{errors.New(m)}
	}
	return err
}

// learnerFlags are the registry's learner options as flags: one flag per
// option, named as the option, with the registry's default and meaning.
type learnerFlags struct {
	learner string
	opts    learners.Options
	text    map[string]*string // the flags' text, applied by options
	order   []string
	fields  fieldFlags
	// lab registers the options only the lab's learners read (sgd's
	// batch), which the other commands, running none of them, leave out.
	lab bool
}

// optionValue is a learner option's flag: it keeps the text, which
// learnerFlags.options sets and checks in the registry (so that a bad
// value is a field error like every other).
type optionValue struct {
	text *string
	typ  string
}

func (v optionValue) String() string     { return *v.text }
func (v optionValue) Set(s string) error { *v.text = s; return nil }
func (v optionValue) Type() string       { return v.typ }
func (v optionValue) IsBoolFlag() bool   { return v.typ == "bool" }

// register adds the --learner flag (when def is not empty) and a flag for
// every registry option not in skip, recording the field → flag table in
// fields.
func (l *learnerFlags) register(fs *pflag.FlagSet, fields fieldFlags, def string, skip ...string) {
	l.opts = learners.Defaults()
	l.text = map[string]*string{}
	l.fields = fields
	if def != "" {
		var names []string
		for _, s := range learners.All() {
			if l.lab || !s.LabOnly {
				names = append(names, s.Name)
			}
		}
		fs.StringVar(&l.learner, "learner", def, "learner: "+strings.Join(names, ", "))
		fields.add("learner", "learner")
	}
	for _, op := range learners.OptionList() {
		if slices.Contains(skip, op.Name) || (!l.lab && learners.LabOnlyOption(op.Name)) {
			continue
		}
		text := l.opts.Get(op.Name)
		l.text[op.Name] = &text
		l.order = append(l.order, op.Name)
		f := fs.VarPF(optionValue{&text, op.Type}, op.Name, "", op.Doc)
		if op.Bool {
			f.NoOptDefVal = "true"
		}
		fields.add(op.Name, op.Name)
	}
}

// options returns the flags' options, each set and checked by the registry
// (learners.Options.Set, then Validate); a value out of range is a usage
// error naming its flag.
func (l *learnerFlags) options() (learners.Options, error) {
	o := learners.Defaults()
	for _, name := range l.order {
		if err := o.Set(name, *l.text[name]); err != nil {
			return o, l.fields.usage(err)
		}
	}
	if err := o.Validate(); err != nil {
		return o, l.fields.usage(err)
	}
	return o, nil
}

// spec returns the --learner's registry entry, checked with o.
func (l *learnerFlags) spec(o learners.Options) (learners.Spec, error) {
	s, err := learners.Lookup(l.learner)
	if err != nil {
		return s, l.fields.usage(err)
	}
	if s.LabOnly && !l.lab {
		return s, usagef("--learner %s out of range: %s is traced by mark1 lab and the lab page only", s.Name, s.Name)
	}
	if err := s.Check(o); err != nil {
		return s, l.fields.usage(err)
	}
	return s, nil
}

// addOptions registers the options of a part's registry named in names
// (every one when none is named, in the registry's order) as flags named as
// the options, with their defaults and meanings, and records in fields the
// flag that sets each option's fields.
func addOptions[T any](fs *pflag.FlagSet, fields fieldFlags, opts []param.Option[T], names ...string) {
	if len(names) == 0 {
		for _, o := range opts {
			names = append(names, o.Name)
		}
	}
	for _, name := range names {
		o, ok := param.Find(opts, name)
		if !ok {
			panic("cli: no option " + name)
		}
		addFlag(fs, o.Name, o.Default, o.Doc)
		for _, field := range o.Fields {
			fields.add(field, o.Name)
		}
	}
}

// under returns opts with their meanings said as those of options that go
// with a flag, after the words given ("--animate: time each epoch is
// shown", "with --on-retina: epoch limit of each machine").
func under[T any](with string, opts []param.Option[T]) []param.Option[T] {
	for i := range opts {
		opts[i].Doc = with + ": " + opts[i].Doc
	}
	return opts
}

// optionRef is an option named in another's meaning ({name}).
var optionRef = regexp.MustCompile(`\{([a-z][a-z0-9-]*)\}`)

// addFlag registers the flag name of the default's type, its usage the
// option's meaning with the options it names written as flags.
func addFlag(fs *pflag.FlagSet, name string, def any, doc string) {
	doc = optionRef.ReplaceAllString(doc, "--$1")
	switch d := def.(type) {
	case int:
		fs.Int(name, d, doc)
	case int64:
		fs.Int64(name, d, doc)
	case float64:
		fs.Float64(name, d, doc)
	case bool:
		fs.Bool(name, d, doc)
	case string:
		fs.String(name, d, doc)
	case time.Duration:
		fs.Duration(name, d, doc)
	default:
		panic(fmt.Sprintf("cli: option %s: a default of type %T", name, def))
	}
}

// setOptions sets dst from the flags of opts on fs (addOptions): every one,
// or only those given; a value its option cannot read is a usage error
// naming the flag.
func setOptions[T any](fs *pflag.FlagSet, dst *T, opts []param.Option[T], onlyGiven bool) error {
	for _, o := range opts {
		f := fs.Lookup(o.Name)
		if f == nil || onlyGiven && !f.Changed {
			continue
		}
		if err := o.Set(dst, f.Value.String()); err != nil {
			return usagef("--%s: %v", o.Name, err)
		}
	}
	return nil
}
