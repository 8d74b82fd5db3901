package compare

import (
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"mark1/coupling"
	"mark1/images"
	"mark1/internal/base/param"
	"mark1/learning"
	"mark1/learning/learners"
	"mark1/machine"
	"mark1/response"
)

func data(t *testing.T, task string, n int) (*images.Dataset, *images.Dataset) {
	t.Helper()
	d, err := images.Generate(task, n, 20, 1)
	if err != nil {
		t.Fatal(err)
	}
	tr, te := d.Split(0.25, 1)
	return tr, te
}

func TestRunAllLearners(t *testing.T) {
	cfg, _ := machine.Preset("mark1")
	tr, te := data(t, "leftright", 30)
	rep, err := Run(context.Background(), cfg, machine.SeedsFrom(1), tr, te, Spec{Learners: Learners(), Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// hardware, ideal and the memistor ADALINE once, every software
	// learner on both feature sets.
	if want := 3 + 2*(len(Learners())-3); len(rep.Rows) != want {
		t.Fatalf("%d rows; want %d", len(rep.Rows), want)
	}
	for _, r := range rep.Rows {
		if r.Pr < 0.95 || r.Pg == nil || *r.Pg < 0.85 {
			t.Errorf("%s on %s: P_r %.2f, P_g %v on left/right; want ≥ 0.95, ≥ 0.85 (%s)", r.Learner, r.Features, r.Pr, r.Pg, r.Status)
		}
		if hw := r.Learner == "hardware" || r.Learner == "ideal" || r.Learner == MemistorName; hw != (r.Pulses != nil && *r.Pulses > 0) || hw != (r.MachineSeconds != nil) {
			t.Errorf("%s: motor or plating pulses %v, machine time %v", r.Learner, r.Pulses, r.MachineSeconds)
		}
		keeps := r.Learner == "svm" || r.Learner == "nu-svc" || r.Learner == "kernel-perceptron"
		if sv := keeps || r.Learner == "linear-svm"; sv != (r.SupportVectors != nil) || keeps && *r.SupportVectors < 1 {
			t.Errorf("%s: support vectors %v", r.Learner, r.SupportVectors)
		}
	}
	// The convergence theorem: on separable data the perceptron's mistakes
	// never exceed (R/γ)².
	if len(rep.Theory) != 2 {
		t.Fatalf("%d theory lines; want 2", len(rep.Theory))
	}
	for _, th := range rep.Theory {
		if !th.Separable {
			t.Errorf("%s: left/right not separable? %s", th.Features, th.Note)
			continue
		}
		if th.Margin == nil || th.Bound == nil || th.Radius == nil || !(*th.Margin > 0) {
			t.Errorf("%s: separable, but γ = %v, R = %v, bound %v", th.Features, th.Margin, th.Radius, th.Bound)
			continue
		}
		if th.PerceptronMistakes == nil || float64(*th.PerceptronMistakes) > *th.Bound {
			t.Errorf("%s: perceptron made %v mistakes; bound (R/γ)² = %.1f", th.Features, th.PerceptronMistakes, *th.Bound)
		}
	}
}

func TestRunReproducible(t *testing.T) {
	cfg, _ := machine.Preset("worn")
	tr, te := data(t, "shapes", 12)
	spec := Spec{Learners: []string{"hardware", "perceptron", "kernel-perceptron", "svm"}, Seed: 4, Options: epochs(10)}
	a, err := Run(context.Background(), cfg, machine.SeedsFrom(4), tr, te, spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Run(context.Background(), cfg, machine.SeedsFrom(4), tr, te, spec, nil)
	for i := range a.Rows {
		x, y := a.Rows[i], b.Rows[i]
		if x.Pr != y.Pr || !reflect.DeepEqual(x.Pg, y.Pg) || x.Updates != y.Updates || !reflect.DeepEqual(x.Pulses, y.Pulses) {
			t.Errorf("row %d (%s %s) differs between two runs with the same seed", i, x.Learner, x.Features)
		}
	}
}

func TestSpecValidate(t *testing.T) {
	tests := []struct {
		spec Spec
		want string
	}{
		{Spec{Learners: []string{"no-such-learner"}}, "learners"},
		{Spec{Features: []string{"colour"}}, "features"},
		{Spec{Options: with(func(o *learners.Options) { o.Kernel = "gaussian:sigma=-1" })}, "kernel.sigma"},
		{Spec{Options: with(func(o *learners.Options) { o.Kernel = "poly"; o.Degree = 99 })}, "degree"},
		{Spec{Options: with(func(o *learners.Options) { o.C = math.Inf(1) })}, "C"},
		{Spec{Threads: -1}, "threads"},
	}
	for _, tt := range tests {
		err := tt.spec.Validate()
		if f := param.As(err); f == nil || f.FieldName() != tt.want {
			t.Errorf("Validate(%+v) = %v; want a field error for %q", tt.spec, err, tt.want)
		}
	}
}

func TestOneClassIsAnError(t *testing.T) {
	cfg, _ := machine.Preset("mark1")
	tr, te := data(t, "leftright", 10)
	var keep []images.Sample
	for _, s := range tr.Samples {
		if s.Label == 0 {
			keep = append(keep, s)
		}
	}
	tr.Samples = keep
	if _, err := Run(context.Background(), cfg, machine.SeedsFrom(1), tr, te, Spec{Learners: []string{"perceptron"}}, nil); err == nil {
		t.Error("a single-class training set gave no error")
	}
}

// Under broken-wire faults the hardware learners run on the machine the
// features come from: the adapter draws the faults once, from the healthy
// wiring, as the machine did.
func TestHardwareSameWiringUnderFaults(t *testing.T) {
	cfg, _ := machine.Preset("mark1")
	cfg.Faults = machine.Faults{BrokenWires: 0.2, DeadA: 0.1}
	tr, _ := data(t, "leftright", 10)
	m, err := machine.New(cfg, tr.Classes, machine.SeedsFrom(5), nil)
	if err != nil {
		t.Fatal(err)
	}
	spec := Spec{Options: epochs(2)}.withDefaults()
	for _, name := range []string{"hardware", "ideal"} {
		h, err := learner(name, spec, m, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := h.Fit(context.Background(), features(m, m.Fields(tr), "fields"), nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Model.(*HardwareModel).M.Plugboard; !reflect.DeepEqual(got, m.Plugboard) {
			t.Errorf("%s: the trained machine's plugboard differs from the features' machine", name)
		}
	}
}

// Rows marshal to JSON, with null for what does not apply.
func TestRowJSON(t *testing.T) {
	cfg, _ := machine.Preset("mark1")
	tr, _ := data(t, "leftright", 10)
	rep, err := Run(context.Background(), cfg, machine.SeedsFrom(1), tr, &images.Dataset{Name: "none", Classes: tr.Classes}, Spec{Learners: []string{"hardware", "perceptron"}, Features: []string{"pixels"}, Options: epochs(3)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"p_g":null`) || !strings.Contains(string(b), `"support_vectors":null`) {
		t.Errorf("JSON without nulls for what does not apply: %s", b)
	}
}

// The theory line's γ is the largest margin of (x, 1) through the origin,
// worked by hand: the distance from the origin to the segment joining the
// class-1 point (x, 1) and the negated class-0 point −(x, 1).
func TestTheoryMargin(t *testing.T) {
	tests := []struct {
		d                 *learning.Data
		margin, radius, b float64
	}{
		{&learning.Data{X: [][]float64{{2}, {1}}, Y: []int{1, 0}, Classes: 2}, 1 / math.Sqrt(13), math.Sqrt(5), 65},
		// (3,0,1) and −(1,0,1): the segment's nearest point to the origin
		// is at distance |3·(−1) − 1·(−1)|/√(16+4) = 2/√20; R = √10.
		{&learning.Data{X: [][]float64{{3, 0}, {1, 0}}, Y: []int{1, 0}, Classes: 2}, 2 / math.Sqrt(20), math.Sqrt(10), 10 / (4.0 / 20)},
	}
	for i, tt := range tests {
		th, err := theory(context.Background(), tt.d, Spec{}, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if !th.Separable || th.Margin == nil || th.Radius == nil || th.Bound == nil {
			t.Fatalf("case %d: not separable, or no γ, R, bound (%s)", i, th.Note)
		}
		if math.Abs(*th.Margin-tt.margin) > 1e-6*tt.margin || math.Abs(*th.Radius-tt.radius) > 1e-12 || math.Abs(*th.Bound-tt.b) > 1e-4*tt.b {
			t.Errorf("case %d: γ %v R %v bound %v; want %v, %v, %v (%s)", i, *th.Margin, *th.Radius, *th.Bound, tt.margin, tt.radius, tt.b, th.Note)
		}
	}
}

// The theory line on data that are not separable: decided (with evidence)
// when the budget allows, reported as undecided when it does not, an error
// when the caller cancels, and left out with NoTheory.
func TestTheoryBudget(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	d := &learning.Data{Classes: 2}
	for i := range 3000 {
		x := []float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		d.X = append(d.X, x)
		d.Y = append(d.Y, i%2) // labels unrelated to x: not separable
	}
	th, err := theory(context.Background(), d, Spec{}, time.Minute)
	if err != nil || th.Separable || !strings.Contains(th.Note, "not linearly separable") {
		t.Errorf("a minute: %+v, %v; want not separable", th, err)
	}
	th, err = theory(context.Background(), d, Spec{}, time.Millisecond)
	if err != nil || th.Separable || !strings.Contains(th.Note, "not decided within") {
		t.Errorf("1 ms: %+v, %v; want undecided", th, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := theory(ctx, d, Spec{}, time.Minute); err == nil {
		t.Error("cancelled: no error")
	}
	rep, err := RunRaw(context.Background(), "noise", []string{"a", "b"}, d, &learning.Data{Classes: 2}, Spec{Learners: []string{"perceptron"}, Options: epochs(2), NoTheory: true}, nil)
	if err != nil || len(rep.Theory) != 0 {
		t.Errorf("NoTheory: %d theory lines, %v", len(rep.Theory), err)
	}
}

// The learners run side by side give the same rows, in the same order,
// whatever the number of threads (all but the measured seconds).
func TestRunRawThreadsIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 3))
	d := &learning.Data{Classes: 3}
	for i := range 120 {
		x := []float64{rng.NormFloat64() + float64(i%3), rng.NormFloat64(), rng.NormFloat64() - float64(i%3)}
		d.X = append(d.X, x)
		d.Y = append(d.Y, i%3)
	}
	var ref string
	for _, threads := range []int{1, 2, 4} {
		spec := Spec{Learners: []string{"perceptron", "averaged", "kernel-perceptron", "svm", "linear-svm"}, Options: epochs(5), Seed: 1, Threads: threads}
		rep, err := RunRaw(context.Background(), "three", []string{"a", "b", "c"}, d, d, spec, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range rep.Rows {
			rep.Rows[i].Seconds = 0
		}
		js, err := json.Marshal(rep.Rows)
		if err != nil {
			t.Fatal(err)
		}
		got := string(js)
		if ref == "" {
			ref = got
		} else if got != ref {
			t.Errorf("threads %d: rows differ from threads 1:\n%s\n%s", threads, got, ref)
		}
	}
}

// The per-epoch data the --plot draws: the hardware's P_g per epoch ends at
// the row's P_g (the same frozen weights and evaluation noise), batch GD's
// objective is the perceptron risk, which is 0 after its last step when it
// converged, the SVMs' entries name their machines on four classes, and
// learners without an objective or a P_g curve have null ones.
func TestRunCurves(t *testing.T) {
	cfg, _ := machine.Preset("mark1")
	tr, te := data(t, "shapes", 16)
	spec := Spec{Learners: []string{"hardware", "perceptron", "batch-gd", "svm", "linear-svm"}, Features: []string{"pixels"}, Seed: 2, Options: epochs(15), NoTheory: true}
	rep, err := Run(context.Background(), cfg, machine.SeedsFrom(2), tr, te, spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Rows {
		switch r.Learner {
		case "hardware":
			if len(r.PgCurve) != r.Epochs || r.Pg == nil || r.PgCurve[len(r.PgCurve)-1] != *r.Pg {
				t.Errorf("hardware: P_g curve %v over %d epochs; P_g %v", r.PgCurve, r.Epochs, r.Pg)
			}
			if r.Objective != nil {
				t.Errorf("hardware: objective %v", r.Objective)
			}
		case "perceptron":
			if r.Objective != nil || r.PgCurve != nil || r.ObjectiveMachine != nil {
				t.Errorf("perceptron: objective %v, P_g curve %v", r.Objective, r.PgCurve)
			}
		case "batch-gd":
			if len(r.Objective) != len(r.Curve) || r.ObjectiveMachine != nil {
				t.Fatalf("batch-gd: objective %v, machines %v, curve %v", r.Objective, r.ObjectiveMachine, r.Curve)
			}
			if last := r.Objective[len(r.Objective)-1]; r.Converged != (last == 0) {
				t.Errorf("batch-gd: converged %v, last risk %v", r.Converged, last)
			}
		case "svm", "linear-svm":
			machines := map[string]int{"svm": 6, "linear-svm": 4}[r.Learner] // one-vs-one pairs, one-vs-rest machines
			if len(r.Objective) != len(r.Curve) || len(r.ObjectiveMachine) != len(r.Objective) || r.ObjectiveMachine[len(r.ObjectiveMachine)-1] != machines-1 {
				t.Errorf("%s: objective %v, machines %v", r.Learner, r.Objective, r.ObjectiveMachine)
			}
			for _, v := range r.Objective {
				if !(v <= 0) {
					t.Errorf("%s: dual objective %v; the dual starts at 0 and goes down", r.Learner, v)
				}
			}
		}
	}
	b, err := json.Marshal(rep.Rows[1])
	if err != nil || !strings.Contains(string(b), `"objective":null`) || !strings.Contains(string(b), `"pg_curve":null`) {
		t.Errorf("perceptron row JSON %s (%v): want null objective and P_g curve", b, err)
	}
}

// Spec.Record hears every progress entry of every learner, as its Curve
// holds them, and changes no result.
func TestRunRecord(t *testing.T) {
	cfg, _ := machine.Preset("mark1")
	tr, te := data(t, "shapes", 12)
	spec := Spec{Learners: []string{"hardware", "kernel-perceptron", "svm", "linear-svm"}, Features: []string{"pixels"}, Seed: 3, Options: epochs(8), NoTheory: true, Threads: 2}
	heard := map[string][]learning.Epoch{}
	rec := spec
	rec.Record = func(l, f string, e learning.Epoch) error { heard[l+" "+f] = append(heard[l+" "+f], e); return nil }
	a, err := Run(context.Background(), cfg, machine.SeedsFrom(3), tr, te, rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Run(context.Background(), cfg, machine.SeedsFrom(3), tr, te, spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range a.Rows {
		got := heard[r.Learner+" "+r.Features]
		if len(got) != len(r.Curve) || len(got) == 0 {
			t.Errorf("%s: heard %d entries; its curve has %d", r.Learner, len(got), len(r.Curve))
		}
		for k, e := range got {
			if k < len(r.Curve) && e.Mistakes != r.Curve[k] {
				t.Errorf("%s: entry %d heard %d; curve %d", r.Learner, k, e.Mistakes, r.Curve[k])
			}
		}
		a.Rows[i].Seconds, b.Rows[i].Seconds = 0, 0
	}
	if !reflect.DeepEqual(a.Rows, b.Rows) {
		t.Errorf("Record changed the results")
	}
}

// with returns the registry's defaults changed by f.
func with(f func(o *learners.Options)) learners.Options {
	o := learners.Defaults()
	f(&o)
	return o
}

// epochs returns the registry's defaults with an epoch limit of n.
func epochs(n int) learners.Options {
	return with(func(o *learners.Options) { o.Epochs = n })
}

// TestSpontaneousClusters: the machine trained by the spontaneous rule
// (no labels) is reported as clusters of the hidden classes, not by
// accuracy: its rows carry Clusters on the training cards and
// TestClusters on the held-out ones, with purity at least the commonest
// class's share (each response counted as its commonest class covers at
// least that class), no pairwise score, margin or mistake curve, and every
// card shown counted as an update; the supervised rows carry none.
func TestSpontaneousClusters(t *testing.T) {
	cfg, _ := machine.Preset("mark1")
	cfg.Response.Code = response.OnePerClass
	tr, te := data(t, "leftright", 20)
	spec := Spec{Learners: []string{"hardware", "ideal", "perceptron"}, Features: []string{"pixels"}, Options: epochs(5), Seed: 1,
		Recipe: machine.Recipe{Rule: machine.Spontaneous}}
	rep, err := Run(context.Background(), cfg, machine.SeedsFrom(1), tr, te, spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Rows {
		if r.Learner == "perceptron" {
			if r.Clustered() || r.TestClusters != nil {
				t.Errorf("perceptron: clusters %+v; want none (it learns with labels)", r.Clusters)
			}
			continue
		}
		c, tc := r.Clusters, r.TestClusters
		if c == nil || tc == nil {
			t.Fatalf("%s: clusters %v, held out %v; want both", r.Learner, c, tc)
		}
		if c.Cards != tr.Len() || tc.Cards != te.Len() || len(c.Class) != 2 {
			t.Errorf("%s: %d and %d cards, %d responses; want %d, %d, 2", r.Learner, c.Cards, tc.Cards, len(c.Class), tr.Len(), te.Len())
		}
		for _, x := range []*machine.Clusters{c, tc} {
			if x.Purity < x.Chance-1e-12 && x.NoResponse == 0 || x.Purity > 1 || x.Responses < 1 || x.Responses > 2 || x.Collapsed != (x.Responses <= 1) {
				t.Errorf("%s: %+v; want chance ≤ purity ≤ 1, 1 or 2 responses, collapsed iff one", r.Learner, *x)
			}
		}
		if r.PrPairwise != nil || r.PgPairwise != nil || r.Margin != nil || r.Curve != nil || r.PgCurve != nil {
			t.Errorf("%s: pairwise %v %v, margin %v, curve %v, P_g curve %v; want none without labels", r.Learner, r.PrPairwise, r.PgPairwise, r.Margin, r.Curve, r.PgCurve)
		}
		if r.Updates != r.Epochs*tr.Len() || r.Epochs != 5 {
			t.Errorf("%s: %d updates in %d epochs; want every card of 5 epochs, %d", r.Learner, r.Updates, r.Epochs, 5*tr.Len())
		}
	}
	again, err := Run(context.Background(), cfg, machine.SeedsFrom(1), tr, te, spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again.Rows[0].Clusters, rep.Rows[0].Clusters) || !reflect.DeepEqual(again.Rows[0].TestClusters, rep.Rows[0].TestClusters) {
		t.Errorf("the same seed gave other clusters: %+v, then %+v", rep.Rows[0].Clusters, again.Rows[0].Clusters)
	}
	s := SummariseSeeds([]uint64{1, 1}, []*Report{rep, again})
	if !s.Rows[0].Clustered() || s.Rows[0].Purity.Mean != rep.Rows[0].Clusters.Purity || s.Rows[2].Clustered() {
		t.Errorf("over seeds: %+v; want the hardware's purity, the perceptron's none", s.Rows)
	}
}

// TestFourLayers: a four-layer machine with η = 0 compares exactly as the
// three-layer machine (its A_II copies A_I); with the default η its
// couplings learn first, and the software learners on association see A_II
// as the hardware's R-units do (the rows differ from the three-layer
// machine's).
func TestFourLayers(t *testing.T) {
	three, _ := machine.Preset("mark1")
	tr, te := data(t, "leftright", 12)
	spec := Spec{Learners: []string{"hardware", "perceptron"}, Features: []string{"association"}, Seed: 2, Options: epochs(20)}
	run := func(cfg machine.Config) *Report {
		r, err := Run(context.Background(), cfg, machine.SeedsFrom(2), tr, te, spec, nil)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	base := run(three)
	four := three
	four.Layers, four.Coupling = 4, coupling.Config{}.Defaults()
	four.Coupling.Eta = 0
	same := run(four)
	for i := range base.Rows {
		x, y := base.Rows[i], same.Rows[i]
		if x.Pr != y.Pr || !reflect.DeepEqual(x.Pg, y.Pg) || x.Updates != y.Updates {
			t.Errorf("η = 0: row %d (%s) differs from three layers", i, x.Learner)
		}
	}
	four.Coupling.Eta = coupling.DefaultEta
	learned := run(four)
	if reflect.DeepEqual(learned.Pa, base.Pa) {
		t.Errorf("default η: P_a %v, as three layers' — the couplings did not learn before the features were made", learned.Pa)
	}
}
