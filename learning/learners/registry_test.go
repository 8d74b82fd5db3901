package learners

import (
	"errors"
	"os"
	"strings"
	"testing"

	"mark1/internal/base/param"
	"mark1/learning"
	"mark1/learning/kernel"
)

// The README's table of learners × options × defaults is the registry's.
func TestREADMETable(t *testing.T) {
	var b strings.Builder
	if err := WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), b.String()) {
		t.Errorf("README.md lacks the registry's table (learners.WriteTable); put this in its place:\n%s", b.String())
	}
}

// Every option's default reads back through Set, and Defaults validate.
func TestDefaultsRoundTrip(t *testing.T) {
	d := Defaults()
	if err := d.Validate(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	for _, op := range OptionList() {
		o := Options{}
		if err := o.Set(op.Name, d.Get(op.Name)); err != nil {
			t.Errorf("%s: Set(Get) = %v", op.Name, err)
		}
		if o.Get(op.Name) != d.Get(op.Name) {
			t.Errorf("%s: %q reads back as %q", op.Name, d.Get(op.Name), o.Get(op.Name))
		}
	}
}

// Each bad value is refused in its option's own name, as a typed field
// error.
func TestFieldErrors(t *testing.T) {
	tests := []struct {
		option, value, field string
	}{
		{"C", "0", "C"}, {"C", "-1", "C"}, {"C", "Inf", "C"}, {"C", "x", "C"},
		{"tol", "-1", "tol"}, {"epochs", "0", "epochs"}, {"epochs", "1000001", "epochs"},
		{"eps", "0", "eps"}, {"bias", "0", "bias"}, {"bias", "NaN", "bias"},
		{"order", "random", "order"}, {"loss", "log", "loss"}, {"cache-mb", "0", "cache-mb"},
		{"gamma", "-1", "gamma"}, {"gamma", "often", "gamma"}, {"degree", "21", "degree"},
		{"seed", "-1", "seed"}, {"threads", "-1", "threads"}, {"hard", "maybe", "hard"},
		{"colour", "colour", "option"},
	}
	for _, tt := range tests {
		o := Defaults()
		err := o.Set(tt.option, tt.value)
		var fe *param.FieldError
		if !errors.As(err, &fe) || fe.Field != tt.field || !strings.Contains(err.Error(), tt.value) {
			t.Errorf("Set(%s, %q) = %v; want a field error for %s naming the value", tt.option, tt.value, err, tt.field)
		}
	}
	o := Defaults()
	o.Kernel = "poly:degree=30"
	if f := param.As(o.Validate()); f == nil || f.FieldName() != "kernel.degree" {
		t.Errorf("a bad degree in the kernel word: %v; want a field error for kernel.degree", o.Validate())
	}
	if _, err := Lookup("tree"); param.As(err) == nil || param.As(err).FieldName() != "learner" {
		t.Errorf("Lookup(tree) = %v; want a field error for learner", err)
	}
	p, _ := Lookup("perceptron")
	o = Defaults()
	o.Bias = 2
	if f := param.As(p.Check(o)); f == nil || f.FieldName() != "bias" {
		t.Errorf("perceptron with bias 2: %v; want a field error for bias", p.Check(o))
	}
}

// New builds each learner with the options it reads: the kernel with γ
// resolved from the data as scikit-learn's scale (1/(features × variance)).
func TestNew(t *testing.T) {
	d := &learning.Data{X: [][]float64{{0, 2}, {2, 0}, {0, 0}, {2, 2}}, Y: []int{0, 0, 1, 1}, Classes: 2}
	// 8 values, mean 1, variance 1; 2 features: γ = 1/2, σ = 1.
	s, _ := Lookup("svm")
	b, err := s.New(Defaults(), d)
	if err != nil {
		t.Fatal(err)
	}
	if b.Kernel != (kernel.Gaussian{Sigma: 1}) || b.Gamma == nil || *b.Gamma != 0.5 {
		t.Errorf("svm's default kernel on the data: %v, γ %v; want gaussian:sigma=1, γ 0.5", b.Kernel, b.Gamma)
	}
	if Variance(learning.NewDense(d.X)) != 1 {
		t.Errorf("Variance = %v; want 1", Variance(learning.NewDense(d.X)))
	}
	for _, spec := range All() {
		b, err := spec.New(Defaults(), d)
		if spec.LabOnly { // the lab traces it; no model to build
			var fe *param.FieldError
			if !errors.As(err, &fe) || fe.Field != "learner" {
				t.Errorf("%s: New = %v; want a field error for learner", spec.Name, err)
			}
			continue
		}
		if spec.Needs.Values {
			if err != nil || b.Learner != nil || b.Values == nil || b.Values.Name() != spec.Name {
				t.Errorf("%s: New = %v, %v, %v", spec.Name, b.Learner, b.Values, err)
			}
			continue
		}
		if err != nil || b.Learner == nil || b.Learner.Name() != spec.Name || b.Values != nil {
			t.Errorf("%s: New = %v, %v", spec.Name, b.Learner, err)
		}
	}
}

// Every learner stops when its Recorder returns an error: Fit returns that
// error, and the Result so far (where it keeps one) says Stopped.
func TestRecorderStops(t *testing.T) {
	var x [][]float64
	var y []int
	for i := range 60 {
		v := float64(i%7) - 3
		x = append(x, []float64{v, float64(i%5) - 2 + 0.5*v})
		y = append(y, i%2) // not separable: every learner runs past one entry
	}
	d := &learning.Data{X: x, Y: y, Classes: 2}
	stop := errors.New("enough")
	for _, spec := range All() {
		if spec.LabOnly { // no learning.Learner (the lab's trace)
			continue
		}
		o := Defaults()
		o.Tol = 1e-9
		b, err := spec.New(o, d)
		if err != nil {
			t.Fatal(err)
		}
		told := 0
		rec := learning.RecorderFunc(func(learning.Epoch) error {
			told++
			return stop
		})
		var res *learning.Result
		if b.Learner != nil {
			res, err = b.Learner.Fit(t.Context(), d, rec)
		} else { // the one-class SVM and the SVRs: a number per row
			z := make([]float64, len(y))
			for i, c := range y {
				z[i] = float64(2*c - 1)
			}
			_, err = b.Values.FitValues(t.Context(), d.Features(), z, rec)
		}
		if !errors.Is(err, stop) || told != 1 {
			t.Errorf("%s: Fit = %v after %d entries; want the recorder's error after one", spec.Name, err, told)
			continue
		}
		if res != nil && res.Status != learning.Stopped {
			t.Errorf("%s: status %v; want stopped", spec.Name, res.Status)
		}
	}
}

// One word, one meaning: loss is one option whose values depend on the
// learner; each learner refuses the others' losses in the option's name,
// and every learner that reads loss takes the default.
func TestLossPerLearner(t *testing.T) {
	for _, c := range []struct {
		learner, loss string
		ok            bool
	}{
		{"linear-svm", "hinge", true}, {"linear-svm", "squared-hinge", true},
		{"linear-svm", "logistic", false}, {"linear-svm", "perceptron", false}, {"linear-svm", "squared", false},
		{"sgd", "perceptron", true}, {"sgd", "hinge", true}, {"sgd", "logistic", true}, {"sgd", "squared", true},
		{"sgd", "squared-hinge", false},
		{"perceptron", "logistic", true}, // the perceptron does not read loss
	} {
		s, err := Lookup(c.learner)
		if err != nil {
			t.Fatal(err)
		}
		o := Defaults()
		if err := o.Set("loss", c.loss); err != nil {
			t.Fatalf("Set loss %s: %v", c.loss, err)
		}
		err = s.Check(o)
		var fe *param.FieldError
		if c.ok != (err == nil) || (err != nil && (!errors.As(err, &fe) || fe.Field != "loss")) {
			t.Errorf("%s with loss %s: Check = %v; want ok %v", c.learner, c.loss, err, c.ok)
		}
	}
	o := Defaults()
	if err := o.Set("loss", "cubic"); err == nil {
		t.Error("loss cubic: Set took it")
	}
	for _, s := range All() {
		if s.Reads("loss") && s.Check(Defaults()) != nil {
			t.Errorf("%s refuses the default loss %s", s.Name, Defaults().Loss)
		}
	}
}

// TestRegistryBuiltOnce: Lookup and All share one table, built once; what
// All returns is the caller's to reorder.
func TestRegistryBuiltOnce(t *testing.T) {
	a, _ := Lookup("svm")
	b, _ := Lookup("svm")
	if &a.Options[0] != &b.Options[0] {
		t.Error("Lookup built the registry again")
	}
	all := All()
	all[0], all[1] = all[1], all[0]
	if All()[0].Name != "svm" {
		t.Error("reordering All's slice changed the registry")
	}
	if allocs := testing.AllocsPerRun(100, func() { Lookup("perceptron") }); allocs > 0 {
		t.Errorf("Lookup allocates %v times a call", allocs)
	}
}
