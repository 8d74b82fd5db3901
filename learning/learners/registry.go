// Package learners is the one registry of mark1's software learners: each
// learner's name, the options it reads, their one meaning and default, and
// what data it needs. fit, compare, lab, the panel's lab page and the model
// files all take learners and options from here, so a word means the same
// thing with the same default everywhere, and the same data with the same
// words give the same model.
//
// Options are set by name from text (Set, as a flag or a JSON member gives
// them) and checked once, here, in their own names: a setting out of range
// is a *param.FieldError whose Field is the option's name ("C", "gamma",
// "epochs"), which a front end maps to its own word.
//
// The package lives beside learning rather than in it because it builds the
// SVMs of learning/svm, which imports learning.
package learners

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"mark1/internal/base/param"
	"mark1/learning"
	"mark1/learning/kernel"
	"mark1/learning/svm"
)

// Options are every learner's settings, one field per option word. A
// learner reads the options its Spec names and ignores the others.
type Options struct {
	Kernel  string       // kernel: a kernel word (kernel.Parse); gamma, degree and coef0 fill what it does not write
	Gamma   kernel.Gamma // gamma: γ of poly, rbf and sigmoid: a number, scale or auto
	Degree  int          // degree: the poly kernel's degree
	Coef0   float64      // coef0: the poly and sigmoid kernels' constant
	C       float64      // C: the SVMs' penalty on margin violations
	Hard    bool         // hard: the SVM's hard margin (C → ∞)
	Tol     float64      // tol: the solvers' stopping tolerance; 0 means the learner's own default
	Epochs  int          // epochs: the perceptrons' and batch GD's limit on passes (batch GD: steps)
	Eps     float64      // eps: the step size ε of the perceptrons and batch GD
	Bias    float64      // bias: the constant input appended to every row; negative for none
	Order   string       // order: shuffle (a fresh seeded order each epoch) or given
	Line    bool         // line-search: batch GD chooses each step by exact line search
	Loss    string       // loss: the loss minimised; the values each learner takes are its Spec.Losses
	Batch   int          // batch: samples per step of sgd (1: SGD; the number of samples or more: full-batch GD)
	Units   int          // units: a-layer's random A-units
	CacheMB float64      // cache-mb: the SVM's kernel cache in MiB
	Seed    uint64       // seed: the presentation order's and the solvers' random stream
	Threads int          // threads: cores for the SVM's binary problems (0: all); no result depends on it
	Nu      float64      // nu: ν of nu-svc, one-class and nu-svr, in (0, 1]
	Epsilon float64      // epsilon: half-width of epsilon-svr's insensitive tube
	Mu      float64      // mu: adaline's μ-LMS step
	Alpha   float64      // alpha: adaline's α-LMS step (0: μ-LMS)
	Decay   float64      // decay: adaline's step divided by 1 + decay·(epoch − 1)
	// ClassWeight (class-weight) multiplies svm's C per class: "" (none),
	// "balanced", or LABEL=W,LABEL=W; the front end resolves it for the
	// data's labels (ClassWeights) and gives it to Built.SetClassWeights.
	ClassWeight string
	// UnitKind (unit-kind) is the kind of a-layer's A-units: UnitHalfPlane
	// (or empty) or UnitRaster.
	UnitKind string
}

// Defaults are the options every front end starts from: LIBSVM's and
// LIBLINEAR's where they have the option (rbf with γ = scale as
// scikit-learn, degree 3, coef0 0, C 1, a cache of 100 MiB, bias 1), the
// notes' ε = 1, 100 epochs in a shuffled order from seed 1, batch GD with
// line search.
func Defaults() Options {
	p := kernel.DefaultParams()
	return Options{
		Kernel: "rbf", Gamma: p.Gamma, Degree: p.Degree, Coef0: p.Coef0,
		C: 1, Epochs: 100, Eps: 1, Bias: 1, Order: "shuffle", Line: true,
		Loss: "hinge", Batch: 1, Units: 16, UnitKind: UnitHalfPlane, CacheMB: 100, Seed: 1, Nu: 0.5, Epsilon: 0.1, Mu: 0.01,
	}
}

// Bounds of the options.
const (
	MaxEpochs  = 1_000_000 // as a machine's recipe (machine.Recipe.MaxEpochs): one range for --epochs in every command
	MaxCacheMB = 1 << 30   // a pebibyte: the SVM counts its cache in bytes in an int64
	MaxThreads = 1024
	MaxBatch   = 1_000_000 // sgd's batch: any data set the lab takes fits in one
	MaxUnits   = 64        // a-layer's A-units: each one a thumbnail of the lab's picture
)

// The kinds of a-layer's A-units (the option unit-kind).
const (
	UnitHalfPlane = "halfplane" // a threshold unit on a random half-plane of the data's range
	UnitRaster    = "raster"    // a Mark I A-unit on the plane rasterised into a small retina
)

const rangeUnitKind = UnitHalfPlane + " or " + UnitRaster

// Option describes one option word.
type Option struct {
	Name string // the word: "C", "gamma", "epochs"
	Doc  string // its one meaning, for help texts
	// Bool is true for a yes/no option (a flag without a value).
	Bool bool
	// Type names the kind of value, for help texts: "float", "int",
	// "uint", "string" or "bool".
	Type string
	set  func(o *Options, s string) error
	get  func(o Options) string
}

