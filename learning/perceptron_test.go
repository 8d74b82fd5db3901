package learning_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"mark1/learning"
)

// The worked example of notes 004: no bias, zero start, data order.
func TestPerceptronWorkedExample(t *testing.T) {
	d := &learning.Data{
		X: [][]float64{{-1, 2}, {1, 0}, {1, 1}, {-1, 0}, {-1, -2}, {1, -1}},
		Y: []int{0, 1, 1, 0, 0, 1}, Classes: 2,
	}
	res, err := learning.Perceptron{NoBias: true, InOrder: true}.Fit(context.Background(), d, nil)
	if err != nil {
		t.Fatal(err)
	}
	w := res.Model.(*learning.LinearModel).W[0]
	if w[0] != 3 || w[1] != 1 {
		t.Errorf("got w = %v; want [3 1] (notes 004: w4 = (3, 1))", w)
	}
	if res.Updates != 3 || !res.Status.Converged() || res.Epochs != 2 {
		t.Errorf("got %d updates, %d epochs, converged %v; want 3, 2, true", res.Updates, res.Epochs, res.Status.Converged())
	}
}

func TestPerceptronConverges(t *testing.T) {
	for _, tc := range []struct {
		name string
		d    *learning.Data
		l    learning.Learner
	}{
		{"2d bias", pt(ptPlanted(1, 200, 2, 0.05, true)), learning.Perceptron{Seed: 1}},
		{"20d bias", pt(ptPlanted(2, 500, 20, 0.05, true)), learning.Perceptron{Seed: 2}},
		{"20d nobias", pt(ptPlanted(3, 500, 20, 0.05, false)), learning.Perceptron{Seed: 3, NoBias: true}},
		{"random start", pt(ptPlanted(4, 300, 5, 0.05, true)), learning.Perceptron{Seed: 4, InitScale: 1, Step: 0.1}},
		{"4 classes", ptBlobs(5, 400, 3, 4, 0.3), learning.Perceptron{Seed: 5}},
		{"averaged", pt(ptPlanted(6, 300, 5, 0.05, true)), learning.AveragedPerceptron{Seed: 6}},
		{"voted", pt(ptPlanted(7, 300, 5, 0.05, true)), learning.VotedPerceptron{Seed: 7}},
		{"pocket", pt(ptPlanted(8, 300, 5, 0.05, true)), learning.Pocket{Seed: 8}},
		{"pocket 4 classes", ptBlobs(9, 400, 3, 4, 0.3), learning.Pocket{Seed: 9}},
		{"batch gd", pt(ptPlanted(10, 300, 5, 0.05, true)), learning.BatchGD{MaxEpochs: 5000}},
		{"mini-batch", pt(ptPlanted(11, 300, 5, 0.05, true)), learning.BatchGD{BatchSize: 10, Seed: 11}},
		{"kernel", pt(ptPlanted(12, 300, 5, 0.05, true)), learning.KernelPerceptron{Seed: 12}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := tc.l.Fit(context.Background(), tc.d, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Status.Converged() || !strings.HasPrefix(res.Summary, "converged") {
				t.Fatalf("got Converged %v, status %q; want convergence", res.Status.Converged(), res.Summary)
			}
			if e := ptErrors(res.Model, tc.d); e != 0 && tc.name != "averaged" && tc.name != "voted" {
				t.Errorf("got training error %v; want 0", e)
			}
			if len(res.Curve) != res.Epochs {
				t.Errorf("got %d curve entries; want %d", len(res.Curve), res.Epochs)
			}
		})
	}
}

func pt(d *learning.Data, _ []float64, _ float64) *learning.Data { return d }

