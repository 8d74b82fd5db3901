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
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"mark1/images"
	"mark1/internal/base/jsonnum"
	"mark1/internal/base/param"
	"mark1/learning"
	"mark1/learning/kernel"
	"mark1/learning/learners"
	"mark1/learning/svm"
	"mark1/machine"
	"mark1/memistors"
)

// Learners returns the names of the learners a comparison can run: the
// machine's two ("hardware", "ideal"), the ADALINE with memistor weights
// (MemistorName) and every classifier of the registry
// (learning/learners; not the one-class SVM and the SVRs, which predict
// values, nor sgd, which the lab alone traces).
func Learners() []string {
	names := []string{"hardware", "ideal", MemistorName}
	for _, s := range learners.All() {
		if !s.Needs.Values && !s.LabOnly {
			names = append(names, s.Name)
		}
	}
	return names
}

// isHardware reports whether name is one of the machine's own learners.
func isHardware(name string) bool { return name == "hardware" || name == "ideal" }

// DefaultLearners is the set compared when none is named.
func DefaultLearners() []string {
	return []string{"hardware", "ideal", MemistorName, "perceptron", "averaged", "batch-gd", "kernel-perceptron", "svm", "linear-svm"}
}

// Features lists the feature sets.
func Features() []string { return []string{"pixels", "association"} }

// Spec says what to compare. Zero numeric fields mean the defaults noted.
type Spec struct {
	Learners []string // names from Learners(); nil means DefaultLearners()
	Features []string // "pixels", "association"; nil means both
	// Options are the software learners' options, with the meanings and
	// defaults of the registry (learning/learners), as fit takes them;
	// the zero value means learners.Defaults(). Its Seed and Threads are
	// Spec's own; its Epochs is also the hardware's epoch limit.
	Options learners.Options
	Seed    uint64 // seeds the split of P_r's sample and every learner's order and start
	// NoTheory leaves out the convergence theorem's line for two classes,
	// which is otherwise given for each feature set a software learner
	// used (features are built only for the learners asked for).
	// Otherwise it may take as long as the slowest learner (at least a
	// second); a separability question not decided by then is reported as
	// undecided.
	NoTheory bool
	// Threads is the number of cores the SVM may use for its binary
	// problems and for predicting; 0 means all. Results do not depend on it.
	Threads int
	// Recipe is how the hardware learners train (rule, value system,
	// pulses); its epoch limit is Epochs.
	Recipe machine.Recipe
	// Memistors are the weights of the memistor ADALINE (MemistorName);
	// nil means memistors.Defaults(), the 1960 memistors. It trains by
	// α-LMS with the options' Alpha (DefaultMemistorAlpha when 0) and
	// Decay, up to Epochs, in the options' Order, and stops as the Mark I
	// does, after an epoch with every card right.
	Memistors *memistors.Config
	// Record, if not nil, is told of every progress entry of every learner
	// as it trains (an epoch, a solver pass, a block of SMO iterations:
	// learning.Recorder), with the learner's name and feature set; the
	// calls are serialised, from the learners' goroutines. For progress
	// lines: it changes no result.
	// An error stops that learner's run after the entry (learning.Stopped)
	// and the comparison returns it.
	Record func(learner, features string, e learning.Epoch) error
	// Checking, if not nil, is told when the convergence theorem's line
	// starts on a feature set, with the time it may take; for progress
	// lines, like Record.
	Checking func(features string, budget time.Duration)
	// PrSample, if positive and less than the number of training cards,
	// measures P_r on a sample of that many of them, drawn from Seed and
	// the same for every learner, instead of on all: predicting every
	// training card can cost a kernel SVM more than its fit. 0 means all.
	PrSample int
}

