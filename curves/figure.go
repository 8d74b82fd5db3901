package curves

import (
	"context"
	"fmt"
	"mark1/internal/base/param"
	"math"
	"slices"
	"strings"

	"mark1/associator"
	"mark1/images"
	"mark1/learning"
	"mark1/machine"
	"mark1/response"
)

// Names lists the figures Compute knows, in order.
func Names() []string {
	return []string{"rt58-5", "pr58-7", "pr58-8", "pr58-9", "pr58-10", "pr58-11"}
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
	// Series groups the curves drawn in one colour (a value system, a
	// decision or a task); empty means by N_e.
	Series string `json:"series,omitempty"`
}

// Parameter is a value a figure uses, with why.
type Parameter struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
	Why   string  `json:"why"`
}

// Text returns the value as the picture and the CLI print it: whole
// numbers in full, others to four significant figures.
func (p Parameter) Text() string {
	if p.Value == math.Trunc(p.Value) && math.Abs(p.Value) < 1e9 {
		return fmt.Sprintf("%.0f", p.Value)
	}
	return fmt.Sprintf("%.4g", p.Value)
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
	// PaperEnv is an environment that gives RT58's three numbers through
	// PR58's Eq. 11 (RT58Environment at WorkedPa: σ_s² = 0), and
	// CriterionPa the P_a above which every such environment fails PR58's
	// criterion P_c12 < P_a < P_c11. Machine is the environment measured
	// on the worked point's machine (WorkedMachine), and MachineModel Eq.
	// 11's P_r and P_g at 100 stimuli per class and its limit there.
	PaperEnv     Environment `json:"paper_environment"`
	CriterionPa  float64     `json:"criterion_p_a"`
	Machine      Environment `json:"machine_environment"`
	MachineModel Point       `json:"machine_model"`
	// Crossed are the limits with one side's c1 and the other's c3:
	// RT58's c1 over the machine's c3, and the machine's c1 over RT58's.
	Crossed [2]float64 `json:"crossed_limits"`
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

// Validate checks opt, its zero fields taken as their defaults: a
// *param.FieldError for seeds (2 to 1000: an interval needs two) or max_n
// (1 to 10000) out of range.
func (opt Options) Validate() error {
	if opt.Seeds != 0 && (opt.Seeds < 2 || opt.Seeds > 1000) {
		return param.Errorf("seeds", opt.Seeds, "[2, 1000] (an interval needs two)")
	}
	if opt.MaxN != 0 && (opt.MaxN < 1 || opt.MaxN > 10000) {
		return param.Errorf("max_n", opt.MaxN, "[1, 10000]")
	}
	return nil
}

// fill puts the defaults in opt's zero fields (20 seeds, MaxN 300) and
// validates it.
func (opt *Options) fill() error {
	if opt.Seeds == 0 {
		opt.Seeds = 20
	}
	if opt.MaxN == 0 {
		opt.MaxN = 300
	}
	return opt.Validate()
}

// Compute computes the named figure: its model curves, and its measured
// points over opt.Seeds seeds (master seeds 1…Seeds).
func Compute(ctx context.Context, name string, opt Options) (*Figure, error) {
	if err := opt.fill(); err != nil {
		return nil, err
	}
	switch name {
	case "rt58-5":
		return rt58Fig5(ctx, opt)
	case "pr58-7":
		return idealFigure(ctx, opt, name, response.Sum, 0.005)
	case "pr58-8":
		return idealFigure(ctx, opt, name, response.Mean, 0.07)
	case "pr58-9":
		return pr58Fig9(ctx, opt)
	case "pr58-10":
		return pr58Fig10(ctx, opt)
	case "pr58-11":
		return pr58Fig11(ctx, opt)
	}
	return nil, fmt.Errorf("unknown figure %q (want %s)", name, strings.Join(Names(), ", "))
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

// measure runs the machine base at each n over the seeds and returns the
// P_r and P_g curves, the mean P_a and, with stats, the mean similarity
// statistics of the fresh cards.
func measure(ctx context.Context, base run, ns []int, seeds int, label string, stats bool) (pr, pg Curve, pa float64, pc PcStats, err error) {
	pr = Curve{Name: "measured P_r, " + label, Kind: "measured", Quantity: "p_r", Ne: float64(base.ne), Seeds: seeds}
	pg = Curve{Name: "measured P_g, " + label, Kind: "measured", Quantity: "p_g", Ne: float64(base.ne), Seeds: seeds}
	var pas []float64
	var sum PcStats
	runs := 0
	for _, n := range ns {
		var rs, gs []float64
		for s := 1; s <= seeds; s++ {
			r := base
			r.n, r.seed = n, uint64(s)
			m, err := r.do(ctx, stats)
			if err != nil {
				return pr, pg, 0, pc, err
			}
			rs, gs, pas = append(rs, m.pr), append(gs, m.pg), append(pas, m.pa)
			sum.Pc11 += m.pc.Pc11
			sum.Pc12 += m.pc.Pc12
			sum.VarS11 += m.pc.VarS11
			sum.VarS12 += m.pc.VarS12
			sum.VarA11 += m.pc.VarA11
			sum.VarA12 += m.pc.VarA12
			runs++
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
	if runs > 0 {
		f := 1 / float64(runs)
		pc = PcStats{sum.Pc11 * f, sum.Pc12 * f, sum.VarS11 * f, sum.VarS12 * f, sum.VarA11 * f, sum.VarA12 * f}
	}
	return pr, pg, pa, pc, nil
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
		pr, pg, _, _, err := measure(ctx, run{task: "square-circle", ne: ne, decision: response.Mean}, ns, opt.Seeds, label, false)
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
	env, stats, err := WorkedMachine(ctx, opt.Seeds)
	if err != nil {
		return nil, err
	}
	mc := Differentiated(stats, env.Pa, Worked.Ne)
	wp.PaperEnv = EnvironmentOf(RT58Environment(WorkedPa), WorkedPa, Worked.Ne)
	wp.CriterionPa, wp.Machine = RT58CriterionPa(), env
	wp.MachineModel = Point{Pr: P(1, mc, Worked.N), Pg: P(1, mc.Generalisation(), Worked.N), Limit: env.Limit}
	wp.Crossed = [2]float64{phi(wp.PaperEnv.C1 / math.Sqrt(env.C3)), phi(env.C1 / math.Sqrt(wp.PaperEnv.C3))}
	wp.Deviation = deviation(wp)
	f.WorkedPoint = wp
	return f, nil
}

// deviation says in words how the model and the machine stand against the
// paper at the worked point, with the causes known: PR58's Eq. 11 on the
// machine's own cards (its limit Φ(c1/√c3)), beside an environment that
// gives RT58's numbers.
func deviation(wp *WorkedPoint) string {
	var b strings.Builder
	p, m := wp.PaperEnv, wp.Machine
	b.WriteString("Model: equal to the paper by construction (its constants are solved from these three numbers). ")
	fmt.Fprintf(&b, "Machine: P_r %.3f (95%% CI %.3f–%.3f) against 0.92, P_g %.3f (%.3f–%.3f) against 0.85. ",
		wp.Measured.Pr.Mean, wp.Measured.Pr.CILow, wp.Measured.Pr.CIHigh, wp.Measured.Pg.Mean, wp.Measured.Pg.CILow, wp.Measured.Pg.CIHigh)
	fmt.Fprintf(&b, "PR58's Eq. 11 on the machine's own cards predicts this: P_a %.3f, P_c11 %.3f, P_c12 %.3f, so c1 = P_c11 − P_c12 = %.4f; "+
		"c3 = σ_s² + σ_a²/(P_a N_e) = %.4f + %.3f/%.1f = %.4f; the limit Φ(c1/√c3) is %.3f, and at 100 cards per class P_r %.3f, P_g %.3f. ",
		m.Pa, m.Pc11, m.Pc12, m.C1, m.VarS, m.VarA, m.Pa*m.Ne, m.C3, m.Limit, wp.MachineModel.Pr, wp.MachineModel.Pg)
	fmt.Fprintf(&b, "PR58's criterion P_c12 < P_a < P_c11 is not the cause: RT58's numbers come from Eq. 11 with σ_s² = 0 at any P_a, and above P_a = %.3f they need P_c11 < P_a "+
		"(at P_a %.4f: P_c11 %.4f, P_c12 %.4f, c1 %.4f, c3 = 0 + %.4f/%.2f = %.6f, limit %.3f), failing the criterion as the machine's cards do and still giving P_g 0.85. ",
		wp.CriterionPa, p.Pa, p.Pc11, p.Pc12, p.C1, p.VarA, p.Pa*p.Ne, p.C3, p.Limit)
	fmt.Fprintf(&b, "What differs is c3: the machine's is %.0f times RT58's. c1 is small in both (RT58's c1 over the machine's c3 gives %.3f; the machine's c1 over RT58's c3, %.3f). "+
		"The variance over stimuli, σ_s² %.4f (RT58: 0; mark1's squares and circles vary in size and place), no number of A-units averages away: it alone caps the limit at Φ(c1/√σ_s²) = %.3f; "+
		"the variance over units, Σσ_a² %.3f against RT58's %.4f, falls as 1/N_e.",
		m.C3/p.C3, wp.Crossed[0], wp.Crossed[1], m.VarS, m.Ceiling, m.VarA, p.VarA)
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
	pr, pg, pa, _, err := measure(ctx, run{task: "ideal-environment", ne: ne, decision: d}, measuredNs(opt.MaxN), opt.Seeds, "this machine (256 per set)", false)
	if err != nil {
		return nil, err
	}
	f.Curves = append(f.Curves,
		modelCurve(fmt.Sprintf("P_r model at this machine's P_a = %.3f, N_e = %d", pa, ne), "p_r", ne, pa, PNar(pa, ne), cons(pa, ne), xs),
		pr, pg)
	f.Parameters = append(f.Parameters, Parameter{"P_a (this machine)", pa, "measured: mean fraction of A-units firing on the ideal-environment cards"})
	return f, nil
}

// fig9Thetas are the A-unit thresholds pr58-9 measures at, with x = 10
// excitatory and no inhibitory origin points (a 1958 configuration): on the
// ideal environment's cards (a fifth of the cells inked) they give P_a from
// about 0.6 down to 0.001.
var fig9Thetas = []int{7, 6, 5, 4, 3, 2}

// pr58Fig9 is PR58's Fig. 9: P_r against P_a at n_sr = 1,000, ω = 0.
func pr58Fig9(ctx context.Context, opt Options) (*Figure, error) {
	f := &Figure{Name: "pr58-9", Title: "PR58 Fig. 9: P_r against P_a, n_sr = 1,000, ideal environment",
		XLabel: "P_a (fraction of A-units responding)", XValue: "p_a"}
	n := min(1000, opt.MaxN)
	const ne = 256
	f.Parameters = []Parameter{{"n_sr", 1000, "PR58's caption"}, {"ω", 0, "PR58's caption"},
		{"N_e (paper curves)", 1000, "not legible in the OCR; 10³ and 10⁴ units per set are drawn"},
		{"n_sr (this machine)", float64(n), "PR58's 1,000, or the largest n_sr asked to measure if smaller"},
		{"x, y (this machine)", 10, "10 excitatory, 0 inhibitory origin points (a 1958 configuration); θ = 2…7 sets P_a, which is measured"}}
	f.Notes = []string{"constants as pr58-7 (Σ) and pr58-8 (μ)",
		fmt.Sprintf("measured: P_a is not a setting of the machine, so the threshold θ is (2 to 7, x = 10, y = 0) and each point is drawn at its measured P_a; 512 A-units in two sets of 256, α, monovalent forced learning on %d ideal-environment cards per response, each shown once", n)}
	xs := logspace(0.0005, 0.7, 80)
	systems := []struct {
		name string
		d    response.Decision
		c    func(pa, ne float64) Constants
	}{{"Σ", response.Sum, IdealSum}, {"μ", response.Mean, IdealMean}}
	for _, ne := range []float64{1000, 10000} {
		for _, sys := range systems {
			cv := Curve{Name: fmt.Sprintf("P_r model, %s, N_e = %g", sys.name, ne), Kind: "model", Quantity: "p_r", Ne: ne, X: xs}
			for _, pa := range xs {
				cv.Y = append(cv.Y, P(PNar(pa, ne), sys.c(pa, ne), 1000))
			}
			f.Curves = append(f.Curves, cv)
		}
	}
	for _, sys := range systems {
		cv := Curve{Name: fmt.Sprintf("P_r model, %s, this machine (N_e = %d, n_sr = %d)", sys.name, ne, n), Kind: "model", Quantity: "p_r", Ne: ne, X: xs, Series: sys.name + " machine"}
		for _, pa := range xs {
			cv.Y = append(cv.Y, P(PNar(pa, ne), sys.c(pa, ne), float64(n)))
		}
		pts := Curve{Name: fmt.Sprintf("measured P_r, %s, this machine", sys.name), Kind: "measured", Quantity: "p_r", Ne: ne, Seeds: opt.Seeds, Series: sys.name + " machine"}
		for _, theta := range fig9Thetas {
			assoc := associator.Config{Units: 1, Excitatory: 10, Inhibitory: -1, Threshold: theta}
			pr, _, pa, _, err := measure(ctx, run{task: "ideal-environment", ne: ne, decision: sys.d, assoc: assoc}, []int{n}, opt.Seeds, "", false)
			if err != nil {
				return nil, err
			}
			pts.X = append(pts.X, pa)
			pts.Y = append(pts.Y, pr.Y[0])
			pts.CILow, pts.CIHigh = append(pts.CILow, pr.CILow[0]), append(pts.CIHigh, pr.CIHigh[0])
		}
		f.Curves = append(f.Curves, cv, pts)
	}
	return f, nil
}

// Fig10 are the parameters of PR58's Fig. 10, from its caption: N_R = 100,
// σ(n_sr) = 0.5·n_sr, N_A = 10,000, P_a = 0.07, ω = 0.2.
var Fig10 = struct{ Responses, Q, Units, Pa, Omega float64 }{Responses: 100, Q: 0.5, Units: 10000, Pa: 0.07, Omega: 0.2}

// Fig10Ne is N_e at Fig. 10's parameters: the units of R₁'s set that are
// not in R₂'s, N_A·ω·(1 − ω) when each unit feeds each response with
// probability ω (so ω_c = ω²).
func Fig10Ne() float64 { return Fig10.Units * Fig10.Omega * (1 - Fig10.Omega) }

// fig10Responses and fig10Ne are the machine pr58-10 measures: the Mark
// I's 512 A-units and 8 R-units, in disjoint sets of 64.
const fig10Responses, fig10Ne = 8, 64

// pr58Fig10 is PR58's Fig. 10: α, β and γ (μ decision) with n_sr variable.
func pr58Fig10(ctx context.Context, opt Options) (*Figure, error) {
	f := &Figure{Name: "pr58-10", Title: "PR58 Fig. 10: α, β and γ systems, n_sr variable (σ = 0.5 n_sr), μ decision, ideal environment",
		XLabel: "mean stimuli associated to each response (n_sr)", XValue: "n_sr"}
	ne := Fig10Ne()
	o := Overlap{Responses: Fig10.Responses, Omega: Fig10.Omega}
	f.Parameters = []Parameter{
		{"N_R", Fig10.Responses, "PR58's caption"},
		{"q = σ(n_sr)/n_sr", Fig10.Q, "PR58's caption"},
		{"N_A", Fig10.Units, "PR58's caption"},
		{"P_a", Fig10.Pa, "PR58's caption"},
		{"ω", Fig10.Omega, "PR58's caption"},
		{"N_e (paper curves)", ne, "derived: R1's units not also R2's, N_A·ω(1 − ω), each unit feeding each response with probability ω (ω_c = ω²)"},
		{"α's c3 (lost in the OCR)", VariableAlpha(Fig10.Pa, ne, Fig10.Q, o).C3, "derived: 2P_a²q² + 2P_a(N_R − 2)ω(1 − ω)(1 + q²)/N_e"},
		{"α's c4", VariableAlpha(Fig10.Pa, ne, Fig10.Q, o).C4, "derived: 2(1 − P_a)(1 + (N_R − 2)ω)/N_e; the OCR shows 2(1 − P_a) and may lose a factor"},
		{"β's c4 (broken off in the OCR)", VariableBeta(Fig10.Pa, ne, Fig10.Q, o).C4, "completed as 2(1 − P_a)N_e (Eq. 7's on Eq. 8's scale); dropping or tripling it moves the curve < 0.001"},
		{"this machine", fig10Responses, fmt.Sprintf("R-units, one per response, %d A-units in disjoint sets of %d (the Mark I's 512 and 8); the machine's ω overlaps neighbouring sets only, so disjoint sets are measured", fig10Responses*fig10Ne, fig10Ne)},
	}
	f.Notes = []string{
		"α: derived from PR58's assumptions (the OCR of Eq. 7 keeps c1 = 0, c2 = 1 − P_a, c4 = 2(1 − P_a), and of c3 only N_R, q and a bracket); β: Eq. 8 as the OCR reads it, c1 = 0, c2 = (1 − P_a)N_e, c3 = 2(P_a N_e q ω N_R)², its broken-off c4 completed as 2(1 − P_a)N_e (dropping or tripling it moves the curve < 0.001); γ: derived, and PR58 says it has Eq. 6's constants (α, μ, n_sr fixed)",
		"α: c3 = 2P_a²q² + 2P_a(N_R − 2)ω(1 − ω)(1 + q²)/N_e, c4 = 2(1 − P_a)(1 + (N_R − 2)ω)/N_e; γ: c3 = 0, same c4 (see curves.VariableAlpha, VariableGamma)",
		fmt.Sprintf("measured: the ideal-environment cards dealt at random to %d responses, each response's n_sr drawn from a normal distribution of mean n_sr and σ = 0.5 n_sr (rounded, at least 0) from the seed; μ decision, monovalent forced learning, each card shown once; the model drawn at the machine's measured P_a, N_e = %d and disjoint sets (ω·N_R = 1), where β's Eq. 8 equals α's set-wide term", fig10Responses, fig10Ne),
		"P_r is measured over the learning series, where a response with more cards has more of them: the test stimulus's own response is size-biased (its n_sr exceeds the other's by q²·n_sr on average), which PR58's Eq. 7 does not count; for α and β that adds c1 = P_a q² and a limit Φ(q/√(2 − q²)) = 0.65 at q = 0.5 (curves.VariableAlphaSeries, drawn grey); γ's values do not depend on n_sr, so it is unaffected",
	}
	systems := []struct {
		name string
		v    machine.ValueSystem
		c    func(pa, ne float64, o Overlap) Constants
	}{
		{"α", machine.Alpha, func(pa, ne float64, o Overlap) Constants { return VariableAlpha(pa, ne, Fig10.Q, o) }},
		{"β", machine.Beta, func(pa, ne float64, o Overlap) Constants { return VariableBeta(pa, ne, Fig10.Q, o) }},
		{"γ", machine.Gamma, VariableGamma},
	}
	xs := logspace(1, 10000, 80)
	for _, sys := range systems {
		cv := modelCurve(fmt.Sprintf("P_r model, %s (PR58's parameters)", sys.name), "p_r", ne, Fig10.Pa, PNar(Fig10.Pa, ne), sys.c(Fig10.Pa, ne, o), xs)
		cv.Series = sys.name
		f.Curves = append(f.Curves, cv)
	}
	for _, sys := range systems {
		base := run{task: "ideal-environment", ne: fig10Ne, decision: response.Mean, values: sys.v, responses: fig10Responses, q: Fig10.Q}
		pr, _, pa, _, err := measure(ctx, base, measuredNs(opt.MaxN), opt.Seeds, sys.name+", this machine", false)
		if err != nil {
			return nil, err
		}
		disjoint := Overlap{Responses: fig10Responses}
		name := fmt.Sprintf("P_r model, %s, this machine (P_a = %.3f, N_e = %d)", sys.name, pa, fig10Ne)
		if sys.v == machine.Beta {
			name = fmt.Sprintf("P_r model, β, this machine (P_a = %.3f, N_e = %d; on disjoint sets the same as α's)", pa, fig10Ne)
		}
		cv := modelCurve(name, "p_r", fig10Ne, pa, PNar(pa, fig10Ne), sys.c(pa, fig10Ne, disjoint), xs)
		cv.Series, pr.Series = sys.name, sys.name
		f.Curves = append(f.Curves, cv, pr)
		if sys.v == machine.Alpha {
			sb := modelCurve(fmt.Sprintf("P_r model, α and β, this machine, over the learning series (size-biased n_sr, P_a = %.3f)", pa), "p_r", fig10Ne, pa, PNar(pa, fig10Ne), VariableAlphaSeries(pa, fig10Ne, Fig10.Q), xs)
			sb.Series = "size-biased"
			f.Curves = append(f.Curves, sb)
		}
		f.Parameters = append(f.Parameters, Parameter{"P_a (this machine, " + sys.name + ")", pa, "measured: mean fraction of A-units firing on the fresh cards"})
	}
	return f, nil
}

// fig11Tasks are the tasks pr58-11 measures: PR58's square-circle, and
// leftright, where PR58's criterion P_c12 < P_a < P_c11 holds.
var fig11Tasks = []string{"square-circle", "leftright"}

// pr58Fig11 is PR58's Fig. 11: P_r and P_g in a differentiated
// environment, μ decision, converging to one limit.
func pr58Fig11(ctx context.Context, opt Options) (*Figure, error) {
	f := &Figure{Name: "pr58-11", Title: "PR58 Fig. 11: P_r and P_g in a differentiated environment, α, μ decision",
		XLabel: "stimuli in each class (n_sr)", XValue: "n_sr"}
	const ne = 256
	f.Parameters = []Parameter{{"N_e", ne, "this machine: 512 A-units in two sets (the Mark I's count)"}}
	f.Notes = []string{
		"PR58's own curves are not drawn: its parameters are 'based on measurements for a square-circle discrimination problem' that it does not print (P_a, P_c11, P_c12, their variances, N_e)",
		"Eq. 11 (α, μ, n_sr fixed) with c1 = P_c11 − P_c12, c2 = 1 − P_c11 (0 for P_g), c3 = Σ_r [σ_s²(P_c1r) + σ_a²(P_c1r)/(P_a N_e)], c4 = Σ_r P_c1r(1 − P_c1r)/(P_a N_e): c1 and c4 as the OCR keeps them, c2 from Eq. 10, c3 derived (see curves.Differentiated); P_a, P_c and the variances are measured on each machine's fresh cards, as PR58 says they must be ('empirical variables to be determined for the classes of stimuli in question')",
		"measured: the ideal preset, one R-unit per class, α, μ, monovalent forced learning, each card of the learning series shown once; P_r on the series, P_g on 100 fresh cards per class",
	}
	for _, task := range fig11Tasks {
		if err := differentiated(ctx, f, run{task: task, ne: ne, decision: response.Mean}, task, measuredNs(opt.MaxN), opt.Seeds); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// differentiated measures base's cards at each n over the seeds and adds
// to f the measured P_r and P_g, Eq. 11's curves at the P_a, P_c and
// variances measured on the fresh cards, and those values.
func differentiated(ctx context.Context, f *Figure, base run, label string, ns []int, seeds int) error {
	ne := float64(base.ne)
	pr, pg, pa, pc, err := measure(ctx, base, ns, seeds, label, true)
	if err != nil {
		return err
	}
	xs := logspace(1, 10000, 80)
	c := Differentiated(pc, pa, ne)
	r := modelCurve("P_r model (Eq. 11), "+label, "p_r", ne, pa, PNar(pa, ne), c, xs)
	g := modelCurve("P_g model (Eq. 11), "+label, "p_g", ne, pa, PNar(pa, ne), c.Generalisation(), xs)
	r.Series, g.Series, pr.Series, pg.Series = label, label, label, label
	f.Curves = append(f.Curves, r, g, pr, pg)
	e := EnvironmentOf(pc, pa, ne)
	f.Parameters = append(f.Parameters,
		Parameter{"P_a, " + label, pa, "measured"},
		Parameter{"P_c11, " + label, pc.Pc11, "measured: A-units firing for a card that fire for another of its class"},
		Parameter{"P_c12, " + label, pc.Pc12, "measured: … for a card of the other class"},
		Parameter{"σ_s²(P_c11) + σ_s²(P_c12), " + label, pc.VarS11 + pc.VarS12, "measured over the fresh cards"},
		Parameter{"σ_a²(P_c11) + σ_a²(P_c12), " + label, pc.VarA11 + pc.VarA12, "measured over the A-units"},
		Parameter{"limit Φ(c1/√c3), " + label, PNar(pa, ne) * c.Limit(), "Eq. 9: P_r and P_g both tend to it"},
		Parameter{"ceiling Φ(c1/√σ_s²), " + label, PNar(pa, ne) * e.Ceiling, "the limit with unboundedly many A-units: the variance over the cards stays"})
	return nil
}

// Cards names the card set CardsFigure measures: a built-in task, or a
// data set (its cards, all of them, dealt afresh for each seed).
type Cards struct {
	Task string
	Data *images.Dataset
}

// CardsNe is the A-units per source-set CardsFigure's machines have: the
// Mark I's 512 in two sets, as pr58-11.
const CardsNe = 256

// CardsFigure is pr58-11 for one card set: P_r and P_g measured on the
// machine of pr58-11 (the ideal preset, CardsNe units per set, one R-unit
// per class, α, μ, monovalent forced learning, each card of the learning
// series shown once), beside PR58's Eq. 11 at the P_a, P_c and variances
// measured on the set's own fresh cards, with its limit and ceiling. A
// task's cards are drawn afresh for each seed (100 fresh cards per
// class); a data set's are dealt in a seeded order, the fresh cards being
// the last of each class (100, or half the smallest class if fewer), so
// the learning series can be at most the rest of the smallest class. With
// more than two classes P_c12 is measured against the next class, and the
// pairwise P_r and P_g are over every other class.
func CardsFigure(ctx context.Context, cards Cards, opt Options) (*Figure, error) {
	if err := opt.fill(); err != nil {
		return nil, err
	}
	base := run{task: cards.Task, ne: CardsNe, decision: response.Mean, data: cards.Data}
	label, ns := cards.Task, measuredNs(opt.MaxN)
	var fresh, most int
	if cards.Data != nil {
		label = cards.Data.Name
		fresh, most = dataFresh(cards.Data)
		ns = slices.DeleteFunc(ns, func(n int) bool { return n > most })
		if len(cards.Data.Classes) < 2 || fresh < 1 || len(ns) == 0 {
			return nil, fmt.Errorf("%s: too few cards: each of two or more classes needs at least 2 (one to learn, one fresh)", label)
		}
	} else if k, err := taskClasses(cards.Task); err != nil {
		return nil, err
	} else if k < 2 {
		return nil, fmt.Errorf("task %s has one class: the curves need two or more", cards.Task)
	}
	f := &Figure{Name: "cards", Title: "PR58's Eq. 11 on " + label + ": P_r and P_g, α, μ decision",
		XLabel: "stimuli in each class (n_sr)", XValue: "n_sr"}
	f.Parameters = []Parameter{{"N_e", CardsNe, "512 A-units in two sets (the Mark I's count), as pr58-11"}}
	f.Notes = []string{
		"Eq. 11 (α, μ, n_sr fixed) at the P_a, P_c and variances measured on these cards' fresh cards, as pr58-11 draws it for square-circle and leftright",
		"measured: the ideal preset, one R-unit per class, α, μ, monovalent forced learning, each card of the learning series shown once; P_r (pairwise) on the series, P_g on the fresh cards",
	}
	if cards.Data != nil {
		f.Notes = append(f.Notes, fmt.Sprintf("the data's cards are dealt in a seeded order for each seed: the last %d of each class are the fresh cards, the learning series comes from the rest (so at most %d per class)", fresh, most))
	}
	if err := differentiated(ctx, f, base, label, ns, opt.Seeds); err != nil {
		return nil, err
	}
	return f, nil
}
