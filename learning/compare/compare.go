// Package compare sets the Mark I's motor-driven rule beside the software
// learners on the same data: one seeded split, the same features, one table.
//
// Features are "pixels" (the retina's S-unit outputs) or "association" (the
// A-unit outputs of the same machine), so a comparison separates the effect
// of the random A-layer, of the learning rule, and of the motors' physical
// limits: "hardware" is the configured machine with its motors, "ideal" the
// same wiring with ideal pots (the textbook perceptron on the A-units), and
// the software learners run on either feature set.
//
// The package joins learning, learning/svm and machine; none of them imports
// it, so there is no cycle.
package compare

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"mark1/images"
	"mark1/learning"
	"mark1/learning/kernel"
	"mark1/learning/svm"
	"mark1/machine"
	"mark1/motors"
)

// Learners returns the names of the learners a comparison can run.
func Learners() []string {
	return []string{"hardware", "ideal", "perceptron", "averaged", "voted", "pocket", "batch-gd", "kernel-perceptron", "svm", "linear-svm"}
}

// DefaultLearners is the set compared when none is named.
func DefaultLearners() []string {
	return []string{"hardware", "ideal", "perceptron", "averaged", "batch-gd", "kernel-perceptron", "svm", "linear-svm"}
}

// Features lists the feature sets.
func Features() []string { return []string{"pixels", "association"} }

// Spec says what to compare. Zero numeric fields mean the defaults noted.
type Spec struct {
	Learners []string      // names from Learners(); nil means DefaultLearners()
	Features []string      // "pixels", "association"; nil means both
	Kernel   kernel.Kernel // for kernel-perceptron and svm; nil means Gaussian σ=3
	C        float64       // SVM penalty; 0 means 1
	Epochs   int           // epoch limit for the online learners and the hardware; 0 means 50
	CacheMB  float64       // SVM kernel cache; 0 means 100
	Seed     uint64        // seeds every learner's order and start
	Hardware learning.Hardware
}

// Validate checks names and parameters.
func (s *Spec) Validate() error {
	for _, l := range s.Learners {
		if !slices.Contains(Learners(), l) {
			return fmt.Errorf("unknown learner %q (want %s)", l, strings.Join(Learners(), ", "))
		}
	}
	for _, f := range s.Features {
		if !slices.Contains(Features(), f) {
			return fmt.Errorf("unknown features %q (want pixels or association)", f)
		}
	}
	if s.Kernel != nil {
		if err := kernel.Validate(s.Kernel); err != nil {
			return err
		}
	}
	if s.C < 0 || math.IsNaN(s.C) || math.IsInf(s.C, 0) {
		return fmt.Errorf("SVM penalty C = %v: want a finite number > 0", s.C)
	}
	if s.Epochs < 0 || s.CacheMB < 0 {
		return fmt.Errorf("epochs and cache size must not be negative")
	}
	return nil
}

func (s Spec) withDefaults() Spec {
	if s.Learners == nil {
		s.Learners = DefaultLearners()
	}
	if s.Features == nil {
		s.Features = Features()
	}
	if s.Kernel == nil {
		s.Kernel = kernel.Gaussian{Sigma: 3}
	}
	if s.C == 0 {
		s.C = 1
	}
	if s.Epochs == 0 {
		s.Epochs = 50
	}
	if s.CacheMB == 0 {
		s.CacheMB = 100
	}
	s.Hardware.MaxEpochs = s.Epochs
	return s
}

// Row is one learner's line in the table.
type Row struct {
	Learner   string  `json:"learner"`
	Features  string  `json:"features"`
	Pr        float64 `json:"p_r"`     // training accuracy
	Pg        float64 `json:"p_g"`     // held-out accuracy (NaN without held-out data)
	Updates   int     `json:"updates"` // mistakes corrected, or solver updates
	Epochs    int     `json:"epochs"`
	Converged bool    `json:"converged"`
	Status    string  `json:"status"`
	// Margin is the model's own margin, smallest over its binary machines:
	// for perceptrons and the hardware the geometric margin
	// min_i y_i f(x_i)/‖w‖ on the training data, for SVMs 1/‖w‖ (see
	// learning.Margined); NaN if none.
	Margin         float64 `json:"margin"`
	SupportVectors int     `json:"support_vectors"` // -1 where it does not apply
	BoundedSVs     int     `json:"bounded_svs"`
	Seconds        float64 `json:"seconds"` // wall time of the fit, one core
	// MachineSeconds and Pulses are the simulated time and motor pulses of
	// the hardware learners; zero for the others.
	MachineSeconds float64 `json:"machine_seconds"`
	Pulses         int64   `json:"pulses"`
	// Curve is the mistakes (or updates) per epoch.
	Curve []int `json:"curve"`
}

