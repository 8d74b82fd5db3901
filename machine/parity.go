package machine

import (
	"context"
	"fmt"
	"math"

	"mark1/images"
	"mark1/limits"
)

// ParityOptions say how to train machines on parity over K cells of the
// retina (images.ParityCards: all 2^K cards, the other cells dark).
type ParityOptions struct {
	DeckOptions
	K int
}

// maxParityLP bounds the cards whose A-unit patterns are tested for linear
// separability by linear programming.
const maxParityLP = 64

// Validate reports options that cannot run.
func (o ParityOptions) Validate() error {
	if o.K < 1 || o.K > images.ParityMaxK {
		return fieldErr("k", o.K, "[1, %d] cells", images.ParityMaxK)
	}
	if w, h := o.Config.Retina.Size(); w != 20 || h != 20 {
		return fieldErr("retina", fmt.Sprintf("%dx%d", w, h), "the 20x20 retina the parity cards are drawn for")
	}
	return o.DeckOptions.Validate()
}

// A ParityRun is one seed's machine on the parity cards.
type ParityRun struct {
	Seed   uint64 `json:"seed"`
	Status Status `json:"status"`
	Epochs int    `json:"epochs"`
	Right  int    `json:"right"` // cards answered right after training, of 2^K
	// MostSeen is the most of the K cells that one A-unit's origin points
	// cover; SeeAll counts the A-units that cover all K.
	MostSeen int `json:"most_seen"`
	SeeAll   int `json:"see_all"`
	// Possible says whether any weights could answer every card right,
	// decided independently of training: "no (order)" when every A-unit
	// sees fewer than K cells (the order of parity is K: Minsky and
	// Papert's Theorem 3.1, limits.ParityOrder); else, for at most 64
	// cards, by linear programming on the A-units' outputs with a bias
	// when the machine has one ("yes (LP)", "no (LP)"); "not decided"
	// otherwise.
	Possible string `json:"possible"`
}

// A ParityResult is parity on K cells of the machine's retina, one run per
// seed.
type ParityResult struct {
	K     int         `json:"k"`
	Cells []int       `json:"cells"` // the cells lit (row × width + column)
	Runs  []ParityRun `json:"runs"`
	// Perfect counts the seeds whose machine answers every card right;
	// WithSeeAll those with an A-unit that sees all K cells.
	Perfect    int `json:"perfect"`
	WithSeeAll int `json:"with_see_all"`
	// PSeeAll is the probability, under the wiring model (origin points
	// drawn without replacement, anywhere on the retina), that some A-unit
	// covers all K cells: 1 − (1 − p)^units with p = Π_{i<K} (m−i)/(n−i),
	// m = x + y origin points, n cells.
	PSeeAll float64 `json:"p_see_all"`
}

// Parity trains a machine per seed on the 2^K parity cards and reports how
// many each answers right, how much of the K cells its A-units see, and
// whether any weights could do it.
func Parity(ctx context.Context, o ParityOptions) (ParityResult, error) {
	if err := o.Validate(); err != nil {
		return ParityResult{}, err
	}
	cards, err := images.ParityCards(o.K, 20)
	if err != nil {
		return ParityResult{}, err
	}
	runs, err := ForSeeds(ctx, o.Seeds, o.Threads, func(ctx context.Context, seed uint64) (ParityRun, error) {
		return parityRun(ctx, o, cards, seed)
	})
	if err != nil {
		return ParityResult{}, err
	}
	a := o.Config.Associator.Defaults()
	w, h := o.Config.Retina.Size()
	p := 1.0
	for i := range o.K {
		p *= float64(a.Excitatory+a.Inhibitory-i) / float64(w*h-i)
	}
	res := ParityResult{K: o.K, Cells: images.ParityCells(o.K), Runs: runs, PSeeAll: -math.Expm1(float64(a.Units) * math.Log1p(-max(p, 0)))}
	for _, r := range runs {
		if r.Right == len(cards.Samples) {
			res.Perfect++
		}
		if r.SeeAll > 0 {
			res.WithSeeAll++
		}
	}
	return res, nil
}

func parityRun(ctx context.Context, o ParityOptions, cards *images.Dataset, seed uint64) (ParityRun, error) {
	m, s, resp, err := trainOnDeck(ctx, o.DeckOptions, cards, seed)
	if err != nil {
		return ParityRun{}, err
	}
	run := ParityRun{Seed: seed, Status: s.Status(), Epochs: len(m.History), Possible: "not decided"}
	cells := map[int]bool{}
	for _, c := range images.ParityCells(o.K) {
		cells[c] = true
	}
	for _, u := range m.Plugboard.Units {
		seen := 0
		for _, pts := range [][]int{u.Excitatory, u.Inhibitory} {
			for _, p := range pts {
				if cells[p] {
					seen++
				}
			}
		}
		run.MostSeen = max(run.MostSeen, seen)
		if seen == o.K {
			run.SeeAll++
		}
	}
	var x [][]float64
	var y []int
	for k, r := range resp {
		label := cards.Samples[k].Label
		if r.Class == label {
			run.Right++
		}
		a := make([]float64, len(m.Plugboard.Units))
		for _, u := range r.Active {
			a[u] = 1
		}
		x, y = append(x, a), append(y, 2*label-1)
	}
	switch {
	case run.MostSeen < o.K:
		run.Possible = "no (order)"
	case len(x) <= maxParityLP:
		ok, _, err := separableWithout(x, y, !o.Config.Response.Bias)
		if err != nil {
			return run, err
		}
		run.Possible = map[bool]string{true: "yes (LP)", false: "no (LP)"}[ok]
	}
	return run, nil
}

// separableWithout is limits.Separable, with the bias held at 0 when
// noBias: a machine without a bias pot answers sign(w·a). w·x + b
// separates the points and their mirror images −x (labels flipped) only if
// w·x > |b| ≥ 0 on the positive points and below −|b| on the negative
// ones, so then w alone separates them; and a w that does so separates
// both with b = 0.
func separableWithout(x [][]float64, y []int, noBias bool) (bool, []float64, error) {
	if !noBias {
		return limits.Separable(x, y)
	}
	xs, ys := append([][]float64(nil), x...), append([]int(nil), y...)
	for i, p := range x {
		q := make([]float64, len(p))
		for j, v := range p {
			q[j] = -v
		}
		xs, ys = append(xs, q), append(ys, -y[i])
	}
	return limits.Separable(xs, ys)
}
