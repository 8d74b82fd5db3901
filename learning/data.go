package learning

import (
	"fmt"

	"gonum.org/v1/gonum/floats"
)

// Validate reports whether d is usable for training: at least one row, as
// many labels as rows, rows of one non-zero length, finite features (no NaN
// or ±Inf), Classes ≥ 2, every label in [0, Classes), and at least two
// classes present. The error names the first offending row and column. A nil
// d is misuse and panics.
func (d *Data) Validate() error {
	if d == nil {
		panic("learning: nil *Data")
	}
	r := d.Features()
	n := r.Len()
	if n == 0 {
		return fmt.Errorf("learning: no training rows")
	}
	if len(d.Y) != n {
		return fmt.Errorf("learning: %d rows but %d labels", n, len(d.Y))
	}
	if d.Classes < 2 {
		return fmt.Errorf("learning: %d classes; a classifier needs at least 2", d.Classes)
	}
	if r.Dim() == 0 {
		return fmt.Errorf("learning: row 0 has no features")
	}
	if err := finiteRows(r); err != nil {
		return err
	}
	first, second := -1, -1
	for i, c := range d.Y {
		if c < 0 || c >= d.Classes {
			return fmt.Errorf("learning: row %d: label %d out of range [0, %d)", i, c, d.Classes)
		}
		switch {
		case first < 0:
			first = c
		case second < 0 && c != first:
			second = c
		}
	}
	if second < 0 {
		return fmt.Errorf("learning: only class %d is present in %d rows; a classifier needs at least two classes", first, n)
	}
	return nil
}

// ovrMachines returns the number of binary machines a one-vs-rest learner
// trains on d: one for two classes (class 1 is the positive side), and one
// per class otherwise.
func ovrMachines(d *Data) int {
	if d.Classes == 2 {
		return 1
	}
	return d.Classes
}

// ovrSign returns the ±1 label that machine m of a one-vs-rest learner sees for
// class c, out of the given number of classes: for two classes class 1 is +1
// and class 0 is −1; otherwise +1 when c == m and −1 when not.
func ovrSign(c, m, classes int) float64 {
	if classes == 2 {
		if c == 1 {
			return 1
		}
		return -1
	}
	if c == m {
		return 1
	}
	return -1
}

// signs fills dst (n × M, machine-major within a row) with the ±1 labels of
// every row for every machine.
func signs(dst []float64, d *Data) []float64 {
	m := ovrMachines(d)
	dst = grow(dst, len(d.Y)*m)
	for i, c := range d.Y {
		for k := range m {
			dst[i*m+k] = ovrSign(c, k, d.Classes)
		}
	}
	return dst
}

// grow returns a slice of length n, reusing dst's storage when it can.
func grow(dst []float64, n int) []float64 {
	if cap(dst) < n {
		return make([]float64, n)
	}
	return dst[:n]
}

// dot is x·z (gonum's assembly kernel); it panics on a length mismatch.
func dot(x, z []float64) float64 { return floats.Dot(x, z) }

// axpy sets dst += a·x.
func axpy(dst []float64, a float64, x []float64) { floats.AddScaled(dst, a, x) }

// ovrPredict returns the class that one-vs-rest machines with decision
// values f(0), …, f(machines−1) show: with a single machine (two classes),
// class 1 when f(0) > 0; otherwise the machine with the largest value, the
// first on a tie.
func ovrPredict(machines int, f func(k int) float64) int {
	if machines == 1 {
		if f(0) > 0 {
			return 1
		}
		return 0
	}
	best, bestF := 0, f(0)
	for k := 1; k < machines; k++ {
		if v := f(k); v > bestF {
			best, bestF = k, v
		}
	}
	return best
}

// ovrScores writes one score per class into dst (grown as needed) from the
// machines' decision values: (−f(0), f(0)) for a single two-class machine,
// f(k) for each class otherwise.
func ovrScores(dst []float64, machines int, f func(k int) float64) []float64 {
	if machines == 1 {
		return binaryScores(dst, f(0))
	}
	dst = grow(dst, machines)
	for k := range dst {
		dst[k] = f(k)
	}
	return dst
}

// binaryScores writes the scores (−f, f) of a single two-class machine.
func binaryScores(dst []float64, f float64) []float64 {
	dst = grow(dst, 2)
	dst[0], dst[1] = -f, f
	return dst
}