// Theory is the convergence theorem checked on one binary feature set.
type Theory struct {
	Features  string  `json:"features"`
	Separable bool    `json:"separable"`
	Radius    float64 `json:"radius"` // R = max ‖(x, 1)‖
	Margin    float64 `json:"margin"` // γ of the hard-margin SVM's separator, bias included
	Bound     float64 `json:"bound"`  // (R/γ)²
	// PerceptronMistakes made by the perceptron on the same data (−1 if it
	// was not run).
	PerceptronMistakes int    `json:"perceptron_mistakes"`
	Note               string `json:"note"`
}

// Report is a whole comparison.
type Report struct {
	Data    string   `json:"data"`
	Classes []string `json:"classes"`
	Train   int      `json:"train"`
	Test    int      `json:"test"`
	Preset  string   `json:"preset"`
	Kernel  string   `json:"kernel"`
	Rows    []Row    `json:"rows"`
	Theory  []Theory `json:"theory"`
}

// Run trains every learner of spec on train and measures it on train and
// test. cfg and seeds describe the machine whose retina and A-units make the
// features and which the hardware learners train. progress, if not nil, is
// told when each learner starts.
func Run(ctx context.Context, cfg machine.Config, seeds machine.Seeds, train, test *images.Dataset, spec Spec, progress func(learner, features string)) (*Report, error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	spec = spec.withDefaults()
	m, err := machine.New(cfg, train.Classes, seeds, nil)
	if err != nil {
		return nil, err
	}
	rep := &Report{Data: train.Name, Classes: train.Classes, Train: train.Len(), Test: test.Len(), Preset: cfg.Preset, Kernel: spec.Kernel.String()}
	trF, teF := learning.Fields{X: m.Fit(train), Y: machine.Labels(train)}, learning.Fields{X: m.Fit(test), Y: machine.Labels(test)}
	feats := map[string][2]*learning.Data{}
	for _, f := range spec.Features {
		feats[f] = [2]*learning.Data{features(m, trF, f), features(m, teF, f)}
	}
	perceptronMistakes := map[string]int{}
	for _, name := range spec.Learners {
		if name == "hardware" || name == "ideal" {
			if progress != nil {
				progress(name, "association")
			}
			row, err := runHardware(ctx, name, cfg, m, seeds, trF, teF, spec)
			if err != nil {
				return nil, err
			}
			rep.Rows = append(rep.Rows, row)
			continue
		}
		for _, f := range spec.Features {
			if progress != nil {
				progress(name, f)
			}
			row, err := runSoftware(ctx, name, f, feats[f][0], feats[f][1], spec)
			if err != nil {
				return nil, fmt.Errorf("%s on %s: %w", name, f, err)
			}
			if name == "perceptron" {
				perceptronMistakes[f] = row.Updates
			}
			rep.Rows = append(rep.Rows, row)
		}
	}
	if len(train.Classes) == 2 {
		for _, f := range spec.Features {
			th := theory(feats[f][0], spec)
			th.Features = f
			th.PerceptronMistakes = -1
			if n, ok := perceptronMistakes[f]; ok {
				th.PerceptronMistakes = n
			}
			rep.Theory = append(rep.Theory, th)
		}
	}
	return rep, nil
}

// FeatureVectors returns the feature vectors ("pixels" or "association")
// of m for fitted fields f.
func FeatureVectors(m *machine.Machine, f learning.Fields, kind string) [][]float64 {
	return features(m, f, kind).X
}

// features turns fitted fields into feature vectors: S-unit or A-unit
// outputs of m, noise-free.
func features(m *machine.Machine, f learning.Fields, kind string) *learning.Data {
	d := &learning.Data{X: make([][]float64, len(f.X)), Y: f.Y, Classes: len(m.Classes)}
	var r machine.Response
	for i, x := range f.X {
		m.Present(&r, x, nil)
		if kind == "pixels" {
			d.X[i] = slices.Clone(r.S)
			continue
		}
		v := make([]float64, len(m.Plugboard.Units))
		for _, a := range r.Active {
			v[a] = 1
		}
		d.X[i] = v
	}
	return d
}

func runHardware(ctx context.Context, name string, cfg machine.Config, template *machine.Machine, seeds machine.Seeds, tr, te learning.Fields, spec Spec) (Row, error) {
	if name == "ideal" {
		cfg.Motors = motors.Config{Step: cfg.Motors.Step, PulseSeconds: cfg.Motors.PulseSeconds}
		cfg.Preset = "ideal"
	}
	m, err := machine.New(cfg, template.Classes, seeds, template.Plugboard)
	if err != nil {
		return Row{}, err
	}
	start := time.Now()
	res, err := spec.Hardware.Train(ctx, m, tr, te, nil)
	if err != nil {
		return Row{}, err
	}
	row := Row{
		Learner: name, Features: "association", Updates: res.Updates, Epochs: res.Epochs,
		Converged: res.Converged, Status: res.Status, Seconds: time.Since(start).Seconds(),
		SupportVectors: -1, MachineSeconds: m.Bank.Seconds(), Pulses: m.Bank.Pulses(),
		Pr: m.Accuracy(tr.X, tr.Y), Pg: math.NaN(),
	}
	if len(te.X) > 0 {
		row.Pg = m.Accuracy(te.X, te.Y)
	}
	for _, e := range res.Curve {
		row.Curve = append(row.Curve, e.Mistakes)
	}
	row.Margin = machineMargin(m, features(m, tr, "association"))
	return row, nil
}

