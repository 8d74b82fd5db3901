package svm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// selectJScalar is selectPair's second loop as written in Go.
func selectJScalar(grad, low, qd []float64, qi []float32, gmax, qdi, yi float64) (gmax2 float64, gj int, objMin float64) {
	gmax2, gj, objMin = math.Inf(-1), -1, math.Inf(1)
	for t, g := range grad {
		v := float64(low[t] * g)
		if v >= gmax2 {
			gmax2 = v
		}
		if gd := gmax + v; gd > 0 {
			a := qdi + qd[t] - float64(2*yi*low[t]*float64(qi[t]))
			if a <= 0 {
				a = tau
			}
			if o := -gd * gd / a; o <= objMin {
				gj, objMin = t, o
			}
		}
	}
	return gmax2, gj, objMin
}

// The four-lane loop finds the scalar loop's j, o and largest y∇f, to the
// bit and to the last tie: on random entries, on entries drawn from a few
// values (ties everywhere), with NaN labels (outside I_low), zeros of
// both signs and curvatures a ≤ 0.
func TestSelectJSameAsScalar(t *testing.T) {
	if !useSelectAVX2 {
		t.Skip("no AVX2")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 3000 {
		n := 4 * (1 + rng.IntN(40))
		few := trial%2 == 1
		pick := func(vals ...float64) float64 { return vals[rng.IntN(len(vals))] }
		grad, low, qd := make([]float64, n), make([]float64, n), make([]float64, n)
		qi := make([]float32, n)
		for k := range n {
			if few {
				grad[k] = pick(-1, 0, math.Copysign(0, -1), 0.5, -0.5, 2)
				qd[k] = pick(1, 0.5, 0)
				qi[k] = float32(pick(1, 0.25, -0.25, 0, 0.75))
			} else {
				grad[k] = rng.NormFloat64()
				qd[k] = rng.Float64()
				qi[k] = float32(rng.Float64()*2 - 1)
			}
			low[k] = pick(1, -1, math.NaN())
		}
		gmax := pick(0.5, 1, 0, 3)
		qdi := pick(1, 0.5, 0)
		yi := pick(1, -1)
		w2, wj, wo := selectJScalar(grad, low, qd, qi, gmax, qdi, yi)
		g2, j, o := selectJ(grad, low, qd, qi, gmax, qdi, 2*yi)
		if j != wj || math.Float64bits(o) != math.Float64bits(wo) || math.Float64bits(g2) != math.Float64bits(w2) {
			t.Fatalf("trial %d: j %d, o %v, gmax2 %v; scalar %d, %v, %v", trial, j, o, g2, wj, wo, w2)
		}
	}
}

// addRows gives the scalar update's gradient, to the bit.
func TestAddRowsSameAsScalar(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 500 {
		n := rng.IntN(70)
		grad, want := make([]float64, n), make([]float64, n)
		qi, qj := make([]float32, n), make([]float32, n)
		for k := range n {
			grad[k] = rng.NormFloat64()
			want[k] = grad[k]
			qi[k], qj[k] = float32(rng.NormFloat64()), float32(rng.NormFloat64())
		}
		di, dj := rng.NormFloat64(), rng.NormFloat64()
		for k := range want {
			want[k] += float64(float64(qi[k])*di) + float64(float64(qj[k])*dj)
		}
		addRows(grad, qi, qj, di, dj)
		for k := range want {
			if math.Float64bits(grad[k]) != math.Float64bits(want[k]) {
				t.Fatalf("trial %d, entry %d: %v, scalar %v", trial, k, grad[k], want[k])
			}
		}
	}
}

// selectPair's first loop in lanes finds the scalar loop's i and largest
// −y∇f, to the last tie.
func TestSelectISameAsScalar(t *testing.T) {
	if !useSelectAVX2 {
		t.Skip("no AVX2")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 2000 {
		n := 4 * (1 + rng.IntN(40))
		grad, up := make([]float64, n), make([]float64, n)
		for k := range n {
			if trial%2 == 0 {
				grad[k] = rng.NormFloat64()
			} else {
				grad[k] = []float64{-1, 0, math.Copysign(0, -1), 2}[rng.IntN(4)]
			}
			up[k] = []float64{1, -1, math.NaN()}[rng.IntN(3)]
		}
		wv, wi := math.Inf(-1), -1
		for k, g := range grad {
			if v := up[k] * g; v >= wv {
				wv, wi = v, k
			}
		}
		c := [12]float64{4: 0, 5: 1, 6: 2, 7: 3, 8: math.Inf(-1), 9: -1, 10: 4}
		var out [16]float64
		selectIAVX2(grad, up, &c, &out)
		v, i := bestLane(out[0:4], out[4:8])
		if i != wi || math.Float64bits(v) != math.Float64bits(wv) {
			t.Fatalf("trial %d: i %d, v %v; scalar %d, %v", trial, i, v, wi, wv)
		}
	}
}