// floatOption is op, a number option whose value field returns, checked
// with parseFloat (ok, want).
func floatOption(op Option, field func(o *Options) *float64, ok func(float64) bool, want string) Option {
	op.set = func(o *Options, s string) (err error) {
		*field(o), err = parseFloat(op.Name, s, ok, want)
		return
	}
	op.get = func(o Options) string { return ftoa(*field(&o)) }
	return op
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func parseFloat(field, s string, ok func(float64) bool, want string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || !ok(v) {
		return 0, &param.FieldError{Field: field, Value: s, Range: want}
	}
	return v, nil
}

func parseInt(field, s string, lo, hi int) (int, error) {
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || v < lo || v > hi {
		return 0, param.Errorf(field, s, "a whole number in [%d, %d]", lo, hi)
	}
	return v, nil
}

func parseBool(field, s string) (bool, error) {
	v, err := strconv.ParseBool(strings.TrimSpace(s))
	if err != nil {
		return false, &param.FieldError{Field: field, Value: s, Range: "true or false"}
	}
	return v, nil
}

// Ranges of the options, for people; Validate and Set use them.
const (
	rangeC     = "a finite number > 0"
	rangeTol   = "a finite number ≥ 0 (0: the learner's default, 0.001 for svm as LIBSVM's -e, 0.1 for linear-svm as LIBLINEAR's)"
	rangeEps   = "a finite number > 0"
	rangeBias  = "a finite number, > 0 for a constant input of that value or negative for none"
	rangeCache = "a number in (0, 1073741824]"
	rangeNu    = "a number in (0, 1]"
	rangeEpsil = "a finite number ≥ 0"
)

// OptionList returns every option, in the order help texts list them.
func OptionList() []Option {
	return []Option{
		{Name: "kernel", Type: "string", Doc: "kernel of svm and kernel-perceptron: linear, poly, rbf, sigmoid (LIBSVM's, with gamma, degree, coef0), gaussian:sigma=S, laplace:sigma=S\n(laplace is exp(−‖x−z‖/σ) with the Euclidean norm: the notes 004's exp(−‖x−z‖/(2σ²)) is sigma = 2σ²; scikit-learn's\nlaplacian kernel uses the L1 norm)",
			set: func(o *Options, s string) error { o.Kernel = s; return nil },
			get: func(o Options) string { return o.Kernel }},
		{Name: "gamma", Type: "string", Doc: "γ of rbf, poly and sigmoid: scale = 1/(features × variance of the training values), the default, as scikit-learn's; auto = 1/features, svm-train's default, which differs (give gamma auto to fit what svm-train fits); or a number",
			set: func(o *Options, s string) (err error) { o.Gamma, err = kernel.ParseGamma(s); return },
			get: func(o Options) string { return o.Gamma.String() }},
		{Name: "degree", Type: "int", Doc: "degree of the poly kernel",
			set: func(o *Options, s string) (err error) {
				o.Degree, err = parseInt("degree", s, kernel.MinDegree, kernel.MaxDegree)
				return
			},
			get: func(o Options) string { return strconv.Itoa(o.Degree) }},
		floatOption(Option{Name: "coef0", Type: "float", Doc: "constant of the poly and sigmoid kernels"},
			func(o *Options) *float64 { return &o.Coef0 }, func(float64) bool { return true }, "a finite number"),
		floatOption(Option{Name: "C", Type: "float", Doc: "penalty C of svm and linear-svm\n(LIBSVM's convention, ½‖w‖² + C·Σξ: the notes 004 write ‖w‖² + C·Σξ, whose C is twice this one)"},
			func(o *Options) *float64 { return &o.C }, func(v float64) bool { return v > 0 }, rangeC),
		{Name: "hard", Type: "bool", Doc: "svm: the hard margin (C → ∞)", Bool: true,
			set: func(o *Options, s string) (err error) { o.Hard, err = parseBool("hard", s); return },
			get: func(o Options) string { return strconv.FormatBool(o.Hard) }},
		floatOption(Option{Name: "tol", Type: "float", Doc: "stopping tolerance of svm and linear-svm (0: 0.001 for svm as LIBSVM's -e, 0.1 for linear-svm as LIBLINEAR's)"},
			func(o *Options) *float64 { return &o.Tol }, func(v float64) bool { return v >= 0 }, rangeTol),
		{Name: "epochs", Type: "int", Doc: "epoch limit of the perceptrons, batch GD (its steps) and sgd",
			set: func(o *Options, s string) (err error) { o.Epochs, err = parseInt("epochs", s, 1, MaxEpochs); return },
			get: func(o Options) string { return strconv.Itoa(o.Epochs) }},
		floatOption(Option{Name: "eps", Type: "float", Doc: "step size ε of the perceptrons, batch GD (without line search) and sgd"},
			func(o *Options) *float64 { return &o.Eps }, func(v float64) bool { return v > 0 }, rangeEps),
		floatOption(Option{Name: "bias", Type: "float", Doc: "constant input appended to every row (the bias trick; LIBLINEAR's -B): its value, or negative for none; the perceptrons take 1 or none"},
			func(o *Options) *float64 { return &o.Bias }, func(v float64) bool { return v != 0 }, rangeBias),
		{Name: "order", Type: "string", Doc: "presentation order of the perceptrons and sgd: shuffle (a fresh seeded order each epoch) or given (the data's order)",
			set: func(o *Options, s string) error {
				if s != "shuffle" && s != "given" {
					return &param.FieldError{Field: "order", Value: s, Range: "shuffle or given"}
				}
				o.Order = s
				return nil
			},
			get: func(o Options) string { return o.Order }},
		{Name: "line-search", Type: "bool", Doc: "batch GD chooses each step by exact line search (false: the fixed step eps)", Bool: true,
			set: func(o *Options, s string) (err error) { o.Line, err = parseBool("line-search", s); return },
			get: func(o Options) string { return strconv.FormatBool(o.Line) }},
		{Name: "loss", Type: "string", Doc: "the loss the learner minimises, of the margin z = y·f(x): hinge max(0, 1−z), squared-hinge max(0, 1−z)²,\nperceptron max(0, −z), logistic log(1+e^−z), squared (f(x)−t)² (linear regression of the last feature on the others);\nlinear-svm takes hinge (LIBLINEAR -s 3) or squared-hinge (-s 1), sgd perceptron, hinge, logistic or squared (notes 002)",
			set: func(o *Options, s string) error {
				if !slices.Contains(allLosses(), s) {
					return &param.FieldError{Field: "loss", Value: s, Range: rangeLoss()}
				}
				o.Loss = s
				return nil
			},
			get: func(o Options) string { return o.Loss }},
		{Name: "batch", Type: "int", Doc: "samples per step of sgd: 1 is SGD, more a mini-batch, the number of samples or more full-batch gradient descent",
			set: func(o *Options, s string) (err error) { o.Batch, err = parseInt("batch", s, 1, MaxBatch); return },
			get: func(o Options) string { return strconv.Itoa(o.Batch) }},
		{Name: "units", Type: "int", Doc: "a-layer: the number of random A-units, threshold units of the unit-kind whose 0/1 outputs alone the perceptron learns from; the seed draws them",
			set: func(o *Options, s string) (err error) { o.Units, err = parseInt("units", s, 1, MaxUnits); return },
			get: func(o Options) string { return strconv.Itoa(o.Units) }},
		{Name: "unit-kind", Type: "string", Doc: "a-layer: the A-units' kind: halfplane (each fires on a random half-plane of the data's range) or raster\n(the plane rasterised into an 8×8 retina, a point lighting a 3×3 spot; each unit fires, as a Mark I A-unit, where its\n5 excitatory origin cells lit less its 5 inhibitory ones reach θ = 2)",
			set: func(o *Options, s string) error {
				if s != UnitHalfPlane && s != UnitRaster {
					return &param.FieldError{Field: "unit-kind", Value: s, Range: rangeUnitKind}
				}
				o.UnitKind = s
				return nil
			},
			get: func(o Options) string { return o.UnitKind }},
		floatOption(Option{Name: "cache-mb", Type: "float", Doc: "svm kernel cache in MiB (LIBSVM's -m)"},
			func(o *Options) *float64 { return &o.CacheMB }, func(v float64) bool { return v > 0 && v <= MaxCacheMB }, rangeCache),
		{Name: "seed", Type: "uint", Doc: "seed of the presentation order (perceptrons, batch GD, sgd, linear-svm)",
			set: func(o *Options, s string) error {
				v, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
				if err != nil {
					return &param.FieldError{Field: "seed", Value: s, Range: "a whole number in [0, 2⁶⁴)"}
				}
				o.Seed = v
				return nil
			},
			get: func(o Options) string { return strconv.FormatUint(o.Seed, 10) }},
		{Name: "threads", Type: "int", Doc: "cores for the SVM's binary problems and predictions (0: all); results do not depend on it",
			set: func(o *Options, s string) (err error) { o.Threads, err = parseInt("threads", s, 0, MaxThreads); return },
			get: func(o Options) string { return strconv.Itoa(o.Threads) }},
		floatOption(Option{Name: "nu", Doc: "ν of nu-svc, one-class and nu-svr (LIBSVM's -n): a bound on the fraction of support vectors and of margin errors"},
			func(o *Options) *float64 { return &o.Nu }, func(v float64) bool { return v > 0 && v <= 1 }, rangeNu),
		floatOption(Option{Name: "epsilon", Doc: "half-width ε of epsilon-svr's insensitive tube (LIBSVM's -p, scikit-learn's epsilon; not the tolerance tol)"},
			func(o *Options) *float64 { return &o.Epsilon }, func(v float64) bool { return v >= 0 }, rangeEpsil),
		floatOption(Option{Name: "mu", Doc: "adaline's μ-LMS step: w ← w + 2μ·ε·x with ε = d − w·x on targets ±1 (Widrow and Hoff 1960)"},
			func(o *Options) *float64 { return &o.Mu }, func(v float64) bool { return v > 0 }, rangeEps),
		floatOption(Option{Name: "alpha", Doc: "adaline's α-LMS step instead of μ-LMS: w ← w + α·ε·x/‖x‖², each step taking the row's error down by 1 − α (converges for 0 < α < 2); 0: μ-LMS"},
			func(o *Options) *float64 { return &o.Alpha }, func(v float64) bool { return v >= 0 }, rangeEpsil),
		floatOption(Option{Name: "decay", Doc: "adaline's step in epoch e is its step over 1 + decay·(e − 1): with decay > 0 μ-LMS reaches the least-squares (Wiener) solution"},
			func(o *Options) *float64 { return &o.Decay }, func(v float64) bool { return v >= 0 }, rangeEpsil),
		{Name: "class-weight", Doc: "svm: C times a weight per class, LABEL=W,LABEL=W (LIBSVM's -wLABEL W) or balanced (scikit-learn's n/(classes·count)); none by default",
			set: func(o *Options, s string) error {
				if _, err := parseClassWeight(s); err != nil {
					return err
				}
				o.ClassWeight = s
				return nil
			},
			get: func(o Options) string { return o.ClassWeight }},
	}
}

// FindOption returns the option named name.
func FindOption(name string) (Option, bool) {
	for _, op := range OptionList() {
		if op.Name == name {
			return op, true
		}
	}
	return Option{}, false
}

// Set sets the option named name from its text, as a flag or a form gives
// it; a value out of range is a *param.FieldError naming the option.
func (o *Options) Set(name, value string) error {
	op, ok := FindOption(name)
	if !ok {
		return param.Errorf("option", strconv.Quote(name), "one of %s", strings.Join(optionNames(), ", "))
	}
	return op.set(o, value)
}

// Get returns the option named name as text Set reads back ("" for an
// unknown name).
func (o Options) Get(name string) string {
	op, ok := FindOption(name)
	if !ok {
		return ""
	}
	return op.get(o)
}

func optionNames() []string {
	var n []string
	for _, op := range OptionList() {
		n = append(n, op.Name)
	}
	return n
}

// KernelSpec reads the kernel word with the gamma, degree and coef0
// options for the parameters it does not write.
func (o Options) KernelSpec() (kernel.Spec, error) {
	return kernel.ParseWith(o.Kernel, kernel.Params{Gamma: o.Gamma, Degree: o.Degree, Coef0: o.Coef0})
}

// Validate checks every option, whichever learner reads it, as LIBSVM's
// svm_check_parameter does: the first one out of range is returned as a
// *param.FieldError in the option's name. A γ of scale or auto is checked
// once the data give it a value (Spec.New).
func (o Options) Validate() error {
	f := func(field string, v float64, ok bool, want string) error {
		if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
			return &param.FieldError{Field: field, Value: ftoa(v), Range: want}
		}
		return nil
	}
	i := func(field string, v, lo, hi int) error {
		if v < lo || v > hi {
			return param.Errorf(field, v, "a whole number in [%d, %d]", lo, hi)
		}
		return nil
	}
	for _, err := range []error{
		f("C", o.C, o.C > 0, rangeC),
		f("tol", o.Tol, o.Tol >= 0, rangeTol),
		i("epochs", o.Epochs, 1, MaxEpochs),
		f("eps", o.Eps, o.Eps > 0, rangeEps),
		f("bias", o.Bias, o.Bias != 0, rangeBias),
		f("cache-mb", o.CacheMB, o.CacheMB > 0 && o.CacheMB <= MaxCacheMB, rangeCache),
		i("threads", o.Threads, 0, MaxThreads),
		i("batch", o.Batch, 1, MaxBatch),
		i("units", o.Units, 1, MaxUnits),
		i("degree", o.Degree, kernel.MinDegree, kernel.MaxDegree),
		f("coef0", o.Coef0, true, "a finite number"),
		f("nu", o.Nu, o.Nu > 0 && o.Nu <= 1, rangeNu),
		f("epsilon", o.Epsilon, o.Epsilon >= 0, rangeEpsil),
		f("mu", o.Mu, o.Mu > 0, rangeEps),
		f("alpha", o.Alpha, o.Alpha >= 0, rangeEpsil),
		f("decay", o.Decay, o.Decay >= 0, rangeEpsil),
	} {
		if err != nil {
			return err
		}
	}
	if o.Gamma.Rule == kernel.GammaValue && !(o.Gamma.Value > 0 && !math.IsInf(o.Gamma.Value, 0)) {
		return &param.FieldError{Field: "gamma", Value: o.Gamma.String(), Range: "scale, auto or a finite number > 0"}
	}
	if o.Order != "shuffle" && o.Order != "given" {
		return &param.FieldError{Field: "order", Value: o.Order, Range: "shuffle or given"}
	}
	if o.UnitKind != "" && o.UnitKind != UnitHalfPlane && o.UnitKind != UnitRaster {
		return &param.FieldError{Field: "unit-kind", Value: o.UnitKind, Range: rangeUnitKind}
	}
	if !slices.Contains(allLosses(), o.Loss) {
		return &param.FieldError{Field: "loss", Value: o.Loss, Range: rangeLoss()}
	}
	if _, err := parseClassWeight(o.ClassWeight); err != nil {
		return err
	}
	_, err := o.KernelSpec()
	return err
}