// machineMargin is the smallest geometric margin over the R-units in use of
// the separator their pots hold, on association features d.
func machineMargin(m *machine.Machine, d *learning.Data) float64 {
	vals := m.Bank.Values()
	nA := len(m.Plugboard.Units)
	margin := math.Inf(1)
	for u := range m.Layer.Used() {
		w := make([]float64, nA)
		for a := range nA {
			if p := m.Layer.Pot(a, u); p >= 0 {
				w[a] = vals[p]
			}
		}
		var b float64
		if p := m.Layer.BiasPot(u); p >= 0 {
			b = vals[p]
		}
		bin := &learning.Data{X: d.X, Y: make([]int, len(d.Y)), Classes: 2}
		for i, c := range d.Y {
			if m.Layer.Want(u, c) {
				bin.Y[i] = 1
			}
		}
		margin = min(margin, learning.GeometricMargin(bin, w, b))
	}
	if math.IsInf(margin, 1) {
		return math.NaN()
	}
	return margin
}

func learner(name string, spec Spec) learning.Learner {
	switch name {
	case "perceptron":
		return learning.Perceptron{MaxEpochs: spec.Epochs, Seed: spec.Seed}
	case "averaged":
		return learning.AveragedPerceptron{MaxEpochs: spec.Epochs, Seed: spec.Seed}
	case "voted":
		return learning.VotedPerceptron{MaxEpochs: spec.Epochs, Seed: spec.Seed}
	case "pocket":
		return learning.Pocket{MaxEpochs: spec.Epochs, Seed: spec.Seed}
	case "batch-gd":
		return learning.BatchGD{LineSearch: true, MaxEpochs: 4 * spec.Epochs, Seed: spec.Seed}
	case "kernel-perceptron":
		return learning.KernelPerceptron{Kernel: spec.Kernel, MaxEpochs: spec.Epochs, Seed: spec.Seed}
	case "svm":
		return svm.Kernel{Kernel: spec.Kernel, Settings: svm.Settings{C: spec.C, CacheMB: spec.CacheMB}}
	case "linear-svm":
		return svm.Linear{Settings: svm.LinearSettings{C: spec.C, Seed: spec.Seed}}
	}
	panic("compare: unknown learner " + name)
}

func runSoftware(ctx context.Context, name, feat string, tr, te *learning.Data, spec Spec) (Row, error) {
	l := learner(name, spec)
	start := time.Now()
	res, err := l.Fit(ctx, tr, nil)
	if err != nil {
		return Row{}, err
	}
	row := Row{
		Learner: name, Features: feat, Updates: res.Updates, Epochs: res.Epochs, Converged: res.Converged,
		Status: res.Status, Seconds: time.Since(start).Seconds(), Margin: math.NaN(), SupportVectors: -1,
		Pr: accuracy(res.Model, tr), Pg: math.NaN(),
	}
	if len(te.X) > 0 {
		row.Pg = accuracy(res.Model, te)
	}
	if mm, ok := res.Model.(learning.Margined); ok {
		row.Margin = mm.Margin()
	}
	if sv, ok := res.Model.(learning.SupportVectored); ok {
		row.SupportVectors, row.BoundedSVs = sv.SupportVectors()
	}
	for _, e := range res.Curve {
		row.Curve = append(row.Curve, e.Mistakes)
	}
	return row, nil
}

func accuracy(m learning.Model, d *learning.Data) float64 {
	right := 0
	for i, x := range d.X {
		if m.Predict(x) == d.Y[i] {
			right++
		}
	}
	return float64(right) / float64(len(d.X))
}

// theory checks the convergence theorem on a binary data set: the
// hard-margin linear SVM gives the best separator (w, b); its margin γ on
// the bias-augmented data and the radius R of that data bound the
// perceptron's mistakes by (R/γ)² (Novikoff 1962).
func theory(d *learning.Data, spec Spec) Theory {
	y := make([]float64, len(d.Y))
	for i, c := range d.Y {
		y[i] = float64(2*c - 1)
	}
	b, err := svm.Solve(d.X, y, kernel.Linear{}, svm.Settings{Hard: true, CacheMB: spec.CacheMB})
	if err != nil {
		return Theory{Note: err.Error()}
	}
	if b.Status == svm.NotSeparable {
		return Theory{Note: "not linearly separable: the theorem gives no bound (" + b.Message + ")"}
	}
	w := make([]float64, len(d.X[0]))
	for i, sv := range b.SV {
		for j, v := range sv {
			w[j] += b.Coef[i] * v
		}
	}
	r, g, bound := learning.MistakeBound(d, w, -b.Rho, true)
	return Theory{Separable: true, Radius: r, Margin: g, Bound: bound,
		Note: "γ from the hard-margin SVM; R and γ of the data with the bias input appended"}
}
