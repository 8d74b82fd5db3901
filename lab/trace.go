package lab

import (
	"context"
	"fmt"
	"math"
	"slices"

	"mark1/internal/base/jsonnum"
	"mark1/learning"
	"mark1/learning/kernel"
)

// PerceptronOptions are the settings of a perceptron trace. The zero value
// is the notes' setting: no bias, ε = 1, the data's order, 100 epochs at most.
type PerceptronOptions struct {
	// Bias uses the bias trick x → (x, 1); the weights then end in b.
	Bias bool `json:"bias"`
	// Eps is the step size ε; 0 means 1.
	Eps float64 `json:"eps"`
	// Shuffle presents the points in a fresh seeded permutation each epoch
	// instead of in the data's order.
	Shuffle bool   `json:"shuffle"`
	Seed    uint64 `json:"seed"`
	// MaxEpochs bounds the passes; 0 means 100.
	MaxEpochs int `json:"max_epochs"`
	// Start is the starting w (ending in b with Bias); nil means 0.
	Start []float64 `json:"start,omitempty"`
}

// stepDefaults checks a step size ε, 0 meaning 1, and makes a zero limit
// on epochs (or steps) 100.
func stepDefaults(eps *float64, limit *int) error {
	if !(*eps >= 0) || math.IsInf(*eps, 0) {
		return fmt.Errorf("step size ε %v: want a finite number > 0", *eps)
	}
	if *eps == 0 {
		*eps = 1
	}
	if *limit == 0 {
		*limit = 100
	}
	return nil
}

// checkStart returns an error unless start is nil or a finite w of the
// right length for e (ending in b with bias).
func checkStart(e Example, start []float64, bias bool) error {
	if start == nil {
		return nil
	}
	want := e.Dim() + b2i(bias)
	if len(start) != want {
		what := "the weights"
		if bias {
			what = "the weights and then b"
		}
		return fmt.Errorf("start %s: %d values; want %d (%s)", Vec(start), len(start), want, what)
	}
	for _, v := range start {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("start: %v is not a finite number", v)
		}
	}
	return nil
}

// PerceptronStep is one presentation: the notes' "given example x, predict
// positive iff w·x ≥ 0; on a mistake w ← w + ε·y·x".
type PerceptronStep struct {
	Step    int       `json:"step"`    // 1-based, over all epochs
	Epoch   int       `json:"epoch"`   // 1-based
	Sample  int       `json:"sample"`  // 1-based, in the example's order
	X       []float64 `json:"x"`       // the point as given (without the bias input)
	Y       int       `json:"y"`       // +1 or −1
	Score   float64   `json:"score"`   // w·x (+ b) before the step
	Mistake bool      `json:"mistake"` // y·score ≤ 0: w changed
	Update  int       `json:"update"`  // after a mistake, t of the new w_t (w_1 is the start); 0 otherwise
	W       []float64 `json:"w"`       // w after the step; with Bias it ends in b
}

// Theorem holds the quantities of the perceptron convergence theorem for
// the data as the perceptron sees them (lifted by the bias trick if used).
type Theorem struct {
	R         float64   `json:"R"`                   // max ‖x̃_i‖
	Gamma     float64   `json:"gamma"`               // the maximum margin of a separator through the origin; 0 if none
	Bound     float64   `json:"bound"`               // (R/γ)²; +Inf is written as null
	Separator []float64 `json:"separator,omitempty"` // the unit maximum-margin separator w*
}

// MarshalJSON writes γ and the bound as null when there is no separator
// through the origin (γ 0, the bound infinite).
func (t Theorem) MarshalJSON() ([]byte, error) {
	p := struct {
		R         float64   `json:"R"`
		Gamma     *float64  `json:"gamma"`
		Bound     *float64  `json:"bound"`
		Separator []float64 `json:"separator,omitempty"`
	}{R: t.R, Bound: jsonnum.Of(t.Bound), Separator: t.Separator}
	if t.Gamma > 0 {
		p.Gamma = &t.Gamma
	}
	return jsonMarshal(p)
}

// PerceptronTrace is a perceptron run written down step by step.
type PerceptronTrace struct {
	Learner   string            `json:"learner"`
	Example   string            `json:"example"`
	Options   PerceptronOptions `json:"options"`
	Start     []float64         `json:"start"`
	Steps     []PerceptronStep  `json:"steps"`
	Mistakes  int               `json:"mistakes"`
	Epochs    int               `json:"epochs"`
	Converged bool              `json:"converged"`
	Status    string            `json:"status"`
	Theorem   Theorem           `json:"theorem"`
}

// needValid panics unless e is a valid example; the Examples and
// NewExample make only valid ones, so anything else is misuse.
func needValid(e Example) {
	if len(e.X) == 0 || len(e.X) != len(e.Y) {
		panic("lab: an Example needs points and one label each (use NewExample)")
	}
}

