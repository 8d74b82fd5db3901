package svm

import (
	"math"
	"math/bits"
	"slices"
	"sync"

	"gonum.org/v1/gonum/floats"

	"mark1/learning"
	"mark1/learning/internal/bytedot"
	"mark1/learning/internal/f32dot"
	"mark1/learning/internal/vexp"
	"mark1/learning/kernel"
)

// This file evaluates kernels fast on the training data. The learning/kernel
// types define the functions; here the data are stored once in the layout
// that makes their inner products cheapest:
//
//   - bit sets when every feature is 0 or 1 and the vectors are not very
//     sparse: x·z is the number of common ones, a popcount of x AND z, 64
//     features per machine word (the retina's photocells are such data);
//   - index lists (with values, or without when all values are 1) when the
//     vectors are sparse: a kernel row K(x_i, ·) scatters x_i into a dense
//     buffer once and then reads only the non-zeros of each x_j;
//   - bytes when every value is a byte over 255 (pixels read as byte/255,
//     exactly): x·z is an exact integer sum of byte products over 255²,
//     8 bytes a row entry fewer than float64 and summed 32 at a time with
//     AVX2 where the processor has it;
//   - float32 rows when the data are stored so (learning.Float32, the
//     form of the commands' dense data files) or are float32 values in
//     sparse rows that are not sparse (a model file's support vectors):
//     half the memory of float64 and summed 8 at a time with AVX2
//     (kernelrows32.go);
//   - dense rows otherwise, with gonum's assembly dot product.
//
// The linear, polynomial, Gaussian and Laplace kernels are functions of
// x·z and the squared norms (‖x−z‖² = ‖x‖² + ‖z‖² − 2x·z), so a row of the
// Gram matrix is a row of dot products followed by one pass of the kernel's
// scalar function. Any other kernel.Kernel is evaluated with its Eval.

type layout int

const (
	layoutDense layout = iota
	layoutSparse
	layoutBits
	layoutBytes
	layoutGeneric
	layoutF32
)

// kernelKind is the scalar function applied to dot products.
type kernelKind int

const (
	kindLinear kernelKind = iota
	kindPoly
	kindGauss
	kindLaplace
	kindSigmoid
	kindGeneric
)

// vectors holds the data in one layout. Positions may be permuted by swap
// (the SMO solver moves shrunk variables to the end).
type vectors struct {
	layout layout
	dim    int
	dense  [][]float64
	idx    [][]int32
	val    [][]float64 // nil rows (or nil val) when all values are 1
	bits   [][]uint64
	bytes  [][]uint8   // layoutBytes: x = bytes/255
	f32    [][]float32 // layoutF32
	orig   [][]float64 // the rows as float64s, for generic kernels only
	sq     []float64   // ‖x‖²

	scatter []float64 // dense buffer of length dim for the sparse layout
}

// chooseLayout picks the layout for X from the average number of non-zeros,
// with costs measured on amd64 (BenchmarkKernelRow and whole solver runs):
// a popcount word costs about as much as two sparse non-zeros, and a sparse
// non-zero (a gather from the scattered row) about as much as three entries
// of gonum's assembly dense dot.
func chooseLayout(X [][]float64) (l layout, binary bool) {
	if len(X) == 0 {
		return layoutDense, false
	}
	nnz, binary := learning.NonZeros(X)
	return pickLayout(binary, nnz, len(X), len(X[0])), binary
}

// pickLayout is chooseLayout's rule for n rows of dim features with nnz
// non-zeros in all: learning.ChooseForm's.
func pickLayout(binary bool, nnz, n, dim int) layout {
	switch learning.ChooseForm(binary, nnz, n, dim) {
	case learning.FormBits:
		return layoutBits
	case learning.FormSparse:
		return layoutSparse
	}
	return layoutDense
}

