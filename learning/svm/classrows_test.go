package svm

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"mark1/learning"
	"mark1/learning/kernel"
)

// groupedRows returns n rows of dim grey levels (multiples of 1/255) in
// classes classes, the rows grouped by class, as Float32 and Grey rows.
func groupedRows(n, dim, classes int, seed uint64) ([][]float64, []int, map[string]learning.Rows) {
	rng := rand.New(rand.NewPCG(seed, 7))
	X := make([][]float64, n)
	y := make([]int, n)
	for i := range X {
		y[i] = i * classes / n
		X[i] = make([]float64, dim)
		for k := range X[i] {
			v := rng.IntN(256)
			if k%classes == y[i] {
				v = min(255, v+60)
			}
			X[i][k] = float64(v) / 255
		}
	}
	f32, err := learning.NewFloat32(X)
	if err != nil {
		panic(err)
	}
	grey, ok := learning.NewGrey(X)
	if !ok {
		panic("not grey")
	}
	return X, y, map[string]learning.Rows{"float32": f32, "grey": grey}
}

// groupedSparse returns n rows of dim features in classes classes, the rows
// grouped by class, a quarter of the values non-zero and not grey levels,
// as sparse rows stored sparse (layoutSparse).
func groupedSparse(n, dim, classes int, seed uint64) ([][]float64, []int, *learning.Sparse) {
	rng := rand.New(rand.NewPCG(seed, 11))
	X, y := make([][]float64, n), make([]int, n)
	for i := range X {
		y[i] = i * classes / n
		X[i] = make([]float64, dim)
		for k := range X[i] {
			if p := 0.15 + 0.25*float64(btoi(k%classes == y[i])); rng.Float64() < p {
				X[i][k] = rng.Float64()
			}
		}
	}
	return X, y, sparseRows(X)
}

// A pair's rows read from the classes' shared rows are the rows it would
// compute, to the bit, also after the solver has moved its positions.
func TestClassRowsSameAsComputed(t *testing.T) {
	_, y, forms := groupedRows(90, 24, 3, 1)
	_, _, forms["sparse"] = groupedSparse(90, 24, 3, 1)
	k := kernel.Gaussian{Sigma: 1.5}
	for name, r := range forms {
		cls := newClassRows(r, y, []int{0, 1, 2}, k)
		if cls == nil {
			t.Fatalf("%s: no shared rows", name)
		}
		cls.setBudget(1 << 20)
		sub := append(span(0, 30), span(60, 90)...)
		yy := make([]int8, len(sub))
		for i := range yy {
			yy[i] = 1
			if i >= 30 {
				yy[i] = -1
			}
		}
		s := Settings{C: 1, Eps: 1e-3, CacheMB: 1, rowThreads: 1, cls: cls}
		// the first pair computes its rows, the second reads them held (a
		// problem takes its rows and labels for its own)
		for range 2 {
			p := newProblem(r, slices.Clone(sub), nil, slices.Clone(yy), k, s)
			if p.cls == nil {
				t.Fatalf("%s: the pair does not use the shared rows", name)
			}
			rng := rand.New(rand.NewPCG(3, 4))
			for range 40 {
				p.swap(rng.IntN(p.n), rng.IntN(p.n))
			}
			want := make([]float32, p.n)
			for i := range p.n {
				length := p.n - rng.IntN(10)
				got := p.row(i, length)
				p.g.row(want[:length], p.y, i, 0)
				if !slices.Equal(got, want[:length]) {
					t.Fatalf("%s: row %d differs from the computed one", name, i)
				}
			}
		}
		if cls.release() == 0 {
			t.Errorf("%s: no row was shared", name)
		}
	}
}

