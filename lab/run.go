package lab

import (
	"cmp"
	"context"
	"slices"
	"strconv"

	"encoding/json"
	"fmt"
	"image/gif"
	"io"
	"mark1/internal/base/param"
	"mark1/learning"
	"mark1/learning/learners"
	"mark1/learning/svm"
	"math"
	"strings"

	"mark1/chart"

	"gonum.org/v1/plot"
)

// Setup says which learner a lab run drives and how, in the registry's
// words (learning/learners): the options mean what they mean to fit and
// compare. The zero value is the notes' perceptron: no bias, ε = 1, the
// given order, at most 100 epochs; a zero number means the registry's
// default, and an empty kernel the notes' linear one.
type Setup struct {
	// Learner is a registry name the lab can trace (Learners), "sgd"
	// (gradient descent on a loss, notes 002) among them. Empty means
	// "perceptron".
	Learner string `json:"learner"`
	// Bias uses the bias trick x → (x, 1) (the option bias 1; false is
	// bias none).
	Bias bool `json:"bias"`
	// Eps is the step size ε of the perceptron and of batch GD (the option
	// eps); 0 means 1.
	Eps float64 `json:"eps"`
	// Shuffle presents the points in a seeded shuffle each epoch (the
	// option order shuffle; false is order given).
	Shuffle bool   `json:"shuffle"`
	Seed    uint64 `json:"seed"`
	// LineSearch chooses batch GD's steps by exact line search (the
	// option line-search).
	LineSearch bool `json:"line_search"`
	// Kernel is a kernel word as kernel.Parse reads it ("linear",
	// "poly:d=2,gamma=1", "gaussian:sigma=1", "rbf:gamma=scale", …); empty
	// means linear.
	Kernel string `json:"kernel"`
	// C is the SVM's soft-margin penalty; 0 means 1. Hard asks for the
	// hard margin.
	C    float64 `json:"C"`
	Hard bool    `json:"hard"`
	// MaxEpochs bounds the passes (the steps, for batch GD): the option
	// epochs; 0 means 100.
	MaxEpochs int `json:"max_epochs"`
	// Start is the perceptron's or batch GD's starting w (ending in b with
	// Bias); nil means 0.
	Start []float64 `json:"start,omitempty"`
	// Loss is the loss "sgd" descends (the option loss: one of Losses;
	// empty means the notes' perceptron loss), and Batch its batch size
	// (the option batch): 1 (or 0) SGD, the number of samples or more
	// full-batch GD, mini-batches between.
	Loss  string `json:"loss,omitempty"`
	Batch int    `json:"batch,omitempty"`
	// Units is the number of random A-units of "a-layer" (the option
	// units); 0 means 16. Its Seed draws them. UnitKind is their kind
	// (the option unit-kind): HalfPlanes (or empty) or Raster.
	Units    int    `json:"units,omitempty"`
	UnitKind string `json:"unit_kind,omitempty"`
}

// NotesOptions are the registry's options as the notes run their
// examples: no bias, the given order, a fixed step ε = 1, the linear
// kernel. An example runs with them unless told otherwise; a user's data
// with the registry's defaults.
func NotesOptions() learners.Options {
	o := learners.Defaults()
	o.Bias, o.Order, o.Line, o.Kernel, o.Loss = -1, "given", false, "linear", "perceptron"
	return o
}

// Options returns s in the registry's options.
func (s Setup) Options() learners.Options {
	o := NotesOptions()
	if s.Bias {
		o.Bias = 1
	}
	if s.Shuffle {
		o.Order = "shuffle"
	}
	o.Seed, o.Line, o.Hard = s.Seed, s.LineSearch, s.Hard
	// A zero setting keeps the registry's (or the notes') default.
	o.Eps, o.C, o.Epochs = cmp.Or(s.Eps, o.Eps), cmp.Or(s.C, o.C), cmp.Or(s.MaxEpochs, o.Epochs)
	o.Kernel, o.Loss, o.Batch = cmp.Or(s.Kernel, o.Kernel), cmp.Or(s.Loss, o.Loss), cmp.Or(s.Batch, o.Batch)
	o.Units, o.UnitKind = cmp.Or(s.Units, o.Units), cmp.Or(s.UnitKind, o.UnitKind)
	return o
}

