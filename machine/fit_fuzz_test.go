package machine_test

import (
	"bytes"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"

	"mark1/images"
	"mark1/machine"
	"mark1/retina"
)

// FuzzFitImage drives the whole optical path on arbitrary bytes: decoding
// a picture (any format images reads), fitting it onto a retina of any size,
// polarity and cropping, and presenting it to a machine. Whatever decodes
// must give light levels in [0, 1] and a response without panicking.
func FuzzFitImage(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "images", "testdata", "folder", "*", "*"))
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b, uint8(20), uint8(20), uint8(0), false)
		}
	}
	var b bytes.Buffer
	g := image.NewGray(image.Rect(0, 0, 7, 3))
	for i := range g.Pix {
		g.Pix[i] = uint8(i * 37)
	}
	png.Encode(&b, g)
	f.Add(b.Bytes(), uint8(3), uint8(9), uint8(1), true)
	f.Add(b.Bytes(), uint8(1), uint8(1), uint8(2), false)
	lim := images.Limits{MaxPixels: 1 << 16, MaxValues: 1 << 20}
	f.Fuzz(func(t *testing.T, data []byte, w, h, pol uint8, crop bool) {
		img, err := images.DecodeGray(bytes.NewReader(data), "fuzz", lim)
		if err != nil {
			return
		}
		w, h = 1+w%40, 1+h%40
		cfg, err := machine.Preset("mark1")
		if err != nil {
			t.Fatal(err)
		}
		cfg.Retina.Width, cfg.Retina.Height = int(w), int(h)
		cfg.Retina.Polarity = retina.Polarity(pol % 3)
		cfg.Retina.Crop = crop
		cfg.Associator.Units = 16
		if int(w)*int(h) < 10 {
			cfg.Associator.Excitatory, cfg.Associator.Inhibitory, cfg.Associator.Threshold = 1, -1, 1
		}
		m, err := machine.New(cfg, []string{"a", "b"}, machine.SeedsFrom(1), nil)
		if err != nil {
			t.Fatal(err)
		}
		field := m.Retina.Fit(nil, img)
		if len(field) != int(w)*int(h) {
			t.Fatalf("field of %d cells for a %dx%d retina", len(field), w, h)
		}
		for i, v := range field {
			if !(v >= 0 && v <= 1) || math.IsNaN(float64(v)) {
				t.Fatalf("cell %d = %v out of [0, 1]", i, v)
			}
		}
		var r machine.Response
		m.Present(&r, field, nil)
		if r.Class < -1 || r.Class > 1 {
			t.Fatalf("class %d", r.Class)
		}
	})
}
