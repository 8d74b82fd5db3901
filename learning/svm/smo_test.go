package svm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"mark1/learning"
	"mark1/learning/kernel"
)

func TestSolveTwoPoints(t *testing.T) {
	X := [][]float64{{1, 0}, {-1, 0}}
	y := []float64{1, -1}
	b, err := Solve(X, y, kernel.Linear{}, Settings{Eps: 1e-9})
	if err != nil {
		t.Fatal(err)
	}
	const tol = 1e-6
	check := func(name string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > tol {
			t.Errorf("%s = %v; want %v", name, got, want)
		}
	}
	check("α_0", b.Alpha[0], 0.5)
	check("α_1", b.Alpha[1], 0.5)
	check("w_0", b.w[0], 1)
	check("w_1", b.w[1], 0)
	check("b", -b.Rho, 0)
	check("margin", b.Margin(), 1)
	check("obj", b.Obj, -0.5)
	if n, nb := b.SupportVectors(); n != 2 || nb != 0 {
		t.Errorf("SupportVectors() = %d, %d; want 2, 0", n, nb)
	}
	if b.Status != Optimal {
		t.Errorf("Status = %v; want Optimal", b.Status)
	}
}

// The four corners of the square [−1, 1]², labelled by the sign of x_0: the
// separator is w = (1, 0), b = 0 with margin 1 and ‖w‖² = 1, so the dual
// optimum is ½‖w‖² − Σα = ½ − 1 = −½. α is not unique: Σα y x = w and
// yᵀα = 0 give α = (a, ½−a, a, ½−a), a ∈ [0, ½], all with Σα = 1.
func TestSolveSquare(t *testing.T) {
	X := [][]float64{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
	y := []float64{1, 1, -1, -1}
	for _, s := range []Settings{{Eps: 1e-9}, {Hard: true, Eps: 1e-9}} {
		b, err := Solve(X, y, kernel.Linear{}, s)
		if err != nil {
			t.Fatal(err)
		}
		const tol = 1e-6
		var sa float64
		for _, a := range b.Alpha {
			sa += a
		}
		a := b.Alpha
		if math.Abs(sa-1) > tol || math.Abs(a[0]-a[2]) > tol || math.Abs(a[1]-a[3]) > tol {
			t.Errorf("hard=%v: α = %v; want (a, ½−a, a, ½−a)", s.Hard, a)
		}
		if math.Abs(b.w[0]-1) > tol || math.Abs(b.w[1]) > tol || math.Abs(b.Rho) > tol {
			t.Errorf("hard=%v: w = %v, b = %v; want (1, 0), 0", s.Hard, b.w, -b.Rho)
		}
		if math.Abs(b.Margin()-1) > tol || math.Abs(b.Obj+0.5) > tol {
			t.Errorf("hard=%v: margin %v, obj %v; want 1, −0.5", s.Hard, b.Margin(), b.Obj)
		}
	}
}

// The corners of the square with XOR labels are not linearly separable;
// with k(x, z) = (x·z + 1)² they are. There K = 8I + J, so on yᵀα = 0 the
// dual is ½·8‖α‖² − Σα, minimized by α_i = 1/8: ‖w‖² = αᵀQα = 8·4/64 = ½,
// margin √2, obj = ¼ − ½ = −¼, and f(x_i) = y_i, so b = 0.
func TestSolveXOR(t *testing.T) {
	X := [][]float64{{1, 1}, {-1, -1}, {1, -1}, {-1, 1}}
	y := []float64{1, 1, -1, -1}
	poly := kernel.Polynomial{Degree: 2, Coef0: 1}
	for _, s := range []Settings{{Eps: 1e-9}, {Hard: true, Eps: 1e-9}} {
		b, err := Solve(X, y, poly, s)
		if err != nil {
			t.Fatal(err)
		}
		const tol = 1e-6
		for i, a := range b.Alpha {
			if math.Abs(a-0.125) > tol {
				t.Errorf("hard=%v: α_%d = %v; want 1/8", s.Hard, i, a)
			}
		}
		if math.Abs(b.Margin()-math.Sqrt2) > tol || math.Abs(b.Obj+0.25) > tol || math.Abs(b.Rho) > tol {
			t.Errorf("hard=%v: margin %v, obj %v, rho %v; want √2, −¼, 0", s.Hard, b.Margin(), b.Obj, b.Rho)
		}
		for i, x := range X {
			if f := b.Decision(x); math.Abs(f-y[i]) > tol {
				t.Errorf("hard=%v: f(x_%d) = %v; want %v", s.Hard, i, f, y[i])
			}
		}
		if s.Hard && b.Status != Separable {
			t.Errorf("hard: Status = %v (%s); want Separable", b.Status, b.Message)
		}
	}
	// Linear kernel: not separable.
	b, err := Solve(X, y, kernel.Linear{}, Settings{Hard: true})
	if err != nil {
		t.Fatal(err)
	}
	if b.Status != NotSeparable {
		t.Errorf("linear XOR hard margin: Status = %v (%s); want NotSeparable", b.Status, b.Message)
	}
	t.Log(b.Message)
}

func TestSolveErrors(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		name string
		X    [][]float64
		y    []float64
		k    kernel.Kernel
		s    Settings
		want error
	}{
		{"ragged", [][]float64{{1, 0}, {1}}, []float64{1, -1}, kernel.Linear{}, Settings{}, ErrShape},
		{"empty", nil, nil, kernel.Linear{}, Settings{}, ErrShape},
		{"NaN", [][]float64{{1, nan}, {1, 0}}, []float64{1, -1}, kernel.Linear{}, Settings{}, ErrValue},
		{"label", [][]float64{{1}, {2}}, []float64{1, 0}, kernel.Linear{}, Settings{}, ErrLabel},
		{"one class", [][]float64{{1}, {2}}, []float64{1, 1}, kernel.Linear{}, Settings{}, ErrOneClass},
		{"C<0", [][]float64{{1}, {2}}, []float64{1, -1}, kernel.Linear{}, Settings{C: -1}, ErrSetting},
		{"C NaN", [][]float64{{1}, {2}}, []float64{1, -1}, kernel.Linear{}, Settings{C: nan}, ErrSetting},
		{"sigma", [][]float64{{1}, {2}}, []float64{1, -1}, kernel.Gaussian{}, Settings{}, ErrSetting},
		{"sigma too small", [][]float64{{1}, {2}}, []float64{1, -1}, kernel.Gaussian{Sigma: 1e-160}, Settings{}, ErrSetting},
		{"kernel overflows", [][]float64{{1}, {2}}, []float64{1, -1}, kernel.Polynomial{Degree: 20, Gamma: 1, Coef0: 1e300}, Settings{}, ErrKernel},
		{"kernel overflows on large values", [][]float64{{1e200}, {2}}, []float64{1, -1}, kernel.Polynomial{Degree: 2, Gamma: 1}, Settings{}, ErrKernel},
	} {
		_, err := Solve(c.X, c.y, c.k, c.s)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: err = %v; want %v", c.name, err, c.want)
		}
	}
}

