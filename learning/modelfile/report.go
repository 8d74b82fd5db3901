package modelfile

import (
	"bufio"
	"io"
	"math"
	"strconv"

	"mark1/dataset"
	"mark1/learning"
	"mark1/learning/learners"
	"mark1/learning/svm"
)

// The reports below are fit --json's and apply --json's objects, whose
// fields docs/libsvm.md documents. Fields that do not apply are null;
// numbers that are not finite (an R² of constant targets) are null too.

// A FitReport is what a fit made: the learner, its options as used, its
// binary machines in LIBSVM's words, and how it did.
type FitReport struct {
	Command string `json:"command"` // "fit"
	Learner string `json:"learner"`
	// Options are every option the learner reads, as the text its flag
	// takes (defaults filled in): "C": "1", "kernel": "rbf".
	Options map[string]string `json:"options"`
	// Kernel is the kernel as used, every parameter resolved
	// ("gaussian:sigma=0.7"), and Gamma LIBSVM's γ where it has one.
	Kernel string   `json:"kernel,omitempty"`
	Gamma  *float64 `json:"gamma"`
	// Epsilon is the SVRs' tube half-width: as given (epsilon-svr) or as
	// found (nu-svr, LIBSVM's "epsilon = −r").
	Epsilon  *float64        `json:"epsilon,omitempty"`
	Data     DataInfo        `json:"data"`
	Classes  []string        `json:"classes"`
	Machines []MachineReport `json:"machines"`
	// SupportVectors counts the distinct support vectors (kernel SVMs;
	// linear-svm: examples with α > 0).
	SupportVectors *int          `json:"support_vectors"`
	Status         string        `json:"status"`
	Converged      bool          `json:"converged"`
	Training       *Metrics      `json:"training"`
	Test           *Metrics      `json:"test"`
	Unseen         []UnseenLabel `json:"unseen_labels"`
	Model          string        `json:"model"`
}

// DataInfo describes a data file.
type DataInfo struct {
	File     string `json:"file"`
	Rows     int    `json:"rows"`
	Features int    `json:"features"`
}

// A MachineReport is one binary machine (or a value model's one machine),
// in LIBSVM's words.
type MachineReport struct {
	Pos        *string  `json:"pos"`
	Neg        *string  `json:"neg"` // null for one-vs-rest and value models
	Obj        *float64 `json:"obj"`
	Rho        *float64 `json:"rho"`
	NSV        *int     `json:"nSV"`
	NBSV       *int     `json:"nBSV"`
	Iterations int      `json:"iterations"`
}

// Metrics are how a model did on a data file.
type Metrics struct {
	File string `json:"file,omitempty"`
	Rows int    `json:"rows"`
	// Accuracy (a fraction) and Correct: classifiers, and the one-class
	// SVM against labels 1 and -1; null without labels.
	Accuracy *float64 `json:"accuracy"`
	Correct  *int     `json:"correct"`
	// MSE, R2 and SquaredCorrelation: regressions with labels.
	MSE                *float64 `json:"mse"`
	R2                 *float64 `json:"r2"`
	SquaredCorrelation *float64 `json:"squared_correlation"`
	// Inside: the one-class SVM's fraction of rows predicted +1.
	Inside *float64 `json:"inside"`
}

// An ApplyReport is what applying a model to a data file found.
type ApplyReport struct {
	Command string `json:"command"` // "apply"
	Model   string `json:"model"`
	// Format is the model file's: mark1, libsvm or liblinear.
	Format  string   `json:"format"`
	Learner string   `json:"learner"`
	Solver  string   `json:"solver,omitempty"`
	Classes []string `json:"classes"`
	Data    DataInfo `json:"data"`
	// Metrics are null where the data have no labels.
	Metrics     Metrics       `json:"metrics"`
	Unseen      []UnseenLabel `json:"unseen_labels"`
	Predictions string        `json:"predictions,omitempty"`
}