// allLosses returns every value of the loss option, each learner's
// Losses in the registry's order.
func allLosses() []string {
	var all []string
	for _, s := range All() {
		for _, l := range s.Losses {
			if !slices.Contains(all, l) {
				all = append(all, l)
			}
		}
	}
	return all
}

func rangeLoss() string {
	var parts []string
	for _, s := range All() {
		if len(s.Losses) > 0 {
			parts = append(parts, strings.Join(s.Losses, ", ")+" for "+s.Name)
		}
	}
	return strings.Join(parts, "; ")
}

// rangeWeight is the class-weight option's range, for people.
const rangeWeight = "balanced, or LABEL=WEIGHT,LABEL=WEIGHT with each weight a finite number > 0 and each label once"

// parseClassWeight reads the class-weight option: nil for "" and
// "balanced", else the weight of each label.
func parseClassWeight(spec string) (map[string]float64, error) {
	if spec == "" || spec == "balanced" {
		return nil, nil
	}
	out := map[string]float64{}
	for _, kv := range strings.Split(spec, ",") {
		label, w, ok := strings.Cut(kv, "=")
		label = strings.TrimSpace(label)
		v, err := strconv.ParseFloat(strings.TrimSpace(w), 64)
		if _, dup := out[label]; !ok || label == "" || err != nil || !(v > 0) || math.IsInf(v, 0) || dup {
			return nil, &param.FieldError{Field: "class-weight", Value: spec, Range: rangeWeight}
		}
		out[label] = v
	}
	return out, nil
}