// gaussians returns n points in dim dimensions from two overlapping
// Gaussian classes with means ±sep/2 along every axis.
func gaussians(rng *rand.Rand, n, dim int, sep float64) ([][]float64, []float64) {
	X := make([][]float64, n)
	y := make([]float64, n)
	for i := range X {
		y[i] = 1
		if i%2 == 1 {
			y[i] = -1
		}
		x := make([]float64, dim)
		for j := range x {
			x[j] = rng.NormFloat64() + y[i]*sep/2
		}
		X[i] = x
	}
	return X, y
}

// binaryData returns n 0/1 vectors, as from a retina: class templates with
// pixels flipped at random.
func binaryData(rng *rand.Rand, n, dim int, flip float64) ([][]float64, []float64) {
	tmpl := [2][]float64{make([]float64, dim), make([]float64, dim)}
	for j := range dim {
		tmpl[0][j] = float64(rng.IntN(2))
		tmpl[1][j] = tmpl[0][j]
		if rng.Float64() < 0.3 {
			tmpl[1][j] = 1 - tmpl[1][j]
		}
	}
	X := make([][]float64, n)
	y := make([]float64, n)
	for i := range X {
		c := i % 2
		y[i] = float64(1 - 2*c)
		x := make([]float64, dim)
		for j := range x {
			x[j] = tmpl[c][j]
			if rng.Float64() < flip {
				x[j] = 1 - x[j]
			}
		}
		X[i] = x
	}
	return X, y
}

// kktViolation returns the largest violation of the KKT conditions of the
// soft-margin problem, measured on y_i f(x_i) with f evaluated in float64
// by the kernel's Eval: α = 0 ⇒ y f ≥ 1, 0 < α < C ⇒ y f = 1, α = C ⇒
// y f ≤ 1, and |yᵀα|.
func kktViolation(b *Binary, X [][]float64, y []float64) float64 {
	var worst, sum float64
	for i, x := range X {
		var f float64
		for j, xj := range X {
			if b.Alpha[j] != 0 {
				f += b.Alpha[j] * y[j] * b.Kernel.Eval(xj, x)
			}
		}
		yf := y[i] * (f - b.Rho)
		a := b.Alpha[i]
		var v float64
		switch {
		case a == 0:
			v = 1 - yf
		case a >= b.C:
			v = yf - 1
		default:
			v = math.Abs(yf - 1)
		}
		worst = math.Max(worst, v)
		sum += a * y[i]
	}
	return math.Max(worst, math.Abs(sum))
}