// A class's shared rows are let go, and their bytes returned to the
// budget, when the last pair that reads them has finished, not before.
func TestClassRowsLetGoAfterLastPair(t *testing.T) {
	_, y, forms := groupedRows(90, 24, 3, 1)
	r := forms["float32"]
	k := kernel.Gaussian{Sigma: 1.5}
	cls := newClassRows(r, y, []int{0, 1, 2}, k)
	if cls == nil {
		t.Fatal("no shared rows")
	}
	const budget = 1 << 20
	cls.setBudget(budget)
	d := &learning.Data{Rows: r, Y: y, Classes: 3}
	ps := pairs(d, []int{0, 1, 2}, OneVsOne) // (0,1), (0,2), (1,2)
	cls.expect(ps)
	g, buf := cls.view(), make([]float64, 90)
	for i := range 90 {
		cls.row(g, i, buf, 1) // held from the second pair that asks
		if cls.row(g, i, buf, 2) == nil {
			t.Fatalf("row %d: no room", i)
		}
	}
	held := func(lo, hi int) (n int) {
		for i := lo; i < hi; i++ {
			n += len(cls.rows[i])
		}
		return n
	}
	all := cls.used.Load()
	cls.finished(ps[0]) // class 0 is still in (0,2), class 1 in (1,2)
	if cls.used.Load() != all || held(0, 90) != 90*30 {
		t.Fatalf("after (0,1): %d bytes held of %d; want all", cls.used.Load(), all)
	}
	cls.finished(ps[1]) // class 0's last pair
	if held(0, 30) != 0 || held(30, 90) != 60*30 {
		t.Errorf("after (0,2): class 0 holds %d values, 1 and 2 %d; want 0 and %d", held(0, 30), held(30, 90), 60*30)
	}
	cls.finished(ps[2])
	if cls.used.Load() != 0 || cls.left.Load() != budget || held(0, 90) != 0 {
		t.Errorf("after every pair: %d bytes held, %d left of %d", cls.used.Load(), cls.left.Load(), budget)
	}
}

// A row is held from the second pair that asks for it: the first does
// without it (it computes the values itself), however often it asks.
func TestClassRowsHeldFromSecondPair(t *testing.T) {
	_, y, forms := groupedRows(60, 12, 3, 3)
	cls := newClassRows(forms["float32"], y, []int{0, 1, 2}, kernel.Gaussian{Sigma: 1.5})
	cls.setBudget(1 << 20)
	g, buf := cls.view(), make([]float64, 60)
	for _, ask := range []struct {
		id   int32
		held bool
	}{{3, false}, {3, false}, {5, true}, {3, true}, {7, true}} {
		if got := cls.row(g, 4, buf, ask.id) != nil; got != ask.held {
			t.Fatalf("pair %d asks for row 4: held %v, want %v", ask.id, got, ask.held)
		}
	}
	if cls.used.Load() != 4*20 {
		t.Errorf("%d bytes held, want 80 (one row)", cls.used.Load())
	}
}

// span returns lo, lo+1, …, hi−1.
func span(lo, hi int) []int {
	s := seq(hi - lo)
	for i := range s {
		s[i] += lo
	}
	return s
}

// The one-vs-one model is the same, bit for bit, with the classes' rows
// shared and without, whatever the threads and the cache (a small cache
// leaves the shared rows no budget, or room for some).
func TestClassRowsSameModel(t *testing.T) {
	X, y, forms := groupedRows(160, 30, 4, 2)
	Xs, _, sp := groupedSparse(160, 30, 4, 2)
	forms["sparse"] = sp
	defer func() { noClassRows = false }()
	for name, r := range forms {
		X := X
		if name == "sparse" {
			X = Xs
		}
		for _, cache := range []float64{0, 0.02, 0.1} {
			var ref string
			for _, off := range []bool{true, false} {
				for _, threads := range []int{1, 2} {
					noClassRows = off
					l := Kernel{Kernel: kernel.Gaussian{Sigma: 2}, Settings: Settings{C: 10, Threads: threads, CacheMB: cache}}
					res, err := l.Fit(context.Background(), &learning.Data{Rows: r, Y: y, Classes: 4}, nil)
					if err != nil {
						t.Fatal(err)
					}
					km := res.Model.(*KernelModel)
					got := fmt.Sprint(km.Machines, res.Summary, km.PredictRows(nil, learning.NewDense(X), 1))
					if ref == "" {
						ref = got
					} else if got != ref {
						t.Errorf("%s, cache %v MB, shared %v, threads %d: the model differs", name, cache, !off, threads)
					}
				}
			}
		}
	}
}

