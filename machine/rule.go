package machine

import "fmt"

// Rule is a hardware training procedure.
type Rule int

const (
	// ErrorCorrection changes values only when an R-unit answers wrongly:
	// the pots of the active A-units in its source-set are pulsed toward
	// the right answer (Rosenblatt 1962; Block 1962). With ideal pots it is
	// the textbook perceptron on the A-unit outputs.
	ErrorCorrection Rule = iota
	// Forced plays the 1960 human trainer who forces the correct response
	// on every presentation: the values of active A-units grow for R-units
	// that should be on and shrink for those that should be off, right or
	// wrong (bivalent reinforcement, 1958).
	Forced
	// ForcedMonovalent is the forced learning of Rosenblatt's 1958 learning
	// curves: the trainer forces the right response, and only the forced
	// response's source-set gains (its active A-units); nothing is
	// punished. With Recipe.Feedback it is carried by R→A feedback as RT58
	// describes it. It needs mutually exclusive responses, one R-unit per
	// class (response.OnePerClass).
	ForcedMonovalent
	// TrialAndError is 1958's reinforcement without forcing: the machine
	// answers, and the source-set of the response it gave gains when the
	// answer is right and loses when it is wrong. One R-unit per class.
	TrialAndError
	// Spontaneous is the Operators' Manual's third mode, "left to its own
	// resources": no labels are used; the source-set of whatever response
	// the machine gives gains (monovalent, RT58's Fig. 4 "by chance"). A tie
	// is broken at random from the training noise stream. Without decay
	// (Recipe.Decay = 0) this is RT58's Class C perceptron, with decay its
	// Class C′. One R-unit per class.
	Spontaneous
)

// Needs1958Responses reports whether the rule is one of 1958's rules on
// mutually exclusive responses, each R-unit a response with its own
// source-set: the machine's answer is the R-unit with the largest sum (or
// mean), and only a response's own source-set is reinforced.
func (r Rule) Needs1958Responses() bool {
	return r == ForcedMonovalent || r == TrialAndError || r == Spontaneous
}

// ValueSystem is how a reinforcement changes values (Rosenblatt 1958).
type ValueSystem int

const (
	// Alpha: each active A-unit's value changes by a fixed amount.
	Alpha ValueSystem = iota
	// Gamma: active A-units gain and the inactive ones of the same
	// source-set pay for it, so the set's total value stays constant.
	Gamma
	// Beta: a reinforced source-set gains a constant total (the pulses of
	// one correction, Recipe.Pulses steps), shared equally among its active
	// A-units, however many there are (PR58 Table 1).
	Beta
)

// Stop is the rule that ends training before the epoch limit.
type Stop int

const (
	// StopAuto is the rule's own: NoMistakes for error correction,
	// AllRecognized for forced training.
	StopAuto Stop = iota
	// NoMistakes stops after an epoch in which no R-unit answered wrongly.
	NoMistakes
	// AllRecognized stops when, after an epoch, the machine recognizes
	// every training card (P_r = 100%) with its weights frozen.
	AllRecognized
	// EpochLimit never stops early: training runs to the epoch limit.
	EpochLimit
)

func ruleNames() []string {
	return []string{"error-correction", "forced", "forced-monovalent", "trial-and-error", "spontaneous"}
}
func valueNames() []string { return []string{"alpha", "gamma", "beta"} }
func stopNames() []string  { return []string{"auto", "no-mistakes", "all-recognized", "epoch-limit"} }

// RuleNames returns the names of the training rules, in order.
func RuleNames() []string { return ruleNames() }

func (r Rule) String() string        { return enumName(ruleNames(), int(r)) }
func (v ValueSystem) String() string { return enumName(valueNames(), int(v)) }
func (s Stop) String() string        { return enumName(stopNames(), int(s)) }

func enumName(names []string, i int) string {
	if i < 0 || i >= len(names) {
		return fmt.Sprintf("(%d)", i)
	}
	return names[i]
}

func parseEnum(names []string, what, s string) (int, error) {
	for i, n := range names {
		if s == n {
			return i, nil
		}
	}
	return 0, fmt.Errorf("unknown %s %q (want %s)", what, s, orList(names))
}

func orList(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	out := ""
	for i, n := range names[:len(names)-1] {
		if i > 0 {
			out += ", "
		}
		out += n
	}
	return out + " or " + names[len(names)-1]
}

// ParseRule reads "error-correction", "forced", "forced-monovalent",
// "trial-and-error" or "spontaneous".
func ParseRule(s string) (Rule, error) {
	i, err := parseEnum(ruleNames(), "training rule", s)
	return Rule(i), err
}

// ParseValueSystem reads "alpha", "gamma" or "beta".
func ParseValueSystem(s string) (ValueSystem, error) {
	i, err := parseEnum(valueNames(), "value system", s)
	return ValueSystem(i), err
}

// ParseStop reads "auto", "no-mistakes", "all-recognized" or "epoch-limit".
func ParseStop(s string) (Stop, error) {
	i, err := parseEnum(stopNames(), "stopping rule", s)
	return Stop(i), err
}

// MarshalText writes the rule's name.
func (r Rule) MarshalText() ([]byte, error) { return textOf(r.String(), int(r), ruleNames()) }

// UnmarshalText reads a rule's name.
func (r *Rule) UnmarshalText(b []byte) (err error) { *r, err = ParseRule(string(b)); return err }

// MarshalText writes the value system's name.
func (v ValueSystem) MarshalText() ([]byte, error) { return textOf(v.String(), int(v), valueNames()) }

// UnmarshalText reads a value system's name.
func (v *ValueSystem) UnmarshalText(b []byte) (err error) {
	*v, err = ParseValueSystem(string(b))
	return err
}

// MarshalText writes the stopping rule's name.
func (s Stop) MarshalText() ([]byte, error) { return textOf(s.String(), int(s), stopNames()) }

// UnmarshalText reads a stopping rule's name.
func (s *Stop) UnmarshalText(b []byte) (err error) { *s, err = ParseStop(string(b)); return err }

func textOf(name string, i int, names []string) ([]byte, error) {
	if i < 0 || i >= len(names) {
		return nil, fmt.Errorf("machine: no name for value %d", i)
	}
	return []byte(name), nil
}