func TestSolveKKT(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	Xg, yg := gaussians(rng, 300, 10, 1)
	Xb, yb := binaryData(rng, 300, 100, 0.2)
	kernels := []kernel.Kernel{
		kernel.Linear{},
		kernel.Polynomial{Degree: 3, Gamma: 0.1, Coef0: 1},
		kernel.Gaussian{Sigma: 2},
		kernel.Laplace{Sigma: 3},
	}
	for _, data := range []struct {
		name string
		X    [][]float64
		y    []float64
	}{{"gauss", Xg, yg}, {"binary", Xb, yb}} {
		for _, k := range kernels {
			for _, s := range []Settings{{C: 1}, {C: 10, NoShrinking: true}, {C: 0.1, CacheMB: 0.01}} {
				k, s := k, s
				if data.name == "binary" {
					if g, ok := k.(kernel.Gaussian); ok {
						g.Sigma = 5
						k = g
					}
					if pk, ok := k.(kernel.Polynomial); ok {
						pk.Gamma = 0.01
						k = pk
					}
				}
				b, err := Solve(data.X, data.y, k, s)
				if err != nil {
					t.Fatal(err)
				}
				// Eps bounds m(α) − M(α); each side of it is within Eps.
				if v := kktViolation(b, data.X, data.y); v > 2e-3 {
					t.Errorf("%s %v C=%v: KKT violation %.3g > 2e-3 (status %v)", data.name, k, s.C, v, b.Status)
				}
			}
		}
	}
}

func TestCacheBudget(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	X, y := gaussians(rng, 400, 5, 0.5)
	for _, mb := range []float64{0.001, 0.1, 0.3, 100} {
		p := newProblem(learning.NewDense(X), nil, X, []int8(nil), kernel.Gaussian{Sigma: 1}, Settings{CacheMB: mb, Eps: 1e-3})
		yy := make([]int8, len(y))
		for i := range y {
			yy[i] = int8(y[i])
		}
		p.y = yy
		p.s.MaxIter = 0
		budget := max(int64(mb*(1<<20)), 2*rowBytes(len(X)))
		if _, err := p.run(t.Context(), 1, 1, nil, func(int, float64) {
			if p.c.bytes() > budget {
				t.Fatalf("CacheMB %v: cache holds %d bytes > %d", mb, p.c.bytes(), budget)
			}
		}); err != nil {
			t.Fatal(err)
		}
		if p.c.bytes() > budget {
			t.Errorf("CacheMB %v: cache holds %d bytes > %d", mb, p.c.bytes(), budget)
		}
		for i, r := range p.c.rows {
			if cap(r) > len(X) {
				t.Errorf("row %d has capacity %d > n", i, cap(r))
			}
		}
	}
}

// The cache with position swaps gives the same rows as evaluating Q
// directly, for every layout, under a tiny and a large budget, each
// problem's cache in the storage the one before it used (as the pairs of a
// multi-class fit share a rowStore), so that no stale entry passes for a
// computed one.
func TestCacheSwap(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	Xb, yb := binaryData(rng, 60, 130, 0.3)
	Xg, yg := gaussians(rng, 60, 7, 1)
	sparse := make([][]float64, len(Xg))
	for i, x := range Xg {
		sparse[i] = make([]float64, 40)
		sparse[i][i%40] = x[0]
		sparse[i][(3*i)%40] = x[1]
	}
	stores := map[float64]*rowStore{0: {}, 1: {}} // one per budget, for every case in turn
	for _, c := range []struct {
		name string
		X    [][]float64
		y    []float64
		k    kernel.Kernel
	}{
		{"bits", Xb, yb, kernel.Gaussian{Sigma: 5}},
		{"dense", Xg, yg, kernel.Polynomial{Degree: 2, Gamma: 0.3, Coef0: 1}},
		{"sparse", sparse, yg, kernel.Laplace{Sigma: 2}},
		{"generic", Xg, yg, kernel.Kernel(customKernel{})},
	} {
		for _, mb := range []float64{0, 1} {
			yy := make([]int8, len(c.y))
			for i, v := range c.y {
				yy[i] = int8(v)
			}
			p := newProblem(learning.NewDense(c.X), nil, c.X, yy, c.k, Settings{CacheMB: mb, store: stores[mb]})
			n := p.n
			for op := range 3000 {
				i, j := rng.IntN(n), rng.IntN(n)
				if op%3 == 0 {
					p.swap(i, j)
					continue
				}
				length := 1 + rng.IntN(n)
				r := p.row(i, length)
				for m := range length {
					a, b := p.perm[i], p.perm[m]
					want := c.y[a] * c.y[b] * c.k.Eval(c.X[a], c.X[b])
					if math.Abs(float64(r[m])-want) > 1e-6*math.Max(1, math.Abs(want)) {
						t.Fatalf("%s mb=%v op %d: Q[%d][%d] = %v; want %v", c.name, mb, op, i, m, r[m], want)
					}
				}
			}
		}
	}
}

