package associator

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseModel reads a model written x:y:θ ("10:0:3"): counts of origin
// points in [0, 64], at least one origin point.
func ParseModel(s string) (Model, error) {
	f := strings.Split(s, ":")
	if len(f) != 3 {
		return Model{}, fmt.Errorf("want x:y:θ, e.g. 10:0:3")
	}
	var v [3]int
	for i, t := range f {
		n, err := strconv.Atoi(t)
		if err != nil || n < 0 || n > 64 {
			return Model{}, fmt.Errorf("%q is not a count in [0, 64]", t)
		}
		v[i] = n
	}
	if v[0]+v[1] < 1 {
		return Model{}, fmt.Errorf("need at least one origin point")
	}
	return Model{X: v[0], Y: v[1], Theta: v[2]}, nil
}

// ParseModels reads models written x:y:θ (ParseModel), naming the one
// that is not.
func ParseModels(list []string) ([]Model, error) {
	var out []Model
	for _, s := range list {
		m, err := ParseModel(s)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", s, err)
		}
		out = append(out, m)
	}
	return out, nil
}
