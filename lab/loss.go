package lab

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"mark1/learning/learners"
)

// Losses lists the losses that TraceLoss descends (notes 002): the
// perceptron loss max(0, −z), the hinge loss max(0, 1 − z), the logistic
// loss log(1 + e^−z), each of the margin z = y·(w·x + b), and the squared
// loss (w·x + b − t)² of linear regression.
// They are the registry's values of the option loss for sgd.
func Losses() []string {
	s, err := learners.Lookup(SGD)
	if err != nil {
		panic("lab: the registry has no sgd")
	}
	return slices.Clone(s.Losses)
}

// LossOptions are the settings of gradient descent on a loss.
type LossOptions struct {
	// Loss is one of Losses; empty means the perceptron loss.
	Loss string `json:"loss"`
	// Bias uses the bias trick x → (x, 1). The squared loss always fits
	// a line t = w·x + b, with its b.
	Bias bool `json:"bias"`
	// Eps is the step size ε; 0 means 1.
	Eps float64 `json:"eps"`
	// Batch is the number of samples each step averages its gradient
	// over: 1 is SGD (0 means 1), a number between is mini-batch gradient
	// descent, the number of samples or more is full-batch gradient
	// descent.
	Batch int `json:"batch"`
	// Shuffle draws a fresh seeded order of the samples each epoch (the
	// batches are consecutive runs of it) instead of the data's order.
	Shuffle bool   `json:"shuffle"`
	Seed    uint64 `json:"seed"`
	// MaxEpochs bounds the passes; 0 means 100.
	MaxEpochs int `json:"max_epochs"`
	// Start is the starting w (ending in b with the bias); nil means 0.
	Start []float64 `json:"start,omitempty"`
}

// LossStep is one step of gradient descent on a loss (notes 002):
//
//	w ← w − ε · (1/|B|) Σ_{i∈B} ∇ℓ(w; x_i, y_i)
//
// over the step's batch B.
type LossStep struct {
	Step  int       `json:"step"`  // 1-based
	Epoch int       `json:"epoch"` // 1-based
	Batch []int     `json:"batch"` // the batch's samples, 1-based
	W     []float64 `json:"w"`     // w before the step (ending in b with a bias)
	Loss  float64   `json:"loss"`  // the batch's mean loss at w
	Grad  []float64 `json:"grad"`  // the batch's mean gradient at w
	Next  []float64 `json:"next"`  // w after the step
	Risk  float64   `json:"risk"`  // R(w) = mean loss over every sample, after the step
}

// LossTrace is a run of gradient descent on a loss, step by step.
type LossTrace struct {
	Learner string      `json:"learner"`
	Example string      `json:"example"`
	Options LossOptions `json:"options"`
	Start   []float64   `json:"start"`
	// Risk0 is R at the start.
	Risk0     float64    `json:"risk_start"`
	Steps     []LossStep `json:"steps"`
	Final     []float64  `json:"final"`
	Epochs    int        `json:"epochs"`
	Converged bool       `json:"converged"`
	Status    string     `json:"status"`

	samples int
}

// lossProblem is what a loss sees of an example: the inputs x̃ (lifted by
// the bias trick if used) and the target of each, y = ±1 for the
// classification losses and the last coordinate for the squared loss,
// whose inputs are the other coordinates.
type lossProblem struct {
	loss string
	x    [][]float64
	t    []float64
}

func newLossProblem(e Example, loss string, bias bool) (*lossProblem, error) {
	p := &lossProblem{loss: loss, t: make([]float64, len(e.X))}
	switch loss {
	case "perceptron", "hinge", "logistic":
		p.x = e.Lift(bias)
		for i, y := range e.Y {
			p.t[i] = float64(y)
		}
	case "squared":
		if e.Dim() < 2 {
			return nil, fmt.Errorf("the squared loss fits the last feature from the others (a line through the points): %s has %d feature", e.Name, e.Dim())
		}
		for i, x := range e.X {
			d := len(x) - 1
			p.x = append(p.x, append(slices.Clone(x[:d]), 1))
			p.t[i] = x[d]
		}
	default:
		return nil, fmt.Errorf("loss %q: want one of %s", loss, strings.Join(Losses(), ", "))
	}
	return p, nil
}

