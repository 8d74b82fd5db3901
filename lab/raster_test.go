package lab

import (
	"context"
	"slices"
	"testing"

	"mark1/associator"
)

// TestRasterAgreesWithAssociator: the lab's raster units fire where the
// machine's A-units (associator) fire with the same origin points and
// threshold, on the retina lit as the lab lights it; and the lab's
// guesses of x, y and θ are the associator's defaults.
func TestRasterAgreesWithAssociator(t *testing.T) {
	d := associator.Config{}.Defaults()
	if RasterExcitatory != d.Excitatory || RasterInhibitory != d.Inhibitory || RasterThreshold != d.Threshold {
		t.Errorf("the raster's x, y, θ = %d, %d, %d; the associator's defaults %d, %d, %d",
			RasterExcitatory, RasterInhibitory, RasterThreshold, d.Excitatory, d.Inhibitory, d.Threshold)
	}
	for _, name := range []string{"xor", "rings"} {
		r := NewRetina(mustFind(t, name))
		units := RandomRaster(r, 64, 9)
		p := &associator.Plugboard{Width: r.Side, Height: r.Side}
		for _, u := range units {
			p.Units = append(p.Units, associator.Unit{Excitatory: u.Excitatory, Inhibitory: u.Inhibitory, Threshold: float64(u.Theta)})
		}
		if err := p.Validate(); err != nil {
			t.Fatal(err)
		}
		maps := make([]string, len(units))
		for j, u := range units {
			maps[j] = u.FireMap(r)
		}
		s := make([]float64, r.Side*r.Side)
		for at := range s {
			for k := range s {
				s[k] = b2f(r.Lit(at, k))
			}
			var want []int
			for j := range units {
				if maps[j][at] == '1' {
					want = append(want, j)
				}
			}
			if got := p.Active(nil, s); !slices.Equal(got, want) {
				t.Errorf("%s, a point in cell %d: the associator fires %v; the lab's units %v", name, at, got, want)
			}
		}
	}
}

