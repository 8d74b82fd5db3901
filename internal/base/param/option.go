package param

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// An Option is one setting of a part's options T as a front end offers it
// by name (mark1's flags, one per Option): the fields of T it sets (their
// names in the part's field errors, so that a front end blames a refused
// value on the option that set it), its default, what it means, and how a
// value written as text sets it. A part's registry lists its Options
// (machine.ConfigOptions, images.SourceOptions, …); the front end declares
// them as they are.
type Option[T any] struct {
	// Name is the option's name, in the words of the registry (mark1's
	// flags take it as it is: "card-size", "test-split").
	Name string
	// Fields are the fields of T's field errors the option sets.
	Fields []string
	// Default is the value offered, and its type the value's: int,
	// int64, float64, bool, string or time.Duration.
	Default any
	// Doc says what the option means, for people. It may name another
	// option as {name}, which a front end writes in its own words
	// (mark1's flags as --name).
	Doc string
	// Set sets the fields of dst from the value written as text: a
	// number, a duration, true or false, or the words the part's parser
	// reads.
	Set func(dst *T, text string) error
}

// Setting returns the Option name of T, of value type V, setting the
// comma-separated fields with set.
func Setting[T any, V int | int64 | float64 | bool | string | time.Duration](name, fields string, def V, doc string, set func(dst *T, v V) error) Option[T] {
	return Option[T]{Name: name, Fields: strings.FieldsFunc(fields, func(r rune) bool { return r == ',' }), Default: def, Doc: doc, Set: func(dst *T, s string) error {
		v, err := parseText[V](s)
		if err != nil {
			return err
		}
		return set(dst, v)
	}}
}

// parseText reads a value of type V written as text.
func parseText[V int | int64 | float64 | bool | string | time.Duration](s string) (V, error) {
	var v V
	var err error
	switch p := any(&v).(type) {
	case *int:
		*p, err = strconv.Atoi(s)
	case *int64:
		*p, err = strconv.ParseInt(s, 0, 64)
	case *float64:
		*p, err = strconv.ParseFloat(s, 64)
	case *bool:
		*p, err = strconv.ParseBool(s)
	case *time.Duration:
		*p, err = time.ParseDuration(s)
	case *string:
		*p = s
	}
	if err != nil {
		return v, fmt.Errorf("%q is not a %T", s, v)
	}
	return v, nil
}

// To is a setting's action that cannot fail.
func To[T, V any](f func(dst *T, v V)) func(*T, V) error {
	return func(dst *T, v V) error { f(dst, v); return nil }
}

// None returns v, or -1 for 0: an option given 0 asks for none at all
// where its part reads 0 as its default (a retina's size, a card count),
// and the part refuses -1 in its own words.
func None[V ~int | ~int64 | ~float64](v V) V {
	if v == 0 {
		return -1
	}
	return v
}

// Find returns the option of opts named name, and whether there is one.
func Find[T any](opts []Option[T], name string) (Option[T], bool) {
	for _, o := range opts {
		if o.Name == name {
			return o, true
		}
	}
	return Option[T]{}, false
}