// On data with a planted separator of margin γ, the number of mistakes over
// the whole run never exceeds Novikoff's (R/γ)², whatever the step size.
func TestPerceptronMistakeBound(t *testing.T) {
	for _, tc := range []struct {
		seed  uint64
		n     int
		dim   int
		gamma float64
		bias  bool
		step  float64
	}{
		{1, 200, 2, 0.1, false, 1},
		{2, 500, 2, 0.02, false, 0.01},
		{3, 400, 10, 0.05, false, 7},
		{4, 300, 50, 0.1, false, 1},
		{5, 200, 2, 0.1, true, 1},
		{6, 500, 5, 0.05, true, 0.5},
		{7, 400, 10, 0.02, true, 3},
		{8, 1000, 3, 0.01, true, 1},
	} {
		t.Run(fmt.Sprintf("seed=%d,d=%d,γ=%g,bias=%v", tc.seed, tc.dim, tc.gamma, tc.bias), func(t *testing.T) {
			d, w, b := ptPlanted(tc.seed, tc.n, tc.dim, tc.gamma, tc.bias)
			_, _, bound := learning.MistakeBound(d, w, b, tc.bias)
			res, err := learning.Perceptron{Seed: tc.seed, NoBias: !tc.bias, Step: tc.step, MaxEpochs: 10000}.Fit(context.Background(), d, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Status.Converged() {
				t.Fatalf("did not converge: %s", res.Summary)
			}
			if float64(res.Updates) > bound {
				t.Errorf("got %d mistakes; want ≤ (R/γ)² = %.1f", res.Updates, bound)
			}
			if m := res.Model.(learning.Margined).Margin(); !(m > 0) {
				t.Errorf("got learned margin %v; want > 0 after convergence", m)
			}
		})
	}
}

func TestNonSeparableStatus(t *testing.T) {
	for _, l := range []learning.Learner{
		learning.Perceptron{MaxEpochs: 50, Seed: 1},
		learning.AveragedPerceptron{MaxEpochs: 50, Seed: 1},
		learning.VotedPerceptron{MaxEpochs: 50, Seed: 1},
		learning.Pocket{MaxEpochs: 50, Seed: 1},
		learning.BatchGD{MaxEpochs: 50, BatchSize: 3, Seed: 1},
		learning.KernelPerceptron{MaxEpochs: 50, Seed: 1},
	} {
		t.Run(l.Name(), func(t *testing.T) {
			res, err := l.Fit(context.Background(), ptXOR(3), nil)
			if err != nil {
				t.Fatal(err)
			}
			want := "no error-free epoch in 50 epochs (last epoch: "
			if res.Status.Converged() || res.Epochs != 50 || !strings.HasPrefix(res.Summary, want) ||
				!strings.Contains(res.Summary, "the data may not be linearly separable") {
				t.Errorf("got converged %v after %d epochs, status %q; want the epoch-limit status", res.Status.Converged(), res.Epochs, res.Summary)
			}
			if res.Model == nil {
				t.Error("got no model; want the last one")
			}
		})
	}
}

// A step size only scales the weights of a zero-start perceptron.
func TestPerceptronStepInvariance(t *testing.T) {
	d := pt(ptPlanted(3, 300, 4, 0.02, true))
	r1, _ := learning.Perceptron{Seed: 9}.Fit(context.Background(), d, nil)
	r2, _ := learning.Perceptron{Seed: 9, Step: 0.25}.Fit(context.Background(), d, nil)
	if r1.Updates != r2.Updates || r1.Epochs != r2.Epochs {
		t.Fatalf("got %d/%d updates and %d/%d epochs; want equal", r1.Updates, r2.Updates, r1.Epochs, r2.Epochs)
	}
	m1, m2 := r1.Model.(*learning.LinearModel), r2.Model.(*learning.LinearModel)
	for j, v := range m1.W[0] {
		if math.Abs(v*0.25-m2.W[0][j]) > 1e-12*math.Abs(v) {
			t.Errorf("w[%d]: got %v; want %v", j, m2.W[0][j], v*0.25)
		}
	}
}

func TestSameSeedSameResult(t *testing.T) {
	d := ptNoisy(4, 300, 5, 0.1)
	for _, mk := range []func(seed uint64) learning.Learner{
		func(s uint64) learning.Learner { return learning.Perceptron{Seed: s, MaxEpochs: 20, InitScale: 0.1} },
		func(s uint64) learning.Learner { return learning.AveragedPerceptron{Seed: s, MaxEpochs: 20} },
		func(s uint64) learning.Learner { return learning.VotedPerceptron{Seed: s, MaxEpochs: 20} },
		func(s uint64) learning.Learner { return learning.Pocket{Seed: s, MaxEpochs: 20} },
		func(s uint64) learning.Learner {
			return learning.BatchGD{Seed: s, MaxEpochs: 20, BatchSize: 7, LineSearch: true}
		},
		func(s uint64) learning.Learner {
			return learning.KernelPerceptron{Seed: s, MaxEpochs: 10, Budget: 20}
		},
	} {
		name := mk(0).Name()
		t.Run(name, func(t *testing.T) {
			a, _ := mk(42).Fit(context.Background(), d, nil)
			b, _ := mk(42).Fit(context.Background(), d, nil)
			c, _ := mk(43).Fit(context.Background(), d, nil)
			if ka, kb := ptFingerprint(a), ptFingerprint(b); ka != kb {
				t.Errorf("same seed: got\n%s\nand\n%s; want identical", ka, kb)
			}
			if ptFingerprint(a) == ptFingerprint(c) {
				t.Errorf("seeds 42 and 43 gave identical runs; want different orders")
			}
		})
	}
}

// ptFingerprint prints a result bit for bit.
func ptFingerprint(r *learning.Result) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d %d %v %q\n", r.Epochs, r.Updates, r.Status.Converged(), r.Status)
	for _, e := range r.Curve {
		fmt.Fprintf(&sb, "%d:%d:%x ", e.Epoch, e.Mistakes, math.Float64bits(e.Risk))
	}
	fmt.Fprintf(&sb, "\n%#v", r.Model)
	return sb.String()
}