// ClassWeights resolves the class-weight option for training data whose
// class c is called labels[c] and whose labels are y: nil without weights;
// scikit-learn's balanced weights n/(classes·count_c); or the weights given
// by label, 1 for the others. same says whether a label given is a class's
// name (the front end's rule: equal strings, or equal numbers). A label
// that names no class is a *param.FieldError for "class-weight".
func ClassWeights(spec string, labels []string, y []int, same func(given, class string) bool) ([]float64, error) {
	if spec == "" {
		return nil, nil
	}
	if spec == "balanced" {
		return svm.BalancedWeights(y, len(labels)), nil
	}
	given, err := parseClassWeight(spec)
	if err != nil {
		return nil, err
	}
	w := make([]float64, len(labels))
	for label, v := range given {
		found := false
		for c, name := range labels {
			if same(label, name) {
				w[c], found = v, true
			}
		}
		if !found {
			return nil, &param.FieldError{Field: "class-weight", Value: spec, Range: fmt.Sprintf("labels among the training data's classes (%s); %s is none of them", strings.Join(labels, " "), label)}
		}
	}
	return w, nil
}

// Needs says what data a learner takes.
type Needs struct {
	// Kernel is true for learners that see the data through a kernel.
	Kernel bool
	// Binary is true for learners that take two classes only; the others
	// take any number (one-vs-rest or one-vs-one machines).
	Binary bool
	// Values is true for learners that predict a number per row, not a
	// class: the SVRs (numeric targets) and the one-class SVM (no labels,
	// +1 inside and −1 outside). They build a svm.ValueLearner, not a
	// learning.Learner, and only fit and apply take them.
	Values bool
	// Unlabelled is true for a learner that learns without labels (the
	// one-class SVM): it has nothing to be cross-validated against.
	Unlabelled bool
}

