package machine

import (
	"context"
	"fmt"

	"mark1/images"
)

// DeckOptions say how to train machines, one per seed, on a fixed deck of
// cards that the experiment draws itself (the four figures, the parity
// cards).
type DeckOptions struct {
	// Config is the machine, its wiring included (associator.Config.Window
	// for the diameter-limited perceptron).
	Config Config
	// Recipe is how it is trained: rule, value system, pulses, epoch limit.
	// Its Data are the experiment's cards, whatever it says.
	Recipe Recipe
	// Seeds are the master seeds, one machine each (its wiring, order and
	// noise).
	Seeds []uint64
	// Threads bounds the machines trained at once (0: one per core); the
	// results do not depend on it.
	Threads int
}

// Validate reports options that cannot run.
func (o DeckOptions) Validate() error {
	if len(o.Seeds) == 0 {
		return fieldErr("seeds", 0, "at least one seed")
	}
	if o.Threads < 0 || o.Threads > MaxThreads {
		return fieldErr("threads", o.Threads, "[0, %d]", MaxThreads)
	}
	if err := o.Config.Validate(); err != nil {
		return err
	}
	if err := o.Recipe.Validate(); err != nil {
		return err
	}
	return o.Recipe.CheckMachine(o.Config)
}

// trainOnDeck builds the machine of seed, trains it on cards as o says
// until it stops, and returns it with its answers to the cards (weights
// frozen, evaluation noise) and the A-units each card fired.
func trainOnDeck(ctx context.Context, o DeckOptions, cards *images.Dataset, seed uint64) (*Machine, *Session, []Response, error) {
	m, err := New(o.Config, cards.Classes, SeedsFrom(seed), nil)
	if err != nil {
		return nil, nil, nil, err
	}
	train := m.Fields(cards)
	s, err := NewSession(m, o.Recipe, train, Fields{})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %w", cards.Name, err)
	}
	if _, err := s.Run(ctx, nil); err != nil {
		return nil, nil, nil, err
	}
	noise := m.EvalNoise()
	out := make([]Response, len(train.X))
	for k, f := range train.X {
		m.Present(&out[k], f, noise)
	}
	return m, s, out, nil
}

// FourOptions say how to train machines on Minsky and Papert's four figures
// (images.FourFigures).
type FourOptions struct {
	DeckOptions
	// Length is the strands' length in cells of the 20-cell grid
	// (images.FourMinLength to images.FourMaxLength).
	Length int
}

// Validate reports options that cannot run.
func (o FourOptions) Validate() error {
	if o.Length < images.FourMinLength || o.Length > images.FourMaxLength {
		return fieldErr("length", o.Length, "[%d, %d] cells of the 20-cell grid", images.FourMinLength, images.FourMaxLength)
	}
	return o.DeckOptions.Validate()
}

// A FourRun is one seed's machine on the four figures.
type FourRun struct {
	Seed   uint64 `json:"seed"`
	Status Status `json:"status"`
	Epochs int    `json:"epochs"`
	// Right counts the figures the trained machine answers right, of 4.
	Right int `json:"right"`
	// Answers are its answers to X00, X01, X10, X11 (a class name, or ""
	// when its R-units show none).
	Answers [4]string `json:"answers"`
	// Spanning counts the A-units that break the locality identity
	// a(X00) + a(X11) = a(X01) + a(X10), a(X) being 1 when the unit fires
	// for figure X: only such a unit, which must see both switches, can
	// let a weighted sum tell the figures apart.
	Spanning int `json:"spanning"`
}

// A FourResult is the four figures' experiment: one run per seed.
type FourResult struct {
	Length int       `json:"length"`
	Span   int       `json:"span"`   // columns the figure spans, switches included: Length + 2
	Wiring string    `json:"wiring"` // random or local:D
	Rule   Rule      `json:"rule"`
	Runs   []FourRun `json:"runs"`
	// AllFour counts the seeds whose machine answers all four right;
	// WithSpanning those with at least one spanning A-unit.
	AllFour      int `json:"all_four"`
	WithSpanning int `json:"with_spanning"`
}