// ‖w‖² on float32 or byte rows, its kernel values a tile at a time, is the sum of
// eval's values in the same order, to the bit, for every kernel of dot
// products.
func TestW2SameAsEval(t *testing.T) {
	_, _, forms := groupedRows(120, 20, 2, 3)
	_, _, sp := groupedSparse(120, 40, 2, 3)
	rng := rand.New(rand.NewPCG(8, 9))
	for _, r := range []learning.Rows{forms["float32"], forms["grey"], sp} {
		for _, k := range []kernel.Kernel{kernel.Gaussian{Sigma: 1.3}, kernel.Laplace{Sigma: 2}, kernel.Polynomial{Degree: 2, Gamma: 0.1, Coef0: 1}, kernel.Linear{}} {
			testW2SameAsEval(t, r, k, rng)
		}
	}
}

// testW2SameAsEval checks p.w2 on rows r with kernel k, random α.
func testW2SameAsEval(t *testing.T, r learning.Rows, k kernel.Kernel, rng *rand.Rand) {
	y := make([]int8, r.Len())
	for i := range y {
		y[i] = int8(1 - 2*(i%2))
	}
	p := newProblem(r, nil, nil, y, k, Settings{C: 1, CacheMB: 1, rowThreads: 1})
	if _, ok := r.(*learning.Sparse); ok && p.g.v.layout != layoutSparse {
		t.Fatalf("sparse rows stored in layout %d", p.g.v.layout)
	}
	if _, ok := r.(*learning.Grey); ok && p.g.v.layout != layoutBytes {
		t.Fatalf("grey rows stored in layout %d", p.g.v.layout)
	}
	for i := range p.alpha {
		if rng.IntN(3) > 0 {
			p.alpha[i] = rng.Float64()
		}
	}
	var sv []int
	for i, a := range p.alpha {
		if a > 0 {
			sv = append(sv, i)
		}
	}
	var want float64
	row := make([]float64, len(sv))
	for a, i := range sv {
		for _, j := range sv[a+1:] {
			row[a] += p.alpha[j] * float64(p.y[j]) * p.g.eval(i, j)
		}
	}
	for a, i := range sv {
		ci := p.alpha[i] * float64(p.y[i])
		want += ci * ci * p.g.eval(i, i)
		want += 2 * ci * row[a]
	}
	want = math.Max(want, 0)
	if got, _ := p.w2(context.Background()); math.Float64bits(got) != math.Float64bits(want) {
		t.Errorf("%T, %v: w2 %v, by eval %v", r, k, got, want)
	}
}

// Sparse rows that would be copied densely (more than a third of the
// values non-zero) share no rows: the store would copy all of them.
func TestClassRowsNotDenseSparse(t *testing.T) {
	X, y, _ := groupedRows(90, 24, 3, 1)
	if c := newClassRows(sparseRows(X), y, []int{0, 1, 2}, kernel.Gaussian{Sigma: 1.5}); c != nil {
		t.Errorf("dense values in sparse rows: shared rows in layout %d", c.g.v.layout)
	}
}

// sparseRows returns the non-zero values of X as sparse rows.
func sparseRows(X [][]float64) *learning.Sparse {
	start := make([]int, len(X)+1)
	var idx []int32
	var val []float64
	for i, x := range X {
		for k := range x {
			if x[k] == 0 {
				continue
			}
			idx, val = append(idx, int32(k)), append(val, x[k])
		}
		start[i+1] = len(idx)
	}
	sp, err := learning.NewSparse(len(X[0]), start, idx, val)
	if err != nil {
		panic(err)
	}
	return sp
}