// Validate checks names and parameters, as *param.FieldError values in
// their own names ("learners", "features", "threads", "pr-sample" and the
// registry's options).
func (s *Spec) Validate() error {
	for _, l := range s.Learners {
		if !slices.Contains(Learners(), l) {
			return param.Errorf("learners", strconv.Quote(l), "names from %s", strings.Join(Learners(), ", "))
		}
	}
	for _, f := range s.Features {
		if !slices.Contains(Features(), f) {
			return param.Errorf("features", strconv.Quote(f), "pixels or association")
		}
	}
	if s.Threads < 0 || s.Threads > learners.MaxThreads {
		return param.Errorf("threads", s.Threads, "a whole number in [0, %d] (0: all cores)", learners.MaxThreads)
	}
	if s.Memistors != nil {
		if err := s.Memistors.Validate(); err != nil {
			return err
		}
	}
	if s.PrSample < 0 {
		return param.Errorf("pr-sample", s.PrSample, "0 (all training cards) or a sample size")
	}
	d := s.withDefaults()
	for _, l := range d.Learners {
		if isHardware(l) || l == MemistorName {
			continue
		}
		ls, err := learners.Lookup(l)
		if err != nil {
			return err
		}
		if ls.Needs.Values {
			return param.Errorf("learner", l, "a classifier: %s predicts a value per row (mark1 fit trains it)", l)
		}
		if err := ls.Check(d.Options); err != nil {
			return err
		}
	}
	return d.Options.Validate()
}

func (s Spec) withDefaults() Spec {
	if s.Learners == nil {
		s.Learners = DefaultLearners()
	}
	if s.Features == nil {
		s.Features = Features()
	}
	if s.Options == (learners.Options{}) {
		s.Options = learners.Defaults()
	}
	s.Options.Seed, s.Options.Threads = s.Seed, s.Threads
	s.Recipe.MaxEpochs = s.Options.Epochs
	return s
}

// Runs returns how many learner runs Run makes of s (RunRaw, when raw is
// true: one a software learner, no hardware) and each learner's epoch
// limit, for progress lines.
func (s Spec) Runs(raw bool) (runs int, epochs map[string]int) {
	features, names := s.Features, s.Learners
	if features == nil {
		features = Features()
	}
	if raw {
		features = []string{Raw}
	}
	if names == nil {
		names = DefaultLearners()
	}
	limit := cmp.Or(s.Options.Epochs, learners.Defaults().Epochs)
	epochs = map[string]int{}
	for _, l := range names {
		switch {
		case isHardware(l) || l == MemistorName:
			if !raw {
				runs++ // one run, on the machine's A-units
			}
		default:
			runs += len(features)
		}
		epochs[l] = limit
	}
	return runs, epochs
}

// kernelWord is the kernel the report names: the kernel word as the
// learners read it.
func (s Spec) kernelWord() string {
	ks, err := s.Options.KernelSpec()
	if err != nil {
		return s.Options.Kernel
	}
	return ks.String()
}