// dim is the number of weights (ending in b with a bias).
func (p *lossProblem) dim() int { return len(p.x[0]) }

// loss returns ℓ(w; x_i, t_i) and adds scale·∇ℓ to g (if not nil).
func (p *lossProblem) lossGrad(w []float64, i int, g []float64, scale float64) float64 {
	x, t := p.x[i], p.t[i]
	s := dot(w, x)
	var l, d float64 // the loss and its derivative in s
	switch p.loss {
	case "perceptron":
		if z := t * s; z <= 0 { // a mistake, as the perceptron judges it
			l, d = -z, -t
		}
	case "hinge":
		if z := t * s; z < 1 {
			l, d = 1-z, -t
		}
	case "logistic":
		z := t * s
		// log(1 + e^−z) and its derivative −σ(−z), without overflow.
		if z > 0 {
			l = math.Log1p(exp(-z))
			d = -t * exp(-z) / (1 + exp(-z))
		} else {
			l = -z + math.Log1p(exp(z))
			d = -t / (1 + exp(z))
		}
	case "squared":
		r := s - t
		l, d = r*r, 2*r
	}
	if g != nil && d != 0 {
		for j := range g {
			g[j] += scale * d * x[j]
		}
	}
	return l
}

// risk returns R(w), the mean loss over every sample.
func (p *lossProblem) risk(w []float64) float64 {
	var r float64
	for i := range p.x {
		r += p.lossGrad(w, i, nil, 0)
	}
	return r / float64(len(p.x))
}

// maxLossSteps bounds the steps of a loss trace.
const maxLossSteps = 100000

// divergeAt is how large a weight may grow before the run is said to
// diverge.
const divergeAt = 1e12

// TraceLoss runs gradient descent on e's risk for a loss — SGD, mini-batch
// or full batch — and writes down every step.
func TraceLoss(ctx context.Context, e Example, o LossOptions) (*LossTrace, error) {
	needValid(e)
	if o.Loss == "" {
		o.Loss = "perceptron"
	}
	if o.Loss == "squared" {
		o.Bias = true
	}
	if err := stepDefaults(&o.Eps, &o.MaxEpochs); err != nil {
		return nil, err
	}
	if o.Batch < 0 {
		return nil, fmt.Errorf("batch %d: want 1 (SGD) or more", o.Batch)
	}
	if o.Batch == 0 {
		o.Batch = 1
	}
	p, err := newLossProblem(e, o.Loss, o.Bias)
	if err != nil {
		return nil, err
	}
	n, b := len(p.x), min(o.Batch, len(p.x))
	perEpoch := (n + b - 1) / b
	if o.MaxEpochs*perEpoch > maxLossSteps {
		return nil, fmt.Errorf("%d epochs of %d steps: more than the %d steps a trace holds; lower the epochs or raise the batch", o.MaxEpochs, perEpoch, maxLossSteps)
	}
	w := make([]float64, p.dim())
	if o.Start != nil {
		if len(o.Start) != len(w) {
			return nil, fmt.Errorf("start %s: %d values; want %d", Vec(o.Start), len(o.Start), len(w))
		}
		copy(w, o.Start)
	}
	t := &LossTrace{Learner: "sgd", Example: e.Name, Options: o, Start: slices.Clone(w), Risk0: p.risk(w), samples: n}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x5ed))
	t.Status = fmt.Sprintf("stopped after %d epochs", o.MaxEpochs)
	for epoch := 1; epoch <= o.MaxEpochs; epoch++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if o.Shuffle {
			rng.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		moved := false
		for k := 0; k < n; k += b {
			batch := order[k:min(k+b, n)]
			st := LossStep{Step: len(t.Steps) + 1, Epoch: epoch, W: slices.Clone(w), Grad: make([]float64, len(w))}
			for _, i := range batch {
				st.Batch = append(st.Batch, i+1)
				st.Loss += p.lossGrad(w, i, st.Grad, 1)
			}
			st.Loss /= float64(len(batch))
			for j := range st.Grad {
				st.Grad[j] /= float64(len(batch))
			}
			for j := range w {
				w[j] -= o.Eps * st.Grad[j]
				if st.Grad[j] != 0 {
					moved = true
				}
			}
			st.Next = slices.Clone(w)
			st.Risk = p.risk(w)
			t.Steps = append(t.Steps, st)
			for _, v := range w {
				if !(math.Abs(v) <= divergeAt) {
					t.Epochs, t.Final = epoch, slices.Clone(w)
					t.Status = fmt.Sprintf("diverged in epoch %d: a weight passed %g; ε = %s is too large for this loss on these data", epoch, divergeAt, Num(o.Eps))
					return t, nil
				}
			}
		}
		t.Epochs = epoch
		// Converged: an epoch moved nothing (the perceptron and hinge
		// losses: every sample right, by the margin — the perceptron's
		// own rule), or the full gradient has all but vanished (the
		// smooth losses, which never reach 0).
		g := make([]float64, len(w))
		for i := range p.x {
			p.lossGrad(w, i, g, 1/float64(n))
		}
		smooth := o.Loss == "logistic" || o.Loss == "squared"
		if !moved || smooth && maxAbs(g) < 1e-9 {
			t.Converged = true
			t.Status = fmt.Sprintf("converged after %d epochs: the gradient is 0", epoch)
			if maxAbs(g) > 0 {
				t.Status = fmt.Sprintf("converged after %d epochs: the gradient is below 1e-9", epoch)
			}
			break
		}
	}
	t.Final = slices.Clone(w)
	return t, nil
}

