package lab

import (
	"slices"
	"strings"
	"testing"
)

// TestParseStart: numbers as written, the lab's range, no NaN or ∞.
func TestParseStart(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []float64
		err  string
	}{
		{"", nil, ""},
		{"1, -2.5,0", []float64{1, -2.5, 0}, ""},
		{"1,x", nil, `"x" is not a finite number`},
		{"NaN", nil, "not a finite number"},
		{"1e7", nil, "beyond ±10⁶"},
	} {
		got, err := ParseStart(tt.in)
		switch {
		case tt.err == "" && (err != nil || !slices.Equal(got, tt.want)):
			t.Errorf("ParseStart(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("ParseStart(%q): %v; want %q", tt.in, err, tt.err)
		}
	}
}
