// Package param holds the one typed error every part of mark1 returns for a
// setting out of range: FieldError names the setting in its owner's words
// (a learner's "C", a kernel's "gamma", a recipe's "pulses"), its value and
// what is allowed, as LIBSVM's svm_check_parameter does. Front ends map
// the field to their own words (the CLI to a flag, the panel to a JSON
// member) with errors.As; no library message names a CLI flag.
//
// The four stages of the machine (retina, associator, response, motors)
// import nothing of ours: they return their own small error types with the
// same three methods, and Fielded finds them all.
package param

import (
	"errors"
	"fmt"
)

// FieldError says that a setting is out of range.
type FieldError struct {
	// Field is the setting's name in its owner's words, such as "C",
	// "gamma" or "pulses"; a part that nests another's settings prefixes
	// them with a dot ("recipe.pulses").
	Field string
	// Value is the value given, as text.
	Value string
	// Range says what is allowed, for people: "a finite number > 0".
	Range string
}

// Error returns "field value: want range".
func (e *FieldError) Error() string {
	if e.Value == "" {
		return fmt.Sprintf("%s: want %s", e.Field, e.Range)
	}
	return fmt.Sprintf("%s %s: want %s", e.Field, e.Value, e.Range)
}

// FieldName returns the setting's name.
func (e *FieldError) FieldName() string { return e.Field }

// FieldValue returns the value given, as text.
func (e *FieldError) FieldValue() string { return e.Value }

// FieldRange says what is allowed.
func (e *FieldError) FieldRange() string { return e.Range }

// Errorf returns a FieldError for field whose value v (formatted with %v)
// is out of range, the range given as a format.
func Errorf(field string, v any, format string, args ...any) *FieldError {
	return &FieldError{Field: field, Value: fmt.Sprint(v), Range: fmt.Sprintf(format, args...)}
}

// Fielded is implemented by every field error: FieldError and the stages'
// own types.
type Fielded interface {
	error
	FieldName() string
	FieldValue() string
	FieldRange() string
}

// As returns the first field error in err's chain, or nil.
func As(err error) Fielded {
	var f Fielded
	if errors.As(err, &f) {
		return f
	}
	return nil
}

// Prefixed returns err with its field error (if any) named prefix.field,
// for a part that checks another's settings nested in its own: the
// message keeps err's text with the prefix added to the field.
func Prefixed(prefix string, err error) error {
	if err == nil {
		return nil
	}
	f := As(err)
	if f == nil {
		return err
	}
	return &FieldError{Field: prefix + "." + f.FieldName(), Value: f.FieldValue(), Range: f.FieldRange()}
}

// Fields returns the fields of err's field error, if any: its own, then
// the other settings its range depends on, which the error names with a
// FieldsWith method (the stages' and machine.FieldError: a motor's step
// depends on its limit); nil when err holds no field error.
func Fields(err error) []string {
	f := As(err)
	if f == nil {
		return nil
	}
	fields := []string{f.FieldName()}
	var w interface{ FieldsWith() []string }
	if errors.As(err, &w) {
		fields = append(fields, w.FieldsWith()...)
	}
	return fields
}
