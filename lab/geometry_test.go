package lab

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// line is a·X + b·Y = c.
type line struct{ a, b, c float64 }

// TestFeasibleRegion checks the drawn feasible region against brute force:
// every intersection point of two of the lines (box edges and dual lines)
// that satisfies every half-plane and lies in the box, and their convex
// hull, must be exactly the polygon's vertices.
func TestFeasibleRegion(t *testing.T) {
	box := Box{-5, 5, -4, 6}
	for _, c := range []struct {
		name  string
		empty bool
	}{{"notes-004", false}, {"pizza-001", false}, {"xor", true}, {"needs-bias", true}, {"overlap", true}} {
		e := mustFind(t, c.name)
		poly, err := FeasibleRegion(e, box)
		if err != nil {
			t.Fatal(err)
		}
		if (len(poly) == 0) != c.empty {
			t.Errorf("%s: region %v; want empty %v", c.name, poly, c.empty)
			continue
		}
		lines := []line{{1, 0, box.X0}, {1, 0, box.X1}, {0, 1, box.Y0}, {0, 1, box.Y1}}
		for i, x := range e.X {
			y := float64(e.Y[i])
			lines = append(lines, line{y * x[0], y * x[1], 0})
		}
		inside := func(p Point) bool {
			if p.X < box.X0-1e-9 || p.X > box.X1+1e-9 || p.Y < box.Y0-1e-9 || p.Y > box.Y1+1e-9 {
				return false
			}
			for i, x := range e.X {
				if float64(e.Y[i])*(x[0]*p.X+x[1]*p.Y) < -1e-9 {
					return false
				}
			}
			return true
		}
		var cand []Point
		for i := range lines {
			for j := i + 1; j < len(lines); j++ {
				l, m := lines[i], lines[j]
				det := l.a*m.b - l.b*m.a
				if math.Abs(det) < 1e-12 {
					continue
				}
				p := Point{(l.c*m.b - l.b*m.c) / det, (l.a*m.c - l.c*m.a) / det}
				if inside(p) {
					cand = append(cand, p)
				}
			}
		}
		hull := convexHull(cand)
		if c.empty {
			if len(hull) >= 3 && math.Abs(area(hull)) > 1e-9 {
				t.Errorf("%s: brute force finds a region of area %v", c.name, area(hull))
			}
			continue
		}
		for _, p := range poly {
			if !inside(p) {
				t.Errorf("%s: vertex %v breaks a constraint", c.name, p)
			}
		}
		if len(hull) != len(poly) {
			t.Errorf("%s: %d vertices %v; brute force %d %v", c.name, len(poly), poly, len(hull), hull)
			continue
		}
		for _, p := range hull {
			if !slices.ContainsFunc(poly, func(q Point) bool { return math.Hypot(p.X-q.X, p.Y-q.Y) < 1e-9 }) {
				t.Errorf("%s: brute-force vertex %v missing from %v", c.name, p, poly)
			}
		}
		if area(poly) <= 0 {
			t.Errorf("%s: polygon not counter-clockwise (area %v)", c.name, area(poly))
		}
	}
}

// convexHull returns the hull of ps counter-clockwise without collinear
// points (Andrew's monotone chain).
func convexHull(ps []Point) []Point {
	ps = slices.Clone(ps)
	slices.SortFunc(ps, func(a, b Point) int {
		if a.X != b.X {
			return cmpF(a.X, b.X)
		}
		return cmpF(a.Y, b.Y)
	})
	cross := func(o, a, b Point) float64 { return (a.X-o.X)*(b.Y-o.Y) - (a.Y-o.Y)*(b.X-o.X) }
	var h []Point
	for pass := 0; pass < 2; pass++ {
		start := len(h)
		for _, p := range ps {
			for len(h) >= start+2 && cross(h[len(h)-2], h[len(h)-1], p) <= 1e-12 {
				h = h[:len(h)-1]
			}
			h = append(h, p)
		}
		h = h[:len(h)-1]
		slices.Reverse(ps)
	}
	return h
}

func cmpF(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TestRiskCreases checks that R's creases are the dual lines (001): the
// gradient of R jumps across each dual line — by exactly ±y_i x_i — and is
// the same on both sides of any small step that crosses no dual line; and
// that it is R's gradient (finite differences).
func TestRiskCreases(t *testing.T) {
	for _, name := range []string{"notes-004", "pizza-001", "overlap"} {
		e := mustFind(t, name)
		// Either side of each dual line, away from the others.
		for i, x := range e.X {
			n := math.Hypot(x[0], x[1])
			u := []float64{-x[1] / n, x[0] / n} // along the line
			nn := []float64{x[0] / n, x[1] / n} // across it
			for _, s := range []float64{-2.3, 1.7} {
				p := []float64{s * u[0], s * u[1]}
				if distToOtherLines(e, p, i) < 1e-3 {
					continue
				}
				const d = 1e-6
				a := RiskGradient(e, false, []float64{p[0] + d*nn[0], p[1] + d*nn[1]})
				b := RiskGradient(e, false, []float64{p[0] - d*nn[0], p[1] - d*nn[1]})
				jump := []float64{a[0] - b[0], a[1] - b[1]}
				// Crossing to the side of y x: sample i leaves V, the
				// gradient gains +y x... exactly ±x.
				if math.Abs(math.Abs(jump[0])-math.Abs(x[0])) > 1e-12 || math.Abs(math.Abs(jump[1])-math.Abs(x[1])) > 1e-12 || (jump[0] == 0 && jump[1] == 0) {
					t.Errorf("%s: across dual line %d at %v the gradient jumps by %v; want ±%v", name, i+1, p, jump, x)
				}
			}
		}
		// Random points: no jump unless a dual line lies between.
		r := rand.New(rand.NewPCG(4, 1))
		for range 2000 {
			w := []float64{8*r.Float64() - 4, 8*r.Float64() - 4}
			v := []float64{w[0] + 1e-4*(r.Float64()-0.5), w[1] + 1e-4*(r.Float64()-0.5)}
			crosses := false
			for _, x := range e.X {
				if (dot(x, w) < 0) != (dot(x, v) < 0) {
					crosses = true
				}
			}
			gw, gv := RiskGradient(e, false, w), RiskGradient(e, false, v)
			if !crosses && !slices.Equal(gw, gv) {
				t.Errorf("%s: gradient changes between %v and %v with no dual line between", name, w, v)
			}
			if crosses && slices.Equal(gw, gv) {
				t.Errorf("%s: a dual line lies between %v and %v but the gradient does not change", name, w, v)
			}
			// Finite differences away from creases.
			if distToOtherLines(e, w, -1) > 1e-3 {
				const h = 1e-7
				for j := range 2 {
					wp, wm := slices.Clone(w), slices.Clone(w)
					wp[j] += h
					wm[j] -= h
					fd := (Risk(e, false, wp) - Risk(e, false, wm)) / (2 * h)
					if math.Abs(fd-gw[j]) > 1e-5 {
						t.Errorf("%s at %v: ∂R/∂w%d = %v by finite differences, %v by RiskGradient", name, w, j+1, fd, gw[j])
					}
				}
			}
		}
	}
}

// distToOtherLines returns the distance from p to the nearest dual line
// other than line skip.
func distToOtherLines(e Example, p []float64, skip int) float64 {
	d := math.Inf(1)
	for i, x := range e.X {
		if i != skip {
			d = min(d, math.Abs(dot(x, p))/math.Hypot(x[0], x[1]))
		}
	}
	return d
}
