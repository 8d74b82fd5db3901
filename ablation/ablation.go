package ablation

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"

	"mark1/internal/base/param"
	"mark1/machine"
)

// Part is a kind of part that fails.
type Part int

const (
	// AUnits fails association units: they never fire.
	AUnits Part = iota
	// Pots fails potentiometers: each rests at a random position and its
	// motor no longer moves it.
	Pots
)

func (p Part) String() string {
	switch p {
	case AUnits:
		return "a-units"
	case Pots:
		return "pots"
	}
	return fmt.Sprintf("Part(%d)", int(p))
}

// MarshalText writes the part as its name ("a-units", "pots").
func (p Part) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText reads a part's name.
func (p *Part) UnmarshalText(b []byte) error {
	q, err := ParsePart(string(b))
	*p = q
	return err
}

// ParsePart reads "a-units" or "pots".
func ParsePart(s string) (Part, error) {
	for _, p := range []Part{AUnits, Pots} {
		if s == p.String() {
			return p, nil
		}
	}
	return 0, fmt.Errorf("unknown part %q (want a-units or pots)", s)
}

// DefaultFractions are the fractions of parts failed when Spec gives none.
func DefaultFractions() []float64 { return []float64{0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9} }

// Spec says what to fail and how to retrain. The zero value fails A-units
// and pots at DefaultFractions, does not retrain, and draws from seed 0.
type Spec struct {
	// Parts to fail, one curve each; nil means A-units and pots.
	Parts []Part
	// Fractions of the parts to fail, each in [0, 1]; nil means
	// DefaultFractions().
	Fractions []float64
	// Retrain is the number of epochs of retraining after each failure,
	// each run in full; 0 means none.
	Retrain int
	// Recipe is how to retrain (rule, value system, pulses); its epoch
	// limit and stopping rule are replaced by Retrain epochs.
	Recipe machine.Recipe
	// Seed draws which parts fail and where failed pots rest.
	Seed uint64
	// Draws is the number of independent fault draws per fraction, whose
	// P_g are averaged; 0 means 1. Draw 0 is the same draw whatever
	// Draws, so one draw gives what it always gave.
	Draws int
	// Workers bounds the draws run at once; 0 means 1. The result does
	// not depend on it.
	Workers int
	// Progress, if not nil, is told after each measurement (one fraction
	// of one part in one draw, retraining included) how many of the total
	// are done; the calls are serialised. For progress lines: it changes
	// no result.
	Progress func(done, total int)
}

// Point is one measurement: a fraction of one kind of part failed.
type Point struct {
	Part     Part    `json:"part"`
	Fraction float64 `json:"fraction"`
	Failed   int     `json:"failed"` // parts failed
	Of       int     `json:"of"`     // parts of that kind in the machine
	// Pg is the accuracy on the held-out cards right after the failure.
	Pg float64 `json:"p_g"`
	// Retrained is P_g after Spec.Retrain epochs of retraining; nil (JSON
	// null) when there was none.
	Retrained *float64 `json:"p_g_retrained"`
	// Draws is the number of fault draws averaged; PgSD and RetrainedSD
	// are the standard deviations of P_g over them (0 for one draw).
	Draws int `json:"draws"`
	// Machines is the number of machines pooled (Pool); then Pg and
	// Retrained are means over the machines of each one's mean over its
	// Draws, and the SDs are over the machines. 0 for one machine.
	Machines    int      `json:"machines,omitempty"`
	PgSD        float64  `json:"p_g_sd"`
	RetrainedSD *float64 `json:"p_g_retrained_sd"`
}

// Pool combines the points of several machines ablated with the same
// parts and fractions (one slice per machine, in the same order): the
// mean and the standard deviation over the machines of each one's P_g.
// It panics if the slices do not line up (misuse).
func Pool(per [][]Point) []Point {
	if len(per) == 0 {
		return nil
	}
	out := make([]Point, len(per[0]))
	for k := range out {
		var pg, pg2, rt, rt2 float64
		p := per[0][k]
		for _, pts := range per {
			q := pts[k]
			if len(pts) != len(out) || q.Part != p.Part || q.Fraction != p.Fraction {
				panic("ablation: Pool: the machines' points do not line up")
			}
			pg += q.Pg
			pg2 += q.Pg * q.Pg
			if q.Retrained != nil {
				rt += *q.Retrained
				rt2 += *q.Retrained * *q.Retrained
			}
		}
		n := float64(len(per))
		p.Machines = len(per)
		p.Pg, p.PgSD = pg/n, sd(pg, pg2, n)
		if p.Retrained != nil {
			m, s := rt/n, sd(rt, rt2, n)
			p.Retrained, p.RetrainedSD = &m, &s
		}
		out[k] = p
	}
	return out
}

