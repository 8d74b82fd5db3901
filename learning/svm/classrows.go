package svm

import (
	"sync"
	"sync/atomic"

	"mark1/learning"
	"mark1/learning/kernel"
)

// This file shares kernel values among the pairs of a one-vs-one fit. A
// row x_i of class a is in the a's k−1 pairs, and the part of its kernel
// row over its own class, k(x_i, x_j) for j of class a, is the same in
// each (Q_ij = k(x_i, x_j) when y_i = y_j): on Fashion-MNIST's 10 classes
// half the kernel values the pairs computed were of that part, and fewer
// than half of those were distinct. classRows computes such a row over the
// whole class when a second pair asks for it (the first computes what it
// needs itself) and the later pairs read it; a pair computes only the
// values against the other class. The values are those the pair would
// compute, to the bit (the same dot products, norms and exponential), so
// the model does not depend on whether a row was shared. On 20x20 digits
// (sparse rows, a quarter of the values non-zero) sharing took mark1 fit
// from 0.76 to 0.60 CPU s.

// noClassRows turns the sharing off (the tests compare the models).
var noClassRows bool

// classRows holds the kernel rows of the rows of each class over their own
// class, computed when a second pair asks for one, while the budget lasts.
// The classes' rows must each be one run of the data (Kernel.RowOrder
// groups them so). It is safe for concurrent use by the goroutines of
// solvePairs, each pair computing rows with its own view of g (view).
type classRows struct {
	g      *gram       // every row of the data
	lo, hi []int32     // row i's class is rows [lo[i], hi[i])
	ones   []int8      // labels +1, for gram.rowPart
	rows   [][]float32 // rows[i]: k(x_i, x_j) for j in [lo[i], hi[i]), or nil
	mu     []sync.Mutex
	left   atomic.Int64 // bytes of the budget left
	used   atomic.Int64 // bytes held by rows
	// pending counts, for each class (by its first row), the pairs that
	// read its rows and have not finished (expect); the last to finish
	// lets them go (finished)
	pending map[int32]*atomic.Int32
	// first[i] is the pair (its id, from 1) that first asked for row i
	// and did without it; ids counts the pairs (useShared)
	first []int32
	ids   atomic.Int32
}

// newClassRows returns the store for the one-vs-one pairs of classes cs on
// rows r with labels y, or nil when it does not apply: fewer than three
// classes, a class whose rows are not one run, rows that are not float32,
// bytes or sparse rows stored sparse (the layouts whose rows are shared
// with r rather than copied), or a kernel that is not a function of dot
// products. Its budget is 0 until solvePairs sets it.
func newClassRows(r learning.Rows, y []int, cs []int, k kernel.Kernel) *classRows {
	if len(cs) < 3 {
		return nil
	}
	switch r.(type) {
	case *learning.Float32, *learning.Grey:
	case *learning.Sparse:
		// stored sparse, not copied densely (more than a third non-zero)
		if l, _ := layoutOf(r, nil); l != layoutSparse {
			return nil
		}
	default:
		return nil
	}
	switch k.(type) {
	case kernel.Linear, kernel.Polynomial, kernel.Gaussian, kernel.Laplace, kernel.Sigmoid:
	default:
		return nil
	}
	n := len(y)
	if n == 0 || r.Len() != n {
		return nil
	}
	c := &classRows{lo: make([]int32, n), hi: make([]int32, n)}
	seen := make(map[int]bool, len(cs))
	for a := 0; a < n; {
		b := a + 1
		for b < n && y[b] == y[a] {
			b++
		}
		if seen[y[a]] {
			return nil // the class's rows are in two runs or more
		}
		seen[y[a]] = true
		for i := a; i < b; i++ {
			c.lo[i], c.hi[i] = int32(a), int32(b)
		}
		a = b
	}
	c.g = newGram(r, nil, k)
	if l := c.g.v.layout; l != layoutF32 && l != layoutBytes && l != layoutSparse {
		return nil
	}
	c.g.buf = nil // rowPart gets each caller's scratch
	c.ones = make([]int8, n)
	for i := range c.ones {
		c.ones[i] = 1
	}
	c.rows = make([][]float32, n)
	c.first = make([]int32, n)
	c.mu = make([]sync.Mutex, n)
	return c
}

// setBudget lets the store hold rows of up to bytes in all.
func (c *classRows) setBudget(bytes int64) { c.left.Store(bytes) }

// view returns c.g for one goroutine's use: sparse rows get a scatter
// buffer of their own (the rows themselves are only read).
func (c *classRows) view() *gram {
	g := *c.g
	if g.v.layout == layoutSparse {
		v := *g.v
		v.scatter = make([]float64, v.dim)
		g.v = &v
	}
	return &g
}

