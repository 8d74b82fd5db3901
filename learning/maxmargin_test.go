package learning

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// bruteMargin2D returns max over unit vectors u of min_i y_i u·p_i for
// points p_i in the plane, by brute force: the margin of every direction on
// a grid of 200,000 angles, then, since each y_i u·p_i = |p_i| cos(θ − φ_i)
// is concave in θ where it is positive and a minimum of concave functions is
// concave, a ternary search around the best angle.
func bruteMargin2D(p [][2]float64, y []float64) float64 {
	at := func(th float64) float64 {
		s, c := math.Sincos(th)
		m := math.Inf(1)
		for i, q := range p {
			m = min(m, y[i]*(c*q[0]+s*q[1]))
		}
		return m
	}
	const steps = 200_000
	best, bestTh := math.Inf(-1), 0.0
	for k := range steps {
		th := 2 * math.Pi * float64(k) / steps
		if m := at(th); m > best {
			best, bestTh = m, th
		}
	}
	if best <= 0 {
		return best
	}
	lo, hi := bestTh-2*math.Pi/steps, bestTh+2*math.Pi/steps
	for range 200 {
		a, b := lo+(hi-lo)/3, hi-(hi-lo)/3
		if at(a) < at(b) {
			lo = a
		} else {
			hi = b
		}
	}
	return at((lo + hi) / 2)
}

// randomSeparable draws n points whose labels come from a random line
// through the origin (or, with offset, an affine line), leaving a gap.
func randomSeparable(rng *rand.Rand, n, dim int, offset bool) *Data {
	u := make([]float64, dim)
	for j := range u {
		u[j] = rng.NormFloat64()
	}
	norm := math.Sqrt(dot(u, u))
	for j := range u {
		u[j] /= norm // a unit normal: |u·x| spans [0, 3√dim], so points are found
	}
	b := 0.0
	if offset {
		b = 2*rng.Float64() - 1
	}
	d := &Data{Classes: 2}
	for len(d.X) < n {
		x := make([]float64, dim)
		for j := range x {
			x[j] = 3 * (2*rng.Float64() - 1)
		}
		f := dot(u, x) + b
		if math.Abs(f) < 0.3 {
			continue
		}
		c := 0
		if f > 0 {
			c = 1
		}
		d.X = append(d.X, x)
		d.Y = append(d.Y, c)
	}
	return d
}

func labels(d *Data) []float64 {
	y := make([]float64, len(d.Y))
	for i, c := range d.Y {
		y[i] = ovrSign(c, 0, 2)
	}
	return y
}

// TestMaxMarginBruteForce compares γ* with brute force over directions:
// 2-D points without a bias, and 1-D points with the bias input appended
// (so the space is again the plane, (x, 1)).
func TestMaxMarginBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 0))
	for k := range 40 {
		n := 2 + k%7
		bias := k%2 == 1
		dim := 2
		if bias {
			dim = 1
		}
		d := randomSeparable(rng, n, dim, bias)
		var pts [][2]float64
		for _, x := range d.X {
			if bias {
				pts = append(pts, [2]float64{x[0], 1})
			} else {
				pts = append(pts, [2]float64{x[0], x[1]})
			}
		}
		want := bruteMargin2D(pts, labels(d))
		got := MaxMargin(d, bias, 1e-9, 0)
		if got.Status != MarginFound {
			t.Fatalf("set %d (%d points, bias %v): status %v after %d passes, bounds [%v, %v]; brute force %v",
				k, n, bias, got.Status, got.Passes, got.Lower, got.Upper, want)
		}
		if math.Abs(got.Lower-want) > 1e-7*want {
			t.Errorf("set %d (%d points, bias %v): γ* = %.10g, brute force %.10g", k, n, bias, got.Lower, want)
		}
		if len(got.W) != 2 {
			t.Errorf("set %d: separator has %d weights, want 2", k, len(got.W))
		}
	}
}

// Hand-worked sets.
func TestMaxMarginHand(t *testing.T) {
	tests := []struct {
		name   string
		d      *Data
		bias   bool
		want   float64
		status MarginStatus
	}{
		// (1,1), (2,3) against (−1,−2), (−2,−1): w = (1,1)/√2 puts (1,1) at
		// √2 and the others farther; any turn brings (1,1) or (−1,−2)...
		// closer, and the brute force agrees.
		{"four points", &Data{X: [][]float64{{1, 1}, {2, 3}, {-1, -2}, {-2, -1}}, Y: []int{1, 1, 0, 0}, Classes: 2}, false, math.Sqrt2, MarginFound},
		// Two points on a line through the origin, opposite labels, opposite
		// sides: margin 1 (the nearer point).
		{"two points", &Data{X: [][]float64{{1, 0}, {-3, 0}}, Y: []int{1, 0}, Classes: 2}, false, 1, MarginFound},
		// With the bias input, 1-D points 1 (class 1) and −1 (class 0)
		// become (1,1) and (−1,1): the best homogeneous separator is
		// (1, 0) with margin 1.
		{"bias 1-D", &Data{X: [][]float64{{1}, {-1}}, Y: []int{1, 0}, Classes: 2}, true, 1, MarginFound},
		// 2 (class 1) and 1 (class 0) with the bias: (2,1), (1,1); the
		// separator (1,−1.5)/‖·‖ has margin 0.5/√3.25, the best: the
		// margin is the distance from the origin to the segment joining
		// (2,1) and (−1,−1), which is |2·(−1)−1·(−1)|/√(9+4) = 1/√13.
		{"bias offset", &Data{X: [][]float64{{2}, {1}}, Y: []int{1, 0}, Classes: 2}, true, 1 / math.Sqrt(13), MarginFound},
		// A class-1 point at the origin: no margin through the origin.
		{"origin", &Data{X: [][]float64{{0, 0}, {1, 1}}, Y: []int{1, 0}, Classes: 2}, false, 0, MarginNotSeparable},
	}
	for _, tt := range tests {
		m := MaxMargin(tt.d, tt.bias, 1e-10, 0)
		if m.Status != tt.status {
			t.Errorf("%s: status %v, want %v", tt.name, m.Status, tt.status)
			continue
		}
		if tt.status == MarginFound && math.Abs(m.Lower-tt.want) > 1e-8 {
			t.Errorf("%s: γ* = %.12g, want %.12g", tt.name, m.Lower, tt.want)
		}
	}
	// XOR is not separable, with or without a bias: the bounds close in on 0.
	xor := &Data{X: [][]float64{{1, 1}, {-1, -1}, {1, -1}, {-1, 1}}, Y: []int{1, 1, 0, 0}, Classes: 2}
	if m := MaxMargin(xor, true, 0, 2000); m.Status == MarginFound || m.Upper > 0.05 {
		t.Errorf("XOR: status %v, upper bound %v; want no margin found and a small bound", m.Status, m.Upper)
	}
}