// NewSetup returns the Setup of learner with the registry's options o
// (the kernel word with o's gamma, degree and coef0 written into it) and
// a starting point.
func NewSetup(learner string, o learners.Options, start []float64) (Setup, error) {
	ks, err := o.KernelSpec()
	if err != nil {
		return Setup{}, err
	}
	s := Setup{
		Learner: learner, Bias: o.Bias > 0, Eps: o.Eps, Shuffle: o.Order == "shuffle", Seed: o.Seed,
		LineSearch: o.Line, Kernel: ks.String(), C: o.C, Hard: o.Hard, MaxEpochs: o.Epochs, Start: start,
		Loss: o.Loss, Batch: o.Batch, Units: o.Units,
	}
	if o.UnitKind != HalfPlanes { // the default is left empty
		s.UnitKind = o.UnitKind
	}
	return s, nil
}

// Learners lists the registry's learners the lab traces step by step.
func Learners() []string {
	var names []string
	for _, l := range learners.All() {
		if l.LabOnly || traceable(l) {
			names = append(names, l.Name)
		}
	}
	return names
}

// SGD is the registry's learner that only the lab traces: gradient
// descent on a loss of the notes 002 (TraceLoss), with the options loss
// and batch.
const SGD = "sgd"

// traceable reports whether the lab has a trace for the learner the
// registry builds.
func traceable(l learners.Spec) bool {
	b, err := l.New(NotesOptions(), &learning.Data{X: [][]float64{{0}, {1}}, Y: []int{0, 1}, Classes: 2})
	if err != nil {
		return false
	}
	switch k := b.Learner.(type) {
	case learning.Perceptron, learning.BatchGD, learning.KernelPerceptron:
		return true
	case svm.Kernel:
		return k.Type == svm.CSVC // the lab's SMO is the C-SVC's
	}
	return false
}

// Run is one lab run: an example, a setup and what the learner did.
// Exactly one of the traces is set, after the learner.
type Run struct {
	Example    Example          `json:"example"`
	Setup      Setup            `json:"setup"`
	Perceptron *PerceptronTrace `json:"perceptron,omitempty"`
	GD         *GDTrace         `json:"batch_gd,omitempty"`
	Kernel     *KernelTrace     `json:"kernel_perceptron,omitempty"`
	SVM        *SVMResult       `json:"svm,omitempty"`
	Loss       *LossTrace       `json:"sgd,omitempty"`
	ALayer     *ALayerTrace     `json:"a_layer,omitempty"`
}