func fptr(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

func iptr(v int) *int { return &v }

// readOptions returns every option the learner reads as the text its flag
// takes (the registry's words and values).
func readOptions(spec learners.Spec, o learners.Options) map[string]string {
	out := map[string]string{}
	for _, op := range learners.OptionList() {
		if spec.Reads(op.Name) {
			out[op.Name] = o.Get(op.Name)
		}
	}
	return out
}

// ReportFit starts the report of a classifier's fit: Training and Test
// are the caller's to fill in (AccuracyMetrics, Applied.Metrics).
func ReportFit(spec learners.Spec, o learners.Options, fitted *Fitted, train *dataset.Set, trainPath, modelPath string) *FitReport {
	f, res, b := fitted.File, fitted.Result, fitted.Built
	r := &FitReport{Command: "fit", Learner: f.Learner, Options: readOptions(spec, o), Classes: f.Classes,
		Data:   DataInfo{File: trainPath, Rows: train.Rows(), Features: train.Dim},
		Status: res.Summary, Converged: res.Status.Converged(), Model: modelPath, Unseen: []UnseenLabel{}}
	if b.Kernel != nil {
		r.Kernel = b.Kernel.String()
	}
	r.Gamma = b.Gamma
	name := func(c int) *string {
		if c < 0 {
			return nil
		}
		return &f.Classes[c]
	}
	switch m := res.Model.(type) {
	case *svm.KernelModel:
		for _, mc := range m.Machines {
			r.Machines = append(r.Machines, MachineReport{Pos: name(mc.Pos), Neg: name(mc.Neg), Obj: fptr(mc.Obj), Rho: fptr(mc.Rho),
				NSV: iptr(len(mc.SV)), NBSV: iptr(mc.Bounded), Iterations: mc.Iter})
		}
	case *svm.LinearModel:
		for k, mc := range m.Machines {
			neg := m.Neg
			if len(m.Machines) > 1 {
				neg = -1
			}
			r.Machines = append(r.Machines, MachineReport{Pos: name(m.Pos[k]), Neg: name(neg), Obj: fptr(mc.Obj), NSV: iptr(mc.SV), Iterations: mc.Iter})
		}
	}
	if sv, ok := res.Model.(learning.SupportVectored); ok {
		n, _ := sv.SupportVectors()
		r.SupportVectors = iptr(n)
	}
	return r
}

// ReportValues starts the report of a one-class SVM's or an SVR's fit.
func ReportValues(spec learners.Spec, o learners.Options, fitted *ValuesFitted, train *dataset.Set, trainPath, modelPath string) *FitReport {
	f, m, b := fitted.File, fitted.Model, fitted.Built
	r := &FitReport{Command: "fit", Learner: f.Learner, Options: readOptions(spec, o),
		Data:   DataInfo{File: trainPath, Rows: train.Rows(), Features: train.Dim},
		Status: m.Message, Converged: m.Status.Converged(), Model: modelPath, Unseen: []UnseenLabel{},
		SupportVectors: iptr(len(m.Coef)), Kernel: b.Kernel.String(), Gamma: b.Gamma}
	if f.Learner != "one-class" {
		r.Epsilon = fptr(m.Epsilon)
	}
	r.Machines = []MachineReport{{Obj: fptr(m.Obj), Rho: fptr(m.Rho), NSV: iptr(len(m.Coef)), NBSV: iptr(m.Bounded), Iterations: m.Iter}}
	return r
}

// AccuracyMetrics are the metrics of right answers out of n rows.
func AccuracyMetrics(file string, right, n int) *Metrics {
	m := &Metrics{File: file, Rows: n, Correct: iptr(right)}
	if n > 0 {
		m.Accuracy = fptr(float64(right) / float64(n))
	}
	return m
}

// Metrics returns what was found as metrics on the file named file.
func (a *Applied) Metrics(file string) *Metrics {
	m := &Metrics{File: file, Rows: a.Rows}
	if a.Right != nil {
		m = AccuracyMetrics(file, *a.Right, a.Rows)
	}
	if a.Values != nil {
		m.MSE, m.R2, m.SquaredCorrelation = fptr(a.Values.MSE), fptr(a.Values.R2), fptr(a.Values.SquaredCorrelation)
	}
	if a.Inside != nil && a.Rows > 0 {
		m.Inside = fptr(float64(*a.Inside) / float64(a.Rows))
	}
	return m
}

// ReportApply is the report of applying f (read from modelPath in the
// given format) to the data file testPath, whose predictions went to
// predPath ("" for none).
func ReportApply(f *File, format Format, modelPath, testPath, predPath string, a *Applied) *ApplyReport {
	r := &ApplyReport{Command: "apply", Model: modelPath, Format: format.String(), Learner: f.Learner, Solver: f.Solver,
		Classes: f.Classes, Data: DataInfo{File: testPath, Rows: a.Rows, Features: a.Data.Dim},
		Metrics: *a.Metrics(""), Unseen: a.Unseen, Predictions: predPath}
	if r.Unseen == nil || f.Values() {
		r.Unseen = []UnseenLabel{}
	}
	if f.Values() {
		r.Classes = nil
	}
	return r
}

// ApplyValues predicts every row of test with a model whose Values is true,
// after the model's input check and scaling: the value (or ±1), and with
// labels, the regression scores or the one-class agreement with them.
// name names the model in errors.
func ApplyValues(f *File, test *dataset.Set, name string) (*Applied, error) {
	a := &Applied{Data: test}
	if _, err := f.CheckInput(test, name); err != nil {
		return a, err
	}
	raw := test
	var err error
	if f.Scale != nil {
		if test, err = f.Scale.Apply(test, 0); err != nil {
			return a, err
		}
	}
	dim := max(f.Dim, test.Dim)
	m, err := f.ValueModel(dim)
	if err != nil {
		return a, err
	}
	vals := make([]float64, test.Rows())
	x := make([]float64, dim)
	for i := range vals {
		idx, val := test.Row(i)
		for k, j := range idx {
			x[j] = val[k]
		}
		vals[i] = m.Label(x)
		for _, j := range idx {
			x[j] = 0
		}
	}
	a.Rows, a.Preds = len(vals), make([]string, len(vals))
	inside := 0
	for i, v := range vals {
		a.Preds[i] = strconv.FormatFloat(v, 'g', -1, 64)
		if v > 0 {
			inside++
		}
	}
	if f.OneClass() {
		a.Inside = &inside
	}
	if raw.Unlabelled {
		return a, nil
	}
	if f.OneClass() {
		right := 0
		for i, p := range a.Preds {
			if SameLabel(p, raw.Label(i)) {
				right++
			}
		}
		a.Right = &right
		return a, nil
	}
	z, err := Targets(raw)
	if err != nil {
		return a, err
	}
	sc := learning.RegressionScores(vals, z)
	a.Values = &sc
	return a, nil
}

// TrainingMetrics measures the model on the training rows the fit kept
// (FitOptions.KeepRows) through its saved form, so that fit and apply
// predict alike; dim is the training data's.
func (f *Fitted) TrainingMetrics(dim int) (*Metrics, error) {
	saved, err := f.File.Model(dim)
	if err != nil {
		return nil, err
	}
	preds, err := PredictRows(saved, f.Rows, 0)
	if err != nil {
		return nil, err
	}
	right := 0
	for i, c := range preds { // the rows and y in the learner's order
		if c == f.Y[i] {
			right++
		}
	}
	return AccuracyMetrics("", right, len(preds)), nil
}

// WritePredictions writes a value model's predictions (ApplyValues), one
// a line in the data's order.
func (a *Applied) WritePredictions(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for _, p := range a.Preds {
		bw.WriteString(p)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}
