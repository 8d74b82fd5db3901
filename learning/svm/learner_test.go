package svm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"mark1/learning"
	"mark1/learning/kernel"
)

// blobs returns a Data of k Gaussian classes in dim dimensions with the
// class means spread along the axes.
func blobs(seed uint64, n, k, dim int, spread float64) *learning.Data {
	rng := rand.New(rand.NewPCG(seed, 9))
	d := &learning.Data{X: make([][]float64, n), Y: make([]int, n), Classes: k}
	for i := range n {
		c := i % k
		x := make([]float64, dim)
		for j := range x {
			x[j] = rng.NormFloat64()
			if j%k == c {
				x[j] += spread
			}
		}
		d.X[i], d.Y[i] = x, c
	}
	return d
}

func TestKernelFitMulticlass(t *testing.T) {
	d := blobs(1, 300, 4, 8, 3)
	for _, c := range []struct {
		name string
		l    Kernel
	}{
		{"ovo", Kernel{Kernel: kernel.Gaussian{Sigma: 3}}},
		{"ovr", Kernel{Kernel: kernel.Gaussian{Sigma: 3}, Multiclass: OneVsRest}},
		{"linear ovo", Kernel{}},
	} {
		var epochs int
		rec := learning.RecorderFunc(func(e learning.Epoch) error { epochs++; return nil })
		res, err := c.l.Fit(context.Background(), d, rec)
		if err != nil {
			t.Fatal(err)
		}
		km := res.Model.(*KernelModel)
		want := 6
		if c.l.Multiclass == OneVsRest {
			want = 4
		}
		if len(km.Machines) != want {
			t.Errorf("%s: %d machines; want %d", c.name, len(km.Machines), want)
		}
		if !res.Status.Converged() || res.Epochs == 0 || epochs != len(res.Curve) {
			t.Errorf("%s: Converged %v, Epochs %d, recorded %d of %d curve entries", c.name, res.Status.Converged(), res.Epochs, epochs, len(res.Curve))
		}
		if acc := float64(accuracy(km, d)) / float64(len(d.X)); acc < 0.9 {
			t.Errorf("%s: training accuracy %.3f < 0.9", c.name, acc)
		}
		// Scores agree with Predict.
		s := make([]float64, 0, 4)
		for _, x := range d.X[:20] {
			s = km.Scores(s, x)
			if len(s) != 4 || argmax(s) != km.Predict(x) {
				t.Fatalf("%s: Scores %v disagree with Predict %d", c.name, s, km.Predict(x))
			}
		}
		m := km.Margin()
		for _, mc := range km.Machines {
			if mm := 1 / math.Sqrt(mc.W2); mm < m {
				t.Errorf("%s: Margin %v > machine margin %v", c.name, m, mm)
			}
		}
		if tot, nb := km.SupportVectors(); tot == 0 || tot > len(d.X) || nb > tot {
			t.Errorf("%s: SupportVectors() = %d, %d", c.name, tot, nb)
		}
		t.Logf("%s: %s", c.name, res.Summary)
	}
}

// The model's fast evaluation over its support vectors agrees with the
// binary solver's Decision, which uses the kernel's Eval.
func TestKernelModelDecision(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	Xb, yb := binaryData(rng, 200, 70, 0.2)
	Xg, yg := gaussians(rng, 200, 6, 1)
	for _, c := range []struct {
		X [][]float64
		y []float64
		k kernel.Kernel
	}{
		{Xb, yb, kernel.Gaussian{Sigma: 4}},
		{Xb, yb, kernel.Laplace{Sigma: 8}},
		{Xg, yg, kernel.Polynomial{Degree: 2, Gamma: 0.5, Coef0: 1}},
		{Xg, yg, kernel.Linear{}},
	} {
		d := &learning.Data{X: c.X, Y: make([]int, len(c.y)), Classes: 2}
		for i, v := range c.y {
			d.Y[i] = btoi(v < 0)
		}
		km, _, err := fitKernel(context.Background(), d, Kernel{Kernel: c.k}, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Solve(c.X, c.y, c.k, Settings{})
		if err != nil {
			t.Fatal(err)
		}
		half := make([]float64, len(c.X[0])) // not 0/1: the bit-set layout's fallback
		for j, v := range c.X[0] {
			half[j] = v/2 + 0.1
		}
		probes := append(c.X[:10:10], half, make([]float64, len(c.X[0])))
		for _, x := range probes {
			got := km.decisions(nil, x, &scratch{})[0]
			want := b.Decision(x)
			if math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
				t.Errorf("%v: model f = %v; Binary f = %v", c.k, got, want)
			}
		}
	}
}

