package cli

import (
	"math"

	"mark1/learning/learners"

	"mark1/dataset"
	"mark1/learning"
	"mark1/learning/modelfile"
	"mark1/learning/svm"
)

// This file is fit --json's and apply --json's output: one JSON object on
// standard output, whose fields docs/libsvm.md documents. Fields that do
// not apply are null; numbers that are not finite (an R² of constant
// targets) are null too.

// fitJSON is fit --json's object.
type fitJSON struct {
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
	Epsilon  *float64      `json:"epsilon,omitempty"`
	Data     dataJSON      `json:"data"`
	Classes  []string      `json:"classes"`
	Machines []machineJSON `json:"machines"`
	// SupportVectors counts the distinct support vectors (kernel SVMs;
	// linear-svm: examples with α > 0).
	SupportVectors *int         `json:"support_vectors"`
	Status         string       `json:"status"`
	Converged      bool         `json:"converged"`
	Training       *metricsJSON `json:"training"`
	Test           *metricsJSON `json:"test"`
	Unseen         []unseenJSON `json:"unseen_labels"`
	Model          string       `json:"model"`
}

// dataJSON describes a data file.
type dataJSON struct {
	File     string `json:"file"`
	Rows     int    `json:"rows"`
	Features int    `json:"features"`
}

// machineJSON is one binary machine (or a value model's one machine), in
// LIBSVM's words.
type machineJSON struct {
	Pos        *string  `json:"pos"`
	Neg        *string  `json:"neg"` // null for one-vs-rest and value models
	Obj        *float64 `json:"obj"`
	Rho        *float64 `json:"rho"`
	NSV        *int     `json:"nSV"`
	NBSV       *int     `json:"nBSV"`
	Iterations int      `json:"iterations"`
}