// layoutOf picks the layout for rows sub of r. Bit sets stay bit sets;
// sparse rows stay sparse unless more than a third of their entries are
// non-zero (then a dense copy is faster and at most twice the memory of
// the sparse form); dense rows go through chooseLayout.
func layoutOf(r learning.Rows, sub []int) (layout, bool) {
	sub = allRows(r, sub)
	switch r := r.(type) {
	case *learning.Bits:
		return layoutBits, true
	case *learning.Grey:
		return layoutBytes, false
	case *learning.Float32:
		return layoutF32, false
	case *learning.Sparse:
		nnz := 0
		for _, i := range sub {
			nnz += r.Start[i+1] - r.Start[i]
		}
		if pickLayout(false, nnz, len(sub), r.Dim()) == layoutSparse {
			return layoutSparse, false
		}
		return denseSparseLayout(r, sub), false
	case *learning.Dense:
		X := make([][]float64, len(sub))
		for k, i := range sub {
			X[k] = r.X[i]
		}
		l, binary := chooseLayout(X)
		if l == layoutDense {
			for _, x := range X {
				if !bytedot.FromGrey(nil, x) {
					return l, binary
				}
			}
			return layoutBytes, binary
		}
		return l, binary
	}
	return layoutDense, false
}

// allRows returns sub, or 0, 1, …, r.Len()−1 when sub is nil.
func allRows(r learning.Rows, sub []int) []int {
	if sub != nil {
		return sub
	}
	sub = make([]int, r.Len())
	for i := range sub {
		sub[i] = i
	}
	return sub
}

// newVectors stores rows sub of r (all rows when sub is nil) in layout l.
// Rows are shared with r where its form is the layout's (dense rows, bit
// sets, sparse rows), and copied once into one block otherwise; float32
// rows of a proper subset are gathered into store's block (setF32). orig,
// the rows as float64 slices, is filled only for the generic layout
// (written out densely if r is not dense).
func newVectors(r learning.Rows, sub []int, l layout, binary bool, store *rowStore) *vectors {
	sub = allRows(r, sub)
	n := len(sub)
	v := &vectors{layout: l, dim: r.Dim(), sq: make([]float64, n)}
	for k, i := range sub {
		v.sq[k] = r.SqNorm(i)
	}
	dense, _ := r.(*learning.Dense)
	row := func(k int) []float64 { // row sub[k] as float64s, shared if dense
		if dense != nil {
			return dense.X[sub[k]]
		}
		return r.Row(nil, sub[k])
	}
	switch l {
	case layoutGeneric:
		v.orig = make([][]float64, n)
		for k := range sub {
			v.orig[k] = row(k)
		}
	case layoutDense:
		v.dense = make([][]float64, n)
		if dense != nil {
			for k, i := range sub {
				v.dense[k] = dense.X[i]
			}
			break
		}
		block := make([]float64, n*v.dim)
		for k, i := range sub {
			v.dense[k] = r.Row(block[k*v.dim:(k+1)*v.dim:(k+1)*v.dim], i)
		}
	case layoutBytes:
		v.bytes = make([][]uint8, n)
		if g, ok := r.(*learning.Grey); ok {
			for k, i := range sub {
				v.bytes[k] = g.Bytes(i)
				v.sq[k] = float64(bytedot.Dot(v.bytes[k], v.bytes[k])) / bytedot.Scale
			}
			break
		}
		block := make([]uint8, n*v.dim)
		var buf []float64
		for k, i := range sub {
			b := block[k*v.dim : (k+1)*v.dim : (k+1)*v.dim]
			buf = r.Row(buf, i)
			bytedot.FromGrey(b, buf)
			v.bytes[k] = b
			v.sq[k] = float64(bytedot.Dot(b, b)) / bytedot.Scale
		}
	case layoutF32:
		v.setF32(r, sub, store)
	case layoutBits:
		v.bits = make([][]uint64, n)
		if b, ok := r.(*learning.Bits); ok {
			w := b.Words
			for k, i := range sub {
				v.bits[k] = b.W[i*w : (i+1)*w : (i+1)*w]
			}
			break
		}
		w := (v.dim + 63) / 64
		buf := make([]uint64, n*w)
		for k := range sub {
			b := buf[k*w : (k+1)*w : (k+1)*w]
			for j, f := range row(k) {
				if f != 0 {
					b[j>>6] |= 1 << (uint(j) & 63)
				}
			}
			v.bits[k] = b
		}
	case layoutSparse:
		v.idx = make([][]int32, n)
		v.val = make([][]float64, n)
		v.scatter = make([]float64, v.dim)
		if s, ok := r.(*learning.Sparse); ok {
			for k, i := range sub {
				v.idx[k], v.val[k] = s.NonZeros(i)
			}
			break
		}
		nnz := 0
		for k := range sub {
			for _, f := range row(k) {
				if f != 0 {
					nnz++
				}
			}
		}
		ib := make([]int32, 0, nnz)
		var vb []float64
		if !binary {
			vb = make([]float64, 0, nnz)
		}
		for k := range sub {
			st := len(ib)
			for j, f := range row(k) {
				if f != 0 {
					ib = append(ib, int32(j))
					if !binary {
						vb = append(vb, f)
					}
				}
			}
			v.idx[k] = ib[st:len(ib):len(ib)]
			if !binary {
				v.val[k] = vb[st:len(vb):len(vb)]
			}
		}
	}
	return v
}

