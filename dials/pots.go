package dials

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"mark1/internal/base/param"
	"mark1/machine"
	"mark1/response"
)

// Pot is one potentiometer as the panel shows it.
type Pot struct {
	// ID is the pot's index in the machine's bank.
	ID int
	// AUnit is the A-unit whose value the pot holds, or -1 for the bias pot
	// of an R-unit.
	AUnit int
	// RUnit is the R-unit the pot feeds. In the source-sets layout it is
	// also the A-unit's source-set.
	RUnit int
	// Position is the wiper's physical position, between −Limit and +Limit
	// when the pots have end stops.
	Position float64
	// Value is what the R-unit reads: the position, quantized if the pots
	// have a number of readable levels.
	Value float64
	// Percent is the position as a per cent of the travel from the lower
	// end stop (0) to the upper one (100); NaN without end stops.
	Percent float64
	// AtStop is −1 or +1 when the pot rests against its lower or upper end
	// stop, 0 otherwise.
	AtStop int
	// Stuck reports a pot whose motor cannot move it.
	Stuck bool
}

// Bias reports whether p is an R-unit's bias pot.
func (p Pot) Bias() bool { return p.AUnit < 0 }

// Pots returns every pot of m in bank order.
func Pots(m *machine.Machine) []Pot {
	st := m.Bank.State()
	return potsAt(m, st.Positions, st.Stuck)
}

// potsAt lists m's pots as if they were at the given positions with the
// given pots stuck: the machine's own state, or a recorded frame.
func potsAt(m *machine.Machine, positions []float64, stuck []int) []Pot {
	layer := m.Layer
	lim := m.Bank.Config().Limit
	out := make([]Pot, m.Bank.Len())
	for i := range out {
		out[i] = Pot{ID: i, AUnit: -1, RUnit: -1}
	}
	for r := range layer.Used() {
		for _, in := range layer.Inputs(r) {
			out[in.Pot].AUnit, out[in.Pot].RUnit = in.A, r
		}
		if b := layer.BiasPot(r); b >= 0 {
			out[b].RUnit = r
		}
	}
	for _, s := range stuck {
		if s >= 0 && s < len(out) {
			out[s].Stuck = true
		}
	}
	q := m.Bank.Config().Read
	for i := range out {
		p := &out[i]
		if i < len(positions) {
			p.Position = positions[i]
		}
		p.Value = q(p.Position)
		p.Percent = math.NaN()
		if lim > 0 {
			p.Percent = 100 * (p.Position + lim) / (2 * lim)
			switch {
			case p.Position >= lim:
				p.AtStop = 1
			case p.Position <= -lim:
				p.AtStop = -1
			}
		}
	}
	return out
}

// SortKeys lists the keys SortPots accepts: id, position, abs (distance
// from the centre), a-unit, r-unit, stop (pots at end stops first) and
// stuck (stuck pots first).
func SortKeys() []string {
	return []string{"id", "position", "abs", "a-unit", "r-unit", "stop", "stuck"}
}

