package dataset

import (
	"fmt"
	"math"
)

// A ScalerFit fits a Scaler on rows given one at a time, as FitScaler fits
// it on a Set, to the bit: a reader that cannot hold the training rows
// gives them in the same order, once for "01" and "pm1" (each feature's
// minimum and maximum) and twice for "std" (its mean, then the deviations
// from it, summed in row order as FitScaler sums them), ending each pass
// with EndPass.
type ScalerFit struct {
	sc         *Scaler
	count      []int // each feature's values in the rows
	rows, pass int
}

// NewScalerFit starts the fit of a scaler of the given method ("01", "pm1"
// or "std") on rows of dim features.
func NewScalerFit(method string, dim int) (*ScalerFit, error) {
	sc := &Scaler{Method: method}
	switch method {
	case ScaleUnit, ScalePlusMinus:
		sc.Lower, sc.Upper = 0, 1
		if method == ScalePlusMinus {
			sc.Lower = -1
		}
		sc.Min = make([]float64, dim)
		sc.Max = make([]float64, dim)
		for j := range sc.Min {
			sc.Min[j], sc.Max[j] = math.MaxFloat64, -math.MaxFloat64
		}
	case ScaleStandard:
		sc.Mean = make([]float64, dim)
		sc.SD = make([]float64, dim)
	default:
		return nil, fmt.Errorf("unknown scaling %q (want %s, %s or %s)", method, ScaleUnit, ScalePlusMinus, ScaleStandard)
	}
	return &ScalerFit{sc: sc, count: make([]int, dim)}, nil
}

// Passes returns how many times the rows are to be given: 1, or 2 for
// "std".
func (f *ScalerFit) Passes() int {
	if f.sc.Method == ScaleStandard {
		return 2
	}
	return 1
}

// Add gives the next row of the pass: its features idx (below the fit's
// dim) and their values val.
func (f *ScalerFit) Add(idx []int32, val []float64) {
	sc := f.sc
	if f.pass == 0 {
		f.rows++
		for k, j := range idx {
			f.count[j]++
			if sc.Method == ScaleStandard {
				sc.Mean[j] += val[k]
			} else {
				sc.Min[j] = min(sc.Min[j], val[k])
				sc.Max[j] = max(sc.Max[j], val[k])
			}
		}
		return
	}
	for k, j := range idx {
		d := val[k] - sc.Mean[j]
		sc.SD[j] += d * d
	}
}

// EndPass ends a pass over the rows. It panics after the last.
func (f *ScalerFit) EndPass() {
	if f.pass >= f.Passes() {
		panic("dataset: ScalerFit.EndPass after its last pass")
	}
	if f.pass == 0 && f.sc.Method == ScaleStandard {
		n := float64(f.rows)
		for j := range f.sc.Mean {
			f.sc.Mean[j] /= n
		}
	}
	f.pass++
}

// Scaler returns the scaler fitted, once every pass has ended (else it
// panics).
func (f *ScalerFit) Scaler() *Scaler {
	if f.pass != f.Passes() {
		panic("dataset: ScalerFit.Scaler before its last pass ended")
	}
	sc := f.sc
	if sc.Method == ScaleStandard {
		n := float64(f.rows)
		for j := range sc.SD {
			m := sc.Mean[j]
			sc.SD[j] = math.Sqrt((sc.SD[j] + float64(f.rows-f.count[j])*m*m) / n)
		}
		return sc
	}
	for j, c := range f.count {
		if c < f.rows { // some row has an implicit zero
			sc.Min[j] = min(sc.Min[j], 0)
			sc.Max[j] = max(sc.Max[j], 0)
		}
	}
	return sc
}
