package learning

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"mark1/machine"
)

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
)

// ValueSystem is how a reinforcement changes values (Rosenblatt 1958).
type ValueSystem int

const (
	// Alpha: each active A-unit's value changes by a fixed amount.
	Alpha ValueSystem = iota
	// Gamma: active A-units gain and the inactive ones of the same
	// source-set pay for it, so the set's total value stays constant.
	Gamma
)

var (
	ruleNames  = [...]string{"error-correction", "forced"}
	valueNames = [...]string{"alpha", "gamma"}
)

func (r Rule) String() string        { return enumName(ruleNames[:], int(r)) }
func (v ValueSystem) String() string { return enumName(valueNames[:], int(v)) }

func enumName(names []string, i int) string {
	if i < 0 || i >= len(names) {
		return fmt.Sprintf("(%d)", i)
	}
	return names[i]
}

// ParseRule reads "error-correction" or "forced".
func ParseRule(s string) (Rule, error) {
	for i, n := range ruleNames {
		if s == n {
			return Rule(i), nil
		}
	}
	return 0, fmt.Errorf("unknown training rule %q (want error-correction or forced)", s)
}

// ParseValueSystem reads "alpha" or "gamma".
func ParseValueSystem(s string) (ValueSystem, error) {
	for i, n := range valueNames {
		if s == n {
			return ValueSystem(i), nil
		}
	}
	return 0, fmt.Errorf("unknown value system %q (want alpha or gamma)", s)
}

// Hardware trains a Mark I by running its motors. The zero value is error
// correction with the α system, one pulse per correction, at most 100 epochs.
type Hardware struct {
	Rule   Rule
	Values ValueSystem
	// Pulses per correction; 0 means 1.
	Pulses int
	// MaxEpochs bounds training; 0 means 100.
	MaxEpochs int
}

// Fields is a data set as the machine sees it: fields fitted by the retina,
// with their labels.
type Fields struct {
	X [][]float32
	Y []int
}

// Len returns the number of fields.
func (f Fields) Len() int { return len(f.X) }

// Progress is told about each finished epoch of hardware training.
type Progress func(e machine.Epoch)

// Train runs the hardware rule on m over train, in an order shuffled afresh
// each epoch from m.Seeds.Order, until an epoch needs no correction or the
// epoch limit. After each epoch it measures P_r on train and, if test is not
// empty, P_g on test, appends the epoch to m.History and calls progress (if
// not nil). A cancelled ctx stops training after the current presentation;
// the machine is then consistent and may be saved and resumed.
func (h Hardware) Train(ctx context.Context, m *machine.Machine, train, test Fields, progress Progress) (*Result, error) {
	if len(train.X) == 0 {
		return nil, fmt.Errorf("hardware: no training data")
	}
	if len(train.X) != len(train.Y) || len(test.X) != len(test.Y) {
		panic("learning: fields and labels differ in length")
	}
	maxEpochs := h.MaxEpochs
	if maxEpochs == 0 {
		maxEpochs = 100
	}
	res := &Result{Model: MachineModel{m}}
	noise := m.TrainingNoise()
	var r machine.Response
	done := len(m.History)
	order := make([]int, len(train.X))
	for e := done + 1; e <= done+maxEpochs; e++ {
		// A fresh, reproducible permutation per epoch: it depends only on
		// the order seed and the epoch number, so a resumed run matches.
		rng := rand.New(rand.NewPCG(m.Seeds.Order, uint64(e)))
		for i := range order {
			order[i] = i
		}
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		mistakes := 0
		for _, i := range order {
			if err := ctx.Err(); err != nil {
				res.Status = fmt.Sprintf("interrupted in epoch %d; the epoch is incomplete and was not recorded", e)
				return res, err
			}
			if h.Present(m, &r, train.X[i], train.Y[i], noise) {
				mistakes++
			}
		}
		res.Updates += mistakes
		rec := CloseEpoch(m, e, len(order), mistakes, train, test)
		res.Epochs++
		res.Curve = append(res.Curve, Epoch{Epoch: e, Mistakes: mistakes, Risk: math.NaN()})
		if progress != nil {
			progress(rec)
		}
		if mistakes == 0 && h.Rule == ErrorCorrection {
			res.Converged = true
			res.Status = fmt.Sprintf("converged: epoch %d needed no correction", e)
			break
		}
		if h.Rule == Forced && rec.Pr == 1 {
			res.Converged = true
			res.Status = fmt.Sprintf("converged: every training card recognized after epoch %d", e)
			break
		}
	}
	if !res.Converged {
		last := m.History[len(m.History)-1]
		res.Status = fmt.Sprintf("stopped at the epoch limit (%d) with %d mistakes in the last epoch; P_r = %.1f%%",
			last.Epoch, last.Mistakes, 100*last.Pr)
	}
	return res, nil
}