// Row is one learner's line in the table. Fields that do not apply to a
// learner are nil, and null in JSON.
type Row struct {
	Learner  string   `json:"learner"`
	Features string   `json:"features"`
	Pr       float64  `json:"p_r"` // training accuracy
	Pg       *float64 `json:"p_g"` // held-out accuracy; nil without held-out data
	// PrPairwise and PgPairwise are Rosenblatt's 1958 P_r and P_g: the
	// fraction of (card, other class) pairs in which the model scores the
	// card's class above the other (machine.Machine.Pairwise for the
	// hardware; learning.Scorer's scores for the others: one-vs-one SVMs
	// score by votes). For two classes they are Pr and Pg. Nil for a model
	// without per-class scores, or without held-out data.
	PrPairwise *float64 `json:"p_r_pairwise"`
	PgPairwise *float64 `json:"p_g_pairwise"`
	Updates    int      `json:"updates"` // mistakes corrected, or solver updates
	Epochs     int      `json:"epochs"`
	Converged  bool     `json:"converged"`
	Status     string   `json:"status"`
	// Margin is the model's own margin, smallest over its binary machines:
	// for perceptrons and the hardware the geometric margin
	// min_i y_i f(x_i)/‖w‖ on the training data, for SVMs 1/‖w‖ (see
	// learning.Margined); nil if none.
	Margin *float64 `json:"margin"`
	// SupportVectors and BoundedSVs count the examples an SVM or a kernel
	// perceptron keeps; nil for the other learners.
	SupportVectors *int    `json:"support_vectors"`
	BoundedSVs     *int    `json:"bounded_svs"`
	Seconds        float64 `json:"seconds"` // wall time of the fit (learners run side by side on Spec.Threads cores)
	// MachineSeconds and Pulses are the simulated time and motor pulses of
	// the hardware learners, and of the memistor ADALINE its simulated
	// time and plating pulses (one per adaptation, to every memistor at
	// once); nil for the others.
	MachineSeconds *float64 `json:"machine_seconds"`
	Pulses         *int64   `json:"pulses"`
	// Curve is the mistakes (or updates) per epoch.
	Curve []int `json:"curve"`
	// Objective is the learner's objective after each entry of Curve: the
	// perceptron risk R(w, b) summed over the machines after each epoch of
	// batch GD, the dual objective of the binary machine being solved after
	// each solver pass (linear SVM) or block of at most 1,000 SMO
	// iterations and at its end (kernel SVM); nil for learners without one.
	Objective []float64 `json:"objective"`
	// ObjectiveMachine gives, for each entry of Objective, the binary
	// machine it is about (0-based: the one-vs-one pair or one-vs-rest
	// machine), for learners that solve their machines one after another;
	// nil when every entry is about the same machine or about all at once.
	ObjectiveMachine []int `json:"objective_machine"`
	// PgCurve is P_g after each epoch, where the learner measures it while
	// training (the hardware learners and the memistor ADALINE, with
	// held-out data); nil otherwise.
	PgCurve []float64 `json:"pg_curve"`
	// Clusters and TestClusters say, for the machine trained by the
	// spontaneous rule (no labels), how its responses split the training
	// cards (P_r's cards) and the held-out cards against the labels it
	// never saw (machine.ClustersOf: purity, responses used, collapse);
	// nil for every other row, TestClusters without held-out cards. For
	// such a row Pr and Pg count a response as the class of its number,
	// which means nothing without labels, and Updates counts every card
	// shown (each moves its response's pots); PrPairwise, PgPairwise,
	// Curve and PgCurve are nil.
	Clusters     *machine.Clusters `json:"clusters,omitempty"`
	TestClusters *machine.Clusters `json:"test_clusters,omitempty"`
}

// Clustered reports whether r is a machine trained without labels,
// measured as clusters rather than by accuracy.
func (r Row) Clustered() bool { return r.Clusters != nil }

// Theory is the convergence theorem checked on one binary feature set.
type Theory struct {
	Features  string `json:"features"`
	Separable bool   `json:"separable"`
	// Radius R = max ‖(x, 1)‖; Margin γ, the largest margin of the data
	// (x, 1) through the origin (the perceptron's own space, its bias
	// input appended); Bound (R/γ)². Nil unless separable.
	Radius *float64 `json:"radius"`
	Margin *float64 `json:"margin"`
	Bound  *float64 `json:"bound"`
	// PerceptronMistakes made by the perceptron on the same data (nil if
	// it was not run).
	PerceptronMistakes *int   `json:"perceptron_mistakes"`
	Note               string `json:"note"`
}

// Report is a whole comparison.
type Report struct {
	Data    string   `json:"data"`
	Classes []string `json:"classes"`
	Train   int      `json:"train"`
	Test    int      `json:"test"`
	// PrCards is the number of training cards P_r was measured on: all of
	// them (Train), or a seeded sample (Spec.PrSample).
	PrCards int      `json:"p_r_cards"`
	Preset  *string  `json:"preset"` // the machine preset; null for raw features
	Kernel  string   `json:"kernel"`
	Rows    []Row    `json:"rows"`
	Theory  []Theory `json:"theory"`
	// Chance is the accuracy of always answering the most common held-out
	// class (learning.Chance); nil (null in JSON) without held-out data.
	Chance *float64 `json:"chance"`
	// Pa is the mean fraction of A-units the held-out cards (the training
	// cards when none are held out) turn on, and PaModel Rosenblatt's 1958
	// model's P_a for the machine's x, y, θ at each card's lit area
	// (machine.MeasurePa).
	Pa      float64 `json:"p_a"`
	PaModel float64 `json:"p_a_model"`
	// Notes says, one line each, what was left out and why (the hardware
	// on data that are not pictures); null when nothing was.
	Notes []string `json:"notes"`
}

