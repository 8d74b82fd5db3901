package curves

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"mark1/learning"
	"mark1/response"
)

// Names lists the figures Compute knows, in order.
func Names() []string { return []string{"rt58-5", "pr58-7", "pr58-8", "pr58-9"} }

// lost says why a figure of PR58 is not drawn.
var lost = map[string]string{
	"pr58-10": "PR58's Fig. 10 (α, β, γ with n_sr variable) needs the constants of its Eqs. 7 and 8, whose fractions the public OCR loses",
	"pr58-11": "PR58's Fig. 11 (P_r and P_g in the differentiated environment) needs the constants of its Eq. 11 and measured variances of P_c it does not print; the OCR loses Eq. 11 (rt58-5 draws RT58's curves of the same kind, solved from RT58's worked numbers)",
}

// Curve is one line of a figure: a model curve from the equations, or
// points measured on the simulated machine (mean over seeds with a
// Student-t 95% interval).
type Curve struct {
	Name     string    `json:"name"`
	Kind     string    `json:"kind"`     // "model" or "measured"
	Quantity string    `json:"quantity"` // "p_r" or "p_g"
	Ne       float64   `json:"n_e"`      // effective A-units per source-set
	Pa       *float64  `json:"p_a"`      // the P_a the curve is for; null where the paper states none
	X        []float64 `json:"x"`
	Y        []float64 `json:"y"`
	CILow    []float64 `json:"ci_low,omitempty"`
	CIHigh   []float64 `json:"ci_high,omitempty"`
	Seeds    int       `json:"seeds,omitempty"`
}

// Parameter is a value a figure uses, with why.
type Parameter struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
	Why   string  `json:"why"`
}

// Point is a P_r, P_g and limit triple.
type Point struct {
	Pr    float64 `json:"p_r"`
	Pg    float64 `json:"p_g"`
	Limit float64 `json:"limit"`
}

// Interval is a mean over seeds with its 95% interval.
type Interval struct {
	Mean   float64 `json:"mean"`
	CILow  float64 `json:"ci_low"`
	CIHigh float64 `json:"ci_high"`
}

// WorkedPoint sets RT58's worked point beside the model and the machine.
type WorkedPoint struct {
	Paper    Point `json:"paper"`
	Model    Point `json:"model"`
	Measured struct {
		Pr Interval `json:"p_r"`
		Pg Interval `json:"p_g"`
	} `json:"measured"`
	Deviation string `json:"deviation"`
}

// Figure is a computed figure.
type Figure struct {
	Name        string       `json:"figure"`
	Title       string       `json:"title"`
	XLabel      string       `json:"x_label"`
	XValue      string       `json:"x"` // "n_sr" or "p_a"
	Curves      []Curve      `json:"curves"`
	Parameters  []Parameter  `json:"parameters"`
	Notes       []string     `json:"notes"`
	WorkedPoint *WorkedPoint `json:"worked_point,omitempty"`
}

// Options say how much to simulate.
type Options struct {
	Seeds int // seeds per measured point; 0 means 20
	MaxN  int // the largest n_sr measured; 0 means 300
}

// Compute computes the named figure: its model curves, and its measured
// points over opt.Seeds seeds (master seeds 1…Seeds).
func Compute(ctx context.Context, name string, opt Options) (*Figure, error) {
	if why, ok := lost[name]; ok {
		return nil, fmt.Errorf("figure %s is not drawn: %s", name, why)
	}
	if opt.Seeds == 0 {
		opt.Seeds = 20
	}
	if opt.MaxN == 0 {
		opt.MaxN = 300
	}
	if opt.Seeds < 2 || opt.Seeds > 1000 {
		return nil, fmt.Errorf("%d seeds out of range [2, 1000] (an interval needs two)", opt.Seeds)
	}
	if opt.MaxN < 1 || opt.MaxN > 10000 {
		return nil, fmt.Errorf("largest n_sr measured %d out of range [1, 10000]", opt.MaxN)
	}
	switch name {
	case "rt58-5":
		return rt58Fig5(ctx, opt)
	case "pr58-7":
		return idealFigure(ctx, opt, name, response.Sum, 0.005)
	case "pr58-8":
		return idealFigure(ctx, opt, name, response.Mean, 0.07)
	case "pr58-9":
		return pr58Fig9(), nil
	}
	return nil, fmt.Errorf("unknown figure %q (want %s, or pr58-10, pr58-11 which are not drawn)", name, strings.Join(Names(), ", "))
}