// customKernel is a kernel the package does not know: it goes through Eval.
type customKernel struct{}

func (customKernel) Eval(x, z []float64) float64 { return math.Pow(1+kernel.Dot(x, z)/10, 2) }
func (customKernel) String() string              { return "custom" }

// ‖w‖² on float32 rows, taken a tile of blockSV support vectors at a
// time, is the double sum Σ_ab c_a c_b k(x_a, x_b) over the support
// vectors computed pair by pair in float64.
func TestW2Tiled(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	X, y := gaussians(rng, 1200, 20, 0.2)
	for _, x := range X {
		for j := range x {
			x[j] = float64(float32(x[j]))
		}
	}
	rows, err := learning.NewFloat32(X)
	if err != nil {
		t.Fatal(err)
	}
	k := kernel.Gaussian{Sigma: 4}
	b, err := solveAll(t.Context(), rows, nil, y, k, Settings{C: 10, CacheMB: 1}, func(int, float64) {})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Index) <= 2*blockSV {
		t.Fatalf("%d support vectors: fewer than three tiles", len(b.Index))
	}
	var want, scale float64
	for a, i := range b.Index {
		for c, j := range b.Index {
			v := b.Coef[a] * b.Coef[c] * k.Eval(X[i], X[j])
			want += v
			scale += math.Abs(v)
		}
	}
	if math.Abs(b.W2-want) > 1e-6*scale {
		t.Errorf("W2 = %v, pair by pair %v (terms of magnitude %v)", b.W2, want, scale)
	}
}

// A store made for problems of at most most rows holds the cache of every
// such problem without growing (a smaller problem's rows can fill the
// budget more closely than the largest one's).
func TestRowStoreHoldsEveryCache(t *testing.T) {
	for _, most := range []int{1, 2, 7, 100, 6500} {
		for _, budget := range []int64{0, 1000, 4 * 6400 * 4096, 100 << 20} {
			s := newRowStore(most, budget)
			for n := 1; n <= most; n++ {
				if need := cacheSlots(n, budget) * n; need > s.size {
					t.Fatalf("most %d, budget %d: a problem of %d rows needs %d entries, the store holds %d", most, budget, n, need, s.size)
				}
			}
		}
	}
}