// Run trains every learner of spec on train and measures it on train and
// test. cfg and seeds describe the machine whose retina and A-units make the
// features and which the hardware learners train. progress, if not nil, is
// told when each learner starts.
//
// Every learner is a learning.Learner, the hardware ones through the
// Hardware adapter, and runs in the same loop; features are made only for
// the learners that need them.
func Run(ctx context.Context, cfg machine.Config, seeds machine.Seeds, train, test *images.Dataset, spec Spec, progress func(learner, features string)) (*Report, error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	spec = spec.withDefaults()
	m, err := machine.New(cfg, train.Classes, seeds, nil)
	if err != nil {
		return nil, err
	}
	rep := &Report{Data: train.Name, Classes: train.Classes, Train: train.Len(), Test: test.Len(), Preset: &cfg.Preset, Kernel: spec.kernelWord()}
	trF, teF := m.Fields(train), m.Fields(test)
	// A four-layer machine's couplings learn from the training cards in
	// sequence first (the hardware rows' sessions do the same on their
	// own machines), so that the association features are A_II's.
	m.LearnSequence(trF.X)
	if teF.Len() > 0 {
		c := learning.Chance(teF.Y)
		rep.Chance = &c
	}
	paOn := teF
	if paOn.Len() == 0 {
		paOn = trF
	}
	pa := machine.SummarisePa(m.MeasurePa(paOn.X))
	rep.Pa, rep.PaModel = pa.Mean, pa.Model
	feats := map[string][2]*learning.Data{}
	data := func(kind string) [2]*learning.Data {
		if d, ok := feats[kind]; ok {
			return d
		}
		feats[kind] = [2]*learning.Data{features(m, trF, kind), features(m, teF, kind)}
		return feats[kind]
	}
	var jobs []job
	for _, name := range spec.Learners {
		kinds := spec.Features
		switch {
		case isHardware(name):
			kinds = []string{"fields"}
		case name == MemistorName:
			kinds = []string{"association"} // what the Mark I's pots weight
		}
		for _, kind := range kinds {
			label := kind
			if kind == "fields" {
				label = "association"
			}
			d := data(kind) // built here, before the learners run side by side
			l, err := learner(name, spec, m, d[0])
			if err != nil {
				return nil, fmt.Errorf("%s on %s: %w", name, label, err)
			}
			switch h := l.(type) {
			case Hardware:
				h.Test = d[1] // P_g per epoch
				l = h
			case MemistorAdaline:
				h.Test = d[1]
				l = h
			}
			jobs = append(jobs, job{name: name, kind: kind, label: label, l: l, tr: d[0], te: d[1]})
		}
	}
	perceptronMistakes, err := rep.run(ctx, jobs, spec, progress, train.Len())
	if err != nil {
		return nil, err
	}
	if len(train.Classes) == 2 && !spec.NoTheory {
		for _, f := range spec.Features {
			if _, built := feats[f]; !built {
				continue // no learner asked for these features
			}
			th, err := theoryLine(ctx, data(f)[0], f, perceptronMistakes(f), spec, rep.Rows)
			if err != nil {
				return nil, err
			}
			rep.Theory = append(rep.Theory, th)
		}
	}
	return rep, nil
}

// FeatureVectors returns the feature vectors ("pixels" or "association")
// of m for fitted fields f.
func FeatureVectors(m *machine.Machine, f machine.Fields, kind string) [][]float64 {
	return features(m, f, kind).X
}