func (v *vectors) swap(i, j int) {
	v.sq[i], v.sq[j] = v.sq[j], v.sq[i]
	switch v.layout {
	case layoutGeneric:
		v.orig[i], v.orig[j] = v.orig[j], v.orig[i]
	case layoutDense:
		v.dense[i], v.dense[j] = v.dense[j], v.dense[i]
	case layoutBits:
		v.bits[i], v.bits[j] = v.bits[j], v.bits[i]
	case layoutBytes:
		v.bytes[i], v.bytes[j] = v.bytes[j], v.bytes[i]
	case layoutF32:
		v.f32[i], v.f32[j] = v.f32[j], v.f32[i]
	case layoutSparse:
		v.idx[i], v.idx[j] = v.idx[j], v.idx[i]
		v.val[i], v.val[j] = v.val[j], v.val[i]
	}
}

// rowBytes is the memory one stored vector takes in the tiled layouts
// (gram.tiled), at least 1.
func (v *vectors) rowBytes() int {
	per := 8
	switch v.layout {
	case layoutF32:
		per = 4
	case layoutBytes:
		per = 1
	}
	return max(1, per*v.dim)
}

// dots sets dst[k] = x_i·x_{from+k} for k < len(dst).
func (v *vectors) dots(dst []float64, i, from int) {
	switch v.layout {
	case layoutDense:
		xi := v.dense[i]
		rows := v.dense[from : from+len(dst)]
		for k, xj := range rows {
			dst[k] = dot(xi, xj)
		}
	case layoutBits:
		xi := v.bits[i]
		rows := v.bits[from : from+len(dst)]
		for k, xj := range rows {
			dst[k] = float64(popAnd(xi, xj))
		}
	case layoutBytes:
		xi := v.bytes[i]
		rows := v.bytes[from : from+len(dst)]
		for k, xj := range rows {
			dst[k] = float64(bytedot.Dot(xi, xj)) / bytedot.Scale
		}
	case layoutF32:
		v.dotsF32(dst, i, from)
	case layoutSparse:
		s := v.scatterRow(i)
		dotsAt(dst, s, v.idx[from:from+len(dst)], v.val[from:from+len(dst)])
		v.clearScatter(i)
	}
}

// scatterRow writes sparse row i into the scatter buffer and returns it.
func (v *vectors) scatterRow(i int) []float64 {
	s := v.scatter
	if v.val[i] == nil {
		for _, k := range v.idx[i] {
			s[k] = 1
		}
	} else {
		for n, k := range v.idx[i] {
			s[k] = v.val[i][n]
		}
	}
	return s
}