// logspace returns n points from a to b, evenly spaced in log.
func logspace(a, b float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = math.Exp(math.Log(a) + (math.Log(b)-math.Log(a))*float64(i)/float64(n-1))
	}
	return out
}

// measuredNs are the n_sr at which the machine is measured, up to max.
func measuredNs(max int) []int {
	var out []int
	for _, n := range []int{1, 3, 10, 30, 100, 300, 1000, 3000, 10000} {
		if n <= max {
			out = append(out, n)
		}
	}
	return out
}

func modelCurve(name, q string, ne, pa, pNar float64, c Constants, xs []float64) Curve {
	cv := Curve{Name: name, Kind: "model", Quantity: q, Ne: ne, X: xs}
	if !math.IsNaN(pa) {
		cv.Pa = &pa
	}
	for _, n := range xs {
		cv.Y = append(cv.Y, P(pNar, c, n))
	}
	return cv
}

// measure runs the machine at each n over the seeds and returns the P_r
// and P_g curves and the mean P_a.
func measure(ctx context.Context, task string, ne int, d response.Decision, ns []int, seeds int, label string) (pr, pg Curve, pa float64, err error) {
	pr = Curve{Name: "measured P_r, " + label, Kind: "measured", Quantity: "p_r", Ne: float64(ne), Seeds: seeds}
	pg = Curve{Name: "measured P_g, " + label, Kind: "measured", Quantity: "p_g", Ne: float64(ne), Seeds: seeds}
	var pas []float64
	for _, n := range ns {
		var rs, gs []float64
		for s := 1; s <= seeds; s++ {
			m, err := run{task: task, ne: ne, n: n, decision: d, seed: uint64(s)}.do(ctx)
			if err != nil {
				return pr, pg, 0, err
			}
			rs, gs, pas = append(rs, m.pr), append(gs, m.pg), append(pas, m.pa)
		}
		for _, c := range []struct {
			cv *Curve
			v  []float64
		}{{&pr, rs}, {&pg, gs}} {
			mean, lo, hi := learning.MeanCI(c.v)
			c.cv.X, c.cv.Y = append(c.cv.X, float64(n)), append(c.cv.Y, mean)
			c.cv.CILow, c.cv.CIHigh = append(c.cv.CILow, lo), append(c.cv.CIHigh, hi)
		}
	}
	pa, _, _ = learning.MeanCI(pas)
	pr.Pa, pg.Pa = &pa, &pa
	return pr, pg, pa, nil
}

