package coupling

import "fmt"

// A FieldError is a setting of Config out of range. Field names it as
// Config's JSON member does; Range says what is allowed, for people; With
// names the other settings the range depends on, if any. It has the
// methods of mark1's field errors (FieldName, FieldValue, FieldRange), so
// that a part nesting a Config can name the setting in its own words.
type FieldError struct {
	Field, Value, Range string
	With                []string
}

// Error returns "associator: field value out of range: want range".
func (e *FieldError) Error() string {
	return "coupling: " + e.Field + " " + e.Value + " out of range: want " + e.Range
}

// FieldName returns the setting's name.
func (e *FieldError) FieldName() string { return e.Field }

// FieldValue returns the value given, as text.
func (e *FieldError) FieldValue() string { return e.Value }

// FieldRange says what is allowed.
func (e *FieldError) FieldRange() string { return e.Range }

// FieldsWith names the other settings the range depends on.
func (e *FieldError) FieldsWith() []string { return e.With }

// fieldErr returns a FieldError for field, whose value v (formatted with
// %v) is out of the range the format says, given the settings with.
func fieldErr(field string, v any, with []string, format string, args ...any) error {
	return &FieldError{Field: field, Value: fmt.Sprint(v), Range: fmt.Sprintf(format, args...), With: with}
}