// clearScatter zeroes the scatter buffer's entries of sparse row i.
func (v *vectors) clearScatter(i int) {
	for _, k := range v.idx[i] {
		v.scatter[k] = 0
	}
}

// dotsAt sets dst[k] = dotAt(w, idx[k], val[k]), or sumAt(w, idx[k]) when
// val[k] is nil, for k < len(dst): the rows with values a stretch at a
// time where the processor has AVX (dotsAtAVX).
func dotsAt(dst, w []float64, idx [][]int32, val [][]float64) {
	idx, val = idx[:len(dst)], val[:len(dst)]
	for k := 0; k < len(dst); {
		e := k
		if useDotAtAVX {
			for e < len(dst) && len(val[e]) >= len(idx[e]) {
				e++
			}
			dotsAtAVX(dst[k:e], w, idx[k:e], val[k:e])
			if e == len(dst) {
				break
			}
		}
		if val[e] == nil {
			dst[e] = sumAt(w, idx[e])
		} else {
			dst[e] = dotAt(w, idx[e], val[e])
		}
		k = e + 1
	}
}

// dot returns x·z for rows of equal length. gonum's assembly kernel is
// about 1.6 times faster than an unrolled Go loop on amd64.
func dot(x, z []float64) float64 { return floats.Dot(x, z) }

// sumAt returns Σ_k w[idx[k]], with four accumulators to keep the adds
// from waiting on each other.
func sumAt(w []float64, idx []int32) float64 {
	var s0, s1, s2, s3 float64
	n := len(idx) &^ 3
	for k := 0; k < n; k += 4 {
		s0 += w[idx[k]]
		s1 += w[idx[k+1]]
		s2 += w[idx[k+2]]
		s3 += w[idx[k+3]]
	}
	for k := n; k < len(idx); k++ {
		s0 += w[idx[k]]
	}
	return (s0 + s1) + (s2 + s3)
}

// dotAt returns Σ_k w[idx[k]]·val[k], with four accumulators (dotAtGo),
// every idx[k] in w (the rows' indices lie below their dimension). Below
// dotAtShort non-zeros the Go loop is faster than a call of the assembly
// for one row.
func dotAt(w []float64, idx []int32, val []float64) float64 {
	if useDotAtAVX && len(idx) >= dotAtShort {
		var d [1]float64
		dotsAtAVX(d[:], w, [][]int32{idx}, [][]float64{val[:len(idx)]})
		return d[0]
	}
	return dotAtGo(w, idx, val)
}

// dotAtShort is the fewest non-zeros for which dotAt calls the assembly:
// one row of 12 non-zeros took 17 ns that way against 10 in Go, of 40
// non-zeros 28 against 43 (rows of 400 features).
const dotAtShort = 32

// dotAtGo is dotAt's loop: product k added to s_(k mod 4), the last
// len(idx) mod 4 to s0, and (s0 + s1) + (s2 + s3).
func dotAtGo(w []float64, idx []int32, val []float64) float64 {
	val = val[:len(idx)]
	var s0, s1, s2, s3 float64
	n := len(idx) &^ 3
	for k := 0; k < n; k += 4 {
		s0 += w[idx[k]] * val[k]
		s1 += w[idx[k+1]] * val[k+1]
		s2 += w[idx[k+2]] * val[k+2]
		s3 += w[idx[k+3]] * val[k+3]
	}
	for k := n; k < len(idx); k++ {
		s0 += w[idx[k]] * val[k]
	}
	return (s0 + s1) + (s2 + s3)
}

