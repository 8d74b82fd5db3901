package chart

import (
	"context"
	"errors"
	"image/color"
	"strings"
	"testing"

	"gonum.org/v1/plot"
)

func box(w, h int, c color.Color) *Drawing {
	return New(w, h, func(p *Pen) { p.FillRect(2, 2, 4, 3, c) })
}

// TestPenCoordinates: the pen's y runs down from the top left corner.
func TestPenCoordinates(t *testing.T) {
	img := box(10, 8, color.RGBA{0xff, 0, 0, 0xff}).Image()
	for _, tc := range []struct {
		x, y int
		red  bool
	}{{3, 3, true}, {5, 4, true}, {1, 1, false}, {3, 6, false}, {7, 3, false}} {
		r, g, _, _ := img.At(tc.x, tc.y).RGBA()
		if got := r > 0xf000 && g < 0x1000; got != tc.red {
			t.Errorf("pixel (%d, %d) red %v; want %v", tc.x, tc.y, got, tc.red)
		}
	}
}

// TestGIFPalette: 256 colours, the marks in it exactly, the last
// transparent.
func TestGIFPalette(t *testing.T) {
	mark := color.RGBA{0x12, 0x34, 0x56, 0xff}
	pal := GIFPalette(mark)
	if len(pal) != 256 {
		t.Fatalf("%d colours; want 256", len(pal))
	}
	if _, _, _, a := pal[255].RGBA(); a != 0 {
		t.Errorf("last colour %v; want transparent", pal[255])
	}
	if got := pal[pal[:255].Index(mark)]; got != color.Color(mark) {
		t.Errorf("nearest to the mark %v is %v", mark, got)
	}
	if d := Diverging(-1); d != (color.RGBA{0x05, 0x30, 0x61, 0xff}) {
		t.Errorf("Diverging(-1) = %v; want RdBu's darkest blue", d)
	}
}

// TestFrames: one full frame then only what changed; refused: no frames,
// frames of two sizes, a palette of the wrong size, a cancelled context.
func TestFrames(t *testing.T) {
	red, blue := color.RGBA{0xb2, 0x18, 0x2b, 0xff}, color.RGBA{0x21, 0x66, 0xac, 0xff}
	pal := GIFPalette(red, blue)
	g, err := Frames(context.Background(), []*Drawing{box(10, 8, red), box(10, 8, blue)}, 0, pal)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Image) != 2 || g.Delay[0] != 40 || g.Delay[1] != 160 {
		t.Fatalf("%d frames, delays %v; want 2, [40 160]", len(g.Image), g.Delay)
	}
	if b := g.Image[1].Bounds(); b.Dx() != 4 || b.Dy() != 3 {
		t.Errorf("second frame %v; want only the 4×3 box that changed", b)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		ds   []*Drawing
		pal  color.Palette
		want string
	}{
		{"none", context.Background(), nil, pal, "no frames"},
		{"sizes", context.Background(), []*Drawing{box(10, 8, red), box(9, 8, red)}, pal, "frame 2 is 9×8"},
		{"palette", context.Background(), []*Drawing{box(10, 8, red)}, pal[:16], "16 colours"},
		{"cancelled", ctx, []*Drawing{box(10, 8, red)}, pal, context.Canceled.Error()},
	} {
		_, err := Frames(tc.ctx, tc.ds, 10, tc.pal)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v; want one saying %q", tc.name, err, tc.want)
		}
		if tc.name == "cancelled" && !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled: %v is not context.Canceled", err)
		}
	}
}

// TestPlotsCaption: the caption is drawn under the plots, in ink.
func TestPlotsCaption(t *testing.T) {
	p := plot.New()
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, 0, 1
	img := Plots(300, 200, [][]*plot.Plot{{p}}, "caption", 0).Image()
	inked := 0
	for y := 200 - 34; y < 200; y++ {
		for x := 0; x < 300; x++ {
			if r, _, _, _ := img.At(x, y).RGBA(); r < 0x8000 {
				inked++
			}
		}
	}
	if inked < 30 {
		t.Errorf("%d dark pixels in the caption band; want the caption's letters", inked)
	}
}

// TestDrawSurface draws a 3×2 surface and a line: pictures of their stated
// sizes, not blank.
func TestDrawSurface(t *testing.T) {
	d, err := DrawSurface(Surface{Title: "t", XLabel: "x", YLabel: "y", ZLabel: "z", X: []float64{0, 1, 2}, Y: []float64{0, 1},
		Z: [][]float64{{1, 2, 3}, {4, 5, 6}}, Mark: [2]float64{2, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if w, h := d.Size(); w != 980 || h != 720 {
		t.Errorf("size %d×%d", w, h)
	}
	img := d.Image()
	colours := map[[4]uint8]bool{}
	for i := 0; i+3 < len(img.Pix); i += 4 * 97 {
		colours[[4]uint8(img.Pix[i:i+4])] = true
	}
	if len(colours) < 5 {
		t.Errorf("%d colours: a blank picture?", len(colours))
	}
	if _, err := DrawLines("t", "x", "y", []float64{0, 1}, []string{"a", ""}, [][]float64{{1, 2}, {2, 1}}); err != nil {
		t.Error(err)
	}
}
