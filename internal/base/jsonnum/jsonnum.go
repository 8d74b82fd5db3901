// Package jsonnum gives mark1's JSON and CSV outputs one rule for numbers
// other programs read: a value that does not apply is null in JSON (an
// empty cell in CSV), never a stand-in such as −1, NaN or Inf, and zero is
// written 0, never -0.
package jsonnum

import (
	"math"
	"strconv"
)

// Of returns v for a JSON field of type *float64: nil (null) if v is NaN
// or infinite, and a pointer to v with -0 made 0 otherwise.
func Of(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	v += 0 // -0 + 0 is +0
	return &v
}

// Clean returns the value *p points to with -0 made 0, in a new pointer;
// nil, NaN and ±Inf give nil.
func Clean(p *float64) *float64 {
	if p == nil {
		return nil
	}
	return Of(*p)
}

// Zero returns v with -0 made 0, for fields that always apply; it panics
// if v is NaN or infinite, which such a field must never be.
func Zero(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		panic("jsonnum: a field that always applies is NaN or infinite")
	}
	return v + 0
}

// Cell formats p for a CSV cell with strconv's format fmt and precision
// prec: empty when p is nil, NaN or infinite; -0 as 0.
func Cell(p *float64, fmt byte, prec int) string {
	q := Clean(p)
	if q == nil {
		return ""
	}
	return strconv.FormatFloat(*q, fmt, prec, 64)
}