// selfDot returns x_i·x_i on sparse rows as dots computes it, without the
// scatter: dotAt's sum with w[idx[k]] = val[k] (sumAt's of ones: the
// count).
func (v *vectors) selfDot(i int) float64 {
	val := v.val[i]
	if val == nil {
		return float64(len(v.idx[i]))
	}
	var s0, s1, s2, s3 float64
	n := len(val) &^ 3
	for k := 0; k < n; k += 4 {
		s0 += val[k] * val[k]
		s1 += val[k+1] * val[k+1]
		s2 += val[k+2] * val[k+2]
		s3 += val[k+3] * val[k+3]
	}
	for k := n; k < len(val); k++ {
		s0 += val[k] * val[k]
	}
	return (s0 + s1) + (s2 + s3)
}

// popAnd returns the number of bits set in both a and b.
func popAnd(a, b []uint64) int {
	b = b[:len(a)]
	n := 0
	for k, w := range a {
		n += bits.OnesCount64(w & b[k])
	}
	return n
}

// gram evaluates the kernel on the stored vectors.
type gram struct {
	v     *vectors
	k     kernel.Kernel
	kind  kernelKind
	gamma float64 // Gaussian: 1/(2σ²); Laplace: 1/σ
	poly  kernel.Polynomial
	sig   kernel.Sigmoid
	buf   []float64
	// threads is the number of goroutines that compute one long kernel
	// row together (dense, byte and bit-set layouts); each entry is
	// computed alone, so the row is the same whatever the number.
	threads int
}

// parallelRow is the shortest row worth splitting among goroutines: a
// goroutine costs about a microsecond, a kernel entry tens of nanoseconds.
const parallelRow = 2048

// newGram stores rows sub of r (all when sub is nil) for kernel k.
func newGram(r learning.Rows, sub []int, k kernel.Kernel) *gram {
	return newGramIn(r, sub, k, nil)
}

// newGramIn is newGram with the rows gathered, where they are, into
// store's block (nil: a block of their own).
func newGramIn(r learning.Rows, sub []int, k kernel.Kernel, store *rowStore) *gram {
	g := &gram{k: k}
	switch k := k.(type) {
	case kernel.Linear:
		g.kind = kindLinear
	case kernel.Polynomial:
		g.kind = kindPoly
		g.poly = k
	case kernel.Gaussian:
		g.kind = kindGauss
		g.gamma = 1 / (2 * k.Sigma * k.Sigma)
	case kernel.Laplace:
		g.kind = kindLaplace
		g.gamma = 1 / k.Sigma
	case kernel.Sigmoid:
		g.kind = kindSigmoid
		g.sig = k
	default:
		g.kind = kindGeneric
	}
	l, binary := layoutGeneric, false
	if g.kind != kindGeneric {
		l, binary = layoutOf(r, sub)
	}
	g.v = newVectors(r, sub, l, binary, store)
	g.buf = make([]float64, len(g.v.sq))
	return g
}

// apply maps the dot product d of x_i and x_j to k(x_i, x_j).
func (g *gram) apply(d float64, i, j int) float64 {
	switch g.kind {
	case kindLinear:
		return d
	case kindPoly:
		return g.poly.FromDot(d)
	case kindSigmoid:
		return g.sig.FromDot(d)
	case kindGauss:
		return math.Exp(-g.gamma * math.Max(g.v.sq[i]+g.v.sq[j]-2*d, 0))
	case kindLaplace:
		return math.Exp(-g.gamma * math.Sqrt(math.Max(g.v.sq[i]+g.v.sq[j]-2*d, 0)))
	}
	return g.k.Eval(g.v.orig[i], g.v.orig[j])
}

// eval returns k(x_i, x_j).
func (g *gram) eval(i, j int) float64 {
	if g.kind == kindGeneric || g.v.layout == layoutGeneric {
		return g.k.Eval(g.v.orig[i], g.v.orig[j])
	}
	var d float64
	switch g.v.layout {
	case layoutDense:
		d = dot(g.v.dense[i], g.v.dense[j])
	case layoutBits:
		d = float64(popAnd(g.v.bits[i], g.v.bits[j]))
	case layoutBytes:
		d = float64(bytedot.Dot(g.v.bytes[i], g.v.bytes[j])) / bytedot.Scale
	case layoutF32:
		d = f32dot.Dot(g.v.f32[i], g.v.f32[j])
	default:
		if i == j && g.v.layout == layoutSparse {
			d = g.v.selfDot(i)
			break
		}
		var one [1]float64
		g.v.dots(one[:], i, j)
		d = one[0]
	}
	return g.apply(d, i, j)
}

