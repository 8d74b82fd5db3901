package curves

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"mark1/associator"
	"mark1/images"
	"mark1/machine"
	"mark1/response"
)

// run is one simulated learning series and its test: the machine of the
// ideal preset (unbounded, continuous, noiseless pots: the theory's
// values) with ne A-units in each of its source-sets, one R-unit per
// response, trained by monovalent forced learning on the learning series,
// each card presented once, then frozen and tested.
type run struct {
	task     string
	ne, n    int
	decision response.Decision
	seed     uint64
	// values is the value system (α when zero).
	values machine.ValueSystem
	// assoc replaces the preset's x, y and θ when its Units is not zero
	// (Units is then set to the machine's).
	assoc associator.Config
	// responses, when above the task's classes, relabels the cards at
	// random into this many responses: only for the ideal environment,
	// whose labels are arbitrary anyway.
	responses int
	// q, when positive, draws each response's number of cards from a
	// normal distribution of mean n and standard deviation q·n (rounded,
	// at least 0): PR58's n_sr "treated as a random variable".
	q float64
	// data, if not nil, are the cards instead of task's: each seed deals
	// each class's cards in its own order, the learning series first, then
	// fresh cards (dataCards).
	data *images.Dataset
}

// testCards is the number of fresh cards per class P_g is measured on.
const testCards = 100

// measured is what one run gives: PR58's pairwise P_r on the learning
// series, P_g on fresh cards of the same task, the machine's P_a, and the
// similarity statistics of the fresh cards (set only by runs with stats).
type measured struct {
	pr, pg, pa float64
	pc         PcStats
}

// counts returns the number of cards of each of k responses: n each, or
// drawn with standard deviation q·n from the seed's own stream.
func (r run) counts(k int) []int {
	out := make([]int, k)
	rng := rand.New(rand.NewPCG(r.seed, 0x5eed_0f_a5))
	for i := range out {
		out[i] = r.n
		if r.q > 0 {
			out[i] = max(0, int(math.Round(float64(r.n)*(1+r.q*rng.NormFloat64()))))
		}
	}
	return out
}

func (r run) do(ctx context.Context, stats bool) (measured, error) {
	if err := ctx.Err(); err != nil {
		return measured{}, err
	}
	cfg, err := machine.Preset("ideal")
	if err != nil {
		return measured{}, err
	}
	if r.assoc.Units != 0 {
		cfg.Associator = r.assoc
	}
	seeds := machine.SeedsFrom(r.seed)
	k, err := r.classes()
	if err != nil {
		return measured{}, err
	}
	if r.responses > k {
		if r.task != "ideal-environment" {
			return measured{}, fmt.Errorf("curves: %d responses on %s: relabelling is only for the ideal environment", r.responses, r.task)
		}
		k = r.responses
	}
	cfg.Associator.Units = k * r.ne
	if k > 8 {
		cfg.Response.Units = k
	}
	cfg.Response.Code = response.OnePerClass
	cfg.Response.Decision = r.decision
	counts := r.counts(k)
	train, test, err := r.cards(k, counts, seeds.Master)
	if err != nil {
		return measured{}, err
	}
	m, err := machine.New(cfg, train.Classes, seeds, nil)
	if err != nil {
		return measured{}, err
	}
	tr, te := m.Fields(train), m.Fields(test)
	src := images.Source{Task: r.task, PerClass: r.n, Seed: seeds.Master}
	if r.data != nil {
		src = images.Source{Path: r.data.Name}
	}
	rec := machine.Recipe{Data: src,
		Rule: machine.ForcedMonovalent, Values: r.values, MaxEpochs: 1, Stop: machine.EpochLimit}
	s, err := machine.NewSession(m, rec, tr, te)
	if err != nil {
		return measured{}, fmt.Errorf("curves: %s, %d cards per class: %w", r.task, r.n, err)
	}
	if _, err := s.Run(ctx, nil); err != nil {
		return measured{}, err
	}
	out := measured{
		pr: m.Pairwise(tr.X, tr.Y),
		pg: m.Pairwise(te.X, te.Y),
		pa: machine.SummarisePa(m.MeasurePa(te.X)).Mean,
	}
	if stats {
		per, bits := m.FiredBits(te.X)
		out.pc = pcStats(per, bits, te.Y, k, cfg.Associator.Units)
	}
	return out, nil
}

// classes returns the number of classes of the run's cards.
func (r run) classes() (int, error) {
	if r.data != nil {
		return len(r.data.Classes), nil
	}
	return taskClasses(r.task)
}

// dataFresh returns the fresh cards per class a data set's runs are
// tested on: testCards, or half the smallest class if that is fewer; and
// the largest learning series it leaves (the smallest class less them).
func dataFresh(d *images.Dataset) (fresh, most int) {
	counts := make([]int, len(d.Classes))
	for _, s := range d.Samples {
		counts[s.Label]++
	}
	least := slices.Min(counts)
	fresh = min(testCards, least/2)
	return fresh, least - fresh
}

// dataCards deals a data set's cards for one seed: each class's cards in
// an order drawn from seed, the first counts[c] the learning series and
// the next dataFresh the fresh cards.
func (r run) dataCards(counts []int, seed uint64) (train, test *images.Dataset, err error) {
	d := r.data
	fresh, most := dataFresh(d)
	if fresh < 1 || slices.Max(counts) > most {
		return nil, nil, fmt.Errorf("curves: %s: %d cards per class leave too few fresh cards (the smallest class has %d)", d.Name, slices.Max(counts), most+fresh)
	}
	byClass := make([][]int, len(d.Classes))
	for i, s := range d.Samples {
		byClass[s.Label] = append(byClass[s.Label], i)
	}
	rng := rand.New(rand.NewPCG(seed, 0xca4d5))
	train = &images.Dataset{Name: d.Name, Classes: d.Classes}
	test = &images.Dataset{Name: d.Name, Classes: d.Classes}
	for c, idx := range byClass {
		rng.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
		for _, i := range idx[:counts[c]] {
			train.Samples = append(train.Samples, d.Samples[i])
		}
		for _, i := range idx[len(idx)-fresh:] {
			test.Samples = append(test.Samples, d.Samples[i])
		}
	}
	return train, test, nil
}

