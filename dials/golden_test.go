package dials

import (
	"bytes"
	"flag"
	"image"
	"image/png"
	"mark1/chart"
	"mark1/internal/testtool"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	testtool.Golden(t, name, got, *update)
}

// goldenImage compares a drawing with testdata/name (a PNG) within a small
// tolerance: the mean difference per channel at most 1 level, and at most
// 0.5% of pixels differing by more than 48 levels in any channel (font
// rasterizers may differ by a pixel at an edge).
func goldenImage(t *testing.T, name string, d *chart.Drawing) {
	t.Helper()
	got := d.Image()
	path := filepath.Join("testdata", name)
	if *update {
		var b bytes.Buffer
		if err := png.Encode(&b, got); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	defer f.Close()
	wantImg, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if got.Bounds().Size() != wantImg.Bounds().Size() {
		t.Fatalf("%s: size %v; want %v", name, got.Bounds().Size(), wantImg.Bounds().Size())
	}
	want := image.NewRGBA(wantImg.Bounds())
	for y := range want.Bounds().Dy() {
		for x := range want.Bounds().Dx() {
			want.Set(x, y, wantImg.At(x, y))
		}
	}
	var sum float64
	bad := 0
	for i := 0; i < len(got.Pix); i += 4 {
		worst := 0
		for k := range 3 {
			dv := int(got.Pix[i+k]) - int(want.Pix[i+k])
			if dv < 0 {
				dv = -dv
			}
			sum += float64(dv)
			worst = max(worst, dv)
		}
		if worst > 48 {
			bad++
		}
	}
	px := len(got.Pix) / 4
	mean := sum / float64(3*px)
	if mean > 1 || float64(bad) > 0.005*float64(px) {
		out := filepath.Join(t.TempDir(), name)
		if fo, err := os.Create(out); err == nil {
			png.Encode(fo, got)
			fo.Close()
		}
		t.Errorf("%s: mean difference %.3f levels, %d of %d pixels differ by more than 48; got written to %s", name, mean, bad, px, out)
	}
}