// CloseEpoch records a finished epoch in m.History and returns the record:
// the presentations so far (the epoch's own added to those before it), the
// corrections in the epoch, P_r on train and P_g on test (if any) measured
// with the weights frozen, and the machine's clock and motor counters.
// Hardware.Train calls it after every epoch; a program that presents cards
// one at a time, such as the web panel, calls it when its epoch ends.
func CloseEpoch(m *machine.Machine, epoch, presented, mistakes int, train, test Fields) machine.Epoch {
	if n := len(m.History); n > 0 {
		presented += m.History[n-1].Presentations
	}
	rec := machine.Epoch{
		Epoch:         epoch,
		Presentations: presented,
		Mistakes:      mistakes,
		Pr:            m.Accuracy(train.X, train.Y),
		Seconds:       m.Bank.Seconds(),
		Pulses:        m.Bank.Pulses(),
		Saturations:   m.Bank.Saturations(),
	}
	if len(test.X) > 0 {
		pg := m.Accuracy(test.X, test.Y)
		rec.Pg = &pg
	}
	m.History = append(m.History, rec)
	return rec
}

// Present shows one fitted field with its label to the machine and, as the
// rule says, runs the motors. It reports whether any R-unit answered
// wrongly (a mistake). The clock advances by the presentation time and by
// the time the motors ran.
func (h Hardware) Present(m *machine.Machine, r *machine.Response, field []float32, label int, noise *rand.Rand) bool {
	m.Present(r, field, noise)
	mistake := false
	pulses := h.Pulses
	if pulses == 0 {
		pulses = 1
	}
	for u, s := range r.Sums {
		want := m.Layer.Want(u, label)
		// An R-unit is on for a positive sum and off for a negative one; a
		// zero sum lights neither lamp and counts as wrong, as y·(w·x) ≤ 0
		// does for the textbook perceptron.
		wrong := (want && s <= 0) || (!want && s >= 0)
		mistake = mistake || wrong
		if !wrong && h.Rule == ErrorCorrection {
			continue
		}
		dir := pulses
		if !want {
			dir = -pulses
		}
		h.reinforce(m, r.Active, u, dir)
	}
	m.Bank.Settle()
	m.Bank.Advance(m.Config.PresentSeconds)
	return mistake
}

// reinforce moves the pots of R-unit u's active A-units by n pulses.
func (h Hardware) reinforce(m *machine.Machine, active []int, u, n int) {
	bank, layer := m.Bank, m.Layer
	inSet := 0
	for _, a := range active {
		if p := layer.Pot(a, u); p >= 0 {
			bank.Pulse(p, n)
			inSet++
		}
	}
	if b := layer.BiasPot(u); b >= 0 {
		bank.Pulse(b, n)
	}
	if h.Values != Gamma || inSet == 0 {
		return
	}
	// γ system: the inactive A-units of the source-set pay for the gain, so
	// the set's total value is unchanged.
	setSize := 0
	for a := range layer.Associators() {
		if layer.Pot(a, u) >= 0 {
			setSize++
		}
	}
	inactive := setSize - inSet
	if inactive == 0 {
		return
	}
	share := -float64(n) * m.Bank.Config().StepSize() * float64(inSet) / float64(inactive)
	ai := 0
	for a := range layer.Associators() {
		for ai < len(active) && active[ai] < a {
			ai++
		}
		if ai < len(active) && active[ai] == a {
			continue
		}
		if p := layer.Pot(a, u); p >= 0 {
			bank.Move(p, share)
		}
	}
}

// MachineModel makes a trained machine a Model over fitted fields given as
// float64 vectors (Predict converts; use Machine.Present for speed).
type MachineModel struct{ M *machine.Machine }

// Predict returns the class the machine shows for field x.
func (mm MachineModel) Predict(x []float64) int {
	f := make([]float32, len(x))
	for i, v := range x {
		f[i] = float32(v)
	}
	var r machine.Response
	mm.M.Present(&r, f, mm.M.EvalNoise())
	return r.Class
}