func TestFitRejectsBadData(t *testing.T) {
	for _, tc := range []struct {
		name string
		d    *learning.Data
		want string
	}{
		{"empty", &learning.Data{Classes: 2}, "no training rows"},
		{"labels", &learning.Data{X: [][]float64{{1}, {2}}, Y: []int{0}, Classes: 2}, "2 rows but 1 labels"},
		{"ragged", &learning.Data{X: [][]float64{{1, 2}, {2}}, Y: []int{0, 1}, Classes: 2}, "row 1 has 1 features; row 0 has 2"},
		{"nan", &learning.Data{X: [][]float64{{1, 2}, {2, math.NaN()}}, Y: []int{0, 1}, Classes: 2}, "row 1, feature 1: NaN is not a finite number"},
		{"inf", &learning.Data{X: [][]float64{{math.Inf(-1)}, {2}}, Y: []int{0, 1}, Classes: 2}, "row 0, feature 0: -Inf"},
		{"range", &learning.Data{X: [][]float64{{1}, {2}}, Y: []int{0, 2}, Classes: 2}, "row 1: label 2 out of range [0, 2)"},
		{"negative", &learning.Data{X: [][]float64{{1}, {2}}, Y: []int{-1, 0}, Classes: 2}, "label -1 out of range"},
		{"one class", &learning.Data{X: [][]float64{{1}, {2}}, Y: []int{1, 1}, Classes: 3}, "only class 1 is present"},
		{"classes", &learning.Data{X: [][]float64{{1}, {2}}, Y: []int{0, 0}, Classes: 1}, "1 classes"},
		{"no features", &learning.Data{X: [][]float64{{}, {}}, Y: []int{0, 1}, Classes: 2}, "row 0 has no features"},
	} {
		for _, l := range ptAllLearners() {
			res, err := l.Fit(context.Background(), tc.d, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) || res != nil {
				t.Errorf("%s, %s: got %v, %v; want nil and an error containing %q", tc.name, l.Name(), res, err, tc.want)
			}
		}
	}
}

func ptAllLearners() []learning.Learner {
	return []learning.Learner{
		learning.Perceptron{}, learning.AveragedPerceptron{}, learning.VotedPerceptron{},
		learning.Pocket{}, learning.BatchGD{}, learning.KernelPerceptron{},
	}
}

func TestFitPanicsOnBadSettings(t *testing.T) {
	d := ptXOR(1)
	for _, l := range []learning.Learner{
		learning.Perceptron{Step: -1}, learning.Perceptron{MaxEpochs: -1},
		learning.Perceptron{InitScale: math.NaN()}, learning.BatchGD{BatchSize: -2},
		learning.KernelPerceptron{Budget: -1}, learning.Pocket{Step: math.Inf(1)},
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.HasPrefix(fmt.Sprint(r), "learning: ") {
					t.Errorf("%#v: got panic %v; want a \"learning: ...\" panic", l, r)
				}
			}()
			l.Fit(context.Background(), d, nil)
		}()
	}
}

func TestFitCancelled(t *testing.T) {
	var cancel context.CancelFunc
	d := ptXOR(2)
	for _, l := range ptAllLearners() {
		if _, ok := l.(learning.BatchGD); ok {
			// From w = 0 XOR's pulls cancel (∇R = 0) and batch GD stops
			// at once; from a random start it keeps going.
			l = learning.BatchGD{InitScale: 0.1}
		}
		epochs := 0
		rec := learning.RecorderFunc(func(e learning.Epoch) error {
			epochs++
			if e.Epoch == 3 {
				cancel()
			}
			return nil
		})
		var ctx context.Context
		ctx, cancel = context.WithCancel(context.Background())
		res, err := l.Fit(ctx, d, rec)
		if !errors.Is(err, context.Canceled) || res == nil || res.Epochs != 3 || epochs != 3 || res.Model == nil {
			t.Errorf("%s: got %v after %d epochs (%d recorded); want context.Canceled after 3", l.Name(), err, res.Epochs, epochs)
		}
	}
	cancel()
}

func TestRecorderSeesCurve(t *testing.T) {
	d := ptNoisy(5, 200, 3, 0.05)
	for _, l := range ptAllLearners() {
		var got []learning.Epoch
		res, err := l.Fit(context.Background(), d, learning.RecorderFunc(func(e learning.Epoch) error { got = append(got, e); return nil }))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(res.Curve) || len(got) == 0 {
			t.Fatalf("%s: recorded %d epochs; curve has %d", l.Name(), len(got), len(res.Curve))
		}
		for i, e := range got {
			if e.Epoch != i+1 || e.Mistakes != res.Curve[i].Mistakes {
				t.Errorf("%s: epoch %d: got %+v; want %+v", l.Name(), i, e, res.Curve[i])
			}
		}
	}
}