// TestMaxMarginBound checks the convergence theorem with this γ: on small
// separable sets the perceptron from the zero start (with its bias input,
// in random orders) never makes more than (R/γ*)² mistakes, R measured in
// the same space, and MistakeBound on MaxMargin's separator gives back γ*.
func TestMaxMarginBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 0))
	for k := range 30 {
		d := randomSeparable(rng, 5+k%20, 2+k%4, true)
		m := MaxMargin(d, true, 1e-9, 0)
		if m.Status != MarginFound {
			t.Fatalf("set %d: %v", k, m.Status)
		}
		w, b := m.W[:len(m.W)-1], m.W[len(m.W)-1]
		r, g, bound := MistakeBound(d, w, b, true)
		if math.Abs(g-m.Lower) > 1e-9*g || r != Radius(d, true) {
			t.Fatalf("set %d: MistakeBound's γ %v, MaxMargin's %v", k, g, m.Lower)
		}
		for seed := range uint64(10) {
			res, err := Perceptron{Seed: seed, MaxEpochs: 100_000}.Fit(context.Background(), d, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Status.Converged() || float64(res.Updates) > bound {
				t.Errorf("set %d, seed %d: %d mistakes (converged %v); the bound (R/γ*)² = %.1f",
					k, seed, res.Updates, res.Status.Converged(), bound)
			}
		}
	}
}

func ExampleMaxMargin() {
	d := &Data{X: [][]float64{{2}, {1}}, Y: []int{1, 0}, Classes: 2}
	m := MaxMargin(d, true, 1e-9, 0)
	r, g, bound := MistakeBound(d, m.W[:1], m.W[1], true)
	fmt.Printf("%v: γ* = %.4f (1/√13), R = %.4f (√5), bound (R/γ*)² = %.1f\n", m.Status, g, r, bound)
	// Output:
	// found: γ* = 0.2774 (1/√13), R = 2.2361 (√5), bound (R/γ*)² = 65.0
}

// MaxMargin reads the features through Rows: 0/1 features stored as Bits
// give the margin the same features give as plain rows.
func TestMaxMarginRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	X := make([][]float64, 16)
	Y := make([]int, len(X))
	for i := range X {
		X[i] = make([]float64, 40)
		for j := range X[i] {
			if rng.IntN(4) == 0 {
				X[i][j] = 1
			}
		}
		Y[i] = i % 2
	}
	plain := MaxMargin(&Data{X: X, Y: Y, Classes: 2}, true, 1e-9, 0)
	rows := Compact(X)
	if _, ok := rows.(*Bits); !ok {
		t.Fatalf("Compact chose %T for 0/1 rows", rows)
	}
	packed := MaxMargin(&Data{Rows: rows, Y: Y, Classes: 2}, true, 1e-9, 0)
	if plain.Status != MarginFound || packed.Status != MarginFound || math.Abs(plain.Lower-packed.Lower) > 1e-7*plain.Lower {
		t.Errorf("plain rows %v γ=%v, bits %v γ=%v", plain.Status, plain.Lower, packed.Status, packed.Lower)
	}
}

// A cancelled context stops the solver after one pass, undecided, with
// valid bounds around the margin MaxMargin finds.
func TestMaxMarginContext(t *testing.T) {
	d := randomSeparable(rand.New(rand.NewPCG(9, 9)), 40, 5, true)
	full := MaxMargin(d, true, 1e-9, 0)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m := MaxMarginContext(ctx, d, true, 1e-9, 0)
	if full.Status != MarginFound || m.Status != MarginUndecided || m.Passes != 1 {
		t.Fatalf("full %v; cancelled %v after %d passes", full.Status, m.Status, m.Passes)
	}
	if m.Lower > full.Lower*(1+1e-9) || m.Upper < full.Lower*(1-1e-9) {
		t.Errorf("after one pass [%v, %v] does not bound γ* = %v", m.Lower, m.Upper, full.Lower)
	}
}