func rt58Fig5(ctx context.Context, opt Options) (*Figure, error) {
	f := &Figure{Name: "rt58-5", Title: "RT58 Fig. 5: learning curves, two classes about as similar as a square and a circle",
		XLabel: "stimuli in each class (n_sr)", XValue: "n_sr"}
	c := solveWorked()
	f.Parameters = []Parameter{
		{"c1", c.C1, "scale: Z is unchanged when the four constants are scaled together"},
		{"c2", c.C2, "solved from RT58's P_r = 0.92 at 100 stimuli per class, 100 A-units per set"},
		{"c3 × N_e/100", c.C3, "solved from RT58's limit 0.887 = Φ(c1/√c3); c3 falls as 1/N_e (variances over a set's A-units)"},
		{"c4 × N_e/100", c.C4, "solved from RT58's P_g = 0.85 at 100 stimuli per class; falls as 1/N_e"},
		{"P(N_ar > 0)", 1, "RT58 states no P_a; with 100 or more units per set and P_a above 5% it exceeds 0.99"},
	}
	f.Notes = []string{
		"RT58 prints the curves, not their equation; PR58's Eq. 4 is used with constants solved from RT58's worked numbers (0.92, 0.85, 0.887), the other sizes by c3, c4 ∝ 1/N_e",
		"measured: the ideal preset with 2·N_e A-units in two source-sets, one R-unit per class, μ decision (PR58's Fig. 11 system), α values, monovalent forced learning, each card of the learning series shown once; P_r on the series, P_g on 100 fresh cards per class; task square-circle",
	}
	xs := logspace(1, 10000, 80)
	sizes := []int{100, 200, 500}
	ns := measuredNs(opt.MaxN)
	if !slices.Contains(ns, 100) {
		ns = append(ns, 100)
		slices.Sort(ns)
	}
	var wpPr, wpPg Interval
	for _, ne := range sizes {
		cn := RT58(float64(ne))
		label := fmt.Sprintf("%d A-units per set", ne)
		f.Curves = append(f.Curves,
			modelCurve("P_r (RT58, solved), "+label, "p_r", float64(ne), math.NaN(), 1, cn, xs),
			modelCurve("P_g (RT58, solved), "+label, "p_g", float64(ne), math.NaN(), 1, cn.Generalisation(), xs))
		pr, pg, _, err := measure(ctx, "square-circle", ne, response.Mean, ns, opt.Seeds, label)
		if err != nil {
			return nil, err
		}
		f.Curves = append(f.Curves, pr, pg)
		if ne == 100 {
			i := slices.Index(pr.X, 100)
			wpPr = Interval{pr.Y[i], pr.CILow[i], pr.CIHigh[i]}
			wpPg = Interval{pg.Y[i], pg.CILow[i], pg.CIHigh[i]}
		}
	}
	c100 := RT58(100)
	wp := &WorkedPoint{
		Paper: Point{Pr: Worked.Pr, Pg: Worked.Pg, Limit: Worked.Limit},
		Model: Point{Pr: P(1, c100, 100), Pg: P(1, c100.Generalisation(), 100), Limit: c100.Limit()},
	}
	wp.Measured.Pr, wp.Measured.Pg = wpPr, wpPg
	wp.Deviation = deviation(wp)
	f.WorkedPoint = wp
	return f, nil
}

// deviation says in words how the model and the machine stand against the
// paper at the worked point, with the causes known.
func deviation(wp *WorkedPoint) string {
	var b strings.Builder
	b.WriteString("Model: equal to the paper by construction (its constants are solved from these three numbers). ")
	fmt.Fprintf(&b, "Machine: P_r %.3f (95%% CI %.3f–%.3f) against 0.92, P_g %.3f (%.3f–%.3f) against 0.85. ",
		wp.Measured.Pr.Mean, wp.Measured.Pr.CILow, wp.Measured.Pr.CIHigh, wp.Measured.Pg.Mean, wp.Measured.Pg.CILow, wp.Measured.Pg.CIHigh)
	if wp.Measured.Pg.CIHigh < wp.Paper.Pg {
		b.WriteString("P_g falls short because mark1's squares and circles are not RT58's: they vary in size (half to 84% of the card) and position, so two cards of different shapes share almost as many A-units as two of one shape (on the machine's square-circle cards P_c12 is 39.0% against P_c11 39.6%, and PR58's criterion P_c12 < P_a < P_c11 fails), which leaves the machine little to generalise from; RT58's classes are stated only as 'about as similar as a square and a circle'. ")
	}
	if wp.Measured.Pr.CILow > wp.Paper.Pr {
		b.WriteString("P_r is higher: 100 A-units per set with the μ decision remember 200 cards better than RT58's curve says, since mark1's cards fire about 15% of the units each (P_a), more than the theory's sparse sets, and a card's own reinforcement then weighs more against the others'. ")
	} else if wp.Measured.Pr.CIHigh < wp.Paper.Pr {
		b.WriteString("P_r is lower too: each of mark1's cards fires about 15% of the A-units and two cards share about 39% of theirs whatever their classes, so a card's own reinforcement is swamped by the 199 others' (RT58's curve implies stimuli that overlap far less). ")
	}
	return strings.TrimSpace(b.String())
}

