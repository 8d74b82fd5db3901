package svm

import (
	"slices"

	"mark1/learning"
	"mark1/learning/internal/bytedot"
	"mark1/learning/internal/f32dot"
)

// This file is the float32 layout of the kernel's vectors (layoutF32):
// dense rows of float32, as the commands store dense data files
// (learning.Float32), with dot products from f32dot (AVX2 and FMA where
// the processor has them). ‖x‖² is summed by the same routine as x·z, so
// that the squared distance of a row to itself is exactly 0.

// evalScratch is the working memory of evalAll, reused across the rows of
// a prediction.
type evalScratch struct {
	xb  []uint8   // the row as bytes, for the byte layout
	x32 []float32 // the row as float32s, for the float32 layout
}

// denseSparseLayout is the layout of sparse rows sub of r that are too
// dense to stay sparse: bytes when every value is b/255, float32 when every
// value is a float32 (the support vectors of a model trained on float32
// rows, read back from its file), float64 rows otherwise.
func denseSparseLayout(r *learning.Sparse, sub []int) layout {
	grey, f32 := true, true
	for _, i := range sub {
		_, val := r.NonZeros(i)
		grey = grey && bytedot.FromGrey(nil, val)
		f32 = f32 && f32dot.Exact(val)
		if !grey && !f32 {
			return layoutDense
		}
	}
	if grey {
		return layoutBytes
	}
	return layoutF32
}

// setF32 stores rows sub of r as float32 rows: shared with r when it is
// learning.Float32 and sub takes all its rows or lies in two runs (a pair
// of classes of rows grouped by class, Kernel.RowOrder), or r is a view of
// rows its reader laid out (a fold of cross-validation: held grouped by
// class, its pairs' rows lie in two runs with the other folds' gaps),
// copied (rounded when r is not float32) into store's block otherwise.
func (v *vectors) setF32(r learning.Rows, sub []int, store *rowStore) {
	v.f32 = make([][]float32, len(sub))
	f, ok := r.(*learning.Float32)
	if ok && (len(sub) == r.Len() || runs(sub) <= 2 || f.IsView()) {
		for k, i := range sub {
			v.f32[k] = f.Values(i)
		}
	} else {
		// A pair of a multi-class fit takes its rows from all over the
		// data: gathered in its order, a kernel row reads them from
		// consecutive memory (a fifth less CPU for the whole fit on
		// Fashion-MNIST's 10 classes), in a block the pairs one goroutine
		// solves share.
		block := store.gathered(len(sub), v.dim)
		var buf []float64
		for k, i := range sub {
			row := block[k*v.dim : (k+1)*v.dim : (k+1)*v.dim]
			if ok {
				copy(row, f.Values(i))
			} else {
				buf = r.Row(buf, i)
				f32dot.FromFloat64(row, buf)
			}
			v.f32[k] = row
		}
	}
	for k, x := range v.f32 {
		v.sq[k] = f32dot.Dot(x, x)
	}
}

// runs returns the number of runs of consecutive rows sub lists.
func runs(sub []int) int {
	n := min(len(sub), 1)
	for k := 1; k < len(sub); k++ {
		if sub[k] != sub[k-1]+1 {
			n++
		}
	}
	return n
}

// dotsF32 sets dst[k] = x_i·x_{from+k} for k < len(dst).
func (v *vectors) dotsF32(dst []float64, i, from int) {
	f32dot.Dots(dst, v.f32[i], v.f32[from:from+len(dst)])
}

// toF32 returns x rounded to float32 in the scratch buffer.
func (sc *evalScratch) toF32(x []float64) []float32 {
	sc.x32 = slices.Grow(sc.x32[:0], len(x))[:len(x)]
	f32dot.FromFloat64(sc.x32, x)
	return sc.x32
}

// evalF32 sets dst[s] = x_s·x for every stored vector and returns ‖x‖²,
// with x rounded to float32 as the stored vectors were.
func (v *vectors) evalF32(dst, x []float64, sc *evalScratch) float64 {
	x32 := sc.toF32(x)
	f32dot.Dots(dst, x32, v.f32)
	return f32dot.Dot(x32, x32)
}

// blockSV is the number of float32 support vectors a block prediction
// reads at a time: 256 rows of 400 features are 400 KB, which stay in a
// core's L2 cache while the block's rows are taken against them.
const blockSV = 256

// evalBlockF32 sets kv[r][s] = k(x_s, X[r]) for the rows X of a block and
// every stored vector x_s (layoutF32), as evalAll does row by row, with
// the same values to the last bit: the stored vectors are read a tile at
// a time for all rows, so that they come from the cache rather than from
// memory once per row.
func (g *gram) evalBlockF32(kv [][]float64, X [][]float32) {
	v := g.v
	n := len(v.f32)
	for lo := 0; lo < n; lo += blockSV {
		hi := min(n, lo+blockSV)
		tile := v.f32[lo:hi]
		for r, x := range X {
			f32dot.Dots(kv[r][lo:hi], x, tile)
		}
	}
	for r, x := range X {
		g.kernelRow(kv[r][:n], f32dot.Dot(x, x), v.sq)
	}
}

