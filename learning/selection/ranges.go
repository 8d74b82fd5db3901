package selection

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// MaxValues bounds the values of one grid axis.
const MaxValues = 1000

// RangeError is the error of ParseLog2Range and ParseList, naming the
// parameter ("C", "gamma") and its text.
type RangeError struct {
	Param, Text, Problem string
}

// Error returns "PARAM TEXT: PROBLEM".
func (e *RangeError) Error() string {
	return fmt.Sprintf("%s %q: %s", e.Param, e.Text, e.Problem)
}

// ParseLog2Range reads grid.py's "begin,end,step" range of base-2
// exponents (-log2c, -log2g) and returns the values 2^e for e = begin,
// begin+step, … while not past end — grid.py's range_f, with the
// exponents computed as begin + i·step so that they do not drift. param
// names the parameter in errors. A step of 0, of the wrong sign for the
// range, or more than MaxValues values is an error.
func ParseLog2Range(param, text string) (values, exps []float64, err error) {
	bad := func(p string) error { return &RangeError{Param: param, Text: text, Problem: p} }
	f := strings.Split(text, ",")
	if len(f) != 3 {
		return nil, nil, bad("want begin,end,step (base-2 exponents, as grid.py's -log2c)")
	}
	var v [3]float64
	for i, s := range f {
		x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > 1000 {
			return nil, nil, bad(fmt.Sprintf("%q is not a number in [-1000, 1000]", s))
		}
		v[i] = x
	}
	begin, end, step := v[0], v[1], v[2]
	if step == 0 || (end-begin)*step < 0 {
		return nil, nil, bad("the step must be non-zero and lead from begin to end (an empty grid otherwise)")
	}
	n := int(math.Floor((end-begin)/step+1e-9)) + 1
	if n > MaxValues {
		return nil, nil, bad(fmt.Sprintf("%d values, more than %d", n, MaxValues))
	}
	for i := range n {
		e := begin + float64(i)*step
		values, exps = append(values, math.Exp2(e)), append(exps, e)
	}
	return values, exps, nil
}

// ParseList reads a comma-separated list of values > 0 (C or γ). param
// names the parameter in errors. Repeated values and an empty list are
// errors.
func ParseList(param, text string) ([]float64, error) {
	bad := func(p string) error { return &RangeError{Param: param, Text: text, Problem: p} }
	var out []float64
	for _, s := range strings.Split(text, ",") {
		x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || !(x > 0) || math.IsInf(x, 0) {
			return nil, bad(fmt.Sprintf("%q is not a finite number > 0", strings.TrimSpace(s)))
		}
		for _, y := range out {
			if y == x {
				return nil, bad(fmt.Sprintf("%v appears twice", x))
			}
		}
		out = append(out, x)
	}
	if len(out) > MaxValues {
		return nil, bad(fmt.Sprintf("%d values, more than %d", len(out), MaxValues))
	}
	return out, nil
}
