package machine

import "fmt"

// FieldError is a recipe or configuration field whose value is out of
// range or does not fit the machine. Field is the field's name as the
// machine file spells it ("rule", "decay", …), so that a caller can say
// where the value came from (a flag, a file member) without the library
// naming either.
type FieldError struct {
	Field  string // the field's JSON name
	Value  any    // the value refused
	Reason string // what is wrong with it
}

func (e *FieldError) Error() string {
	return fmt.Sprintf("%s %v: %s", e.Field, e.Value, e.Reason)
}

func fieldErr(field string, value any, format string, args ...any) error {
	return &FieldError{Field: field, Value: value, Reason: fmt.Sprintf(format, args...)}
}

// FieldName returns the field's name (param.Fielded).
func (e *FieldError) FieldName() string { return e.Field }

// FieldValue returns the value refused, as text (param.Fielded).
func (e *FieldError) FieldValue() string { return fmt.Sprint(e.Value) }

// FieldRange says what is wrong with it (param.Fielded).
func (e *FieldError) FieldRange() string { return e.Reason }