func maxAbs(v []float64) float64 {
	var m float64
	for _, x := range v {
		m = max(m, math.Abs(x))
	}
	return m
}

// lossText writes a loss as the notes do.
func lossText(loss string) string {
	switch loss {
	case "hinge":
		return "ℓ = max(0, 1 − y·(w·x))"
	case "logistic":
		return "ℓ = log(1 + e^−y·(w·x))"
	case "squared":
		return "ℓ = (w·x + b − t)², t the last coordinate (linear regression)"
	}
	return "ℓ = max(0, −y·(w·x))"
}

// batchText names the kind of descent a batch size makes on n samples.
func batchText(b, n int) string {
	switch {
	case b <= 1:
		return "SGD (batch 1)"
	case b >= n:
		return "full-batch GD"
	}
	return fmt.Sprintf("mini-batch GD (batch %d)", b)
}

// WriteText writes the run step by step.
func (t *LossTrace) WriteText(w io.Writer) error {
	o := t.Options
	ew := &errWriter{w: w}
	ew.printf("%s on the %s loss, %s: %s, ε = %s, %s, from w = %s\n", batchText(o.Batch, t.samples), o.Loss, t.Example, biasText(o.Bias), Num(o.Eps), orderText(o.Shuffle, o.Seed), Vec(t.Start))
	ew.printf("R(w) = (1/n) Σ ℓ_i, %s; step: w ← w − ε · (1/|B|) Σ_{i∈B} ∇ℓ_i; R at the start = %s\n\n", lossText(o.Loss), Num(t.Risk0))
	for _, s := range t.Steps {
		b := make([]string, len(s.Batch))
		for i, j := range s.Batch {
			b[i] = strconv.Itoa(j)
		}
		ew.printf("step %d (epoch %d): B = {%s}, w = %s, loss %s, ∇ = %s → w = %s, R = %s\n",
			s.Step, s.Epoch, strings.Join(b, ", "), Vec(s.W), Num(s.Loss), Vec(s.Grad), Vec(s.Next), Num(s.Risk))
	}
	ew.printf("\n%s; final w = %s\n", t.Status, Vec(t.Final))
	return ew.err
}

