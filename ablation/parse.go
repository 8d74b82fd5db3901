package ablation

import (
	"errors"
	"fmt"
	"strconv"
)

// ParseParts reads the names of parts (ParsePart): at least one.
func ParseParts(names []string) ([]Part, error) {
	var parts []Part
	for _, s := range names {
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

// ParseFractions reads fractions written as numbers: at least one (their
// range is Spec.Validate's).
func ParseFractions(numbers []string) ([]float64, error) {
	var fractions []float64
	for _, s := range numbers {
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