// Form is the form of a trained model, as a model file stores it.
type Form int

const (
	// NoFile: no model file stores the model (the voted perceptron's
	// weighted vote of every intermediate weight vector).
	NoFile Form = iota
	// LinearForm: one-vs-rest machines f(x) = w·x + b (the perceptrons,
	// batch GD).
	LinearForm
	// LinearSVMForm: LIBLINEAR's machines, w·x + w_b·bias.
	LinearSVMForm
	// KernelSVMForm: LIBSVM's one-vs-one machines Σ coef k(sv, x) − ρ.
	KernelSVMForm
	// KernelExpansionForm: the kernel perceptron's one-vs-rest Σ coef
	// (k(x_j, x) + bias) over stored examples.
	KernelExpansionForm
	// ValueSVMForm: LIBSVM's one machine Σ coef k(sv, x) − ρ whose value
	// is the prediction (the SVRs) or whose sign is (the one-class SVM).
	ValueSVMForm
)

// Spec is one learner of the registry.
type Spec struct {
	Name string
	Doc  string
	// Options names the options the learner reads.
	Options []string
	Needs   Needs
	// Form is the form of the learner's model as a model file
	// (learning/modelfile) stores it; NoFile when none does.
	Form Form
	// Losses are the values of the loss option the learner takes (for
	// those that read it), its default first if it has its own.
	Losses []string
	// LabOnly marks a learner that only the lab traces (mark1 lab and the
	// lab page): it has no learning.Learner, and New refuses it.
	LabOnly bool
	build   func(o Options, k kernel.Kernel) learning.Learner
	// values builds a learner whose Needs.Values is true.
	values func(o Options, k kernel.Kernel) svm.ValueLearner
}

