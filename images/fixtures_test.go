package images

import (
	"bytes"
	"compress/gzip"
	"flag"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/image/bmp"
	"golang.org/x/image/tiff"

	"mark1/dataset"
)

var update = flag.Bool("update", false, "rewrite the fixtures in testdata/")

// TestUpdateFixtures rewrites the valid fixtures in testdata/ when -update is
// given: a folder data set in several picture formats, MNIST-style IDX
// files raw and gzipped, and a libsvm file. Bad inputs are built by the
// tests themselves in temporary folders.
// fixtureCards returns the pictures the fixtures hold by class
// (square-circle, 4 a class, 12×12, seed 7).
func fixtureCards(t *testing.T) map[string][]*image.Gray {
	t.Helper()
	d, err := Generate("square-circle", 4, 12, 7)
	if err != nil {
		t.Fatal(err)
	}
	byClass := map[string][]*image.Gray{}
	for _, s := range d.Samples {
		c := d.Classes[s.Label]
		byClass[c] = append(byClass[c], s.Image)
	}
	return byClass
}

func TestUpdateFixtures(t *testing.T) {
	if !*update {
		t.Skip("fixtures are committed; -update rewrites them")
	}
	for _, dir := range []string{"testdata/folder", "testdata/mnist", "testdata/mnistgz"} {
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
	}
	byClass := fixtureCards(t)
	encoders := []struct {
		ext string
		enc func(*bytes.Buffer, image.Image) error
	}{
		{".png", func(b *bytes.Buffer, m image.Image) error { return png.Encode(b, m) }},
		{".jpg", func(b *bytes.Buffer, m image.Image) error { return jpeg.Encode(b, m, &jpeg.Options{Quality: 95}) }},
		{".gif", func(b *bytes.Buffer, m image.Image) error { return gif.Encode(b, grayPaletted(m.(*image.Gray)), nil) }},
		{".bmp", func(b *bytes.Buffer, m image.Image) error { return bmp.Encode(b, m) }},
	}
	for _, class := range []string{"circle", "square"} {
		dir := filepath.Join("testdata/folder", class)
		must(t, os.MkdirAll(dir, 0o755))
		for i, m := range byClass[class] {
			e := encoders[i%len(encoders)]
			var b bytes.Buffer
			must(t, e.enc(&b, m))
			must(t, os.WriteFile(filepath.Join(dir, class+string(rune('a'+i))+e.ext), b.Bytes(), 0o644))
		}
		// Hidden files are skipped.
		must(t, os.WriteFile(filepath.Join(dir, ".DS_Store"), []byte("\x00\x00\x00\x01Bud1 not a picture"), 0o644))
	}
	// A TIFF and a transparent PNG (ink on nothing, which reads as ink on
	// white paper).
	var b bytes.Buffer
	must(t, tiff.Encode(&b, byClass["square"][0], nil))
	must(t, os.WriteFile("testdata/folder/square/squaree.tiff", b.Bytes(), 0o644))
	must(t, os.WriteFile("testdata/folder/circle/transparent.png", transparentPNG(t), 0o644))

	// IDX: 6 images of 5 columns × 4 rows, labels 3, 0, 7.
	im, lb := smallIDX()
	for _, c := range []struct {
		dir, images, labels string
		gz                  bool
	}{
		{"testdata/mnist", "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte", false},
		{"testdata/mnistgz", "train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz", true},
	} {
		must(t, os.MkdirAll(c.dir, 0o755))
		must(t, os.WriteFile(filepath.Join(c.dir, c.images), idxBytes(t, im, c.gz), 0o644))
		must(t, os.WriteFile(filepath.Join(c.dir, c.labels), idxBytes(t, lb, c.gz), 0o644))
	}
	must(t, os.WriteFile("testdata/small.libsvm", []byte(smallLibSVM), 0o644))
}

// smallLibSVM is 3x3 pictures, labels -1 and +1, with a comment, a blank
// line and a CRLF line ending.
const smallLibSVM = `# a 3x3 bar: vertical (+1) or horizontal (-1)
+1 2:1 5:1 8:1
-1 4:1 5:1 6:1

+1 1:0.5 4:0.5 7:0.5   # left column, grey
-1 7:1 8:1 9:1` + "\r\n"

// smallIDX returns the images and labels of the IDX fixtures: byte k of
// the image data is 7k mod 256.
func smallIDX() (images, labels *dataset.IDXFile) {
	const n, rows, cols = 6, 4, 5
	images = &dataset.IDXFile{Dims: []int{n, rows, cols}, Data: make([]byte, n*rows*cols)}
	for i := range images.Data {
		images.Data[i] = byte(i * 7 % 256)
	}
	labels = &dataset.IDXFile{Dims: []int{n}, Data: []byte{3, 0, 7, 3, 0, 7}}
	return images, labels
}

// idxBytes encodes x, gzipped if gz.
func idxBytes(t testing.TB, x *dataset.IDXFile, gz bool) []byte {
	t.Helper()
	var b bytes.Buffer
	if gz {
		zw := gzip.NewWriter(&b)
		must(t, dataset.WriteIDX(zw, x))
		must(t, zw.Close())
	} else {
		must(t, dataset.WriteIDX(&b, x))
	}
	return b.Bytes()
}

// transparentPNG is a 6x6 NRGBA picture: transparent except a black
// opaque 2x2 block at (2, 2) and a half-transparent black pixel at (0, 0).
func transparentPNG(t testing.TB) []byte {
	m := image.NewNRGBA(image.Rect(0, 0, 6, 6))
	for y := 2; y < 4; y++ {
		for x := 2; x < 4; x++ {
			m.SetNRGBA(x, y, color.NRGBA{A: 255})
		}
	}
	m.SetNRGBA(0, 0, color.NRGBA{A: 128})
	var b bytes.Buffer
	must(t, png.Encode(&b, m))
	return b.Bytes()
}

// grayPaletted is g with a palette of the 256 grey levels, so that GIF
// keeps it exactly.
func grayPaletted(g *image.Gray) *image.Paletted {
	pal := make(color.Palette, 256)
	for i := range pal {
		pal[i] = color.Gray{Y: uint8(i)}
	}
	p := image.NewPaletted(g.Rect, pal)
	copy(p.Pix, g.Pix)
	return p
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