// A fit whose kernel cache was large lets go of it, collected, before it
// returns: the model is not assembled beside 36 MB of garbage.
func TestFitCollectsLargeCache(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	X, y := gaussians(rng, 3000, 10, 1)
	labels := make([]int, len(y))
	for i, v := range y {
		labels[i] = int(max(v, 0))
	}
	l := Kernel{Kernel: kernel.Gaussian{Sigma: 3}, Settings: Settings{C: 1, Eps: 0.1, CacheMB: 64, Threads: 1}}
	if _, err := l.Fit(t.Context(), &learning.Data{X: X, Y: labels, Classes: 2}, nil); err != nil {
		t.Fatal(err)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if store := int64(4 * 3000 * 3000); int64(ms.HeapAlloc) > store {
		t.Errorf("%d bytes on the heap after the fit, more than its %d-byte cache", ms.HeapAlloc, store)
	}
}

// Rows computed ahead (rowAhead, prefetch) change when a kernel row is
// computed, not what the solver does: on float32, byte and float64 rows,
// with a cache that evicts and one that holds every row, one thread and
// three per row, the run with rows ahead takes the same steps to the same
// α, bit for bit, as the run without, and it did compute rows ahead.
func TestRowsAheadSameRun(t *testing.T) {
	X, cls := sixDigits(1500, 60, 3)
	y := make([]int8, len(X))
	for i, c := range cls {
		y[i] = 1
		if c != 0 {
			y[i] = -1
		}
	}
	f32, err := learning.NewFloat32(X)
	if err != nil {
		t.Fatal(err)
	}
	grey := make([][]float64, len(X)) // byte/255 values: the byte layout
	for i, x := range X {
		grey[i] = make([]float64, len(x))
		for k, v := range x {
			grey[i][k] = float64(uint8(v*255)) / 255
		}
	}
	for _, c := range []struct {
		name string
		r    learning.Rows
		want layout
		k    kernel.Kernel
	}{
		{"float32", f32, layoutF32, kernel.Gaussian{Sigma: 2}},
		{"bytes", learning.NewDense(grey), layoutBytes, kernel.Laplace{Sigma: 4}},
		{"float64", learning.NewDense(X), layoutDense, kernel.Gaussian{Sigma: 2}},
	} {
		for _, mb := range []float64{1, 20} {
			for _, threads := range []int{1, 3} {
				name := fmt.Sprintf("%s/%vMB/%d-threads", c.name, mb, threads)
				run := func(ahead bool) (*problem, *smoResult) {
					p := newProblem(c.r, nil, nil, slices.Clone(y), c.k, Settings{CacheMB: mb, Eps: 1e-3, rowThreads: threads})
					if p.g.v.layout != c.want || !p.ahead {
						t.Fatalf("%s: layout %d, ahead %v; want layout %d and rows ahead", name, p.g.v.layout, p.ahead, c.want)
					}
					p.ahead, p.aheadFrom = ahead, 0
					res, err := p.run(context.Background(), 10, 10, nil, nil)
					if err != nil {
						t.Fatal(err)
					}
					return p, res
				}
				p0, r0 := run(false)
				p1, r1 := run(true)
				if p1.computedAhead == 0 || r0.iter < 1000 {
					t.Fatalf("%s: %d rows ahead in %d iterations; the test needs rows ahead and shrinking", name, p1.computedAhead, r0.iter)
				}
				if r0.iter != r1.iter || math.Float64bits(r0.obj) != math.Float64bits(r1.obj) || !slices.Equal(p0.perm, p1.perm) {
					t.Fatalf("%s: %d iterations to %v without rows ahead, %d to %v with", name, r0.iter, r0.obj, r1.iter, r1.obj)
				}
				for i := range p0.alpha {
					if math.Float64bits(p0.alpha[i]) != math.Float64bits(p1.alpha[i]) {
						t.Fatalf("%s: α at position %d = %v without rows ahead, %v with", name, i, p0.alpha[i], p1.alpha[i])
					}
				}
			}
		}
	}
}

// Rows computed ahead in a cache that evicts (130 slots of 300 rows),
// among swaps and rows asked for at three lengths, hold Q's entries:
// rows the slots of a window's uncached rows evict are computed afresh,
// rows computed in part are extended, and what prefetch leaves uncomputed
// row computes.
func TestPrefetchEvicting(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	X, y := gaussians(rng, 300, 7, 1)
	yy := make([]int8, len(y))
	for i, v := range y {
		yy[i] = int8(v)
	}
	k := kernel.Gaussian{Sigma: 2}
	p := newProblem(learning.NewDense(X), nil, X, yy, k, Settings{CacheMB: 130 * 300 * 4 / float64(1<<20)})
	if p.c.maxSlots != 130 || !p.ahead {
		t.Fatalf("%d slots, rows ahead %v; the test needs 130 and rows ahead", p.c.maxSlots, p.ahead)
	}
	check := func(op, i int, r []float32) {
		for m := range r {
			a, b := p.perm[i], p.perm[m]
			if want := y[a] * y[b] * k.Eval(X[a], X[b]); math.Abs(float64(r[m])-want) > 1e-6 {
				t.Fatalf("op %d: Q[%d][%d] = %v; want %v", op, i, m, r[m], want)
			}
		}
	}
	n := p.n
	lengths := []int{n / 3, 2 * n / 3, n} // few, so that rows computed as far as the same entry meet
	for op := range 6000 {
		switch i := rng.IntN(n); op % 4 {
		case 0:
			p.swap(i, rng.IntN(n))
		case 1, 2:
			check(op, i, p.row(i, lengths[rng.IntN(3)]))
		case 3:
			lo := rng.IntN(n - window)
			length := lengths[rng.IntN(3)]
			odd := rng.IntN(2) == 0
			p.prefetch(lo, lo+window, length, func(t int) bool { return !odd || t%2 == 1 })
			for s := lo; s < lo+window; s++ { // what is cached is right, and the rest is computed as asked
				check(op, s, p.c.rows[s])
				if !odd || s%2 == 1 {
					check(op, s, p.row(s, length))
				}
			}
		}
	}
}