// SortPots sorts pots by key (see SortKeys), in descending order if desc.
// Ties keep bank order. It returns an error for an unknown key.
func SortPots(pots []Pot, key string, desc bool) error {
	var less func(a, b Pot) int
	switch key {
	case "id":
		less = func(a, b Pot) int { return cmp.Compare(a.ID, b.ID) }
	case "position":
		less = func(a, b Pot) int { return cmp.Compare(a.Position, b.Position) }
	case "abs":
		less = func(a, b Pot) int { return cmp.Compare(math.Abs(a.Position), math.Abs(b.Position)) }
	case "a-unit":
		less = func(a, b Pot) int { return cmp.Compare(a.AUnit, b.AUnit) }
	case "r-unit":
		less = func(a, b Pot) int { return cmp.Compare(a.RUnit, b.RUnit) }
	case "stop":
		less = func(a, b Pot) int { return cmp.Compare(abs(b.AtStop), abs(a.AtStop)) }
	case "stuck":
		less = func(a, b Pot) int { return cmp.Compare(b2i(b.Stuck), b2i(a.Stuck)) }
	default:
		return fmt.Errorf("unknown sort key %q (want %s)", key, strings.Join(SortKeys(), ", "))
	}
	slices.SortStableFunc(pots, func(a, b Pot) int {
		c := less(a, b)
		if desc {
			c = -c
		}
		if c == 0 {
			c = cmp.Compare(a.ID, b.ID)
		}
		return c
	})
	return nil
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Summary is the panel at a glance.
type Summary struct {
	// Pots counts the pots; Bias of them are R-unit bias pots.
	Pots, Bias int
	// Limit is the end stops' position (0: none).
	Limit float64
	// AtLow and AtHigh count the pots resting at the lower and upper end
	// stop; Stuck counts stuck pots.
	AtLow, AtHigh, Stuck int
	// Min, Max and Mean summarise the positions.
	Min, Max, Mean float64
	// Histogram bins the positions into equal bins from Lo to Hi (the end
	// stops, or the extreme positions without them).
	Histogram Histogram
	// Pulses is the number of motor pulses sent so far; Saturations of
	// them pushed a pot against an end stop.
	Pulses, Saturations int64
	// Seconds is the machine's simulated time.
	Seconds float64
}

// Histogram counts values in equal bins over [Lo, Hi]; the last bin
// includes Hi.
type Histogram struct {
	Lo, Hi float64
	Counts []int
}

// MaxBins bounds the bins of Summarize's histogram.
const MaxBins = 1000

// ValidateBins checks the bins of Summarize's histogram in its own words:
// 0 (the default, 10) or a whole number in [1, MaxBins], else a
// *param.FieldError naming "bins".
func ValidateBins(bins int) error {
	if bins < 0 || bins > MaxBins {
		return param.Errorf("bins", bins, "a whole number in [1, %d]", MaxBins)
	}
	return nil
}

// Summarize returns the summary of m's pots with a histogram of bins bins
// (0 means 10), which ValidateBins checks; Summarize, which returns no
// error, draws fewer than 1 as 10 and more than MaxBins as MaxBins.
func Summarize(m *machine.Machine, bins int) Summary {
	if bins <= 0 {
		bins = 10
	}
	bins = min(bins, MaxBins)
	pots := Pots(m)
	s := Summary{
		Pots:        len(pots),
		Limit:       m.Bank.Config().Limit,
		Min:         math.Inf(1),
		Max:         math.Inf(-1),
		Pulses:      m.Bank.Pulses(),
		Saturations: m.Bank.Saturations(),
		Seconds:     m.Bank.Seconds(),
	}
	var sum float64
	for _, p := range pots {
		sum += p.Position
		s.Min, s.Max = min(s.Min, p.Position), max(s.Max, p.Position)
		switch p.AtStop {
		case -1:
			s.AtLow++
		case 1:
			s.AtHigh++
		}
		if p.Stuck {
			s.Stuck++
		}
		if p.Bias() {
			s.Bias++
		}
	}
	s.Mean = sum / float64(len(pots))
	lo, hi := -s.Limit, s.Limit
	if s.Limit == 0 {
		r := max(math.Abs(s.Min), math.Abs(s.Max), 1e-9)
		lo, hi = -r, r
	}
	s.Histogram = Histogram{Lo: lo, Hi: hi, Counts: make([]int, bins)}
	for _, p := range pots {
		b := int(float64(bins) * (p.Position - lo) / (hi - lo))
		s.Histogram.Counts[min(max(b, 0), bins-1)]++
	}
	return s
}

// Saturated returns the number of pots resting at an end stop.
func (s Summary) Saturated() int { return s.AtLow + s.AtHigh }

// groups returns, for each R-unit in use, the pots that feed it in bank
// order (the A-units' pots, then its bias pot).
func groups(pots []Pot, used int) [][]Pot {
	g := make([][]Pot, used)
	for _, p := range pots {
		if p.RUnit >= 0 && p.RUnit < used {
			g[p.RUnit] = append(g[p.RUnit], p)
		}
	}
	for r := range g {
		slices.SortStableFunc(g[r], func(a, b Pot) int { return cmp.Compare(b2i(a.Bias()), b2i(b.Bias())) })
	}
	return g
}

// RUnitName describes R-unit r of m for labels: what it stands for in the
// class code.
func RUnitName(m *machine.Machine, r int) string {
	cfg := m.Layer.Config()
	if cfg.Code == response.OnePerClass {
		if r < len(m.Classes) {
			return fmt.Sprintf("R%d = %s", r, m.Classes[r])
		}
		return fmt.Sprintf("R%d", r)
	}
	var on []string
	for c, name := range m.Classes {
		if m.Layer.Want(r, c) {
			on = append(on, name)
		}
	}
	s := fmt.Sprintf("R%d = bit %d", r, r)
	if len(on) > 0 && len(on) <= 4 {
		s += " (on for " + strings.Join(on, ", ") + ")"
	}
	return s
}