// idealFigure is PR58's Fig. 7 (Σ) or 8 (μ): P_r in the ideal environment.
func idealFigure(ctx context.Context, opt Options, name string, d response.Decision, paperPa float64) (*Figure, error) {
	sys, cons := "Σ (sum)", IdealSum
	if d == response.Mean {
		sys, cons = "μ (mean)", IdealMean
	}
	f := &Figure{Name: name, Title: fmt.Sprintf("PR58 Fig. %s: P_r, %s decision, α system, ideal environment", strings.TrimPrefix(name, "pr58-"), sys),
		XLabel: "stimuli associated to each response (n_sr)", XValue: "n_sr"}
	f.Parameters = []Parameter{
		{"P_a (paper curves)", paperPa, fmt.Sprintf("PR58's caption of Fig. %s", strings.TrimPrefix(name, "pr58-"))},
		{"ω_c", 0, "PR58's caption: disjoint source-sets"},
		{"N_e (paper curves)", 1000, "the legend's values are lost in the OCR; 10², 10³ and 10⁴ units per set are drawn"},
		{"c1", 0, "ideal environment (PR58)"},
	}
	f.Notes = []string{
		"the constants are derived from PR58's own assumptions (each unit of a set fires independently with probability P_a; monovalent α), since the OCR loses Eqs. 5 and 6: c2 = 1 − P_a, c4 = 2(1 − P_a)/N_e, and c3 = 2 P_a (1 − P_a)/N_e for Σ, 0 for μ",
		"measured: the ideal preset with 512 A-units (two sets of 256, the Mark I's count), one R-unit per class, α, monovalent forced learning, each card of the learning series shown once, on the built-in task ideal-environment (random points, arbitrary labels); P_g there is chance, as PR58 says",
	}
	xs := logspace(1, 100000, 80)
	for _, ne := range []float64{100, 1000, 10000} {
		f.Curves = append(f.Curves, modelCurve(fmt.Sprintf("P_r model, P_a = %g, N_e = %g", paperPa, ne), "p_r", ne, paperPa, PNar(paperPa, ne), cons(paperPa, ne), xs))
	}
	const ne = 256
	pr, pg, pa, err := measure(ctx, "ideal-environment", ne, d, measuredNs(opt.MaxN), opt.Seeds, "this machine (256 per set)")
	if err != nil {
		return nil, err
	}
	f.Curves = append(f.Curves,
		modelCurve(fmt.Sprintf("P_r model at this machine's P_a = %.3f, N_e = %d", pa, ne), "p_r", ne, pa, PNar(pa, ne), cons(pa, ne), xs),
		pr, pg)
	f.Parameters = append(f.Parameters, Parameter{"P_a (this machine)", pa, "measured: mean fraction of A-units firing on the ideal-environment cards"})
	return f, nil
}

// pr58Fig9 is PR58's Fig. 9: P_r against P_a at n_sr = 1,000, ω = 0.
func pr58Fig9() *Figure {
	f := &Figure{Name: "pr58-9", Title: "PR58 Fig. 9: P_r against P_a, n_sr = 1,000, ideal environment",
		XLabel: "P_a (fraction of A-units responding)", XValue: "p_a"}
	f.Parameters = []Parameter{{"n_sr", 1000, "PR58's caption"}, {"ω", 0, "PR58's caption"},
		{"N_e", 1000, "not legible in the OCR; 10³ and 10⁴ units per set are drawn"}}
	f.Notes = []string{"model only: P_a is not a setting of the machine (it follows from x, y, θ and the cards), so no points are measured",
		"constants as pr58-7 (Σ) and pr58-8 (μ)"}
	xs := logspace(0.0005, 0.5, 80)
	for _, ne := range []float64{1000, 10000} {
		for _, sys := range []struct {
			name string
			c    func(pa, ne float64) Constants
		}{{"Σ", IdealSum}, {"μ", IdealMean}} {
			cv := Curve{Name: fmt.Sprintf("P_r model, %s, N_e = %g", sys.name, ne), Kind: "model", Quantity: "p_r", Ne: ne, X: xs}
			for _, pa := range xs {
				cv.Y = append(cv.Y, P(PNar(pa, ne), sys.c(pa, ne), 1000))
			}
			f.Curves = append(f.Curves, cv)
		}
	}
	return f
}