// features turns fitted fields into feature vectors: the fields themselves
// ("fields", the hardware's input), or the S-unit or A-unit outputs of m,
// noise-free.
func features(m *machine.Machine, f machine.Fields, kind string) *learning.Data {
	if kind == "fields" {
		return &learning.Data{Rows: fieldRows(f.X), Y: f.Y, Classes: len(m.Classes)}
	}
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

// learner makes the learner name for the training data tr: the machine's
// own (m's wiring), or the registry's with spec's options, as fit makes it.
func learner(name string, spec Spec, m *machine.Machine, tr *learning.Data) (learning.Learner, error) {
	if isHardware(name) {
		cfg := m.Config
		if name == "ideal" {
			cfg = cfg.IdealPots()
		}
		return Hardware{Label: name, Config: cfg, Seeds: m.Seeds, Classes: m.Classes, Wiring: m.Wiring, Recipe: spec.Recipe}, nil
	}
	if name == MemistorName {
		return memistorAdaline(spec, m), nil
	}
	ls, err := learners.Lookup(name)
	if err != nil {
		return nil, err
	}
	b, err := ls.New(spec.Options, tr)
	return b.Learner, err
}

// job is one learner on one feature set.
type job struct {
	name, kind, label string
	l                 learning.Learner
	tr, te            *learning.Data
	pr                *learning.Data // the training cards P_r is measured on
}

// prCards returns how many of n training cards P_r is measured on with
// Spec.PrSample sample.
func prCards(n, sample int) int {
	if sample > 0 && sample < n {
		return sample
	}
	return n
}

// prSample returns the training cards of d that P_r is measured on: d
// itself, or sample of its rows drawn from seed, in their order in d.
func prSample(d *learning.Data, sample int, seed uint64) *learning.Data {
	n := d.Len()
	if prCards(n, sample) == n {
		return d
	}
	idx := rand.New(rand.NewPCG(seed, 0x50725f)).Perm(n)[:sample]
	slices.Sort(idx)
	s := &learning.Data{Classes: d.Classes, Y: make([]int, sample)}
	for k, i := range idx {
		s.Y[k] = d.Y[i]
	}
	if d.Rows != nil {
		s.Rows = learning.Subset(d.Rows, idx)
	} else {
		s.X = make([][]float64, sample)
		for k, i := range idx {
			s.X[k] = d.X[i]
		}
	}
	return s
}

// runJobs runs the jobs on spec.Threads goroutines (all cores when 0), each
// taking the next job in order, and returns their rows in job order; the
// rows do not depend on threads (each learner is seeded on its own), except
// for the measured Seconds. progress, if not nil, is told when a job
// starts. The first error in job order is returned; after an error no new
// job starts.
// run runs the jobs into rep.Rows, with rep.PrCards for train rows of
// training, and returns the perceptron's mistakes on each kind of
// features (−1 where it did not run).
func (rep *Report) run(ctx context.Context, jobs []job, spec Spec, progress func(learner, features string), train int) (func(kind string) int, error) {
	rows, err := runJobs(ctx, jobs, spec, progress)
	if err != nil {
		return nil, err
	}
	rep.PrCards = prCards(train, spec.PrSample)
	mistakes := map[string]int{}
	for q, j := range jobs {
		if j.name == "perceptron" {
			mistakes[j.kind] = rows[q].Updates
		}
	}
	rep.Rows = rows
	return func(kind string) int {
		if n, ok := mistakes[kind]; ok {
			return n
		}
		return -1
	}, nil
}

func runJobs(ctx context.Context, jobs []job, spec Spec, progress func(learner, features string)) ([]Row, error) {
	samples := map[*learning.Data]*learning.Data{}
	for q := range jobs {
		tr := jobs[q].tr
		if samples[tr] == nil {
			samples[tr] = prSample(tr, spec.PrSample, spec.Seed)
		}
		jobs[q].pr = samples[tr]
	}
	threads := spec.Threads
	workers := threads
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, len(jobs)))
	rows := make([]Row, len(jobs))
	errs := make([]error, len(jobs))
	var mu sync.Mutex
	var next atomic.Int64
	var failed atomic.Bool
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				q := int(next.Add(1) - 1)
				if q >= len(jobs) || failed.Load() || ctx.Err() != nil {
					return
				}
				j := jobs[q]
				if progress != nil {
					mu.Lock()
					progress(j.name, j.label)
					mu.Unlock()
				}
				var rec learning.Recorder
				if spec.Record != nil {
					rec = learning.RecorderFunc(func(e learning.Epoch) error {
						mu.Lock()
						defer mu.Unlock()
						return spec.Record(j.name, j.label, e)
					})
				}
				rows[q], errs[q] = runLearner(ctx, j, threads, rec)
				if errs[q] != nil {
					errs[q] = fmt.Errorf("%s on %s: %w", j.name, j.label, errs[q])
					failed.Store(true)
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return rows, nil
}

