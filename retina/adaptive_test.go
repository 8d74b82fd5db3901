package retina

import (
	"image"
	"math"
	"testing"
)

// litCard draws a ring (a figure drawn with a thick pen: ink reflecting 10%
// of the light, paper 90%) on a size×size card lit by light whose strength
// falls linearly from 1 at the bottom edge to top at the top edge.
func litCard(size int, top float64) *image.Gray {
	g := image.NewGray(image.Rect(0, 0, size, size))
	c := float64(size-1) / 2
	for y := range size {
		light := top + (1-top)*float64(y)/float64(size-1)
		for x := range size {
			d := math.Hypot(float64(x)-c, float64(y)-c)
			refl := 0.9
			if math.Abs(d-0.3*float64(size)) < 0.06*float64(size) {
				refl = 0.1
			}
			g.Pix[y*g.Stride+x] = uint8(255*refl*light + 0.5)
		}
	}
	return g
}

// cellsLit returns which cells r turns on for img.
func cellsLit(t *testing.T, cfg Config, img *image.Gray) []bool {
	t.Helper()
	r, err := New(cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	out := r.Expose(nil, r.Fit(nil, img), nil)
	lit := make([]bool, len(out))
	for i, v := range out {
		lit[i] = v == 1
	}
	return lit
}

// TestAdaptiveThreshold photographs a ring under a strong light gradient
// (the top of the card gets 30% of the light the bottom gets). The figure's
// mask is the ring on the evenly lit card, cells at least half covered by
// ink. Otsu's single threshold lights the dim top half of the paper with
// the ring (two thirds of it); the adaptive threshold finds the ring.
func TestAdaptiveThreshold(t *testing.T) {
	const size = 200
	mask := cellsLit(t, Config{Threshold: 0.5}, litCard(size, 1))
	figure := 0
	for _, m := range mask {
		if m {
			figure++
		}
	}
	if figure < 60 || figure > 150 {
		t.Fatalf("the ring covers %d cells; the test wants a figure of 60–150 cells", figure)
	}
	compare := func(lit []bool) (wrong, topPaperLit, topPaper int) {
		for i := range lit {
			if lit[i] != mask[i] {
				wrong++
			}
			if i < len(lit)/2 && !mask[i] {
				topPaper++
				if lit[i] {
					topPaperLit++
				}
			}
		}
		return
	}
	uneven := litCard(size, 0.3)
	wrong, lit, paper := compare(cellsLit(t, Config{}, uneven))
	t.Logf("Otsu: %d cells differ from the mask; %d of the %d paper cells in the top half lit", wrong, lit, paper)
	if lit < paper*6/10 || wrong < 60 {
		t.Errorf("Otsu lit %d of %d paper cells in the dim top half; the test card should defeat it", lit, paper)
	}
	wrong, lit, _ = compare(cellsLit(t, Config{Adaptive: true}, uneven))
	t.Logf("adaptive: %d cells differ from the mask (figure %d cells); %d paper cells in the top half lit", wrong, figure, lit)
	if wrong > figure/10 {
		t.Errorf("adaptive threshold: %d cells differ from the ring's mask of %d cells; want at most 10%%", wrong, figure)
	}
	// On the evenly lit card both find the ring.
	for _, cfg := range []Config{{}, {Adaptive: true}} {
		if wrong, _, _ := compare(cellsLit(t, cfg, litCard(size, 1))); wrong > figure/10 {
			t.Errorf("%+v on an evenly lit card: %d cells differ from the mask", cfg, wrong)
		}
	}
}

func TestLocalThresholds(t *testing.T) {
	// Brute force over a 7×5 field with radius 2 (the minimum), continuing
	// the field past its edges by odd reflection: the larger of the mean plus
	// the offset and the midpoint of the extremes.
	const w, h = 7, 5
	field := make([]float32, w*h)
	for i := range field {
		field[i] = float32((i*37)%11) / 10
	}
	reflect := func(i, size int) (edge, mirror int) {
		if i < 0 {
			return 0, -i
		}
		if i >= size {
			return size - 1, 2*(size-1) - i
		}
		return -1, i
	}
	v := func(x, y int) float64 {
		cell := func(x, y int) float64 { // reflected across columns
			e, m := reflect(x, w)
			if e < 0 {
				return float64(field[y*w+m])
			}
			return 2*float64(field[y*w+e]) - float64(field[y*w+m])
		}
		e, m := reflect(y, h)
		if e < 0 {
			return cell(x, m)
		}
		return 2*cell(x, e) - cell(x, m)
	}
	got := LocalThresholds(nil, field, w, h)
	for y := range h {
		for x := range w {
			var sum float64
			lo, hi := math.Inf(1), math.Inf(-1)
			for yy := y - 2; yy <= y+2; yy++ {
				for xx := x - 2; xx <= x+2; xx++ {
					sum += v(xx, yy)
					lo, hi = min(lo, v(xx, yy)), max(hi, v(xx, yy))
				}
			}
			if want := max(sum/25+AdaptiveOffset, (lo+hi)/2); math.Abs(got[y*w+x]-want) > 1e-9 {
				t.Errorf("cell (%d,%d): threshold %v; want %v", x, y, got[y*w+x], want)
			}
		}
	}
	// A field that is a plane (light falling off evenly) gets its own level
	// plus the offset everywhere, edges and corners included.
	for y := range h {
		for x := range w {
			field[y*w+x] = float32(0.1 + 0.05*float64(x) + 0.1*float64(y))
		}
	}
	got = LocalThresholds(got, field, w, h)
	for i, g := range got {
		if want := float64(field[i]) + AdaptiveOffset; math.Abs(g-want) > 1e-6 {
			t.Errorf("plane, cell %d: threshold %v; want %v", i, g, want)
		}
	}
	if err := (Config{Adaptive: true, Threshold: 0.5}).Validate(); err == nil {
		t.Error("adaptive with a fixed threshold validated")
	}
}
