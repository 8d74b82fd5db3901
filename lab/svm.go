package lab

import (
	"fmt"
	"math"

	"mark1/internal/base/jsonnum"
	"mark1/learning/kernel"
	"mark1/learning/svm"
)

// SVMOptions are the settings of an SVM fit.
type SVMOptions struct {
	// Kernel is the kernel; nil means the linear kernel.
	Kernel kernel.Kernel `json:"-"`
	// C is the soft-margin penalty (004: minimise ‖w‖² + C Σ ξ_i); 0 means 1.
	C float64 `json:"C"`
	// Hard asks for the hard margin (C → ∞).
	Hard bool `json:"hard"`
}

// SVMResult is what the SVM found: the notes' α_i, the support vectors
// (α_i ≠ 0), b and the margin 1/‖w‖; the classifier is
// f(x) = Σ_i α_i y_i K(x_i, x) + b.
type SVMResult struct {
	Learner string     `json:"learner"`
	Example string     `json:"example"`
	Kernel  string     `json:"kernel"`
	Options SVMOptions `json:"options"`
	// Alpha holds α_i for every sample, in the example's order.
	Alpha []float64 `json:"alpha"`
	// Support holds the 1-based samples with α_i > 0; Bounded counts
	// those with α_i = C (on or inside the margin).
	Support []int   `json:"support"`
	Bounded int     `json:"bounded"`
	B       float64 `json:"b"`
	// W is Σ α_i y_i x_i, for the linear kernel only.
	W []float64 `json:"w,omitempty"`
	// Margin is 1/‖w‖; nil (null) when there is no separator: w = 0, or a
	// hard margin was asked of data that are not separable in the kernel's
	// feature space (the soft machine the solver stopped at has a w, but
	// its 1/‖w‖ is no hard margin).
	Margin *float64 `json:"margin"`
	Status string   `json:"status"`
	// Steps are the solver's pair updates from α = 0, as LIBSVM's SMO
	// makes them (traceSMO); the last leaves α and b where the solver
	// of learning/svm puts them, to its tolerance. Empty when a hard
	// margin is asked of data it cannot separate.
	Steps []SMOStep `json:"steps"`

	bin *svm.Binary
	ex  Example
}

// Decision returns f(x).
func (r *SVMResult) Decision(x []float64) float64 { return r.bin.Decision(x) }

// At returns α and b after SMO step f (0: the start, α = 0 and b = 0;
// past the last step: the last).
func (r *SVMResult) At(f int) (alpha []float64, b float64) {
	alpha = make([]float64, len(r.Alpha))
	for _, s := range r.Steps[:min(f, len(r.Steps))] {
		alpha[s.I-1], alpha[s.J-1] = s.After[0], s.After[1]
		b = s.B
	}
	return alpha, b
}

// SolveSVM trains the kernel SVM of learning/svm on e.
func SolveSVM(e Example, o SVMOptions) (*SVMResult, error) {
	needValid(e)
	k := o.Kernel
	if k == nil {
		k = kernel.Linear{}
	}
	if math.IsNaN(o.C) || o.C < 0 || math.IsInf(o.C, 0) {
		return nil, fmt.Errorf("the penalty C = %v: want a finite number > 0", o.C)
	}
	y := make([]float64, len(e.Y))
	for i, v := range e.Y {
		y[i] = float64(v)
	}
	b, err := svm.Solve(e.X, y, k, svm.Settings{C: o.C, Hard: o.Hard, Eps: 1e-6})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e.Name, err)
	}
	r := &SVMResult{
		Learner: "svm", Example: e.Name, Kernel: k.String(), Options: o,
		Alpha: b.Alpha, Bounded: b.Bounded, B: -b.Rho, Margin: jsonnum.Of(b.Margin()),
		Status: b.Message, bin: b, ex: e,
	}
	if o.Hard && b.Status != svm.Separable {
		r.Margin = nil
	}
	for i, a := range b.Alpha {
		if a > 0 {
			r.Support = append(r.Support, i+1)
		}
	}
	if b.Margin() > 0 || !o.Hard {
		c := o.C
		if c == 0 {
			c = 1
		}
		if o.Hard {
			c = math.Inf(1)
		}
		r.Steps, _, _, _ = traceSMO(e, k, c)
	}
	if _, ok := k.(kernel.Linear); ok {
		r.W = make([]float64, e.Dim())
		for i, sv := range b.SV {
			for j := range r.W {
				r.W[j] += b.Coef[i] * sv[j]
			}
		}
	}
	return r, nil
}