// TestALayerRaster measures the raster units as TestALayerXOR measures
// the half-planes: over 100 seeds, the fraction of seeds whose
// perceptron on n raster A-units reaches P_r = 100% (n = 2 to 64) on
// xor, rings and the spiral generator (go test -v -run ALayerRaster
// ./lab logs the curves of docs/lab.md). On xor and rings the fraction
// stays under the separable one and rises with n.
func TestALayerRaster(t *testing.T) {
	if testing.Short() {
		t.Skip("1,800 runs of the A-layer; skipped with -short")
	}
	ns := []int{2, 4, 8, 16, 32, 64}
	spiral, err := Generate(GenOptions{Kind: "spiral", N: 60, Noise: 0.1, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []Example{mustFind(t, "xor"), mustFind(t, "rings"), spiral} {
		if c := sharedCells(NewRetina(e), e); c > 0 {
			t.Logf("%s: %d cells of the retina hold points of both labels: no A-layer on it separates them", e.Name, c)
		}
		r, fired, all := NewRetina(e), 0, 0
		for seed := range uint64(100) {
			units := RandomRaster(r, 64, seed+1)
			for _, x := range e.X {
				for _, a := range RasterVector(r, units, x) {
					fired += int(a)
					all++
				}
			}
		}
		t.Logf("%s: P_a = %.3f of the raster units fire at a sample (64 units, 100 seeds)", e.Name, float64(fired)/float64(all))
		f, sep := reachCurve(t, e, Raster, ns, 100)
		t.Logf("%s (%d points), raster units, over 100 seeds:%s", e.Name, len(e.X), curveText(ns, f, sep))
		if e.Name != spiral.Name {
			checkRises(t, e.Name, ns, f, sep)
		}
	}
}

// TestRasterUnits: each unit has x and y distinct origin cells on the
// retina, the same seed wires the same units and another seed others, a
// point falls in its cell (the box's corners in the corner cells, a point
// beyond in the nearest edge cell), and the trace's A-vectors and the
// frame's fire maps are the units'.
func TestRasterUnits(t *testing.T) {
	e := mustFind(t, "rings")
	r := NewRetina(e)
	u := RandomRaster(r, 50, 7)
	if v := RandomRaster(r, 50, 7); !slices.EqualFunc(u, v, sameRaster) {
		t.Errorf("seed 7 wired different units twice")
	}
	if v := RandomRaster(r, 50, 8); slices.EqualFunc(u, v, sameRaster) {
		t.Errorf("seeds 7 and 8 wired the same units")
	}
	cells := r.Side * r.Side
	for j, a := range u {
		all := append(slices.Clone(a.Excitatory), a.Inhibitory...)
		slices.Sort(all)
		if len(a.Excitatory) != RasterExcitatory || len(a.Inhibitory) != RasterInhibitory || len(slices.Compact(all)) != RasterExcitatory+RasterInhibitory ||
			all[0] < 0 || all[len(all)-1] >= cells || a.Theta != RasterThreshold {
			t.Errorf("unit %d: %+v", j+1, a)
		}
	}
	b := r.Box
	for _, c := range []struct {
		x    []float64
		want int
	}{
		{[]float64{b[0], b[2]}, 0}, {[]float64{b[1], b[3]}, cells - 1}, {[]float64{b[1], b[2]}, r.Side - 1},
		{[]float64{b[0] - 5, b[3] + 5}, cells - r.Side}, {[]float64{(b[0] + b[1]) / 2, b[2] - 1}, r.Side / 2},
	} {
		if got := r.Cell(c.x); got != c.want {
			t.Errorf("%v: cell %d; want %d", c.x, got, c.want)
		}
	}
	if one := (Retina{Side: 8, Spot: 1, Box: [4]float64{1, 1, 2, 2}}); one.Cell([]float64{1, 2}) != 4+8*4 {
		t.Errorf("a box of one point: cell %d; want the middle one, %d", one.Cell([]float64{1, 2}), 4+8*4)
	}
	ctx := context.Background()
	run, err := Start(ctx, e, Setup{Learner: ALayer, Units: 12, UnitKind: Raster, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	tr := run.ALayer
	if tr.Retina == nil || len(tr.Raster) != 12 || tr.Units != nil || len(tr.A) != len(e.X) || len(tr.Perceptron.Start) != 13 {
		t.Fatalf("12 raster units: %+v", tr)
	}
	for i, x := range e.X {
		at := r.Cell(x)
		for j, a := range tr.Raster {
			if want := b2f(a.Fires(r, at)); tr.A[i][j] != want {
				t.Errorf("sample %d, unit %d: a = %v; the unit says %v", i+1, j+1, tr.A[i][j], want)
			}
		}
	}
	fr, err := run.Frame(-1, 40, 0)
	if err != nil {
		t.Fatal(err)
	}
	if fr.Units != nil || fr.Retina == nil || len(fr.Raster) != 12 || len(fr.Fires) != 12 {
		t.Fatalf("frame: %d units, retina %v, %d raster units, %d fire maps", len(fr.Units), fr.Retina, len(fr.Raster), len(fr.Fires))
	}
	for j, a := range tr.Raster {
		if fr.Fires[j] != a.FireMap(r) || len(fr.Fires[j]) != cells {
			t.Errorf("unit %d: the frame's fire map %s; the unit's %s", j+1, fr.Fires[j], a.FireMap(r))
		}
	}
	for _, c := range []struct {
		units, w, h int
	}{{12, 4 * 280, 3*280 + 140}, {2, 4 * 280, 280 + 140}, {17, 5 * 280, 4*280 + 140}} {
		r, err := Start(ctx, e, Setup{Learner: ALayer, Units: c.units, UnitKind: Raster, Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		d, err := r.Picture(ctx, "units", -1)
		if err != nil {
			t.Fatal(err)
		}
		if w, h := d.Size(); w != c.w || h != c.h {
			t.Errorf("%d raster units' thumbnails: %dx%d; want %dx%d", c.units, w, h, c.w, c.h)
		}
	}
	if _, err := TraceALayer(ctx, e, ALayerOptions{Kind: "hexagons"}); err == nil {
		t.Errorf("unit kind hexagons: no error")
	}
	if _, err := Start(ctx, e, Setup{Learner: ALayer, UnitKind: "hexagons"}); err == nil {
		t.Errorf("Setup unit kind hexagons: no error")
	}
}

// sharedCells counts the retina's cells that hold points of both labels.
func sharedCells(r Retina, e Example) int {
	seen := map[int]int{}
	for i, x := range e.X {
		seen[r.Cell(x)] |= 1 << (e.Y[i] + 1) // bit 0: −1, bit 2: +1
	}
	n := 0
	for _, m := range seen {
		if m == 5 {
			n++
		}
	}
	return n
}

func sameRaster(a, b RasterUnit) bool {
	return a.Theta == b.Theta && slices.Equal(a.Excitatory, b.Excitatory) && slices.Equal(a.Inhibitory, b.Inhibitory)
}