// runLearner fits j's learner on its training data and measures it on its
// P_r cards and its held-out data; rec, if not nil, is told of its
// progress.
func runLearner(ctx context.Context, j job, threads int, rec learning.Recorder) (Row, error) {
	start := time.Now()
	res, err := j.l.Fit(ctx, j.tr, rec)
	if err != nil {
		return Row{}, err
	}
	row := Row{
		Learner: j.l.Name(), Features: j.label, Updates: res.Updates, Epochs: res.Epochs, Converged: res.Status.Converged(),
		Status: res.Summary, Seconds: time.Since(start).Seconds(), Pr: accuracy(res.Model, j.pr, threads),
	}
	if te := j.te; te.Len() > 0 {
		pg := accuracy(res.Model, te, threads)
		row.Pg = &pg
	}
	row.PrPairwise = pairwise(res.Model, j.pr)
	if te := j.te; te.Len() > 0 {
		row.PgPairwise = pairwise(res.Model, te)
	}
	if mm, ok := res.Model.(learning.Margined); ok {
		row.Margin = jsonnum.Of(mm.Margin()) // nil for NaN or Inf; never -0
	}
	if sv, ok := res.Model.(learning.SupportVectored); ok {
		n, b := sv.SupportVectors()
		row.SupportVectors, row.BoundedSVs = &n, &b
	}
	if hm, ok := res.Model.(*HardwareModel); ok {
		secs, pulses := hm.M.Bank.Seconds(), hm.M.Bank.Pulses()
		row.MachineSeconds, row.Pulses = &secs, &pulses
		row.PgCurve = hm.PgCurve
		if hm.Spontaneous {
			c := hm.Clusters(j.pr)
			row.Clusters = &c
			if te := j.te; te.Len() > 0 {
				tc := hm.Clusters(te)
				row.TestClusters = &tc
			}
			// Its margin is measured against labels it never had.
			row.PrPairwise, row.PgPairwise, row.Margin = nil, nil, nil
		}
	}
	if am, ok := res.Model.(*AdalineModel); ok {
		secs, pulses := am.Seconds, am.Adaptations
		row.MachineSeconds, row.Pulses = &secs, &pulses
		row.PgCurve = am.PgCurve
	}
	objective := len(res.Curve) > 0
	several := false
	for _, e := range res.Curve {
		row.Curve = append(row.Curve, e.Mistakes)
		objective = objective && !math.IsNaN(e.Risk) && !math.IsInf(e.Risk, 0)
		several = several || e.Machine != res.Curve[0].Machine
	}
	if objective {
		for _, e := range res.Curve {
			row.Objective = append(row.Objective, e.Risk)
			if several {
				row.ObjectiveMachine = append(row.ObjectiveMachine, e.Machine)
			}
		}
	}
	return row, nil
}

// accuracy is the fraction of d that m classifies right; a model that
// predicts many rows at once (the kernel SVM, on threads cores) does so.
// pairwise returns the 1958 pairwise measure of m on d (see Row), or nil
// for a model without per-class scores.
func pairwise(m learning.Model, d *learning.Data) *float64 {
	if p, ok := m.(interface{ Pairwise(*learning.Data) float64 }); ok {
		v := p.Pairwise(d)
		return &v
	}
	sc, ok := m.(learning.Scorer)
	if !ok || d.Len() == 0 {
		return nil
	}
	rows := d.Features()
	var x, scores []float64
	right, pairs := 0, 0
	for i := range rows.Len() {
		x = rows.Row(x, i)
		scores = sc.Scores(scores, x)
		y := d.Y[i]
		for c, v := range scores {
			if c == y {
				continue
			}
			pairs++
			if scores[y] > v {
				right++
			}
		}
	}
	if pairs == 0 {
		return nil
	}
	v := float64(right) / float64(pairs)
	return &v
}

func accuracy(m learning.Model, d *learning.Data, threads int) float64 {
	if a, ok := m.(interface{ Accuracy(*learning.Data) float64 }); ok {
		return a.Accuracy(d)
	}
	if b, ok := m.(interface {
		PredictRows([]int, learning.Rows, int) []int
	}); ok {
		right := 0
		for i, c := range b.PredictRows(nil, d.Features(), threads) {
			if c == d.Y[i] {
				right++
			}
		}
		return float64(right) / float64(d.Len())
	}
	right := 0
	rows := d.Features()
	var x []float64
	for i := range rows.Len() {
		x = rows.Row(x, i)
		if m.Predict(x) == d.Y[i] {
			right++
		}
	}
	return float64(right) / float64(rows.Len())
}