// row sets dst[k] = y_i y_j k(x_i, x_j) for j = from+k, k < len(dst), with
// y the labels (±1) at the current positions.
func (g *gram) row(dst []float32, y []int8, i, from int) {
	if len(dst) == 0 {
		return
	}
	if !g.split(len(dst)) { // no closure: a solver computes many short rows
		g.rowPart(dst, g.buf[:len(dst)], y, i, from)
		return
	}
	g.parallel(len(dst), func(lo, hi int) { g.rowPart(dst[lo:hi], g.buf[lo:hi], y, i, from+lo) })
}

// split reports whether a row of n entries is computed by g.threads
// goroutines together: when it is long enough to be worth it, and its
// entries are computed apart (not the generic kernels, not sparse rows,
// which share a scatter buffer).
func (g *gram) split(n int) bool {
	return g.threads > 1 && n >= parallelRow && g.kind != kindGeneric && g.v.layout != layoutSparse
}

// parallel calls part on [0, n) split among g.threads goroutines when
// split(n), and on [0, n) at once otherwise.
func (g *gram) parallel(n int, part func(lo, hi int)) {
	if n == 0 {
		return
	}
	if g.split(n) {
		var wg sync.WaitGroup
		t := g.threads
		chunk := (n + t - 1) / t
		for lo := 0; lo < n; lo += chunk {
			hi := min(n, lo+chunk)
			wg.Go(func() { part(lo, hi) })
		}
		wg.Wait()
		return
	}
	part(0, n)
}

// tileBytes is the memory of the columns rows reads for all its rows
// before it moves on: well within a core's second-level cache.
const tileBytes = 192 << 10

// tiled reports whether rows computes several rows for less than their
// cost one at a time: the layouts whose inner products read whole rows of
// numbers, where a long kernel row costs the reading of the data from
// memory once they outgrow the processor's caches.
func (g *gram) tiled() bool {
	if g.kind == kindGeneric {
		return false
	}
	switch g.v.layout {
	case layoutF32, layoutBytes, layoutDense:
		return true
	}
	return false
}

// rows sets dst[b] as row sets it for row is[b], every dst[b] as long, from
// the same columns: the columns are taken a tile at a time and the tile is
// read for every row before the next, so that the data are read from
// memory once for all the rows. Every entry is the one row computes.
func (g *gram) rows(dst [][]float32, y []int8, is []int, from int) {
	tile := max(64, tileBytes/g.v.rowBytes())
	g.parallel(len(dst[0]), func(lo, hi int) {
		for t0 := lo; t0 < hi; t0 += tile {
			t1 := min(hi, t0+tile)
			for b, i := range is {
				g.rowPart(dst[b][t0:t1], g.buf[t0:t1], y, i, from+t0)
			}
		}
	})
}

// rowPart is row for dst, with d (as long) as scratch.
func (g *gram) rowPart(dst []float32, d []float64, y []int8, i, from int) {
	n := len(dst)
	if g.kind == kindGeneric {
		xi := g.v.orig[i]
		for k := range dst {
			v := g.k.Eval(xi, g.v.orig[from+k])
			if y[i] != y[from+k] {
				v = -v
			}
			dst[k] = float32(v)
		}
		return
	}
	g.v.dots(d, i, from)
	g.kernelRow(d, g.v.sq[i], g.v.sq[from:from+n])
	ys := y[from : from+n]
	yi := y[i]
	for k, v := range d {
		if ys[k] != yi {
			v = -v
		}
		dst[k] = float32(v)
	}
}