// LabOnlyOption reports whether only learners that the lab alone traces
// (LabOnly) read the option: a front end that runs none of them has no use
// for it.
func LabOnlyOption(name string) bool {
	read := false
	for _, s := range All() {
		if s.Reads(name) {
			if !s.LabOnly {
				return false
			}
			read = true
		}
	}
	return read
}

// Reads reports whether the learner reads the option.
func (s Spec) Reads(option string) bool {
	if slices.Contains(s.Options, option) {
		return true
	}
	// The kernel's parameters go with the kernel.
	return s.Needs.Kernel && (option == "gamma" || option == "degree" || option == "coef0")
}

var perceptronOptions = []string{"epochs", "eps", "bias", "order", "seed"}

// table is the registry, built once: the Specs hold no state that
// changes, so every caller shares them.
var table = sync.OnceValue(func() registry {
	r := registry{specs: specs(), byName: map[string]int{}}
	for i, s := range r.specs {
		r.byName[s.Name] = i
	}
	return r
})

type registry struct {
	specs  []Spec
	byName map[string]int
}

// All returns the registry, in the order help texts list the learners. The
// slice is the caller's; the Specs are shared and must not be changed.
func All() []Spec { return slices.Clone(table().specs) }

// specs builds the registry's table.
func specs() []Spec {
	online := func(o Options) (noBias, inOrder bool) { return o.Bias < 0, o.Order == "given" }
	return []Spec{
		{Name: "svm", Form: KernelSVMForm, Doc: "the kernel SVM (LIBSVM's C-SVC, one-vs-one)", Options: []string{"kernel", "C", "hard", "class-weight", "tol", "cache-mb", "threads"}, Needs: Needs{Kernel: true},
			build: func(o Options, k kernel.Kernel) learning.Learner {
				return svm.Kernel{Kernel: k, Settings: svm.Settings{C: o.C, Hard: o.Hard, Eps: o.Tol, CacheMB: o.CacheMB, Threads: o.Threads}}
			}},
		{Name: "nu-svc", Form: KernelSVMForm, Doc: "the kernel ν-SVM (LIBSVM's ν-SVC, -s 1, one-vs-one): ν in place of C", Options: []string{"kernel", "nu", "tol", "cache-mb", "threads"}, Needs: Needs{Kernel: true},
			build: func(o Options, k kernel.Kernel) learning.Learner {
				return svm.Kernel{Kernel: k, Type: svm.NuSVC, Settings: svm.Settings{Nu: o.Nu, Eps: o.Tol, CacheMB: o.CacheMB, Threads: o.Threads}}
			}},
		{Name: "one-class", Form: ValueSVMForm, Doc: "the one-class SVM (LIBSVM's -s 2): +1 inside the estimated support of the training rows, −1 outside; labels unused", Options: []string{"kernel", "nu", "tol", "cache-mb", "threads"}, Needs: Needs{Kernel: true, Values: true, Unlabelled: true},
			values: func(o Options, k kernel.Kernel) svm.ValueLearner {
				return svm.OneClassSVM{Kernel: k, Settings: svm.Settings{Nu: o.Nu, Eps: o.Tol, CacheMB: o.CacheMB, Threads: o.Threads}}
			}},
		{Name: "epsilon-svr", Form: ValueSVMForm, Doc: "ε-support vector regression (LIBSVM's -s 3) of numeric labels", Options: []string{"kernel", "C", "epsilon", "tol", "cache-mb", "threads"}, Needs: Needs{Kernel: true, Values: true},
			values: func(o Options, k kernel.Kernel) svm.ValueLearner {
				return svm.SVR{Kernel: k, Epsilon: o.Epsilon, Settings: svm.Settings{C: o.C, Eps: o.Tol, CacheMB: o.CacheMB, Threads: o.Threads}}
			}},
		{Name: "nu-svr", Form: ValueSVMForm, Doc: "ν-support vector regression (LIBSVM's -s 4) of numeric labels: ν in place of ε", Options: []string{"kernel", "C", "nu", "tol", "cache-mb", "threads"}, Needs: Needs{Kernel: true, Values: true},
			values: func(o Options, k kernel.Kernel) svm.ValueLearner {
				return svm.SVR{Kernel: k, Nu: true, Settings: svm.Settings{C: o.C, Nu: o.Nu, Eps: o.Tol, CacheMB: o.CacheMB, Threads: o.Threads}}
			}},
		{Name: "linear-svm", Form: LinearSVMForm, Doc: "the linear SVM (LIBLINEAR's dual coordinate descent, one-vs-rest)", Options: []string{"C", "tol", "loss", "bias", "seed"}, Losses: []string{"hinge", "squared-hinge"},
			build: func(o Options, _ kernel.Kernel) learning.Learner {
				loss := svm.Hinge
				if o.Loss == "squared-hinge" {
					loss = svm.SquaredHinge
				}
				return svm.Linear{Settings: svm.LinearSettings{C: o.C, Loss: loss, Eps: o.Tol, Bias: o.Bias, Seed: o.Seed}}
			}},
		{Name: "perceptron", Form: LinearForm, Doc: "Rosenblatt's error correction as SGD on the perceptron risk (one-vs-rest)", Options: perceptronOptions,
			build: func(o Options, _ kernel.Kernel) learning.Learner {
				nb, io := online(o)
				return learning.Perceptron{Step: o.Eps, NoBias: nb, InOrder: io, MaxEpochs: o.Epochs, Seed: o.Seed}
			}},
		{Name: "adaline", Form: LinearForm, Doc: "Widrow and Hoff's ADALINE (1960): the LMS rule on targets ±1, the sign at prediction (one-vs-rest)", Options: []string{"mu", "alpha", "decay", "epochs", "bias", "order", "seed"},
			build: func(o Options, _ kernel.Kernel) learning.Learner {
				nb, io := online(o)
				return learning.Adaline{Mu: o.Mu, Alpha: o.Alpha, Decay: o.Decay, NoBias: nb, InOrder: io, MaxEpochs: o.Epochs, Seed: o.Seed}
			}},
		{Name: "averaged", Form: LinearForm, Doc: "the averaged perceptron", Options: perceptronOptions,
			build: func(o Options, _ kernel.Kernel) learning.Learner {
				nb, io := online(o)
				return learning.AveragedPerceptron{Step: o.Eps, NoBias: nb, InOrder: io, MaxEpochs: o.Epochs, Seed: o.Seed}
			}},
		{Name: "voted", Doc: "the voted perceptron (Freund and Schapire)",
			Options: perceptronOptions,
			build: func(o Options, _ kernel.Kernel) learning.Learner {
				nb, io := online(o)
				return learning.VotedPerceptron{Step: o.Eps, NoBias: nb, InOrder: io, MaxEpochs: o.Epochs, Seed: o.Seed}
			}},
		{Name: "pocket", Form: LinearForm, Doc: "Gallant's pocket algorithm with ratchet", Options: perceptronOptions,
			build: func(o Options, _ kernel.Kernel) learning.Learner {
				nb, io := online(o)
				return learning.Pocket{Step: o.Eps, NoBias: nb, InOrder: io, MaxEpochs: o.Epochs, Seed: o.Seed}
			}},
		{Name: "batch-gd", Form: LinearForm, Doc: "full-batch gradient descent on the perceptron risk", Options: []string{"epochs", "eps", "line-search", "bias", "seed"},
			build: func(o Options, _ kernel.Kernel) learning.Learner {
				return learning.BatchGD{Step: o.Eps, LineSearch: o.Line, NoBias: o.Bias < 0, MaxEpochs: o.Epochs, Seed: o.Seed}
			}},
		{Name: "kernel-perceptron", Form: KernelExpansionForm, Doc: "the perceptron in dual form with a kernel", Options: []string{"kernel", "epochs", "bias", "order", "seed"}, Needs: Needs{Kernel: true},
			build: func(o Options, k kernel.Kernel) learning.Learner {
				nb, io := online(o)
				return learning.KernelPerceptron{Kernel: k, NoBias: nb, InOrder: io, MaxEpochs: o.Epochs, Seed: o.Seed}
			}},
		{Name: "sgd", Doc: "gradient descent on a loss (notes 002): SGD, mini-batches or the full batch; traced by mark1 lab and the lab page only",
			Options: []string{"loss", "batch", "epochs", "eps", "bias", "order", "seed"}, Losses: []string{"perceptron", "hinge", "logistic", "squared"}, LabOnly: true},
		{Name: "a-layer", Doc: "the Mark I's random A-layer on the plane: units random threshold units, then the perceptron (with a bias) on their 0/1 outputs only; traced by mark1 lab and the lab page only",
			Options: []string{"units", "unit-kind", "epochs", "eps", "order", "seed"}, LabOnly: true},
	}
}

