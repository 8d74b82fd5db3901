package svm

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"mark1/learning"
	"mark1/learning/kernel"
)

// TestSolveRowsFrom: a solve started from the previous C's solution
// (Binary.StartAt) ends at the cold solve's optimum — the same objective
// within the tolerance, KKT conditions within 2·Eps, the same predictions
// on the training rows but for points on the boundary — up and down the
// grid, with three kernels, and in fewer iterations along an increasing
// ladder of C.
func TestSolveRowsFrom(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	X, y := gaussians(rng, 300, 10, 1)
	rows := learning.NewDense(X)
	ladder := []float64{0.25, 1, 4, 16, 64}
	for _, k := range []kernel.Kernel{kernel.Linear{}, kernel.Gaussian{Sigma: 3}, kernel.Polynomial{Degree: 3, Gamma: 0.1, Coef0: 1}} {
		var coldIter, warmIter int
		for _, order := range [][]float64{ladder, {64, 16, 4, 1, 0.25}} {
			var prev *Binary
			for _, c := range order {
				s := Settings{C: c}
				cold, err := SolveRowsContext(t.Context(), rows, y, k, s)
				if err != nil {
					t.Fatal(err)
				}
				if prev == nil {
					prev = cold
					continue
				}
				start := prev.StartAt(c)
				warm, err := SolveRowsFrom(t.Context(), rows, y, k, s, start)
				if err != nil {
					t.Fatal(err)
				}
				if warm.Status != Optimal {
					t.Fatalf("%v C %g from C %g: %v", k, c, prev.C, warm.Message)
				}
				// Σα ≤ nC bounds the duality gap's growth: a KKT gap of
				// Eps leaves the objective within Eps·Σα of the optimum.
				var sa float64
				for _, a := range cold.Alpha {
					sa += a
				}
				if d := math.Abs(warm.Obj - cold.Obj); d > 1e-3*sa {
					t.Errorf("%v C %g from C %g: obj %.8g; cold %.8g (diff %.3g > eps·Σα %.3g)", k, c, prev.C, warm.Obj, cold.Obj, d, 1e-3*sa)
				}
				withSV(warm, X)
				withSV(cold, X)
				if v := kktViolation(warm, X, y); v > 2e-3 {
					t.Errorf("%v C %g from C %g: KKT violation %.3g", k, c, prev.C, v)
				}
				differ := 0
				for _, x := range X {
					fw, fc := warm.Decision(x), cold.Decision(x)
					if (fw > 0) != (fc > 0) && math.Abs(fc) > 1e-2 {
						differ++
					}
				}
				if differ > 0 {
					t.Errorf("%v C %g from C %g: %d predictions differ from the cold solve's away from the boundary", k, c, prev.C, differ)
				}
				if order[0] < order[1] {
					coldIter += cold.Iter
					warmIter += warm.Iter
				}
				prev = warm
			}
		}
		t.Logf("%v: along C %v: %d SMO iterations cold, %d warm", k, ladder[1:], coldIter, warmIter)
		if warmIter >= coldIter {
			t.Errorf("%v: warm starts took %d iterations, cold %d", k, warmIter, coldIter)
		}
	}
}

// withSV gives a Binary of SolveRowsContext its support vectors, for
// Decision.
func withSV(b *Binary, X [][]float64) {
	b.SV = make([][]float64, len(b.Index))
	for k, i := range b.Index {
		b.SV[k] = X[i]
	}
}

// TestSolveRowsFromInfeasible: a start outside the box or off yᵀα = 0,
// or with a hard margin, is an ErrSetting; the caller's α is not changed.
func TestSolveRowsFromInfeasible(t *testing.T) {
	X := [][]float64{{1, 0}, {-1, 0}, {2, 1}, {-2, 1}}
	y := []float64{1, -1, 1, -1}
	rows := learning.NewDense(X)
	for _, tt := range []struct {
		name  string
		s     Settings
		alpha []float64
	}{
		{"above C", Settings{C: 1}, []float64{2, 2, 0, 0}},
		{"negative", Settings{C: 1}, []float64{-0.5, -0.5, 0, 0}},
		{"NaN", Settings{C: 1}, []float64{math.NaN(), 0, 0, 0}},
		{"yᵀα ≠ 0", Settings{C: 1}, []float64{0.5, 0, 0, 0}},
		{"hard", Settings{Hard: true}, []float64{0, 0, 0, 0}},
	} {
		before := append([]float64(nil), tt.alpha...)
		_, err := SolveRowsFrom(t.Context(), rows, y, kernel.Linear{}, tt.s, tt.alpha)
		if !errors.Is(err, ErrSetting) {
			t.Errorf("%s: err = %v; want ErrSetting", tt.name, err)
		}
		for i := range before {
			if before[i] != tt.alpha[i] && !math.IsNaN(before[i]) {
				t.Errorf("%s: α changed: %v, was %v", tt.name, tt.alpha, before)
			}
		}
	}
}