// TracePerceptron runs learning.Perceptron on e and writes down every
// presentation. The weights are the perceptron's own, read through its
// Watch hook.
func TracePerceptron(ctx context.Context, e Example, o PerceptronOptions) (*PerceptronTrace, error) {
	needValid(e)
	if err := stepDefaults(&o.Eps, &o.MaxEpochs); err != nil {
		return nil, err
	}
	if err := checkStart(e, o.Start, o.Bias); err != nil {
		return nil, err
	}
	t := &PerceptronTrace{Learner: "perceptron", Example: e.Name, Options: o, Start: make([]float64, e.Dim()+b2i(o.Bias))}
	if o.Start != nil {
		copy(t.Start, o.Start)
	}
	p := learning.Perceptron{
		Step: o.Eps, NoBias: !o.Bias, InOrder: !o.Shuffle, Seed: o.Seed, MaxEpochs: o.MaxEpochs, Start: o.Start,
		Watch: func(v learning.Visit) {
			s := PerceptronStep{
				Step: len(t.Steps) + 1, Epoch: v.Epoch, Sample: v.Row + 1, X: e.X[v.Row], Y: e.Y[v.Row],
				Score: v.Score, Mistake: v.Mistake, W: slices.Clone(v.W),
			}
			if o.Bias {
				s.W = append(s.W, v.B)
			}
			if v.Mistake {
				t.Mistakes++
				s.Update = t.Mistakes + 1
			}
			t.Steps = append(t.Steps, s)
		},
	}
	res, err := p.Fit(ctx, e.Data(), nil)
	if err != nil {
		return nil, err
	}
	t.Epochs, t.Converged, t.Status = res.Epochs, res.Status.Converged(), res.Summary
	t.Theorem = TheoremOf(e, o.Bias)
	return t, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// zeroStart reports whether the run started at w = 0, where the
// convergence theorem's bound applies.
func (t *PerceptronTrace) zeroStart() bool {
	for _, v := range t.Start {
		if v != 0 {
			return false
		}
	}
	return true
}

// Weights returns w_t, the weights after t−1 updates (w_1 is the start),
// and whether the trace has that many updates.
func (t *PerceptronTrace) Weights(u int) ([]float64, bool) {
	if u == 1 {
		return t.Start, true
	}
	for _, s := range t.Steps {
		if s.Update == u {
			return s.W, true
		}
	}
	return nil, false
}

// GDOptions are the settings of a batch gradient-descent trace.
type GDOptions struct {
	Bias bool `json:"bias"`
	// Eps is the fixed step size ε; 0 means 1. With LineSearch it is only
	// the first step's, from w = 0.
	Eps        float64 `json:"eps"`
	LineSearch bool    `json:"line_search"`
	// MaxSteps bounds the steps; 0 means 100.
	MaxSteps int `json:"max_steps"`
	// Start is the starting w (ending in b with Bias); nil means 0.
	Start []float64 `json:"start,omitempty"`
}

// GDStep is one pass of the notes' loop (001):
//
//	V ← {i : y_i X_i·w < 0};  w ← w + ε Σ_{i∈V} y_i X_i.
type GDStep struct {
	Step int       `json:"step"`
	W    []float64 `json:"w"`    // w before the step
	V    []int     `json:"V"`    // 1-based samples with y·w·x ≤ 0
	Risk float64   `json:"risk"` // R(w) before the step
	Grad []float64 `json:"grad"` // ∇R(w) = −Σ y_i x_i over the samples that set the direction
	Eps  float64   `json:"eps"`  // the step taken along −∇R
	// Scale is the line search's rescaling to the old ‖w‖ (1 for a fixed
	// step).
	Scale float64   `json:"scale"`
	Next  []float64 `json:"next"`      // w after the step
	After float64   `json:"risk_next"` // R after the step
}

// GDTrace is a batch gradient-descent run written down step by step.
type GDTrace struct {
	Learner   string    `json:"learner"`
	Example   string    `json:"example"`
	Options   GDOptions `json:"options"`
	Start     []float64 `json:"start"`
	Steps     []GDStep  `json:"steps"`
	Final     []float64 `json:"final"`
	Converged bool      `json:"converged"`
	Status    string    `json:"status"`
}

// TraceBatchGD runs learning.BatchGD (full batches) on e and writes down
// every step through its Watch hook.
func TraceBatchGD(ctx context.Context, e Example, o GDOptions) (*GDTrace, error) {
	needValid(e)
	if err := stepDefaults(&o.Eps, &o.MaxSteps); err != nil {
		return nil, err
	}
	if err := checkStart(e, o.Start, o.Bias); err != nil {
		return nil, err
	}
	t := &GDTrace{Learner: "batch-gd", Example: e.Name, Options: o}
	prev := make([]float64, e.Dim()+b2i(o.Bias))
	if o.Start != nil {
		copy(prev, o.Start)
	}
	t.Start = slices.Clone(prev)
	g := learning.BatchGD{
		Step: o.Eps, LineSearch: o.LineSearch, NoBias: !o.Bias, MaxEpochs: o.MaxSteps, Start: o.Start,
		Watch: func(s learning.GDStep) {
			st := GDStep{Step: s.Step, W: prev, Risk: s.Risk, Eps: s.T, Scale: s.Scale}
			for _, i := range s.V {
				st.V = append(st.V, i+1)
			}
			for _, v := range s.Dir {
				st.Grad = append(st.Grad, -v)
			}
			st.Next = slices.Clone(s.W)
			if o.Bias {
				st.Grad = append(st.Grad, -s.DirB)
				st.Next = append(st.Next, s.B)
			}
			st.After = Risk(e, o.Bias, st.Next)
			prev = st.Next
			t.Steps = append(t.Steps, st)
		},
	}
	res, err := g.Fit(ctx, e.Data(), nil)
	if err != nil {
		return nil, err
	}
	t.Final, t.Converged, t.Status = prev, res.Status.Converged(), res.Summary
	return t, nil
}

// KernelOptions are the settings of a kernel-perceptron trace.
type KernelOptions struct {
	// Kernel is the kernel; nil means the linear kernel.
	Kernel    kernel.Kernel `json:"-"`
	Bias      bool          `json:"bias"`
	Shuffle   bool          `json:"shuffle"`
	Seed      uint64        `json:"seed"`
	MaxEpochs int           `json:"max_epochs"`
}

// KernelStep is one presentation to the kernel perceptron: f(x) =
// Σ_j a_j K(x_j, x) (+ Σ_j a_j with the bias), and on a mistake a_i ← a_i + y_i.
type KernelStep struct {
	Step    int       `json:"step"`
	Epoch   int       `json:"epoch"`
	Sample  int       `json:"sample"`
	X       []float64 `json:"x"`
	Y       int       `json:"y"`
	F       float64   `json:"f"`
	Mistake bool      `json:"mistake"`
	// Coef is the sample's coefficient a_i = α_i y_i after the step.
	Coef int `json:"coef"`
}

// Stored is a sample the kernel perceptron keeps: the notes' x_{i_t} with
// its coefficient a_{i_t} (±1 per mistake on it).
type Stored struct {
	Sample int       `json:"sample"`
	X      []float64 `json:"x"`
	Y      int       `json:"y"`
	Coef   int       `json:"coef"`
}

// KernelTrace is a kernel-perceptron run written down step by step.
type KernelTrace struct {
	Learner   string        `json:"learner"`
	Example   string        `json:"example"`
	Kernel    string        `json:"kernel"`
	Options   KernelOptions `json:"options"`
	Steps     []KernelStep  `json:"steps"`
	Stored    []Stored      `json:"stored"`
	Mistakes  int           `json:"mistakes"`
	Converged bool          `json:"converged"`
	Status    string        `json:"status"`

	model *learning.KernelModel
}

// Decision returns the trained kernel perceptron's f(x).
func (t *KernelTrace) Decision(x []float64) float64 {
	return t.model.Scores(nil, x)[1]
}

// TraceKernelPerceptron runs learning.KernelPerceptron on e and writes down
// every presentation and the samples it stores.
func TraceKernelPerceptron(ctx context.Context, e Example, o KernelOptions) (*KernelTrace, error) {
	needValid(e)
	k := o.Kernel
	if k == nil {
		k = kernel.Linear{}
	}
	if o.MaxEpochs == 0 {
		o.MaxEpochs = 100
	}
	t := &KernelTrace{Learner: "kernel-perceptron", Example: e.Name, Kernel: k.String(), Options: o}
	coef := make([]int, len(e.X))
	var order []int
	p := learning.KernelPerceptron{
		Kernel: k, NoBias: !o.Bias, InOrder: !o.Shuffle, Seed: o.Seed, MaxEpochs: o.MaxEpochs,
		Watch: func(v learning.Visit) {
			if v.Mistake {
				if coef[v.Row] == 0 && !slices.Contains(order, v.Row) {
					order = append(order, v.Row)
				}
				coef[v.Row] += e.Y[v.Row]
				t.Mistakes++
			}
			t.Steps = append(t.Steps, KernelStep{
				Step: len(t.Steps) + 1, Epoch: v.Epoch, Sample: v.Row + 1, X: e.X[v.Row], Y: e.Y[v.Row],
				F: v.Score, Mistake: v.Mistake, Coef: coef[v.Row],
			})
		},
	}
	res, err := p.Fit(ctx, e.Data(), nil)
	if err != nil {
		return nil, err
	}
	for _, i := range order {
		t.Stored = append(t.Stored, Stored{Sample: i + 1, X: e.X[i], Y: e.Y[i], Coef: coef[i]})
	}
	t.Converged, t.Status = res.Status.Converged(), res.Summary
	t.model = res.Model.(*learning.KernelModel)
	return t, nil
}