// Start runs s's learner on e with the learner the registry builds for
// s's options, as fit and compare build it. Bad settings are
// *param.FieldError values in the options' names.
func Start(ctx context.Context, e Example, s Setup) (*Run, error) {
	needValid(e)
	if s.Learner == "" {
		s.Learner = "perceptron"
	}
	spec, err := learners.Lookup(s.Learner)
	if err != nil {
		return nil, err
	}
	// The lab's range, as its page's (MaxValue).
	if math.Abs(s.Eps) > MaxValue {
		return nil, param.Errorf("eps", s.Eps, "a step size within ±10⁶, the lab's range")
	}
	if math.Abs(s.C) > MaxValue {
		return nil, param.Errorf("C", s.C, "a number within ±10⁶, the lab's range")
	}
	for i, v := range s.Start {
		if !(math.Abs(v) <= MaxValue) {
			return nil, fmt.Errorf("start[%d] %g: want a finite number within ±10⁶", i, v)
		}
	}
	if !slices.Contains(Learners(), s.Learner) {
		return nil, param.Errorf("learner", strconv.Quote(s.Learner), "one the lab traces: %s", strings.Join(Learners(), ", "))
	}
	if spec.Name == SGD { // the registry's checks; the lab's trace
		o := s.Options()
		if err := spec.Check(o); err != nil {
			return nil, err
		}
		s.Loss, s.Batch = o.Loss, o.Batch
		t, err := TraceLoss(ctx, e, LossOptions{Loss: o.Loss, Bias: o.Bias > 0, Eps: o.Eps, Batch: o.Batch, Shuffle: o.Order == "shuffle", Seed: o.Seed, MaxEpochs: o.Epochs, Start: s.Start})
		if err != nil {
			return nil, err
		}
		return &Run{Example: e, Setup: s, Loss: t}, nil
	}
	if spec.Name == ALayer {
		o := s.Options()
		if err := spec.Check(o); err != nil {
			return nil, err
		}
		s.Units = o.Units
		if o.UnitKind == HalfPlanes {
			o.UnitKind = ""
		}
		s.UnitKind = o.UnitKind
		t, err := TraceALayer(ctx, e, ALayerOptions{Units: o.Units, Kind: o.UnitKind, Seed: o.Seed, Eps: o.Eps, Shuffle: o.Order == "shuffle", MaxEpochs: o.Epochs})
		if err != nil {
			return nil, err
		}
		return &Run{Example: e, Setup: s, ALayer: t}, nil
	}
	b, err := spec.New(s.Options(), e.Data())
	if err != nil {
		return nil, err
	}
	r := &Run{Example: e, Setup: s}
	switch l := b.Learner.(type) {
	case learning.Perceptron:
		r.Perceptron, err = TracePerceptron(ctx, e, PerceptronOptions{Bias: !l.NoBias, Eps: l.Step, Shuffle: !l.InOrder, Seed: l.Seed, MaxEpochs: l.MaxEpochs, Start: s.Start})
	case learning.BatchGD:
		r.GD, err = TraceBatchGD(ctx, e, GDOptions{Bias: !l.NoBias, Eps: l.Step, LineSearch: l.LineSearch, MaxSteps: l.MaxEpochs, Start: s.Start})
	case learning.KernelPerceptron:
		r.Kernel, err = TraceKernelPerceptron(ctx, e, KernelOptions{Kernel: portable(l.Kernel), Bias: !l.NoBias, Shuffle: !l.InOrder, Seed: l.Seed, MaxEpochs: l.MaxEpochs})
	case svm.Kernel:
		r.SVM, err = SolveSVM(e, SVMOptions{Kernel: portable(l.Kernel), C: l.Settings.C, Hard: l.Settings.Hard})
	}
	if err != nil {
		return nil, err
	}
	return r, nil
}

// WriteText writes the run as the notes write it.
func (r *Run) WriteText(w io.Writer) error {
	switch {
	case r.Perceptron != nil:
		return r.Perceptron.WriteText(w)
	case r.GD != nil:
		return r.GD.WriteText(w)
	case r.Kernel != nil:
		return r.Kernel.WriteText(w)
	case r.Loss != nil:
		return r.Loss.WriteText(w)
	case r.ALayer != nil:
		return r.ALayer.WriteText(w)
	default:
		return r.SVM.WriteText(w)
	}
}