// Bounds of a Spec, checked by Validate.
const (
	// MaxFractions bounds the number of Spec.Fractions.
	MaxFractions = 1000
	// MaxRetrain bounds Spec.Retrain: the machine's bound on every count
	// of epochs.
	MaxRetrain = machine.MaxEpochLimit
	// MaxDraws bounds Spec.Draws. Run copies the machine once for each
	// draw of each part before it starts.
	MaxDraws = 1000
	// MaxWorkers bounds Spec.Workers: the machine's bound on the
	// goroutines run at once.
	MaxWorkers = machine.MaxThreads
)

// Validate reports a setting out of range as a *param.FieldError naming
// the field in Spec's words, lower case: "parts", "fractions" (the first
// fraction out of range, or their number), "retrain", "draws", "workers".
// The zero values are the defaults, and valid (Draws 0 is 1 draw).
func (s Spec) Validate() error {
	if len(s.Fractions) > MaxFractions {
		return param.Errorf("fractions", len(s.Fractions), "at most %d fractions", MaxFractions)
	}
	for _, f := range s.Fractions {
		if !(f >= 0 && f <= 1) {
			return param.Errorf("fractions", f, "fractions in [0, 1]")
		}
	}
	for _, p := range s.Parts {
		if p != AUnits && p != Pots {
			return param.Errorf("parts", int(p), "%s or %s", AUnits, Pots)
		}
	}
	switch {
	case s.Retrain < 0 || s.Retrain > MaxRetrain:
		return param.Errorf("retrain", s.Retrain, "a whole number of epochs in [0, %d]", MaxRetrain)
	case s.Draws < 0 || s.Draws > MaxDraws:
		return param.Errorf("draws", s.Draws, "a whole number in [1, %d]", MaxDraws)
	case s.Workers < 0 || s.Workers > MaxWorkers:
		return param.Errorf("workers", s.Workers, "a whole number in [1, %d]", MaxWorkers)
	}
	return nil
}

// Run fails each fraction of each part of a copy of m (m itself is not
// changed) and measures P_g on test, then, if spec.Retrain > 0, retrains
// the copy on train for that many epochs and measures P_g again; with
// spec.Draws > 1 it does so for several independent fault draws and
// averages. Points come part by part, in the order of the fractions. A
// cancelled ctx stops the run with ctx's error.
func Run(ctx context.Context, m *machine.Machine, train, test machine.Fields, spec Spec) ([]Point, error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	if test.Len() == 0 {
		return nil, fmt.Errorf("ablation: no held-out cards to measure P_g on")
	}
	if spec.Retrain > 0 && train.Len() == 0 {
		return nil, fmt.Errorf("ablation: no training cards to retrain on")
	}
	if left := machine.MaxEpochLimit - len(m.History); spec.Retrain > left { // retraining continues the machine's epochs
		return nil, param.Errorf("retrain", spec.Retrain, "a whole number of epochs in [0, %d] after the machine's %d", max(left, 0), len(m.History))
	}
	parts := spec.Parts
	if parts == nil {
		parts = []Part{AUnits, Pots}
	}
	fractions := spec.Fractions
	if fractions == nil {
		fractions = DefaultFractions()
	}
	draws, workers := max(spec.Draws, 1), max(spec.Workers, 1)
	type job struct {
		part  Part
		draw  int
		out   []Point
		err   error
		clone *machine.Machine
	}
	jobs := make([]*job, 0, len(parts)*draws)
	for _, part := range parts {
		for d := range draws {
			jobs = append(jobs, &job{part: part, draw: d})
		}
	}
	// Each job gets its own copy of m up front (Clone reads m), then runs
	// alone; results are gathered by index, so the number of workers
	// changes nothing.
	for _, j := range jobs {
		c, err := m.Clone()
		if err != nil {
			return nil, err
		}
		j.clone = c
	}
	var mu sync.Mutex
	done, total := 0, len(jobs)*len(fractions)
	measured := func() {
		if spec.Progress == nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		done++
		spec.Progress(done, total)
	}
	sem := make(chan struct{}, workers)
	var wg sync.WaitGroup
	for _, j := range jobs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			j.out, j.err = runDraw(ctx, j.clone, train, test, spec, j.part, j.draw, fractions, measured)
		}()
	}
	wg.Wait()
	var out []Point
	for _, part := range parts {
		for k, f := range fractions {
			var pg, pg2, rt, rt2 float64
			p := Point{Part: part, Fraction: f, Draws: draws}
			for _, j := range jobs {
				if j.part != part {
					continue
				}
				if j.err != nil {
					return out, j.err
				}
				q := j.out[k]
				p.Failed, p.Of = q.Failed, q.Of
				pg += q.Pg
				pg2 += q.Pg * q.Pg
				if q.Retrained != nil {
					rt += *q.Retrained
					rt2 += *q.Retrained * *q.Retrained
				}
			}
			n := float64(draws)
			p.Pg, p.PgSD = pg/n, sd(pg, pg2, n)
			if spec.Retrain > 0 {
				m, s := rt/n, sd(rt, rt2, n)
				p.Retrained, p.RetrainedSD = &m, &s
			}
			out = append(out, p)
		}
	}
	return out, nil
}

