package response

import (
	"fmt"
	"math"
	"math/bits"
)

// Layout says how values connect A-units to R-units.
type Layout int

const (
	// SourceSets gives each A-unit one value, feeding one R-unit.
	SourceSets Layout = iota
	// Full gives each A→R pair a value.
	Full
)

// Code says how a class is shown on the R-units.
type Code int

const (
	// Binary shows class c as the bits of c, one per R-unit.
	Binary Code = iota
	// OnePerClass gives each class its own R-unit; the largest sum wins.
	OnePerClass
)

// Sets says how the A-units are divided into source-sets in the
// SourceSets layout.
type Sets int

const (
	// UsedSets divides the A-units among the R-units the code uses: one
	// source-set of all the A-units for two classes, five of about 102 for
	// 26 letters in the binary code (the A→R wiring redone for the
	// experiment).
	UsedSets Sets = iota
	// FixedSets wires the A-units to all the machine's R-units in equal
	// contiguous sets (8 sets of 64 on the Mark I), whether an R-unit is
	// used or not; the A-units of an unused R-unit take no part.
	FixedSets
)

// Decision says what an R-unit compares: the sum of its active A-units'
// values (Σ, 1958's sum-discriminating system) or their mean (μ, the
// mean-discriminating system PR58 prefers for the α and β value systems).
type Decision int

const (
	// Sum: an R-unit's signal is the sum of the values of its source-set's
	// active A-units.
	Sum Decision = iota
	// Mean: the sum divided by the number of its source-set's active
	// A-units (0 when none is active).
	Mean
)

var (
	decisionNames = [...]string{"sum", "mean"}
	layoutNames   = [...]string{"source-sets", "full"}
	codeNames     = [...]string{"binary", "one-per-class"}
	setsNames     = [...]string{"used", "fixed"}
)

func (l Layout) String() string   { return name(layoutNames[:], int(l)) }
func (c Code) String() string     { return name(codeNames[:], int(c)) }
func (s Sets) String() string     { return name(setsNames[:], int(s)) }
func (d Decision) String() string { return name(decisionNames[:], int(d)) }

// ParseDecision reads "sum" or "mean".
func ParseDecision(s string) (Decision, error) {
	i, err := parse(decisionNames[:], "decision", s)
	return Decision(i), err
}

// MarshalText implements encoding.TextMarshaler.
func (d Decision) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (d *Decision) UnmarshalText(b []byte) (err error) {
	*d, err = ParseDecision(string(b))
	return err
}

func name(names []string, i int) string {
	if i < 0 || i >= len(names) {
		return fmt.Sprintf("(%d)", i)
	}
	return names[i]
}

func parse(names []string, kind, s string) (int, error) {
	for i, n := range names {
		if s == n {
			return i, nil
		}
	}
	return 0, fmt.Errorf("unknown %s %q (want %s or %s)", kind, s, names[0], names[1])
}

// ParseLayout reads "source-sets" or "full".
func ParseLayout(s string) (Layout, error) {
	i, err := parse(layoutNames[:], "layout", s)
	return Layout(i), err
}

// ParseCode reads "binary" or "one-per-class".
func ParseCode(s string) (Code, error) { i, err := parse(codeNames[:], "code", s); return Code(i), err }

// ParseSets reads "used" or "fixed".
func ParseSets(s string) (Sets, error) {
	i, err := parse(setsNames[:], "source-sets", s)
	return Sets(i), err
}

// MarshalText implements encoding.TextMarshaler.
func (s Sets) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (s *Sets) UnmarshalText(b []byte) (err error) { *s, err = ParseSets(string(b)); return err }