// kernelRow maps d[k] = x_i·x_k to k(x_i, x_k), with si = ‖x_i‖² and
// sq[k] = ‖x_k‖² (as long as d), for the kernels that are functions of
// dot products.
func (g *gram) kernelRow(d []float64, si float64, sq []float64) {
	switch g.kind {
	case kindPoly:
		for k, v := range d {
			d[k] = g.poly.FromDot(v)
		}
	case kindSigmoid:
		for k, v := range d {
			d[k] = g.sig.FromDot(v)
		}
	case kindGauss:
		sq = sq[:len(d)]
		gm := -g.gamma
		for k, v := range d {
			e := si + sq[k] - 2*v
			if e < 0 {
				e = 0
			}
			d[k] = gm * e
		}
		vexp.Exp(d)
	case kindLaplace:
		sq = sq[:len(d)]
		gm := -g.gamma
		for k, v := range d {
			e := si + sq[k] - 2*v
			if e < 0 {
				e = 0
			}
			d[k] = gm * math.Sqrt(e)
		}
		vexp.Exp(d)
	}
}

func (g *gram) swap(i, j int) { g.v.swap(i, j) }

// evalAll sets dst[s] = k(x_s, x) for every stored vector x_s, using the
// stored layout: a bit set of x when the vectors are bit sets and x is 0/1,
// x itself as the dense side of sparse products, dense dots otherwise. It
// allocates only a bit set for x.
func (g *gram) evalAll(dst, x []float64, sc *evalScratch) {
	v := g.v
	n := len(v.sq)
	dst = dst[:n]
	if n == 0 {
		return // no stored vectors (a machine without support vectors)
	}
	if g.kind == kindGeneric {
		for s, xs := range v.orig {
			dst[s] = g.k.Eval(xs, x)
		}
		return
	}
	if len(x) != v.dim {
		panic("svm: vector of wrong length")
	}
	sqx := math.NaN()
	switch v.layout {
	case layoutBits:
		var xb []uint64
		if isBinary(x) {
			xb = make([]uint64, (v.dim+63)/64)
			for k, f := range x {
				if f != 0 {
					xb[k>>6] |= 1 << (uint(k) & 63)
				}
			}
		}
		for s := range n {
			if xb != nil {
				dst[s] = float64(popAnd(xb, v.bits[s]))
			} else {
				dst[s] = sumBits(x, v.bits[s])
			}
		}
	case layoutF32:
		sqx = v.evalF32(dst, x, sc)
	case layoutBytes:
		sc.xb = slices.Grow(sc.xb[:0], v.dim)[:v.dim]
		xb := sc.xb
		if bytedot.FromGrey(xb, x) {
			for s, b := range v.bytes {
				dst[s] = float64(bytedot.Dot(xb, b)) / bytedot.Scale
			}
			sqx = float64(bytedot.Dot(xb, xb)) / bytedot.Scale
		} else {
			for s, b := range v.bytes {
				dst[s] = bytedot.Floats(x, b) / 255
			}
		}
	case layoutSparse:
		for s, ix := range v.idx {
			if vl := v.val[s]; vl == nil {
				dst[s] = sumAt(x, ix)
			} else {
				dst[s] = dotAt(x, ix, vl)
			}
		}
	default:
		for s, xs := range v.dense {
			dst[s] = dot(xs, x)
		}
	}
	if math.IsNaN(sqx) {
		sqx = dot(x, x)
	}
	g.kernelRow(dst, sqx, v.sq)
}

// sumBits returns Σ x_k over the set bits k of b.
func sumBits(x []float64, b []uint64) float64 {
	var s float64
	for j, w := range b {
		for w != 0 {
			s += x[j<<6+bits.TrailingZeros64(w)]
			w &= w - 1
		}
	}
	return s
}

func isBinary(x []float64) bool {
	for _, f := range x {
		if f != 0 && f != 1 {
			return false
		}
	}
	return true
}