// sd returns the sample standard deviation of n values from their sum and
// sum of squares (0 for one value).
func sd(sum, sum2, n float64) float64 {
	if n < 2 {
		return 0
	}
	v := (sum2 - sum*sum/n) / (n - 1)
	return math.Sqrt(max(v, 0))
}

// runDraw fails one fault draw's growing fractions of part in turn, each
// on a fresh copy of base, and measures.
func runDraw(ctx context.Context, base *machine.Machine, train, test machine.Fields, spec Spec, part Part, draw int, fractions []float64, measured func()) ([]Point, error) {
	n := len(base.Plugboard.Units)
	if part == Pots {
		n = base.Bank.Len()
	}
	// One order of failure and one resting place per part and draw, shared
	// by all fractions: the failed sets are nested. Draw 0 is the stream
	// one draw always used.
	rng := rand.New(rand.NewPCG(spec.Seed, uint64(part)+1+uint64(draw)<<32))
	order := rng.Perm(n)
	rest := make([]float64, n)
	if part == Pots {
		span := base.Bank.Config().Limit
		if span == 0 { // no end stops: the range the values reached
			for _, v := range base.Bank.Values() {
				span = max(span, math.Abs(v))
			}
			if span == 0 {
				span = base.Bank.Config().StepSize()
			}
		}
		for i := range rest {
			rest[i] = span * (2*rng.Float64() - 1)
		}
	}
	var out []Point
	for _, f := range fractions {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		c, err := base.Clone()
		if err != nil {
			return out, err
		}
		k := int(math.Round(f * float64(n)))
		for _, i := range order[:k] {
			if part == AUnits {
				c.Plugboard.Kill(i)
			} else {
				c.Bank.Fail(i, rest[i])
			}
		}
		p := Point{Part: part, Fraction: f, Failed: k, Of: n, Pg: c.Accuracy(test.X, test.Y)}
		if spec.Retrain > 0 {
			r := spec.Recipe
			r.MaxEpochs, r.Stop = len(c.History)+spec.Retrain, machine.EpochLimit
			s, err := machine.NewSession(c, r, train, machine.Fields{})
			if err != nil {
				return out, fmt.Errorf("ablation: retraining: %w", err)
			}
			if _, err := s.Run(ctx, nil); err != nil {
				return out, err
			}
			pg := c.Accuracy(test.X, test.Y)
			p.Retrained = &pg
		}
		out = append(out, p)
		measured()
	}
	return out, nil
}

// Table writes the points as a text table: one row per fraction, two
// columns per part (P_g after the failure, and after retraining if any).
func Table(points []Point) string {
	var parts []Part
	var fractions []float64
	at := map[Part]map[float64]Point{}
	for _, p := range points {
		if at[p.Part] == nil {
			at[p.Part] = map[float64]Point{}
			parts = append(parts, p.Part)
		}
		if p.Part == parts[0] {
			fractions = append(fractions, p.Fraction)
		}
		at[p.Part][p.Fraction] = p
	}
	retrained := len(points) > 0 && points[0].Retrained != nil
	spread := len(points) > 0 && (points[0].Draws > 1 || points[0].Machines > 1)
	wide, rwide := 14, 9
	if spread {
		wide, rwide = 16, 16
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%8s", "failed")
	for _, part := range parts {
		fmt.Fprintf(&b, "  %*s", wide, part.String()+": P_g")
		if retrained {
			fmt.Fprintf(&b, "  %*s", rwide, "retrained")
		}
	}
	b.WriteString("\n")
	pct := func(v, sd *float64) string {
		switch {
		case v == nil:
			return "-"
		case spread && sd != nil:
			return fmt.Sprintf("%.1f ± %.1f%%", 100**v, 100**sd)
		}
		return fmt.Sprintf("%.1f%%", 100**v)
	}
	for _, f := range fractions {
		fmt.Fprintf(&b, "%7.0f%%", 100*f)
		for _, part := range parts {
			p, ok := at[part][f]
			pg := &p.Pg
			if !ok {
				pg = nil
			}
			fmt.Fprintf(&b, "  %*s", wide, pct(pg, &p.PgSD))
			if retrained {
				fmt.Fprintf(&b, "  %*s", rwide, pct(p.Retrained, p.RetrainedSD))
			}
		}
		b.WriteString("\n")
	}
	switch {
	case spread && points[0].Machines > 1:
		fmt.Fprintf(&b, "(mean ± standard deviation over %d machines, each the mean of %d fault draws)\n", points[0].Machines, points[0].Draws)
	case spread:
		fmt.Fprintf(&b, "(mean ± standard deviation over %d fault draws)\n", points[0].Draws)
	}
	return b.String()
}