func TestFitErrors(t *testing.T) {
	good := blobs(2, 20, 2, 3, 2)
	one := &learning.Data{X: good.X, Y: make([]int, len(good.X)), Classes: 2}
	badY := &learning.Data{X: good.X, Y: append([]int{5}, good.Y[1:]...), Classes: 2}
	short := &learning.Data{X: good.X, Y: good.Y[:3], Classes: 2}
	nan := &learning.Data{X: append([][]float64{{math.NaN(), 0, 0}}, good.X[1:]...), Y: good.Y, Classes: 2}
	for _, l := range []learning.Learner{Kernel{}, Linear{}} {
		for _, c := range []struct {
			name string
			d    *learning.Data
			want error
		}{
			{"one class", one, ErrOneClass},
			{"label", badY, ErrLabel},
			{"lengths", short, ErrShape},
			{"NaN", nan, ErrValue},
			{"nil", nil, ErrShape},
		} {
			if _, err := l.Fit(context.Background(), c.d, nil); !errors.Is(err, c.want) {
				t.Errorf("%s %s: err = %v; want %v", l.Name(), c.name, err, c.want)
			}
		}
	}
	if _, err := (Kernel{Settings: Settings{C: -1}}).Fit(context.Background(), good, nil); !errors.Is(err, ErrSetting) {
		t.Errorf("C = −1: err = %v; want ErrSetting", err)
	}
	if _, err := (Linear{Settings: LinearSettings{C: math.Inf(1)}}).Fit(context.Background(), good, nil); !errors.Is(err, ErrSetting) {
		t.Errorf("linear C = +Inf: err = %v; want ErrSetting", err)
	}
}

func TestFitCancel(t *testing.T) {
	d := blobs(3, 3000, 2, 20, 0.3)
	var cancel context.CancelFunc
	rec := learning.RecorderFunc(func(learning.Epoch) error { cancel(); return nil })
	for _, l := range []learning.Learner{Kernel{Kernel: kernel.Gaussian{Sigma: 1}}, Linear{Settings: LinearSettings{Eps: 1e-9}}} {
		var ctx context.Context
		ctx, cancel = context.WithCancel(context.Background())
		if _, err := l.Fit(ctx, d, rec); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: err = %v; want context.Canceled", l.Name(), err)
		}
		cancel()
	}
}

func TestLinearKKT(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	Xg, yg := gaussians(rng, 400, 10, 0.8)
	Xb, yb := binaryData(rng, 400, 120, 0.2)
	for _, c := range []struct {
		name string
		X    [][]float64
		y    []float64
	}{{"dense", Xg, yg}, {"sparse01", Xb, yb}} {
		for _, s := range []LinearSettings{
			{C: 1, Eps: 1e-5},
			{C: 0.1, Eps: 1e-5, Loss: SquaredHinge},
			{C: 1, Eps: 1e-5, Bias: -1, NoShrinking: true},
		} {
			m, err := SolveLinear(c.X, c.y, s)
			if err != nil {
				t.Fatal(err)
			}
			if m.Status != Optimal {
				t.Errorf("%s %+v: %s", c.name, s, m.Message)
			}
			// Projected gradient of the dual at every α: G_i = y_i f(x_i) − 1 + D α_i.
			diag, upper := 0.0, s.C
			if s.Loss == SquaredHinge {
				diag, upper = 0.5/s.C, math.Inf(1)
			}
			var worst float64
			for i, x := range c.X {
				G := c.y[i]*m.Decision(x) - 1 + diag*m.Alpha[i]
				switch a := m.Alpha[i]; {
				case a == 0:
					worst = math.Max(worst, -G)
				case a == upper:
					worst = math.Max(worst, G)
				default:
					worst = math.Max(worst, math.Abs(G))
				}
			}
			if worst > 1e-4 {
				t.Errorf("%s %+v: projected gradient %.3g > 1e-4", c.name, s, worst)
			}
			if s.Bias < 0 && m.B != 0 {
				t.Errorf("%s: no bias feature but B = %v", c.name, m.B)
			}
		}
	}
}