// FourFigures trains a machine for each seed on the four figures until it
// stops (the recipe's stopping rule or its epoch limit) and reports how
// many of the four it answers right, and how many of its A-units see both
// switches. Minsky and Papert's theorem: when no A-unit breaks the
// locality identity (a window smaller than the span), no machine answers
// all four right, whatever its training, as long as its R-units compare
// weighted sums of the A-units (the decision sum; a mean is not linear).
func FourFigures(ctx context.Context, o FourOptions) (FourResult, error) {
	if err := o.Validate(); err != nil {
		return FourResult{}, err
	}
	cards, err := images.FourFigures(o.Length, 20)
	if err != nil {
		return FourResult{}, err
	}
	runs, err := ForSeeds(ctx, o.Seeds, o.Threads, func(ctx context.Context, seed uint64) (FourRun, error) {
		return fourRun(ctx, o, cards, seed)
	})
	if err != nil {
		return FourResult{}, err
	}
	res := FourResult{Length: o.Length, Span: o.Length + 2, Wiring: o.Config.Associator.Wiring(), Rule: o.Recipe.Rule, Runs: runs}
	for _, r := range runs {
		if r.Right == 4 {
			res.AllFour++
		}
		if r.Spanning > 0 {
			res.WithSpanning++
		}
	}
	return res, nil
}

func fourRun(ctx context.Context, o FourOptions, cards *images.Dataset, seed uint64) (FourRun, error) {
	m, s, resp, err := trainOnDeck(ctx, o.DeckOptions, cards, seed)
	if err != nil {
		return FourRun{}, err
	}
	run := FourRun{Seed: seed, Status: s.Status(), Epochs: len(m.History)}
	fired := make([][]int, 4) // per figure, 1 where an A-unit fires
	for k, r := range resp {
		if r.Class >= 0 {
			run.Answers[k] = m.Classes[r.Class]
		}
		if r.Class == cards.Samples[k].Label {
			run.Right++
		}
		fired[k] = make([]int, len(m.Plugboard.Units))
		for _, a := range r.Active {
			fired[k][a] = 1
		}
	}
	for u := range m.Plugboard.Units {
		if fired[0][u]+fired[3][u] != fired[1][u]+fired[2][u] {
			run.Spanning++
		}
	}
	return run, nil
}

// A FourReach is, for one length of the four figures, the smallest window
// at which some seed's machine answers all four right.
type FourReach struct {
	Length int `json:"length"`
	Span   int `json:"span"`
	// Window is the smallest D of the wiring local:D at which some seed
	// answers all four right, 0 if none up to the retina's side; AllFour
	// and Spanning count that window's seeds with all four right and with
	// a spanning A-unit.
	Window   int `json:"window"`
	AllFour  int `json:"all_four"`
	Spanning int `json:"with_spanning"`
	Seeds    int `json:"seeds"`
}

// FourReachAll runs FourFigures for each length and, for each, every
// window D from the smallest that holds an A-unit's origin points up to
// the retina's side, until some seed answers all four right. o's Length
// and wiring window are set for each run; the rest is as given.
func FourReachAll(ctx context.Context, o FourOptions, lengths []int) ([]FourReach, error) {
	a := o.Config.Associator.Defaults()
	w, h := o.Config.Retina.Size()
	first := 1
	for first*first < a.Excitatory+a.Inhibitory {
		first++
	}
	var out []FourReach
	for _, l := range lengths {
		row := FourReach{Length: l, Span: l + 2, Seeds: len(o.Seeds)}
		for d := first; d <= min(w, h); d++ {
			run := o
			run.Length, run.Config.Associator.Window = l, d
			res, err := FourFigures(ctx, run)
			if err != nil {
				return nil, fmt.Errorf("length %d, window %d: %w", l, d, err)
			}
			if res.AllFour > 0 {
				row.Window, row.AllFour, row.Spanning = d, res.AllFour, res.WithSpanning
				break
			}
		}
		out = append(out, row)
	}
	return out, nil
}