// taskClasses returns the number of classes of a built-in task.
func taskClasses(task string) (int, error) {
	for _, t := range images.Tasks() {
		if t.Name == task {
			return len(t.Classes), nil
		}
	}
	return 0, fmt.Errorf("curves: unknown task %q", task)
}

// cards makes the learning series (counts[c] cards of response c) and the
// fresh cards (testCards of each). A task's sample j of a class is the same
// card whatever the number asked for, so the learning series is the first
// counts[c] of class c and the fresh cards come after the largest count.
// The ideal environment's cards are all drawn alike, so with more
// responses than its two classes they are dealt out in turn.
func (r run) cards(k int, counts []int, seed uint64) (train, test *images.Dataset, err error) {
	if r.data != nil {
		return r.dataCards(counts, seed)
	}
	most := 0
	total := 0
	for _, c := range counts {
		most = max(most, c)
		total += c
	}
	classes, err := taskClasses(r.task)
	if err != nil {
		return nil, nil, err
	}
	if k > classes {
		all, err := images.Generate(r.task, (total+k*testCards+classes-1)/classes, images.DefaultCardSize, seed)
		if err != nil {
			return nil, nil, err
		}
		names := make([]string, k)
		for i := range names {
			names[i] = fmt.Sprintf("R%d", i+1)
		}
		train = &images.Dataset{Name: all.Name, Classes: names}
		test = &images.Dataset{Name: all.Name, Classes: names}
		j := 0
		for c, n := range counts {
			for range n {
				s := all.Samples[j]
				s.Label = c
				train.Samples = append(train.Samples, s)
				j++
			}
		}
		for i := range k * testCards {
			s := all.Samples[j]
			s.Label = i % k
			test.Samples = append(test.Samples, s)
			j++
		}
		return train, test, nil
	}
	all, err := images.Generate(r.task, most+testCards, images.DefaultCardSize, seed)
	if err != nil {
		return nil, nil, err
	}
	train = &images.Dataset{Name: all.Name, Classes: all.Classes}
	test = &images.Dataset{Name: all.Name, Classes: all.Classes}
	seen := make([]int, k)
	for _, s := range all.Samples {
		switch j := seen[s.Label]; {
		case j < counts[s.Label]:
			train.Samples = append(train.Samples, s)
		case j >= most:
			test.Samples = append(test.Samples, s)
		}
		seen[s.Label]++
	}
	return train, test, nil
}

// PcStats are PR58's similarity statistics of a differentiated
// environment, measured on a machine's cards: P_c11, the expected fraction
// of the A-units firing for a card that fire for another card of its class,
// and P_c12 for a card of the other class; and for each the variance over
// the test cards (σ_s², of the card's mean over its units, less the part
// its finite number of units adds) and over the A-units (σ_a², within a
// card, less the binomial part of estimating each unit's rate from the
// cards).
type PcStats struct {
	Pc11   float64 `json:"p_c11"`
	Pc12   float64 `json:"p_c12"`
	VarS11 float64 `json:"var_s_c11"`
	VarS12 float64 `json:"var_s_c12"`
	VarA11 float64 `json:"var_a_c11"`
	VarA12 float64 `json:"var_a_c12"`
}

// pcStats computes PcStats from the A-units each card fires (per words a
// card, learning.Bits's layout) and the cards' labels (two classes): unit
// i's rate for class c is the fraction of class c's cards it fires for
// (leaving the card out for its own class); a card's P_c1r is the mean
// rate over the units it fires of its own class (r = 1) or the other
// (r = 2).
func pcStats(per int, bits []uint64, labels []int, k, units int) PcStats {
	fires := func(card, u int) bool { return bits[card*per+u/64]>>(u%64)&1 == 1 }
	count := make([][]float64, k)
	size := make([]float64, k)
	for c := range count {
		count[c] = make([]float64, units)
	}
	for i, y := range labels {
		size[y]++
		for u := range units {
			if fires(i, u) {
				count[y][u]++
			}
		}
	}
	var st [2]struct{ mean, sq, varA, finite, cards float64 }
	for i, y := range labels {
		for r := range 2 {
			c := y
			if r == 1 {
				c = (y + 1) % k
			}
			var s, ss, bin, m float64
			for u := range units {
				if !fires(i, u) {
					continue
				}
				n, hits := size[c], count[c][u]
				if c == y {
					n, hits = n-1, hits-1
				}
				if n < 1 {
					continue
				}
				p := hits / n
				s += p
				ss += p * p
				if n > 1 {
					bin += p * (1 - p) / (n - 1)
				}
				m++
			}
			if m == 0 {
				continue
			}
			mean := s / m
			va := max(0, ss/m-mean*mean-bin/m)
			t := &st[r]
			t.mean += mean
			t.sq += mean * mean
			t.varA += va
			t.finite += va / m
			t.cards++
		}
	}
	var out [2][3]float64
	for r, t := range st {
		if t.cards == 0 {
			continue
		}
		mean := t.mean / t.cards
		out[r] = [3]float64{mean, max(0, t.sq/t.cards-mean*mean-t.finite/t.cards), t.varA / t.cards}
	}
	return PcStats{Pc11: out[0][0], Pc12: out[1][0], VarS11: out[0][1], VarS12: out[1][1], VarA11: out[0][2], VarA12: out[1][2]}
}