func TestLinearFitMulticlass(t *testing.T) {
	d := blobs(4, 400, 3, 9, 3)
	res, err := Linear{Settings: LinearSettings{Seed: 3}}.Fit(context.Background(), d, nil)
	if err != nil {
		t.Fatal(err)
	}
	lm := res.Model.(*LinearModel)
	if len(lm.Machines) != 3 || lm.Neg != -1 {
		t.Fatalf("%d machines, Neg %d; want 3 one-vs-rest", len(lm.Machines), lm.Neg)
	}
	if acc := float64(accuracy(lm, d)) / float64(len(d.X)); acc < 0.9 {
		t.Errorf("training accuracy %.3f < 0.9", acc)
	}
	if m := lm.Margin(); !(m > 0) || math.IsInf(m, 0) {
		t.Errorf("Margin() = %v", m)
	}
	// Two classes: a single machine with class 0 positive.
	d2 := blobs(5, 100, 2, 4, 3)
	res, err = Linear{}.Fit(context.Background(), d2, nil)
	if err != nil {
		t.Fatal(err)
	}
	lm = res.Model.(*LinearModel)
	if len(lm.Machines) != 1 || lm.Pos[0] != 0 || lm.Neg != 1 {
		t.Errorf("two classes: %d machines, Pos %v, Neg %d", len(lm.Machines), lm.Pos, lm.Neg)
	}
	// The same seed gives the same model.
	res2, _ := Linear{}.Fit(context.Background(), d2, nil)
	if w1, w2 := lm.Machines[0].W, res2.Model.(*LinearModel).Machines[0].W; w1[0] != w2[0] {
		t.Errorf("same seed, different w: %v, %v", w1, w2)
	}
}

func TestKernelCurve(t *testing.T) {
	d := blobs(6, 600, 2, 5, 1)
	var got []learning.Epoch
	res, err := Kernel{Kernel: kernel.Gaussian{Sigma: 1}}.Fit(context.Background(), d, learning.RecorderFunc(func(e learning.Epoch) error { got = append(got, e); return nil }))
	if err != nil {
		t.Fatal(err)
	}
	sum := 0
	for k, e := range got {
		if e.Epoch != k+1 || e.Mistakes <= 0 {
			t.Errorf("epoch %d: %+v", k, e)
		}
		if k > 0 && e.Risk > got[k-1].Risk+1e-9 {
			t.Errorf("dual objective went up: %v → %v", got[k-1].Risk, e.Risk)
		}
		sum += e.Mistakes
	}
	if sum != res.Epochs || len(got) == 0 {
		t.Errorf("%d epochs summing to %d iterations; Result.Epochs = %d", len(got), sum, res.Epochs)
	}
	if last := got[len(got)-1].Risk; math.Abs(last-res.Model.(*KernelModel).Machines[0].Obj) > 1e-6 {
		t.Errorf("last Risk %v; machine objective %v", last, res.Model.(*KernelModel).Machines[0].Obj)
	}
}

// The curve of a multi-class fit names the machine of each entry: the
// entries come machine by machine in Model order, whatever the number of
// threads, and each machine's last entry holds that machine's own final
// dual objective.
func TestCurveMachines(t *testing.T) {
	d := blobs(4, 400, 4, 5, 1)
	last := func(t *testing.T, curve []learning.Epoch, objs []float64) {
		t.Helper()
		at := map[int]float64{}
		for k, e := range curve {
			if k > 0 && e.Machine < curve[k-1].Machine {
				t.Fatalf("entry %d about machine %d after machine %d", k, e.Machine, curve[k-1].Machine)
			}
			at[e.Machine] = e.Risk
		}
		if len(at) != len(objs) {
			t.Fatalf("entries about %d machines; the model has %d", len(at), len(objs))
		}
		for q, obj := range objs {
			if math.Abs(at[q]-obj) > 1e-6*max(1, math.Abs(obj)) {
				t.Errorf("machine %d: last Risk %v; its objective %v", q, at[q], obj)
			}
		}
	}
	for _, threads := range []int{1, 2} {
		t.Run(fmt.Sprintf("kernel/threads=%d", threads), func(t *testing.T) {
			res, err := Kernel{Kernel: kernel.Gaussian{Sigma: 1}, Settings: Settings{Threads: threads}}.Fit(context.Background(), d, nil)
			if err != nil {
				t.Fatal(err)
			}
			var objs []float64
			for _, m := range res.Model.(*KernelModel).Machines {
				objs = append(objs, m.Obj)
			}
			if len(objs) != 6 {
				t.Fatalf("%d one-vs-one machines for 4 classes; want 6", len(objs))
			}
			last(t, res.Curve, objs)
		})
	}
	t.Run("linear", func(t *testing.T) {
		res, err := Linear{}.Fit(context.Background(), d, nil)
		if err != nil {
			t.Fatal(err)
		}
		var objs []float64
		for _, m := range res.Model.(*LinearModel).Machines {
			objs = append(objs, m.Obj)
		}
		last(t, res.Curve, objs)
	})
}
