package machine

import (
	"fmt"
	"testing"

	"mark1/internal/param"
)

// A recipe's field error is found as every other part's field error is.
func TestFieldErrorIsFielded(t *testing.T) {
	err := fmt.Errorf("machine.json: %w", &FieldError{Field: "decay", Value: -1, Range: "a number in [0, 1]"})
	f := param.As(err)
	if f == nil || f.FieldName() != "decay" || f.FieldValue() != "-1" || f.FieldRange() != "a number in [0, 1]" {
		t.Errorf("param.As(%v) = %v", err, f)
	}
}