// Names returns the learners' names.
func Names() []string {
	var n []string
	for _, s := range table().specs {
		n = append(n, s.Name)
	}
	return n
}

// Lookup returns the learner named name; an unknown name is a
// *param.FieldError for "learner".
func Lookup(name string) (Spec, error) {
	r := table()
	if i, ok := r.byName[name]; ok {
		return r.specs[i], nil
	}
	return Spec{}, param.Errorf("learner", strconv.Quote(name), "one of %s", strings.Join(Names(), ", "))
}

// Check validates o for this learner: Options.Validate, then what only
// this learner refuses (the perceptrons' constant input is 1 or none).
func (s Spec) Check(o Options) error {
	if err := o.Validate(); err != nil {
		return err
	}
	if o.ClassWeight != "" && !s.Reads("class-weight") {
		return &param.FieldError{Field: "class-weight", Value: o.ClassWeight, Range: "none for " + s.Name + " (LIBSVM's -wi is for the C-SVC, svm)"}
	}
	if s.Reads("loss") && !slices.Contains(s.Losses, o.Loss) {
		return &param.FieldError{Field: "loss", Value: o.Loss, Range: strings.Join(s.Losses, ", ") + " for " + s.Name}
	}
	if s.Reads("bias") && s.Name != "linear-svm" && o.Bias > 0 && o.Bias != 1 {
		return &param.FieldError{Field: "bias", Value: ftoa(o.Bias), Range: "1 (an always-on input) or negative (none) for " + s.Name}
	}
	return nil
}

