package machine

import (
	"errors"
	"fmt"

	"mark1/internal/base/param"
)

// FieldError is a configuration or recipe setting whose value is out of
// range or does not fit the machine. Field is the setting's name as the
// machine file spells it, a path under the configuration ("retina.noise",
// "motors.step", "faults.dead_a") or the recipe ("decay", "pulses"), so
// that a caller can say where the value came from (a flag, a file member)
// without the library naming either. The stages' own field errors
// (retina.FieldError, …) come out of Config.Validate as FieldErrors under
// the stage's name.
type FieldError struct {
	Field string // the setting's JSON name
	Value any    // the value refused
	Range string // what is allowed, for people
	// With names the other settings (in Field's words) the range depends
	// on: "motors.limit" for a step longer than the travel between the end
	// stops.
	With []string
}

// Error returns "field value out of range: want range".
func (e *FieldError) Error() string {
	return fmt.Sprintf("%s %v out of range: want %s", e.Field, e.Value, e.Range)
}

func fieldErr(field string, value any, format string, args ...any) error {
	return &FieldError{Field: field, Value: value, Range: fmt.Sprintf(format, args...)}
}

// FieldName returns the field's name (param.Fielded).
func (e *FieldError) FieldName() string { return e.Field }

// FieldValue returns the value refused, as text (param.Fielded).
func (e *FieldError) FieldValue() string { return fmt.Sprint(e.Value) }

// FieldRange says what is allowed (param.Fielded).
func (e *FieldError) FieldRange() string { return e.Range }

// FieldsWith names the other settings the range depends on.
func (e *FieldError) FieldsWith() []string { return e.With }

// nested returns err, if it holds a field error (a stage's, a recipe's,
// param's), as a *FieldError under prefix ("retina" + "noise" =
// "retina.noise"), its With fields too; rename, if not nil, names a With
// field that is not the part's own (associator's "cells", the retina's
// size). Other errors are returned unchanged.
func nested(prefix string, err error, rename map[string][]string) error {
	f := param.As(err)
	if f == nil {
		return err
	}
	fe := &FieldError{Field: prefix + "." + f.FieldName(), Value: f.FieldValue(), Range: f.FieldRange()}
	var w interface{ FieldsWith() []string }
	if errors.As(err, &w) {
		for _, name := range w.FieldsWith() {
			if r, ok := rename[name]; ok {
				fe.With = append(fe.With, r...)
				continue
			}
			fe.With = append(fe.With, prefix+"."+name)
		}
	}
	return fe
}