// grid samples R over box on an n×n grid: R(w₁, w₂) at the given b with
// the bias trick (the slice through the current b), R(w₁, w₂) without, or
// for the squared loss R(w, b) itself.
func (p *lossProblem) grid(box [4]float64, b float64, n int) *Grid {
	g := &Grid{N: n, Box: box, Z: make([]float64, n*n)}
	w := make([]float64, p.dim())
	if len(w) == 3 {
		w[2] = b
	}
	for r := range n {
		for c := range n {
			w[0] = box[0] + (box[1]-box[0])*(float64(c)+0.5)/float64(n)
			w[1] = box[2] + (box[3]-box[2])*(float64(r)+0.5)/float64(n)
			v := p.risk(w)
			g.Z[r*n+c] = v
			g.Max = max(g.Max, v)
		}
	}
	return g
}

// LossPanel is one loss's run, at the same step as the others, for the lab
// page's side-by-side view: the same data, batch, ε and order, another
// loss.
type LossPanel struct {
	Loss   string      `json:"loss"`
	Step   int         `json:"step"` // the step shown: the frame's, or the run's last if it ended before
	Steps  int         `json:"steps"`
	W      []float64   `json:"w"`
	Path   [][]float64 `json:"path"`
	Line   [3]float64  `json:"line"` // a·x₁ + b·x₂ + c = 0 in x-space
	Risk   float64     `json:"risk"` // R(w) at the step
	Curve  []float64   `json:"curve"`
	WBox   [4]float64  `json:"wbox"`
	Grid   *Grid       `json:"grid"`
	WAxes  [2]string   `json:"waxes"`
	Status string      `json:"status"`
	// Misclassified counts the samples with y·(w·x + b) ≤ 0 (the
	// classification losses; 0 for the squared loss).
	Misclassified int `json:"misclassified"`
}

// lossLine returns the line w draws in x-space: the separator w·x + b = 0,
// or for the squared loss the fitted line x₂ = w·x₁ + b.
func lossLine(loss string, w []float64, bias bool) [3]float64 {
	if loss == "squared" {
		return [3]float64{w[0], -1, w[1]}
	}
	b := 0.0
	if bias {
		b = w[2]
	}
	return [3]float64{w[0], w[1], b}
}

// waxes names the w-space picture's axes.
func waxes(loss string) [2]string {
	if loss == "squared" {
		return [2]string{"w", "b"}
	}
	return [2]string{"w₁", "w₂"}
}

// sideBySide runs every loss with o's settings on e and returns each at step
// f (or its last), with n×n risk grids.
func sideBySide(ctx context.Context, e Example, o LossOptions, f, n int) ([]LossPanel, error) {
	var out []LossPanel
	for _, loss := range Losses() {
		o := o
		o.Loss, o.Start = loss, nil
		t, err := TraceLoss(ctx, e, o)
		if err != nil {
			return nil, fmt.Errorf("the %s loss: %w", loss, err)
		}
		p, err := newLossProblem(e, loss, t.Options.Bias)
		if err != nil {
			return nil, err
		}
		k := min(f, len(t.Steps))
		lp := LossPanel{Loss: loss, Step: k, Steps: len(t.Steps), Path: [][]float64{t.Start}, Risk: t.Risk0, Curve: []float64{t.Risk0}, WAxes: waxes(loss), Status: t.Status}
		for _, s := range t.Steps {
			lp.Curve = append(lp.Curve, s.Risk)
		}
		for _, s := range t.Steps[:k] {
			lp.Path = append(lp.Path, s.Next)
			lp.Risk = s.Risk
		}
		lp.W = lp.Path[len(lp.Path)-1]
		lp.Line = lossLine(loss, lp.W, t.Options.Bias)
		wb := WBox(lp.Path)
		lp.WBox = [4]float64{wb.X0, wb.X1, wb.Y0, wb.Y1}
		b := 0.0
		if t.Options.Bias && loss != "squared" {
			b = lp.W[2]
		}
		lp.Grid = p.grid(lp.WBox, b, n)
		if loss != "squared" {
			for i, x := range e.X {
				if float64(e.Y[i])*(lp.Line[0]*x[0]+lp.Line[1]*x[1]+lp.Line[2]) <= 0 {
					lp.Misclassified++
				}
			}
		}
		out = append(out, lp)
	}
	return out, nil
}
