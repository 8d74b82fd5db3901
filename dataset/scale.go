package dataset

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
)

// Scaling methods, by the names the command line uses.
const (
	ScaleUnit      = "01"  // each feature to [0, 1], as svm-scale -l 0 -u 1
	ScalePlusMinus = "pm1" // each feature to [−1, 1], as svm-scale (its default -l -1 -u 1)
	ScaleStandard  = "std" // zero mean, unit variance, as scikit-learn's StandardScaler
)

// Scaler maps every feature to a common range. It is fitted on training data
// (FitScaler) and applied unchanged to test data and at prediction, so it is
// saved with a model; its fields are what a model file stores (JSON null for
// those that do not apply to the method).
//
// For "01" and "pm1" it is svm-scale's rule, value for value: with the
// training minimum m_j and maximum M_j of feature j (absent features
// counting as 0),
//
//	v ↦ Lower if v = m_j, Upper if v = M_j, else Lower + (Upper−Lower)(v−m_j)/(M_j−m_j),
//
// and a feature with m_j = M_j is dropped (scaled to 0). For "std" it is
// v ↦ (v − mean_j)/sd_j with the population standard deviation (ddof 0, as
// scikit-learn), and a constant feature is scaled to 0. Features beyond the
// training data's dimension are scaled to 0, as svm-scale does with a
// restored range file.
type Scaler struct {
	// Method is "01", "pm1" or "std".
	Method string
	// Lower and Upper are the target range of "01" and "pm1".
	Lower, Upper float64
	// Min and Max hold each feature's training range ("01", "pm1").
	Min, Max []float64
	// Mean and SD hold each feature's training mean and standard
	// deviation ("std").
	Mean, SD []float64
}

// scalerJSON is the stored form, with null for what does not apply.
type scalerJSON struct {
	Method string    `json:"method"`
	Lower  *float64  `json:"lower"`
	Upper  *float64  `json:"upper"`
	Min    []float64 `json:"min"`
	Max    []float64 `json:"max"`
	Mean   []float64 `json:"mean"`
	SD     []float64 `json:"sd"`
}