// metricsJSON is how a model did on a data file.
type metricsJSON struct {
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

// unseenJSON is a label of the data that the model has no class for.
type unseenJSON struct {
	Label string `json:"label"`
	Rows  int    `json:"rows"`
}

// applyJSON is apply --json's object.
type applyJSON struct {
	Command string `json:"command"` // "apply"
	Model   string `json:"model"`
	// Format is the model file's: mark1, libsvm or liblinear.
	Format  string   `json:"format"`
	Learner string   `json:"learner"`
	Solver  string   `json:"solver,omitempty"`
	Classes []string `json:"classes"`
	Data    dataJSON `json:"data"`
	// Metrics are null where the data have no labels.
	Metrics     metricsJSON  `json:"metrics"`
	Unseen      []unseenJSON `json:"unseen_labels"`
	Predictions string       `json:"predictions,omitempty"`
}

func fptr(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

func iptr(v int) *int { return &v }

func sptr(v string) *string { return &v }

// options returns every option the learner reads as the text its flag
// takes (the registry's words and values).
func options(spec learners.Spec, o learners.Options) map[string]string {
	out := map[string]string{}
	for _, op := range learners.OptionList() {
		if spec.Reads(op.Name) {
			out[op.Name] = o.Get(op.Name)
		}
	}
	return out
}

// fitReport starts fit --json's object for a classifier.
func fitReport(spec learners.Spec, o learners.Options, b learners.Built, f *modelfile.File, res *learning.Result, train *dataset.Set, trainPath, modelPath string) *fitJSON {
	r := &fitJSON{Command: "fit", Learner: f.Learner, Options: options(spec, o), Classes: f.Classes,
		Data:   dataJSON{File: trainPath, Rows: train.Rows(), Features: train.Dim},
		Status: res.Summary, Converged: res.Status.Converged(), Model: modelPath, Unseen: []unseenJSON{}}
	if b.Kernel != nil {
		r.Kernel = b.Kernel.String()
	}
	r.Gamma = b.Gamma
	name := func(c int) *string {
		if c < 0 {
			return nil
		}
		return sptr(f.Classes[c])
	}
	switch m := res.Model.(type) {
	case *svm.KernelModel:
		for _, mc := range m.Machines {
			r.Machines = append(r.Machines, machineJSON{Pos: name(mc.Pos), Neg: name(mc.Neg), Obj: fptr(mc.Obj), Rho: fptr(mc.Rho),
				NSV: iptr(len(mc.SV)), NBSV: iptr(mc.Bounded), Iterations: mc.Iter})
		}
	case *svm.LinearModel:
		for k, mc := range m.Machines {
			neg := m.Neg
			if len(m.Machines) > 1 {
				neg = -1
			}
			r.Machines = append(r.Machines, machineJSON{Pos: name(m.Pos[k]), Neg: name(neg), Obj: fptr(mc.Obj), NSV: iptr(mc.SV), Iterations: mc.Iter})
		}
	}
	if sv, ok := res.Model.(learning.SupportVectored); ok {
		n, _ := sv.SupportVectors()
		r.SupportVectors = iptr(n)
	}
	return r
}

// valueReport starts fit --json's object for a one-class SVM or an SVR.
func valueReport(spec learners.Spec, o learners.Options, b learners.Built, f *modelfile.File, m *svm.ValueModel, train *dataset.Set, trainPath, modelPath string) *fitJSON {
	r := &fitJSON{Command: "fit", Learner: f.Learner, Options: options(spec, o),
		Data:   dataJSON{File: trainPath, Rows: train.Rows(), Features: train.Dim},
		Status: m.Message, Converged: m.Status.Converged(), Model: modelPath, Unseen: []unseenJSON{},
		SupportVectors: iptr(len(m.Coef)), Kernel: b.Kernel.String(), Gamma: b.Gamma}
	if f.Learner != "one-class" {
		r.Epsilon = fptr(m.Epsilon)
	}
	r.Machines = []machineJSON{{Obj: fptr(m.Obj), Rho: fptr(m.Rho), NSV: iptr(len(m.Coef)), NBSV: iptr(m.Bounded), Iterations: m.Iter}}
	return r
}

// accuracyJSON is the metrics of right answers out of n rows.
func accuracyJSON(file string, right, n int) *metricsJSON {
	m := &metricsJSON{File: file, Rows: n, Correct: iptr(right)}
	if n > 0 {
		m.Accuracy = fptr(float64(right) / float64(n))
	}
	return m
}

// metrics returns what applyBlocks or applyValues found on s as JSON.
func (r applied) metrics(file string, s *dataset.Set) *metricsJSON {
	m := &metricsJSON{File: file, Rows: r.n}
	if r.right != nil && !s.Unlabelled {
		m = accuracyJSON(file, *r.right, r.n)
	}
	if r.values != nil {
		m.MSE, m.R2, m.SquaredCorrelation = fptr(r.values.MSE), fptr(r.values.R2), fptr(r.values.SquaredCorrelation)
	}
	if r.oneClass && r.n > 0 {
		m.Inside = fptr(float64(r.inside) / float64(r.n))
	}
	return m
}

// unseenJSON lists the labels the model never saw, with their rows.
func (r applied) unseenJSON() []unseenJSON {
	out := []unseenJSON{}
	for k, c := range r.unseen {
		out = append(out, unseenJSON{Label: c, Rows: r.rows[k]})
	}
	return out
}

// applyReport is apply --json's object.
func applyReport(f *modelfile.File, format modelfile.Format, modelPath, testPath, predPath string, test *dataset.Set, r applied) *applyJSON {
	a := &applyJSON{Command: "apply", Model: modelPath, Format: format.String(), Learner: f.Learner, Solver: f.Solver,
		Classes: f.Classes, Data: dataJSON{File: testPath, Rows: r.n, Features: test.Dim},
		Metrics: *r.metrics("", test), Unseen: r.unseenJSON(), Predictions: predPath}
	if f.Values() {
		a.Classes = nil
		a.Unseen = []unseenJSON{}
	}
	return a
}