// WriteJSON writes the run's trace as indented JSON.
func (r *Run) WriteJSON(w io.Writer) error {
	var v any
	switch {
	case r.Perceptron != nil:
		v = r.Perceptron
	case r.GD != nil:
		v = r.GD
	case r.Kernel != nil:
		v = r.Kernel
	case r.Loss != nil:
		v = r.Loss
	case r.ALayer != nil:
		v = r.ALayer
	default:
		v = r.SVM
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// Frames returns the number of frames of the run: the start and one per
// step (one for the SVM).
func (r *Run) Frames() int {
	switch {
	case r.Perceptron != nil:
		return len(r.Perceptron.Steps) + 1
	case r.GD != nil:
		return len(r.GD.Steps) + 1
	case r.Kernel != nil:
		return len(r.Kernel.Steps) + 1
	case r.Loss != nil:
		return len(r.Loss.Steps) + 1
	case r.ALayer != nil:
		return len(r.ALayer.Perceptron.Steps) + 1
	}
	return len(r.SVM.Steps) + 1
}

// svmAt returns the SVM's decision function after SMO step f and its
// support vectors then (1-based).
func (r *Run) svmAt(f int) (func([]float64) float64, []int, error) {
	k, err := exampleKernel(r.Setup.Kernel, r.Example)
	if err != nil {
		return nil, nil, err
	}
	e := r.Example
	alpha, b := r.SVM.At(f)
	var support []int
	for i, a := range alpha {
		if a > 0 {
			support = append(support, i+1)
		}
	}
	return func(x []float64) float64 {
		v := b
		for _, i := range support {
			v += alpha[i-1] * float64(e.Y[i-1]) * k.Eval(e.X[i-1], x)
		}
		return v
	}, support, nil
}

// clampFrame maps −1 (and anything past the end) to the last frame.
func (r *Run) clampFrame(f int) int {
	if f < 0 || f >= r.Frames() {
		return r.Frames() - 1
	}
	return f
}

// Path returns the weights from the start up to frame f: the start and the
// w after each update (each step, for batch GD). Linear learners only.
func (r *Run) Path(f int) [][]float64 {
	f = r.clampFrame(f)
	switch {
	case r.Perceptron != nil || r.ALayer != nil:
		t := r.Perceptron
		if t == nil {
			t = r.ALayer.Perceptron
		}
		path := [][]float64{t.Start}
		for _, s := range t.Steps[:f] {
			if s.Mistake {
				path = append(path, s.W)
			}
		}
		return path
	case r.GD != nil:
		path := [][]float64{r.GD.Start}
		for _, s := range r.GD.Steps[:f] {
			path = append(path, s.Next)
		}
		return path
	case r.Loss != nil:
		path := [][]float64{r.Loss.Start}
		for _, s := range r.Loss.Steps[:f] {
			path = append(path, s.Next)
		}
		return path
	}
	return nil
}

// mark returns the sample presented in frame f (0-based) and whether it
// was a mistake; −1 for none.
func (r *Run) mark(f int) (int, bool) {
	if f == 0 {
		return -1, false
	}
	switch {
	case r.Perceptron != nil:
		s := r.Perceptron.Steps[f-1]
		return s.Sample - 1, s.Mistake
	case r.ALayer != nil:
		s := r.ALayer.Perceptron.Steps[f-1]
		return s.Sample - 1, s.Mistake
	case r.Kernel != nil:
		s := r.Kernel.Steps[f-1]
		return s.Sample - 1, s.Mistake
	}
	return -1, false
}

// frameTitle names frame f for the pictures.
func (r *Run) frameTitle(f int) string {
	switch {
	case r.Perceptron != nil:
		if f == 0 {
			return "start, w₁ = " + Vec(r.Perceptron.Start)
		}
		s := r.Perceptron.Steps[f-1]
		what := "right"
		if s.Mistake {
			what = fmt.Sprintf("mistake → w%s", Sub(s.Update))
		}
		return fmt.Sprintf("step %d (epoch %d): sample %d, w·x = %s, %s", s.Step, s.Epoch, s.Sample, Num(s.Score), what)
	case r.ALayer != nil:
		if f == 0 {
			return fmt.Sprintf("start, (w, b) = 0 on %d A-units", r.ALayer.size())
		}
		s := r.ALayer.Perceptron.Steps[f-1]
		what := "right"
		if s.Mistake {
			what = "mistake"
		}
		return fmt.Sprintf("step %d (epoch %d): sample %d, a = %s, w·a + b = %s, %s", s.Step, s.Epoch, s.Sample, bits(s.X), Num(s.Score), what)
	case r.GD != nil:
		if f == 0 {
			return "start, w = " + Vec(r.GD.Start)
		}
		s := r.GD.Steps[f-1]
		return fmt.Sprintf("step %d: |V| = %d, R(w) = %s → %s", s.Step, len(s.V), Num(s.Risk), Num(s.After))
	case r.Loss != nil:
		if f == 0 {
			return fmt.Sprintf("start, w = %s, R = %s", Vec(r.Loss.Start), Num(r.Loss.Risk0))
		}
		s := r.Loss.Steps[f-1]
		return fmt.Sprintf("step %d (epoch %d): batch of %d, loss %s → w = %s, R = %s", s.Step, s.Epoch, len(s.Batch), Num(s.Loss), Vec(s.Next), Num(s.Risk))
	case r.SVM != nil:
		if f == 0 {
			return "start: every α = 0, b = 0"
		}
		s := r.SVM.Steps[f-1]
		return fmt.Sprintf("SMO step %d: α%s %s → %s, α%s %s → %s; b = %s, margin %s", s.Step,
			Sub(s.I), Num(s.Before[0]), Num(s.After[0]), Sub(s.J), Num(s.Before[1]), Num(s.After[1]), Num(s.B), MarginText(s.Margin))
	case r.Kernel != nil:
		if f == 0 {
			return "start: nothing stored"
		}
		s := r.Kernel.Steps[f-1]
		what := "right"
		if s.Mistake {
			what = "mistake, stored"
		}
		return fmt.Sprintf("step %d (epoch %d): sample %d, f(x) = %s, %s", s.Step, s.Epoch, s.Sample, Num(s.F), what)
	}
	return ""
}

// Views lists the pictures a run can draw.
func Views() []string {
	return []string{"notes", "x", "w", "risk", "paths", "bias", "regions", "margin", "theorem", "losses", "units", "aspace"}
}

// Picture draws view at frame f (−1: the last).
//
//	notes    x-space, the dual chart and R(w) side by side
//	x        x-space: points, hyperplane, w, margin band, ball of radius R
//	w        the dual chart: dual lines, shaded sides, feasible region, w's path
//	risk     R(w) shaded with contours and the dual lines
//	paths    batch GD against the perceptron (SGD) on R(w)
//	bias     the bias trick in 3-D: the points on the plane x₃ = 1
//	regions  decision regions (kernel perceptron, SVM: f = ±1, support vectors)
//	margin   the SVM's hard margin against soft margins as C changes
//	theorem  mistakes so far against the bound (R/γ)²
//	losses   sgd: every loss side by side at the same step
//	units    a-layer: one thumbnail per A-unit, where it fires
//	aspace   a-layer: the samples as the R-unit sees them (A-vectors,
//	         and their scores w·a + b)
//
// For sgd (gradient descent on a loss) notes is x-space with the loss's
// line beside the loss's risk over w-space; x and risk are each alone.
// For a-layer notes is the R-unit's regions over x-space beside the
// A-space view; regions, units, aspace and theorem are its others.
func (r *Run) Picture(ctx context.Context, view string, f int) (*chart.Drawing, error) {
	f = r.clampFrame(f)
	e := r.Example
	caption := e.Name + " · " + r.setupText()
	if t := r.frameTitle(f); t != "" {
		caption += "\n" + t
	}
	if r.ALayer != nil {
		return r.aLayerPicture(view, f, caption)
	}
	linear := r.Perceptron != nil || r.GD != nil
	if r.Loss != nil {
		switch view {
		case "notes", "x", "risk", "losses":
		default:
			return nil, param.Errorf("view", strconv.Quote(view), "notes, x, risk or losses for sgd (gradient descent on a loss)")
		}
		rows, err := r.lossPlots(ctx, view, f)
		if err != nil {
			return nil, err
		}
		if view == "losses" {
			return chart.Plots(520*len(rows[0]), 1300, rows, e.Name+" · every loss at the same step, with the batch, ε and order of the run\n"+r.setupText(), 170), nil
		}
		return chart.Plots(640*len(rows[0]), 820, rows, caption, 190), nil
	}
	switch view {
	case "notes", "x", "w", "risk":
		if !linear {
			return nil, param.Errorf("view", view, "regions or margin for the %s (%s draws the perceptron or batch GD)", r.Setup.Learner, view)
		}
		path := r.Path(f)
		w := path[len(path)-1]
		mark, mistake := r.mark(f)
		var plots []*plot.Plot
		if view == "notes" || view == "x" {
			p, err := XSpace(e, XView{W: w, Bias: r.Setup.Bias, Mark: mark, Mistake: mistake, Title: "x-space (primal)"})
			if err != nil {
				return nil, err
			}
			plots = append(plots, p)
		}
		full := r.Path(-1)
		box := WBox(full)
		if view == "notes" || view == "w" {
			p, err := WSpace(e, WView{Path: path, Bias: r.Setup.Bias, Box: box, Title: wTitle("w-space (dual chart)", r.Setup.Bias)})
			if err != nil {
				return nil, err
			}
			plots = append(plots, p)
		}
		if view == "notes" || view == "risk" {
			p, err := WSpace(e, WView{Path: path, Bias: r.Setup.Bias, Box: box, Risk: true, Title: wTitle("R(w): its creases are the dual lines", r.Setup.Bias)})
			if err != nil {
				return nil, err
			}
			plots = append(plots, p)
		}
		return chart.Plots(600*len(plots), 820, [][]*plot.Plot{plots}, caption, 190), nil
	case "paths":
		p, err := Paths(ctx, e, r.Setup.Bias, r.Setup.Eps)
		if err != nil {
			return nil, err
		}
		return chart.Plots(760, 900, [][]*plot.Plot{{p}}, fmt.Sprintf("%s · %s · ε = %s", e.Name, biasText(r.Setup.Bias), Num(max(r.Setup.Eps, 0))), 170), nil
	case "theorem":
		if r.Perceptron == nil {
			return nil, param.Errorf("view", "theorem", "another view, or the learner perceptron: the theorem follows the perceptron's mistakes")
		}
		return chart.Plots(900, 620, [][]*plot.Plot{{TheoremPlot(r.Perceptron, f)}}, caption, 90), nil
	case "regions":
		p, err := r.regions(f)
		if err != nil {
			return nil, err
		}
		return chart.Plots(760, 900, [][]*plot.Plot{{p}}, caption, 170), nil
	case "margin":
		plots, err := MarginPlots(e, r.Setup)
		if err != nil {
			return nil, err
		}
		caption := fmt.Sprintf("%s · SVM, K = %s: hard margin against soft margins", e.Name, kernelName(r.Setup.Kernel))
		if len(plots) == 3 {
			caption = fmt.Sprintf("%s · SVM, K = %s: soft margins as C falls (no hard margin: the data are not separable)", e.Name, kernelName(r.Setup.Kernel))
		}
		return chart.Plots(600*len(plots), 820, [][]*plot.Plot{plots}, caption, 190), nil
	case "bias":
		if !linear || !r.Setup.Bias {
			return nil, param.Errorf("view", "bias", "another view, or the bias trick (bias 1) with the learner perceptron or batch-gd, which it shows")
		}
		path := r.Path(f)
		p, err := BiasPlot(e, path[len(path)-1])
		if err != nil {
			return nil, err
		}
		x, err := XSpace(e, XView{W: path[len(path)-1], Bias: true, Mark: -1, Title: "x-space: the same line"})
		if err != nil {
			return nil, err
		}
		return chart.Plots(1300, 820, [][]*plot.Plot{{p, x}}, caption, 190), nil
	}
	return nil, param.Errorf("view", strconv.Quote(view), "one of %s", strings.Join(Views(), ", "))
}

func wTitle(t string, bias bool) string {
	if bias {
		return t + " — slice at the current b"
	}
	return t
}

func kernelName(spec string) string {
	if spec == "" {
		return "linear"
	}
	return spec
}

// setupText describes the setup in a few words.
func (r *Run) setupText() string {
	s := r.Setup
	switch s.Learner {
	case "batch-gd":
		step := "ε = " + Num(max(s.Eps, 0))
		if s.Eps == 0 {
			step = "ε = 1"
		}
		if s.LineSearch {
			step = "line search"
		}
		return fmt.Sprintf("batch GD, %s, %s", step, biasText(s.Bias))
	case ALayer:
		eps := "ε = 1"
		if s.Eps != 0 {
			eps = "ε = " + Num(s.Eps)
		}
		return fmt.Sprintf("%d random A-units%s (seed %d), the perceptron with a bias on their outputs, %s, %s", r.ALayer.size(), r.ALayer.kindText(), s.Seed, eps, orderText(s.Shuffle, s.Seed))
	case "kernel-perceptron":
		return fmt.Sprintf("kernel perceptron, K = %s, %s", kernelName(s.Kernel), biasText(s.Bias))
	case "sgd":
		loss := s.Loss
		if loss == "" {
			loss = "perceptron"
		}
		eps := "ε = 1"
		if s.Eps != 0 {
			eps = "ε = " + Num(s.Eps)
		}
		return fmt.Sprintf("%s on the %s loss, %s, %s", batchText(s.Batch, len(r.Example.X)), loss, eps, biasText(s.Bias || loss == "squared"))
	case "svm":
		c := "C = " + Num(s.C)
		if s.Hard {
			c = "hard margin"
		} else if s.C == 0 {
			c = "C = 1"
		}
		return fmt.Sprintf("SVM, K = %s, %s", kernelName(s.Kernel), c)
	}
	eps := "ε = 1"
	if s.Eps != 0 {
		eps = "ε = " + Num(s.Eps)
	}
	return fmt.Sprintf("perceptron, %s, %s, %s", eps, biasText(s.Bias), orderText(s.Shuffle, s.Seed))
}

// Animate draws view at every frame and returns the frames as a looping
// GIF, each shown delay hundredths of a second. A run of more than
// maxFrames frames is refused (0 means 200).
func (r *Run) Animate(ctx context.Context, view string, delay, maxFrames int) (*gif.GIF, error) {
	return animate(ctx, r.Frames(), func(f int) (*chart.Drawing, error) { return r.Picture(ctx, view, f) }, delay, maxFrames)
}

// animate draws the frames pictures of a run (Run's or MultiRun's) as a
// looping GIF, refusing more than maxFrames (0 means 200).
func animate(ctx context.Context, frames int, picture func(f int) (*chart.Drawing, error), delay, maxFrames int) (*gif.GIF, error) {
	if maxFrames <= 0 {
		maxFrames = 200
	}
	if frames > maxFrames {
		return nil, param.Errorf("max-frames", maxFrames, "at least the run's %d frames (or fewer epochs)", frames)
	}
	ds := make([]*chart.Drawing, 0, frames)
	for f := range frames {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		d, err := picture(f)
		if err != nil {
			return nil, err
		}
		ds = append(ds, d)
	}
	return chart.Frames(ctx, ds, delay, gifPalette())
}

// ParseStart reads a starting w written as comma-separated numbers (with
// the bias trick, b last): each finite and within ±MaxValue, as the lab
// page takes them. "" is nil, the default start at 0.
func ParseStart(s string) ([]float64, error) {
	if s == "" {
		return nil, nil
	}
	var start []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%q is not a finite number", f)
		}
		if math.Abs(v) > MaxValue {
			return nil, fmt.Errorf("%g beyond ±10⁶, the lab's range", v)
		}
		start = append(start, v)
	}
	return start, nil
}