// blockRows is the number of rows whose kernel values a block prediction
// computes together.
const blockRows = 16

// blockScratch is a PredictRows goroutine's working memory for float32 or
// byte support vectors.
type blockScratch struct {
	x   [][]float32 // the block's rows as float32, when r is not Float32
	xb  [][]uint8   // the block's rows as bytes, when r is not Grey
	row [][]float32 // the block's float32 rows: views of r's or x
	rb  [][]uint8   // the block's byte rows: views of r's or xb
	kv  [][]float64 // their kernel values against every support vector
	kvb [][]float64 // those of the byte rows: views of kv
	buf []float64
}

// predictBlock sets dst[i] to the class of row i of r for lo ≤ i < hi,
// computing the kernel values of up to blockRows rows at a time against
// the float32 or byte support vectors (evalBlockF32, evalBlockBytes). The
// classes are those Predict gives row by row, to the last bit of every
// kernel value. check(i) is called after row i's decision values (sc.f).
func (km *KernelModel) predictBlock(dst []int, r learning.Rows, lo, hi int, sc *scratch, bs *blockScratch, check func(int)) {
	g := km.sv
	nsv, dim := len(g.v.sq), g.v.dim
	if r.Dim() != dim {
		panic("svm: vector of wrong length")
	}
	f32, _ := r.(*learning.Float32)
	grey, _ := r.(*learning.Grey)
	if bs.kv == nil {
		bs.kv = make([][]float64, blockRows)
		bs.x, bs.xb = make([][]float32, blockRows), make([][]uint8, blockRows)
		bs.row, bs.rb = make([][]float32, blockRows), make([][]uint8, blockRows)
		for k := range bs.kv {
			bs.kv[k] = make([]float64, nsv)
		}
	}
	// the rows' own float32s or bytes, made once (bs may serve calls on
	// rows of another type: a Predictor's)
	for k := range blockRows {
		if g.v.layout == layoutF32 && f32 == nil && bs.x[k] == nil {
			bs.x[k] = make([]float32, dim)
		}
		if g.v.layout == layoutBytes && grey == nil && bs.xb[k] == nil {
			bs.xb[k] = make([]uint8, dim)
		}
	}
	linear := false // a machine with explicit weights needs the row as float64
	for m := range km.Machines {
		linear = linear || km.Machines[m].w != nil
	}
	for a := lo; a < hi; a += blockRows {
		b := min(hi, a+blockRows)
		if g.v.layout == layoutF32 {
			X := bs.row[:b-a]
			for k := range X {
				if f32 != nil {
					X[k] = f32.Values(a + k)
					continue
				}
				bs.buf = r.Row(bs.buf, a+k)
				f32dot.FromFloat64(bs.x[k], bs.buf)
				X[k] = bs.x[k]
			}
			g.evalBlockF32(bs.kv, X)
		} else {
			X := bs.rb[:0]
			kv := bs.kvb[:0]
			for k := range b - a {
				if grey != nil {
					X, kv = append(X, grey.Bytes(a+k)), append(kv, bs.kv[k])
					continue
				}
				bs.buf = r.Row(bs.buf, a+k)
				if !bytedot.FromGrey(bs.xb[k], bs.buf) { // not bytes: row by row, as Predict
					g.evalAll(bs.kv[k], bs.buf, &sc.ev)
					continue
				}
				X, kv = append(X, bs.xb[k]), append(kv, bs.kv[k])
			}
			g.evalBlockBytes(kv, X)
			bs.rb, bs.kvb = X, kv
		}
		for k := range b - a {
			if linear {
				sc.x = r.Row(sc.x, a+k)
			}
			sc.pre = bs.kv[k]
			dst[a+k] = km.predict(sc.x, sc)
			check(a + k)
		}
		sc.pre = nil
	}
}

// evalBlockBytes sets kv[r][s] = k(x_s, X[r]) for rows X of bytes and every
// stored vector (layoutBytes), as evalAll does for a grey row, reading the
// stored vectors a tile at a time for all the rows.
func (g *gram) evalBlockBytes(kv [][]float64, X [][]uint8) {
	v := g.v
	n := len(v.bytes)
	for lo := 0; lo < n; lo += blockSV {
		hi := min(n, lo+blockSV)
		tile := v.bytes[lo:hi]
		for r, x := range X {
			d := kv[r][lo:hi]
			for s, xs := range tile {
				d[s] = float64(bytedot.Dot(x, xs)) / bytedot.Scale
			}
		}
	}
	for r, x := range X {
		g.kernelRow(kv[r][:n], float64(bytedot.Dot(x, x))/bytedot.Scale, v.sq)
	}
}
