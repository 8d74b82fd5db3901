package ablation

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ParseParts reads a comma-separated list of parts (ParsePart): at least
// one.
func ParseParts(list string) ([]Part, error) {
	var parts []Part
	for _, s := range fields(list) {
		p, err := ParsePart(s)
		if err != nil {
			return nil, err
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return nil, errors.New("name a-units, pots or both")
	}
	return parts, nil
}

// ParseFractions reads a comma-separated list of fractions: at least one
// number (their range is Spec.Validate's).
func ParseFractions(list string) ([]float64, error) {
	var fractions []float64
	for _, s := range fields(list) {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", s)
		}
		fractions = append(fractions, v)
	}
	if len(fractions) == 0 {
		return nil, errors.New("give at least one fraction")
	}
	return fractions, nil
}

// fields splits a comma-separated list, trimmed, leaving out empty items.
func fields(list string) []string {
	var out []string
	for _, s := range strings.Split(list, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