// Built is a learner made for a data set, with what its model file
// records of the settings.
type Built struct {
	// Learner is the learner; nil for those that predict values (Values).
	Learner learning.Learner
	// Values is the learner of the one-class SVM and the SVRs; nil for
	// the others.
	Values svm.ValueLearner
	// Kernel is the kernel the learner uses (nil for linear learners).
	Kernel kernel.Kernel
	// Gamma is LIBSVM's γ the kernel was given or resolved to, where it
	// has one; nil otherwise.
	Gamma *float64
	// Bias is the linear SVM's constant feature; nil for the others and
	// without one.
	Bias *float64
}

// New makes the learner with options o for the training data d: a γ of
// scale or auto takes its value from d's features (their number and the
// variance of their values, Variance). Errors are *param.FieldError
// values in the options' names.
func (s Spec) New(o Options, d *learning.Data) (Built, error) {
	if err := s.Check(o); err != nil {
		return Built{}, err
	}
	if s.LabOnly {
		return Built{}, param.Errorf("learner", s.Name, "one with a model: %s is traced by mark1 lab and the lab page only", s.Name)
	}
	var b Built
	if s.Needs.Kernel {
		ks, err := o.KernelSpec()
		if err != nil {
			return Built{}, err
		}
		dim, v := 1, 0.0
		if ks.NeedsData() {
			rows := d.Features()
			dim, v = rows.Dim(), Variance(rows)
		}
		k, g, err := ks.Kernel(dim, v)
		if err != nil {
			return Built{}, err
		}
		b.Kernel = k
		if g != 0 {
			b.Gamma = &g
		}
	}
	if s.Name == "linear-svm" && o.Bias > 0 {
		bias := o.Bias
		b.Bias = &bias
	}
	if s.Needs.Values {
		b.Values = s.values(o, b.Kernel)
	} else {
		b.Learner = s.build(o, b.Kernel)
	}
	return b, nil
}

// SetClassWeights gives the learner the weights of its classes, by class
// index (ClassWeights resolves the class-weight option to them); learners
// without the option ignore them.
func (b *Built) SetClassWeights(w []float64) {
	if k, ok := b.Learner.(svm.Kernel); ok && k.Type == svm.CSVC {
		k.ClassWeight = w
		b.Learner = k
	}
}

// Variance returns the variance of all the values of rows, zeros included
// (scikit-learn's X.var() for gamma = "scale"): the mean over n·dim
// entries, then the mean squared difference from it; rows with a Variance
// method (the values they were made from) say it themselves.
func Variance(rows learning.Rows) float64 {
	if v, ok := rows.(interface{ Variance() float64 }); ok { // rows that know it (float32 rows of float64 data)
		return v.Variance()
	}
	v, _ := VarianceOf(float64(rows.Len())*float64(rows.Dim()), func(visit func([]float64)) error {
		var buf []float64
		for i := range rows.Len() {
			if sp, ok := rows.(interface {
				NonZeros(int) ([]int32, []float64)
			}); ok { // Sparse, Stack
				_, val := sp.NonZeros(i)
				visit(val)
			} else {
				buf = rows.Row(buf, i)
				visit(buf)
			}
		}
		return nil
	})
	return v
}

// VarianceOf is Variance of n values (rows × features) whose stored
// values each visits row by row, in order — as Variance reads rows: the
// non-zeros of sparse rows, every value of dense ones — each called twice
// (the mean, then the squared differences), so that rows not held (a file
// read again) give the variance Variance gives of them held; an error of
// each is returned as it is.
func VarianceOf(n float64, each func(visit func(val []float64)) error) (float64, error) {
	if n == 0 {
		return 0, nil
	}
	return VarianceOfCount(func() float64 { return n }, each)
}

// VarianceOfCount is VarianceOf where the number of values, count, is
// known only once each has visited them once: a file read through once
// for its rows and its values' sum, then once more. each is called twice
// whatever the count (0 values have variance 0).
func VarianceOfCount(count func() float64, each func(visit func(val []float64)) error) (float64, error) {
	stored := 0
	var sum float64
	if err := each(func(val []float64) {
		for _, v := range val {
			sum += v
		}
	}); err != nil {
		return 0, err
	}
	n := count()
	if n == 0 {
		return 0, each(func([]float64) {})
	}
	mean := sum / n
	var ss float64
	if err := each(func(val []float64) {
		for _, v := range val {
			d := v - mean
			ss += d * d
		}
		stored += len(val)
	}); err != nil {
		return 0, err
	}
	ss += (n - float64(stored)) * mean * mean
	return ss / n, nil
}

// String describes the learner and the options it reads, as "svm (kernel
// rbf:gamma=scale, C 1, …)".
func (s Spec) Describe(o Options) string {
	var parts []string
	for _, name := range s.Options {
		if name == "threads" || name == "cache-mb" {
			continue // no result depends on them
		}
		v := o.Get(name)
		if name == "kernel" {
			if ks, err := o.KernelSpec(); err == nil {
				v = ks.String()
			}
		}
		parts = append(parts, name+" "+v)
	}
	if len(parts) == 0 {
		return s.Name
	}
	return fmt.Sprintf("%s (%s)", s.Name, strings.Join(parts, ", "))
}
