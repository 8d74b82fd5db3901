package retina

import (
	"image"
	"image/color"
	"math/rand/v2"
	"testing"
)

// card returns a w x h white card with a black rectangle r.
func card(w, h int, r image.Rectangle) *image.Gray {
	g := image.NewGray(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			v := uint8(255)
			if (image.Point{x, y}).In(r) {
				v = 0
			}
			g.SetGray(x, y, color.Gray{Y: v})
		}
	}
	return g
}

func on(field []float32, w, x, y int) bool { return field[y*w+x] > 0.5 }

func TestFit(t *testing.T) {
	tests := []struct {
		name      string
		img       *image.Gray
		crop      bool
		pol       Polarity
		lit, dark [][2]int // cells that must be figure / ground
		total     float64  // sum of the field
	}{
		{name: "identity", img: card(20, 20, image.Rect(2, 3, 5, 6)),
			lit: [][2]int{{2, 3}, {4, 5}}, dark: [][2]int{{5, 5}, {1, 3}}, total: 9},
		{name: "downscale 40→20 integrates light", img: card(40, 40, image.Rect(0, 0, 4, 4)),
			lit: [][2]int{{0, 0}, {1, 1}}, dark: [][2]int{{2, 2}}, total: 4},
		{name: "aspect kept and centred", img: card(40, 20, image.Rect(0, 0, 40, 20)), pol: Dark,
			lit: [][2]int{{0, 5}, {19, 14}}, dark: [][2]int{{0, 4}, {10, 15}}, total: 200},
		{name: "crop fills the grid", img: card(100, 100, image.Rect(10, 10, 20, 20)), crop: true,
			lit: [][2]int{{0, 0}, {19, 19}}, total: 400},
		{name: "light figure", img: card(20, 20, image.Rect(0, 0, 20, 10)), pol: Light,
			lit: [][2]int{{0, 15}}, dark: [][2]int{{0, 0}}, total: 200},
	}
	for _, tt := range tests {
		f := FitField(nil, tt.img, 20, 20, tt.pol, tt.crop)
		for _, c := range tt.lit {
			if !on(f, 20, c[0], c[1]) {
				t.Errorf("%s: cell %v is ground; want figure", tt.name, c)
			}
		}
		for _, c := range tt.dark {
			if on(f, 20, c[0], c[1]) {
				t.Errorf("%s: cell %v is figure; want ground", tt.name, c)
			}
		}
		var sum float64
		for _, v := range f {
			sum += float64(v)
		}
		if d := sum - tt.total; d > 1e-3 || d < -1e-3 {
			t.Errorf("%s: field sums to %v; want %v", tt.name, sum, tt.total)
		}
	}
}

func TestAutoPolarity(t *testing.T) {
	dark := card(20, 20, image.Rect(5, 5, 8, 8)) // black square on white
	light := card(20, 20, image.Rect(5, 5, 8, 8))
	for i := range light.Pix {
		light.Pix[i] = 255 - light.Pix[i] // white square on black, like MNIST
	}
	a := FitField(nil, dark, 20, 20, Auto, false)
	b := FitField(nil, light, 20, 20, Auto, false)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("cell %d: %v vs %v; auto polarity should see the same figure", i, a[i], b[i])
		}
	}
}

func TestExpose(t *testing.T) {
	r, err := New(Config{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	f := r.Fit(nil, card(20, 20, image.Rect(0, 0, 10, 20)))
	s := r.Expose(nil, f, nil)
	n := 0
	for _, v := range s {
		n += int(v)
	}
	if n != 200 {
		t.Errorf("%d cells on; want 200", n)
	}
	// Dead cells never fire; noise flips about the given fraction.
	d, _ := New(Config{Dead: 1}, 1)
	for _, v := range d.Expose(nil, f, nil) {
		if v != 0 {
			t.Fatal("a dead retina fired")
		}
	}
	noisy, _ := New(Config{Noise: 0.1}, 1)
	rng := rand.New(rand.NewPCG(1, 2))
	flips := 0
	for range 50 {
		for i, v := range noisy.Expose(nil, f, rng) {
			if v != s[i] {
				flips++
			}
		}
	}
	if frac := float64(flips) / (50 * 400); frac < 0.08 || frac > 0.12 {
		t.Errorf("noise 0.1 flipped %.3f of readings", frac)
	}
}

func TestOtsu(t *testing.T) {
	field := make([]float32, 100)
	for i := range 30 {
		field[i] = 0.8
	}
	if th := Otsu(field); th <= 0.1 || th > 0.8 {
		t.Errorf("Otsu = %v; want between the two levels", th)
	}
	if th := Otsu(make([]float32, 10)); th != 0.5 {
		t.Errorf("Otsu of a blank field = %v; want 0.5", th)
	}
}

func FuzzFitField(f *testing.F) {
	f.Add(uint8(3), uint8(7), []byte{0, 255, 128, 3, 9, 200}, false)
	f.Add(uint8(1), uint8(1), []byte{0}, true)
	f.Fuzz(func(t *testing.T, w, h uint8, pix []byte, crop bool) {
		if w == 0 || h == 0 || len(pix) < int(w)*int(h) {
			return
		}
		g := &image.Gray{Pix: pix, Stride: int(w), Rect: image.Rect(0, 0, int(w), int(h))}
		for _, pol := range []Polarity{Auto, Dark, Light} {
			out := FitField(nil, g, 20, 20, pol, crop)
			for i, v := range out {
				if !(v >= 0 && v <= 1) {
					t.Fatalf("cell %d = %v out of [0, 1]", i, v)
				}
			}
		}
	})
}

func TestStuckCells(t *testing.T) {
	r, err := New(Config{Width: 3, Height: 1, Noise: 1}, 1)
	if err != nil {
		t.Fatal(err)
	}
	r.StickOn(0)
	r.StickOn(1)
	r.Kill(1)
	got := r.Expose(nil, []float32{0, 1, 1}, rand.New(rand.NewPCG(1, 2)))
	if got[0] != 1 || got[1] != 0 || got[2] != 0 {
		t.Errorf("Expose = %v; want [1 0 0] (stuck on, dead, flipped by noise)", got)
	}
}