// MarshalJSON writes the scaler as {"method", "lower", "upper", "min",
// "max", "mean", "sd"}, with null for the fields its method does not use.
func (sc *Scaler) MarshalJSON() ([]byte, error) {
	j := scalerJSON{Method: sc.Method, Min: sc.Min, Max: sc.Max, Mean: sc.Mean, SD: sc.SD}
	if sc.Method != ScaleStandard {
		j.Lower, j.Upper = &sc.Lower, &sc.Upper
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads what MarshalJSON writes and checks it (Check).
func (sc *Scaler) UnmarshalJSON(b []byte) error {
	var j scalerJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*sc = Scaler{Method: j.Method, Min: j.Min, Max: j.Max, Mean: j.Mean, SD: j.SD}
	if j.Lower != nil {
		sc.Lower = *j.Lower
	}
	if j.Upper != nil {
		sc.Upper = *j.Upper
	}
	return sc.Check()
}

// FitScaler fits a scaler of the given method ("01", "pm1" or "std") on s,
// its rows given to a ScalerFit in order.
func FitScaler(s *Set, method string) (*Scaler, error) {
	f, err := NewScalerFit(method, s.Dim)
	if err != nil {
		return nil, err
	}
	for range f.Passes() {
		for i := range s.Rows() {
			f.Add(s.Row(i))
		}
		f.EndPass()
	}
	return f.Scaler(), nil
}

// dim is the number of features the scaler knows.
func (sc *Scaler) dim() int { return max(len(sc.Min), len(sc.Mean)) }

// Scale returns feature j's value v scaled.
func (sc *Scaler) Scale(j int, v float64) float64 {
	if j >= sc.dim() {
		return 0
	}
	if sc.Method == ScaleStandard {
		if sc.SD[j] == 0 {
			return 0
		}
		return (v - sc.Mean[j]) / sc.SD[j]
	}
	lo, hi := sc.Min[j], sc.Max[j]
	switch {
	case lo == hi:
		return 0
	case v == lo:
		return sc.Lower
	case v == hi:
		return sc.Upper
	}
	return sc.Lower + (sc.Upper-sc.Lower)*(v-lo)/(hi-lo)
}

// Check reports whether the scaler is usable: a known method, parameters of
// matching lengths, finite numbers, Lower < Upper. Model readers call it.
func (sc *Scaler) Check() error {
	finite := func(xs ...float64) bool {
		for _, x := range xs {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return false
			}
		}
		return true
	}
	switch sc.Method {
	case ScaleUnit, ScalePlusMinus:
		if len(sc.Min) != len(sc.Max) || sc.Mean != nil || sc.SD != nil || !(sc.Lower < sc.Upper) ||
			!finite(sc.Lower, sc.Upper) || !finite(sc.Min...) || !finite(sc.Max...) {
			return fmt.Errorf("scaling %q: want finite lower < upper and min, max of one length", sc.Method)
		}
	case ScaleStandard:
		if len(sc.Mean) != len(sc.SD) || sc.Min != nil || sc.Max != nil || !finite(sc.Mean...) || !finite(sc.SD...) {
			return fmt.Errorf("scaling %q: want finite mean and sd of one length", sc.Method)
		}
	default:
		return fmt.Errorf("unknown scaling %q", sc.Method)
	}
	return nil
}

// Apply returns a new Set with every value of s scaled; s is unchanged.
// Where a feature's zero does not scale to zero (the lower bound of "pm1",
// or "std" of a feature with non-zero mean) every row gets a value for it,
// so the result may be denser than s; Apply counts the values first and
// refuses, with an error wrapping ErrTooLarge, beyond maxValues (≤ 0 means
// DefaultMaxValues).
func (sc *Scaler) Apply(s *Set, maxValues int) (*Set, error) {
	return sc.ApplyContext(context.Background(), s, maxValues)
}

// ApplyContext is Apply that stops, returning ctx.Err(), once ctx is
// cancelled: it asks every 4,096 rows of each of its two passes.
func (sc *Scaler) ApplyContext(ctx context.Context, s *Set, maxValues int) (*Set, error) {
	if maxValues <= 0 {
		maxValues = DefaultMaxValues
	}
	var dense []int32 // features whose zero scales to non-zero, increasing
	for j := range min(sc.dim(), s.Dim) {
		if sc.Scale(j, 0) != 0 {
			dense = append(dense, int32(j))
		}
	}
	out := &Set{Name: s.Name, Format: s.Format, Y: s.Y, Classes: s.Classes, Dim: s.Dim, Features: s.Features,
		LabelName: s.LabelName, ZeroBased: s.ZeroBased, QueryIDs: s.QueryIDs, Unlabelled: s.Unlabelled,
		RowStart: make([]int, 1, s.Rows()+1)}
	// each row: merge its entries with the dense features
	each := func(i int, emit func(j int32, v float64)) {
		idx, val := s.Row(i)
		k, d := 0, 0
		for k < len(idx) || d < len(dense) {
			switch {
			case d == len(dense) || (k < len(idx) && idx[k] < dense[d]):
				emit(idx[k], sc.Scale(int(idx[k]), val[k]))
				k++
			case k == len(idx) || dense[d] < idx[k]:
				emit(dense[d], sc.Scale(int(dense[d]), 0))
				d++
			default: // the same feature
				emit(idx[k], sc.Scale(int(idx[k]), val[k]))
				k++
				d++
			}
		}
	}
	total := 0
	for i := range s.Rows() {
		if i%4096 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		each(i, func(_ int32, v float64) {
			if v != 0 {
				total++
			}
		})
	}
	if total > maxValues {
		return nil, tooLargef("%s: scaled with %q the data have %d non-zero values (from %d), over the budget of %d values",
			s.Name, sc.Method, total, s.NonZeros(), maxValues)
	}
	out.Index = make([]int32, 0, total)
	out.Value = make([]float64, 0, total)
	for i := range s.Rows() {
		if i%4096 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		each(i, func(j int32, v float64) {
			if v != 0 {
				out.Index = append(out.Index, j)
				out.Value = append(out.Value, v)
			}
		})
		out.RowStart = append(out.RowStart, len(out.Value))
	}
	return out, nil
}