// TestFitPathGolden: the multiclass learner fitted along C = C/4, C
// (Kernel.FitPath: the second from the first's α, on the same kernel
// cache) agrees at C with LIBSVM's stored answers as Fit does
// (TestGoldenLIBSVM's tolerances: objective within 1e-3 relative, ρ, nSV
// and nBSV, training predictions), and its first model is Fit's at C/4.
// The iterations are logged, not compared: on these small sets a start
// from C/4 saves a few on most machines and costs more on the linear
// kernel's gauss2, whose 130 of 149 support vectors are bounded.
func TestFitPathGolden(t *testing.T) {
	set := loadGolden(t)
	var coldIter, warmIter int
	for _, g := range set.LIBSVM {
		t.Run(g.File+"/"+g.Kernel, func(t *testing.T) {
			d, k := goldenKernel(t, g)
			l := Kernel{Kernel: k, Settings: Settings{Eps: g.Eps}}
			path, err := fitPath(t, l, d, []float64{g.C / 4, g.C})
			if err != nil {
				t.Fatal(err)
			}
			l.Settings.C = g.C / 4
			first, _, err := fitKernel(t.Context(), d, l, nil)
			if err != nil {
				t.Fatal(err)
			}
			l.Settings.C = g.C
			cold, _, err := fitKernel(t.Context(), d, l, nil)
			if err != nil {
				t.Fatal(err)
			}
			km := path[1].Model.(*KernelModel)
			for m, want := range g.Machines {
				got := km.Machines[m]
				if f := path[0].Model.(*KernelModel).Machines[m]; f.Obj != first.Machines[m].Obj || f.Iter != first.Machines[m].Iter {
					t.Errorf("machine %d at C/4: obj %v after %d iterations; Fit's %v after %d", m, f.Obj, f.Iter, first.Machines[m].Obj, first.Machines[m].Iter)
				}
				t.Logf("machine %d: obj %.6f rho %.6f nSV %d nBSV %d, %d iterations (from 0: %d); LIBSVM %.6f %.6f %d %d",
					m, got.Obj, got.Rho, len(got.SV), got.Bounded, got.Iter, cold.Machines[m].Iter, want.Obj, want.Rho, want.NSV, want.NBSV)
				nearLIBSVM(t, m, got, want)
				warmIter += got.Iter
				coldIter += cold.Machines[m].Iter
			}
			if path[1].Epochs != warmIterOf(km) {
				t.Errorf("Result.Epochs %d; the machines' iterations sum to %d", path[1].Epochs, warmIterOf(km))
			}
			if tot, _ := km.SupportVectors(); abs(tot-g.TotalSV) > 2 {
				t.Errorf("total SV = %d; LIBSVM %d", tot, g.TotalSV)
			}
			if c := accuracy(km, d); c != g.Correct {
				t.Errorf("training accuracy %d/%d; LIBSVM %d/%d", c, len(d.X), g.Correct, g.Examples)
			}
		})
	}
	t.Logf("all machines at C: %d SMO iterations from C/4, %d from 0", warmIter, coldIter)
}

// fitPath collects FitPath's results.
func fitPath(t *testing.T, l Kernel, d *learning.Data, cs []float64) ([]*learning.Result, error) {
	var out []*learning.Result
	err := l.FitPath(t.Context(), d, cs, func(i int, r *learning.Result) error {
		if i != len(out) {
			t.Errorf("FitPath gave result %d after %d results", i, len(out))
		}
		out = append(out, r)
		return nil
	})
	return out, err
}

func warmIterOf(km *KernelModel) int {
	n := 0
	for _, m := range km.Machines {
		n += m.Iter
	}
	return n
}

// TestFitPathThreads: FitPath's models do not depend on the number of
// threads, and one-vs-rest and class weights take the same path.
func TestFitPathThreads(t *testing.T) {
	d := blobs(3, 150, 4, 3, 1)
	for _, l := range []Kernel{
		{Kernel: kernel.Gaussian{Sigma: 1}},
		{Kernel: kernel.Gaussian{Sigma: 1}, Multiclass: OneVsRest},
		{Kernel: kernel.Gaussian{Sigma: 1}, ClassWeight: []float64{1, 4, 0.5}},
	} {
		var want []*learning.Result
		for _, th := range []int{1, 3} {
			l.Settings.Threads = th
			got, err := fitPath(t, l, d, []float64{0.5, 2, 8})
			if err != nil {
				t.Fatal(err)
			}
			if want == nil {
				want = got
				continue
			}
			for i := range got {
				a, b := got[i].Model.(*KernelModel), want[i].Model.(*KernelModel)
				for m := range a.Machines {
					if a.Machines[m].Obj != b.Machines[m].Obj || a.Machines[m].Rho != b.Machines[m].Rho || !slices.Equal(a.Machines[m].Coef, b.Machines[m].Coef) {
						t.Errorf("%v: C #%d machine %d differs on %d threads", l.Multiclass, i, m, th)
					}
				}
			}
		}
	}
}

// TestFitPathRefused: FitPath is for the soft-margin C-SVC along an
// increasing list of C; an error of the callback stops it.
func TestFitPathRefused(t *testing.T) {
	d := blobs(3, 60, 3, 2, 0.5)
	for _, tt := range []struct {
		name string
		l    Kernel
		cs   []float64
	}{
		{"no C", Kernel{}, nil},
		{"decreasing", Kernel{}, []float64{2, 1}},
		{"repeated", Kernel{}, []float64{1, 1}},
		{"zero", Kernel{}, []float64{0, 1}},
		{"infinite", Kernel{}, []float64{1, math.Inf(1)}},
		{"NaN", Kernel{}, []float64{math.NaN()}},
		{"ν-SVC", Kernel{Type: NuSVC}, []float64{1, 2}},
		{"hard", Kernel{Settings: Settings{Hard: true}}, []float64{1, 2}},
		{"negative weight", Kernel{ClassWeight: []float64{1, -1, 1}}, []float64{1, 2}},
	} {
		if _, err := fitPath(t, tt.l, d, tt.cs); !errors.Is(err, ErrSetting) {
			t.Errorf("%s: err = %v; want ErrSetting", tt.name, err)
		}
	}
	stop := errors.New("enough")
	calls := 0
	err := Kernel{}.FitPath(t.Context(), d, []float64{1, 2, 4}, func(int, *learning.Result) error { calls++; return stop })
	if err != stop || calls != 1 {
		t.Errorf("FitPath: %v after %d calls; want the callback's error after 1", err, calls)
	}
}
