package learning

import (
	"encoding/json"

	"fmt"
	"mark1/internal/base/jsonnum"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// z95 is the two-sided 95% point of the standard normal distribution.
const z95 = 1.959963984540054

// Wilson returns the 95% Wilson score interval for a success rate of right
// out of n trials (Wilson 1927): the set of rates p whose normal test does
// not reject right/n at the 5% level,
//
//	(p̂ + z²/2n ± z·√(p̂(1−p̂)/n + z²/4n²)) / (1 + z²/n),   p̂ = right/n.
//
// Unlike p̂ ± z·√(p̂(1−p̂)/n) it stays inside [0, 1] and is not empty at 0%
// or 100%, so it suits accuracies on a few dozen held-out cards. It panics
// unless 0 ≤ right ≤ n and n ≥ 1 (misuse).
func Wilson(right, n int) (lo, hi float64) {
	if n < 1 || right < 0 || right > n {
		panic(fmt.Sprintf("learning: Wilson(%d, %d): need 0 ≤ right ≤ n, n ≥ 1", right, n))
	}
	p, fn, z2 := float64(right)/float64(n), float64(n), z95*z95
	centre := p + z2/(2*fn)
	half := z95 * math.Sqrt(p*(1-p)/fn+z2/(4*fn*fn))
	den := 1 + z2/fn
	lo, hi = (centre-half)/den, (centre+half)/den
	if right == 0 {
		lo = 0 // exact; the formula leaves a rounding residue
	}
	if right == n {
		hi = 1
	}
	return lo, hi
}

// MeanCI returns the mean of x and its 95% confidence interval by
// Student's t with len(x)−1 degrees of freedom, mean ± t·s/√n: the
// interval for a quantity measured once per seed. With one value the
// interval is that value alone (no spread can be estimated); with none all
// three are NaN.
func MeanCI(x []float64) (mean, lo, hi float64) {
	n := len(x)
	if n == 0 {
		nan := math.NaN()
		return nan, nan, nan
	}
	for _, v := range x {
		mean += v
	}
	mean /= float64(n)
	if n == 1 {
		return mean, mean, mean
	}
	var ss float64
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.Quantile(0.975)
	half := t * math.Sqrt(ss/float64(n-1)/float64(n))
	return mean, mean - half, mean + half
}

// Chance returns the chance level of a set of labels: the accuracy of
// always answering its most common class, the best any rule that ignores
// the card can do (1/classes on a balanced set). It is NaN for no labels.
func Chance(labels []int) float64 {
	if len(labels) == 0 {
		return math.NaN()
	}
	count := map[int]int{}
	best := 0
	for _, c := range labels {
		count[c]++
		best = max(best, count[c])
	}
	return float64(best) / float64(len(labels))
}

// A Rate is an accuracy measured on N cards, with its 95% Wilson interval
// [Lo, Hi]: the form every report of mark1 gives an accuracy in. In JSON a
// number that does not apply (NaN) is null.
type Rate struct {
	P      float64
	N      int
	Lo, Hi float64
}

// MarshalJSON writes r as {"p", "n", "lo", "hi"}, NaN as null.
func (r Rate) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		P  *float64 `json:"p"`
		N  int      `json:"n"`
		Lo *float64 `json:"lo"`
		Hi *float64 `json:"hi"`
	}{jsonnum.Of(r.P), r.N, jsonnum.Of(r.Lo), jsonnum.Of(r.Hi)})
}

// String formats r as "71.9% (95% CI 64.3–78.6%)", or "-" when it was
// not measured (no cards, or P NaN).
func (r Rate) String() string {
	if r.N < 1 || math.IsNaN(r.P) {
		return "-"
	}
	return fmt.Sprintf("%.1f%% (95%% CI %.1f–%.1f%%)", 100*r.P, 100*r.Lo, 100*r.Hi)
}

// Interval formats only r's 95% interval, to the percent: "64–79%", or "-"
// when it was not measured.
func (r Rate) Interval() string {
	if r.N < 1 || math.IsNaN(r.P) {
		return "-"
	}
	return fmt.Sprintf("%.0f–%.0f%%", 100*r.Lo, 100*r.Hi)
}

// RateOf returns the Rate of accuracy p on n cards (the right answers are
// p·n rounded). With no cards, or p NaN, the interval is NaN too.
func RateOf(p float64, n int) Rate {
	r := Rate{P: p, N: n, Lo: math.NaN(), Hi: math.NaN()}
	if n >= 1 && !math.IsNaN(p) {
		r.Lo, r.Hi = Wilson(int(math.Round(p*float64(n))), n)
	}
	return r
}

// A Spread is the mean and sample standard deviation of N values: a
// quantity measured over seeds. In JSON a NaN is null.
type Spread struct {
	Mean, SD float64
	N        int
}

// MarshalJSON writes s as {"mean", "sd", "n"}, NaN as null.
func (s Spread) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Mean *float64 `json:"mean"`
		SD   *float64 `json:"sd"`
		N    int      `json:"n"`
	}{jsonnum.Of(s.Mean), jsonnum.Of(s.SD), s.N})
}

// String formats a spread of counts as "59.0 ± 15.0", or "-" when nothing
// was measured.
func (s Spread) String() string {
	if math.IsNaN(s.Mean) {
		return "-"
	}
	return fmt.Sprintf("%.1f ± %.1f", s.Mean, s.SD)
}

// Percent formats a spread of fractions as "71.9 ± 3.1%", or "-" when
// nothing was measured.
func (s Spread) Percent() string {
	if math.IsNaN(s.Mean) {
		return "-"
	}
	return fmt.Sprintf("%.1f ± %.1f%%", 100*s.Mean, 100*s.SD)
}

// SpreadOf returns the Spread of v, skipping NaNs (a quantity a run did not
// measure); Mean and SD are NaN when nothing is left, SD 0 for one value.
func SpreadOf(v []float64) Spread {
	var s Spread
	var sum, sum2 float64
	for _, x := range v {
		if math.IsNaN(x) {
			continue
		}
		s.N++
		sum += x
		sum2 += x * x
	}
	if s.N == 0 {
		return Spread{Mean: math.NaN(), SD: math.NaN()}
	}
	n := float64(s.N)
	s.Mean = sum / n
	if s.N > 1 {
		s.SD = math.Sqrt(max(0, (sum2-sum*sum/n)/(n-1)))
	}
	return s
}