// MarshalText implements encoding.TextMarshaler.
func (l Layout) MarshalText() ([]byte, error) { return []byte(l.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (l *Layout) UnmarshalText(b []byte) (err error) { *l, err = ParseLayout(string(b)); return err }

// MarshalText implements encoding.TextMarshaler.
func (c Code) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (c *Code) UnmarshalText(b []byte) (err error) { *c, err = ParseCode(string(b)); return err }

// Config describes the R-units. The zero value is 8 R-units, source-sets
// divided among the R-units in use, binary code, no bias.
type Config struct {
	Units  int    `json:"units"` // R-units on the machine; 0 means 8
	Layout Layout `json:"layout"`
	Code   Code   `json:"code"`
	Bias   bool   `json:"bias"`
	// Sets says how the SourceSets layout divides the A-units (ignored by
	// the Full layout). Left out of a machine file when UsedSets, so files
	// written before it existed read the same.
	Sets Sets `json:"source_sets,omitempty"`
	// Decision is what each R-unit compares, the sum (the default) or the
	// mean of its active A-units' values. Left out of a machine file when
	// Sum, so files written before it existed read the same.
	Decision Decision `json:"decision,omitempty"`
	// Omega is PR58's ω, the fraction of the source-sets each A-unit feeds
	// in the SourceSets layout, with its one value: each A-unit feeds the
	// set of its own block and the round(ω·sets) − 1 sets after it
	// (cyclically), so neighbouring source-sets overlap. 0 (the default,
	// left out of a machine file) means disjoint sets, ω = 1/sets.
	Omega float64 `json:"omega,omitempty"`
}

// Layer is the R-units of a machine with a given number of A-units and
// classes. It maps A→R connections to potentiometer indices: values for
// A-units first, then one bias value per R-unit in use.
type Layer struct {
	cfg     Config
	assoc   int   // A-units
	classes int   // classes
	used    int   // R-units the code uses
	set     []int // SourceSets: the first R-unit each A-unit feeds
	feeds   int   // SourceSets: how many sets each A-unit feeds (from set[a] on, cyclically)
	sets    int   // SourceSets: the number of source-sets
	inputs  [][]Input
}

// Input is one A-unit feeding an R-unit, through its pot.
type Input struct {
	A   int // the A-unit
	Pot int // the pot that weights it
}

// New returns the R-unit layer for assoc A-units and the given number of
// classes, or an error if the code needs more R-units than the machine has.
func New(cfg Config, assoc, classes int) (*Layer, error) {
	cfg, used, err := shape(cfg, classes)
	if err != nil {
		return nil, err
	}
	l := &Layer{cfg: cfg, assoc: assoc, classes: classes, used: used}
	if cfg.Layout == SourceSets {
		sets := l.used
		if cfg.Sets == FixedSets {
			sets = cfg.Units
		}
		if assoc < sets {
			return nil, fmt.Errorf("response: %d A-units cannot form %d source-sets", assoc, sets)
		}
		l.set = make([]int, assoc)
		for a := range l.set {
			l.set[a] = a * sets / assoc // contiguous, near-equal source-sets
		}
		l.sets, l.feeds = sets, 1
		if cfg.Omega > 0 {
			l.feeds = max(1, min(sets, int(math.Round(cfg.Omega*float64(sets)))))
		}
	}
	l.inputs = make([][]Input, l.used)
	for r := range l.inputs {
		for a := range assoc {
			if p := l.Pot(a, r); p >= 0 {
				l.inputs[r] = append(l.inputs[r], Input{A: a, Pot: p})
			}
		}
	}
	return l, nil
}

// Inputs returns the A-units that feed R-unit r (its source-set, or every
// A-unit in the Full layout) with their pots, in A-unit order; the bias pot
// is not among them (see BiasPot). The slice is the layer's own: do not
// change it.
func (l *Layer) Inputs(r int) []Input { return l.inputs[r] }

// Config returns the layer's configuration.
func (l *Layer) Config() Config { return l.cfg }

// Used returns the number of R-units the code uses.
func (l *Layer) Used() int { return l.used }

// Classes returns the number of classes.
func (l *Layer) Classes() int { return l.classes }

// Associators returns the number of A-units.
func (l *Layer) Associators() int { return l.assoc }

// Pots returns the number of potentiometers the layer needs.
func (l *Layer) Pots() int { return pots(l.cfg, l.assoc, l.used) }

// Pots returns the number of pots of the layer New would make, without
// making it, or New's error: a caller can weigh a layer's memory before
// allocating it.
func Pots(cfg Config, assoc, classes int) (int, error) {
	cfg, used, err := shape(cfg, classes)
	if err != nil {
		return 0, err
	}
	return pots(cfg, assoc, used), nil
}

// MaxUnits bounds the R-units of a layer.
const MaxUnits = 1024

// Validate reports a setting out of range as a *FieldError.
func (c Config) Validate() error {
	if c.Units == 0 {
		c.Units = 8
	}
	switch {
	case c.Units < 1 || c.Units > MaxUnits:
		return fieldErr("units", c.Units, nil, "[1, %d] R-units", MaxUnits)
	case c.Layout != SourceSets && c.Layout != Full:
		return fieldErr("layout", int(c.Layout), nil, "%s or %s", layoutNames[0], layoutNames[1])
	case c.Code != Binary && c.Code != OnePerClass:
		return fieldErr("code", int(c.Code), nil, "%s or %s", codeNames[0], codeNames[1])
	case c.Sets != UsedSets && c.Sets != FixedSets:
		return fieldErr("source_sets", int(c.Sets), nil, "%s or %s", setsNames[0], setsNames[1])
	case c.Decision != Sum && c.Decision != Mean:
		return fieldErr("decision", int(c.Decision), nil, "%s or %s", decisionNames[0], decisionNames[1])
	case !(c.Omega >= 0 && c.Omega <= 1):
		return fieldErr("omega", c.Omega, nil, "[0, 1], the fraction of the source-sets each A-unit feeds (0 = disjoint sets)")
	case c.Omega > 0 && c.Layout == Full:
		return fieldErr("omega", c.Omega, []string{"layout"}, "0 with the full layout, where every A-unit feeds every R-unit through a pot of its own (ω needs the source-sets layout)")
	}
	return nil
}

// shape checks cfg for classes classes and returns it with its defaults
// and the R-units the code uses.
func shape(cfg Config, classes int) (Config, int, error) {
	if cfg.Units == 0 {
		cfg.Units = 8
	}
	if err := cfg.Validate(); err != nil {
		return cfg, 0, err
	}
	if classes < 2 {
		return cfg, 0, fmt.Errorf("response: need at least 2 classes, got %d", classes)
	}
	var used int
	switch cfg.Code {
	case Binary:
		used = bits.Len(uint(classes - 1))
	case OnePerClass:
		used = classes
	}
	if used > cfg.Units {
		hint := "more R-units, at most 1024"
		if cfg.Code != Binary {
			hint += ", or the binary code"
		}
		return cfg, 0, fmt.Errorf("response: %d classes need %d R-units with the %s code; the machine has %d (%s)",
			classes, used, cfg.Code, cfg.Units, hint)
	}
	return cfg, used, nil
}

// pots is the number of pots of a layer of cfg for assoc A-units and used
// R-units: one per A-unit (source-sets) or per A→R pair (full), and a bias
// pot per R-unit if asked for.
func pots(cfg Config, assoc, used int) int {
	n := assoc
	if cfg.Layout == Full {
		n *= used
	}
	if cfg.Bias {
		n += used
	}
	return n
}

// Pot returns the index of the pot connecting A-unit a to R-unit r, or -1 if
// a is not in r's source-set.
func (l *Layer) Pot(a, r int) int {
	if l.cfg.Layout == Full {
		return r*l.assoc + a
	}
	if !l.feedsSet(a, r) {
		return -1
	}
	return a
}

// feedsSet reports whether A-unit a feeds source-set r (SourceSets).
func (l *Layer) feedsSet(a, r int) bool {
	d := r - l.set[a]
	if d < 0 {
		d += l.sets
	}
	return d < l.feeds
}

// Omega returns PR58's ω: the fraction of the source-sets (or, in the Full
// layout, of the R-units) each A-unit feeds.
func (l *Layer) Omega() float64 {
	if l.cfg.Layout == Full {
		return 1
	}
	return float64(l.feeds) / float64(l.sets)
}

// Effective returns PR58's N_e for R-units r1 and r2: the A-units feeding
// r1 that do not also feed r2 ("those connected in common contribute
// equally to both sides of the value balance"). In the Full layout each
// pair has its own pot, so every A-unit counts.
func (l *Layer) Effective(r1, r2 int) int {
	if l.cfg.Layout == Full {
		return l.assoc
	}
	n := 0
	for a := range l.assoc {
		if l.feedsSet(a, r1) && !l.feedsSet(a, r2) {
			n++
		}
	}
	return n
}

// SourceSet returns the R-unit A-unit a feeds in the SourceSets layout (the
// first of them when ω > 1/sets: it also feeds the sets after it), or -1
// in the Full layout. With FixedSets it may be an R-unit the code does
// not use (at least Used()).
func (l *Layer) SourceSet(a int) int {
	if l.cfg.Layout == Full {
		return -1
	}
	return l.set[a]
}

// SourceSetSizes returns the number of A-units wired to each of the
// machine's R-units (nil in the Full layout): with UsedSets the used
// R-units share all the A-units and the others get none; with FixedSets
// every R-unit gets its equal share.
func (l *Layer) SourceSetSizes() []int {
	if l.cfg.Layout == Full {
		return nil
	}
	n := make([]int, l.cfg.Units)
	for _, r := range l.set {
		for j := range l.feeds {
			n[(r+j)%l.sets]++
		}
	}
	return n
}

// BiasPot returns the index of R-unit r's bias pot, or -1 without a bias.
func (l *Layer) BiasPot(r int) int {
	if !l.cfg.Bias {
		return -1
	}
	return l.Pots() - l.used + r
}

// Sums returns in dst (allocated if short) each used R-unit's sum of the
// values of the active A-units in its source-set — or, with the Mean
// decision, their mean (0 when none of its set is active) — plus its bias.
func (l *Layer) Sums(dst []float64, active []int, values []float64) []float64 {
	if cap(dst) < l.used {
		dst = make([]float64, l.used)
	}
	dst = dst[:l.used]
	clear(dst)
	if l.cfg.Layout == Full {
		for r := range dst {
			w := values[r*l.assoc : (r+1)*l.assoc]
			var s float64
			for _, a := range active {
				s += w[a]
			}
			dst[r] = s
		}
		if l.cfg.Decision == Mean && len(active) > 0 {
			for r := range dst {
				dst[r] /= float64(len(active))
			}
		}
	} else {
		if l.feeds == 1 { // disjoint sets: the machine's hot path
			for _, a := range active {
				if r := l.set[a]; r < l.used {
					dst[r] += values[a]
				}
			}
		} else {
			for _, a := range active {
				for j := range l.feeds {
					if r := (l.set[a] + j) % l.sets; r < l.used {
						dst[r] += values[a]
					}
				}
			}
		}
		if l.cfg.Decision == Mean {
			var n [64]int
			var count []int
			if l.used <= len(n) {
				count = n[:l.used]
			} else {
				count = make([]int, l.used)
			}
			for _, a := range active {
				for j := range l.feeds {
					if r := (l.set[a] + j) % l.sets; r < l.used {
						count[r]++
					}
				}
			}
			for r := range dst {
				if count[r] > 0 {
					dst[r] /= float64(count[r])
				}
			}
		}
	}
	if l.cfg.Bias {
		b := values[l.Pots()-l.used:]
		for r := range dst {
			dst[r] += b[r]
		}
	}
	return dst
}

// Want reports whether R-unit r should be on for class c.
func (l *Layer) Want(r, c int) bool {
	if l.cfg.Code == OnePerClass {
		return r == c
	}
	return c>>r&1 == 1
}

// Decode returns the class the R-unit sums show, or -1 if they show none.
// An R-unit is on for a positive sum and off for a negative one; a sum of
// exactly zero lights neither lamp, so the binary code then shows no class,
// as it does for the code of a class that does not exist. With the
// OnePerClass code the largest sum wins, and a tie for the largest shows
// no class.
func (l *Layer) Decode(sums []float64) int {
	if l.cfg.Code == OnePerClass {
		best, tie := 0, false
		for r := 1; r < len(sums); r++ {
			switch s := sums[r]; {
			case s > sums[best]:
				best, tie = r, false
			case s == sums[best]:
				tie = true
			}
		}
		if tie {
			return -1
		}
		return best
	}
	c := 0
	for r, s := range sums {
		switch {
		case s > 0:
			c |= 1 << r
		case s == 0:
			return -1
		}
	}
	if c >= l.classes {
		return -1
	}
	return c
}

// Score returns how strongly the R-unit signals favour class c: with the
// OnePerClass code, c's own R-unit's signal; with the Binary code, the sum
// of the signals of the R-units c wants on less those it wants off (each
// R-unit's vote for c's bit). The machine prefers c to c' when Score(c) >
// Score(c'): the pairwise preference of Rosenblatt 1958.
func (l *Layer) Score(sums []float64, c int) float64 {
	if l.cfg.Code == OnePerClass {
		return sums[c]
	}
	var s float64
	for r, v := range sums {
		if l.Want(r, c) {
			s += v
		} else {
			s -= v
		}
	}
	return s
}