// row returns k(x_i, x_j) for j over row i's class (from its first row),
// computed with g, the caller's view, and buf (at least as long) as
// scratch, for pair id; nil when the row is not held and is not worth
// holding, or the budget is spent: the caller computes the values it needs
// itself. A row is held from the second pair that asks for it: half the
// rows a pair asks for are asked for by no other pair (Fashion-MNIST's 10
// classes, 10k rows: 1,944 of 4,184), and would be held for nothing until
// their class's last pair, where the first pair's own cache holds them
// while it needs them. There, the rows held at most went from 10.2 to
// about 4 MB and the fit's peak RSS from 53.3 to 52.0 MB, for the rows
// asked by two pairs or more computed twice: 0.62 → 0.65 CPU s.
func (c *classRows) row(g *gram, i int, buf []float64, id int32) []float32 {
	c.mu[i].Lock()
	defer c.mu[i].Unlock()
	if r := c.rows[i]; r != nil {
		return r
	}
	if f := c.first[i]; f == 0 || f == id {
		c.first[i] = id
		return nil
	}
	lo, hi := int(c.lo[i]), int(c.hi[i])
	size := 4 * int64(hi-lo)
	if c.left.Add(-size) < 0 {
		c.left.Add(size)
		return nil
	}
	r := make([]float32, hi-lo)
	g.rowPart(r, buf[:hi-lo], c.ones, i, lo)
	c.rows[i] = r
	c.used.Add(size)
	return r
}

// expect counts the pairs ps that will read each class's rows.
func (c *classRows) expect(ps []pair) {
	c.pending = make(map[int32]*atomic.Int32)
	for _, p := range ps {
		for _, rows := range [2][]int{p.first, p.second} {
			if len(rows) == 0 {
				continue
			}
			lo := c.lo[rows[0]]
			if c.pending[lo] == nil {
				c.pending[lo] = new(atomic.Int32)
			}
			c.pending[lo].Add(1)
		}
	}
}

// finished tells the store that pair p has finished: a class whose pairs
// have all finished has its rows let go and their bytes returned to the
// budget. No pair reads them again, so this changes no value, only the
// memory held: on Fashion-MNIST's 10 classes, 10k rows, one thread, the
// rows held at most went from 16.3 to 9.9 MB. A nil store does nothing.
func (c *classRows) finished(p pair) {
	if c == nil || c.pending == nil {
		return
	}
	for _, rows := range [2][]int{p.first, p.second} {
		if len(rows) == 0 {
			continue
		}
		lo := c.lo[rows[0]]
		if n := c.pending[lo]; n == nil || n.Add(-1) != 0 {
			continue
		}
		var freed int64
		for i := int(lo); i < int(c.hi[lo]); i++ {
			c.mu[i].Lock()
			freed += 4 * int64(len(c.rows[i]))
			c.rows[i] = nil
			c.mu[i].Unlock()
		}
		c.used.Add(-freed)
		c.left.Add(freed)
	}
}

// release lets go of the rows and returns the bytes they held.
func (c *classRows) release() int64 {
	if c == nil {
		return 0
	}
	for i := range c.rows {
		c.mu[i].Lock()
		c.rows[i] = nil
		c.mu[i].Unlock()
	}
	return c.used.Swap(0)
}

// most returns the rows of the largest class.
func (c *classRows) most() int {
	m := 0
	for i := range c.lo {
		m = max(m, int(c.hi[i]-c.lo[i]))
	}
	return m
}

// rowShared is problem.row's computation of Q_i over positions [start,
// length) into r when the pairs share their classes' rows: the entries of
// i's own class are read from the store, the others computed, a run of
// positions of one class at a time (the positions of a class are a few
// long runs: shrinking moves variables to the end one by one). It
// computes the whole range when the store has no room for the row.
func (p *problem) rowShared(r []float32, i, start, length int) {
	kr := p.cls.row(p.clsG, p.sub[p.perm[i]], p.clsBuf, p.clsID)
	if kr == nil {
		p.g.row(r[start:length], p.y, i, start)
		return
	}
	yi, y, loc := p.y[i], p.y[:length], p.loc[:length]
	v := p.g.v
	for k := start; k < length; {
		e := k + 1
		for e < length && y[e] == y[k] {
			e++
		}
		if y[k] == yi {
			for t := k; t < e; t++ {
				r[t] = kr[loc[t]]
			}
		} else {
			// y_i y_t = −1 over the run
			d := p.clsBuf[:e-k]
			v.dots(d, i, k)
			p.g.kernelRow(d, v.sq[i], v.sq[k:e])
			dst := r[k:e]
			for t, x := range d {
				dst[t] = float32(-x)
			}
		}
		k = e
	}
}

// useShared sets the problem up to read its classes' rows from s.cls when
// it applies: a pair of the fit whose store it is (sub's rows, of two
// classes), its rows in the store's layout, each kernel row computed by
// one goroutine.
func (p *problem) useShared(s Settings) {
	c := s.cls
	if c == nil || p.sub == nil || s.rowThreads > 1 || p.g.v.layout != c.g.v.layout || p.g.kind != c.g.kind {
		return
	}
	p.cls, p.clsG, p.clsID = c, c.view(), c.ids.Add(1)
	p.loc = make([]int32, p.n)
	for k, i := range p.sub {
		p.loc[k] = int32(i) - c.lo[i]
	}
	p.clsBuf = make([]float64, max(p.n, c.most()))
}