// theoryLine is the convergence theorem's line on the binary data d of
// the features: it tells spec.Checking, gives theory a fifth of the
// learners' time (theoryBudget), and records the compared perceptron's mistakes
// (negative: no perceptron ran on these features).
func theoryLine(ctx context.Context, d *learning.Data, features string, mistakes int, spec Spec, rows []Row) (Theory, error) {
	budget := theoryBudget(rows)
	if spec.Checking != nil {
		spec.Checking(features, budget)
	}
	th, err := theory(ctx, d, spec, budget)
	if err != nil {
		return Theory{}, err
	}
	th.Features = features
	if mistakes >= 0 {
		th.PerceptronMistakes = &mistakes
	}
	return th, nil
}

// theory checks the convergence theorem on a binary data set, in the space
// the compared perceptron learns in: the features as they are with its
// always-on bias input 1 appended. γ is the largest margin of the data
// there — the hard-margin SVM without a bias term on (x, 1)
// (learning.MaxMargin), not the with-bias SVM's separator, whose margin
// in that space is smaller — and R = max ‖(x, 1)‖, so (R/γ)² is the
// tightest bound the theorem gives on the perceptron's mistakes from the
// zero start (Novikoff 1962). The with-bias hard-margin SVM first decides
// whether the data are separable at all (the same question).
//
// The separability question gets budget: if the hard-margin ladder has not
// answered by then, the Theory says so (undecided) instead of running on.
// It returns an error only when ctx itself is cancelled (Ctrl-C).
func theory(ctx context.Context, d *learning.Data, spec Spec, budget time.Duration) (Theory, error) {
	y := make([]float64, len(d.Y))
	for i, c := range d.Y {
		y[i] = float64(2*c - 1)
	}
	tctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	b, err := svm.SolveRowsContext(tctx, d.Features(), y, kernel.Linear{}, svm.Settings{Hard: true, CacheMB: spec.Options.CacheMB, Threads: spec.Threads})
	if err != nil {
		if ctx.Err() != nil {
			return Theory{}, ctx.Err()
		}
		if errors.Is(err, context.DeadlineExceeded) {
			return Theory{Note: fmt.Sprintf("separability not decided within %.3g s, a fifth of the learners' time (the hard-margin SVM was still climbing its C ladder)", budget.Seconds())}, nil
		}
		return Theory{Note: err.Error()}, nil
	}
	if b.Status == svm.NotSeparable {
		return Theory{Note: "not linearly separable: the theorem gives no bound (" + b.Message + ")"}, nil
	}
	mm := learning.MaxMarginContext(tctx, d, true, 1e-6, 0)
	if ctx.Err() != nil {
		return Theory{}, ctx.Err()
	}
	if !(mm.Lower > 0) {
		return Theory{Note: fmt.Sprintf("separable, but the largest margin through the origin of (x, 1) was not found within %.3g s (%v after %d passes)", budget.Seconds(), mm.Status, mm.Passes)}, nil
	}
	w, bias := mm.W[:len(mm.W)-1], mm.W[len(mm.W)-1]
	r, g, bound := learning.MistakeBound(d, w, bias, true)
	note := "γ = the largest margin of the training data (x, 1), features as the perceptron sees them with its bias input 1 appended (hard-margin SVM without a bias term in that space); R = max ‖(x, 1)‖"
	if mm.Status != learning.MarginFound {
		note += fmt.Sprintf("; the solver stopped %v (after %d passes, within the %.3g s budget) with γ* in [%.4g, %.4g], so the bound is valid but may not be the tightest", mm.Status, mm.Passes, budget.Seconds(), mm.Lower, mm.Upper)
	}
	return Theory{Separable: true, Radius: jsonnum.Of(r), Margin: jsonnum.Of(g), Bound: jsonnum.Of(bound), Note: note}, nil
}

// theoryShare is the most time the theory line may take, as a share of
// the learners' time together.
const theoryShare = 0.2

// theoryBudget is the time the theory line may take: a fifth of the
// learners' time together (theoryShare), and at least half a second, so
// that the line never doubles a run.
func theoryBudget(rows []Row) time.Duration {
	total := 0.0
	for _, r := range rows {
		total += r.Seconds
	}
	return time.Duration(max(0.5, theoryShare*total) * float64(time.Second))
}
