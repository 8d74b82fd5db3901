package images

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// fuzzLimits keep fuzzing fast and its memory small; the checks they drive
// are the same as with the defaults.
func fuzzLimits() Limits { return Limits{MaxPixels: 1 << 14, MaxSamples: 1 << 12, MaxValues: 1 << 18} }

// addFiles seeds f with the files matching pattern under testdata/.
func addFiles(f *testing.F, patterns ...string) {
	for _, pat := range patterns {
		paths, err := filepath.Glob(filepath.Join("testdata", pat))
		if err != nil {
			f.Fatal(err)
		}
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
}

func FuzzDecodeGray(f *testing.F) {
	addFiles(f, "folder/*/*")
	f.Add(hugePNG(300, 300))
	f.Add(pngBytes(f, 3, 2))
	f.Fuzz(func(t *testing.T, b []byte) {
		g, err := DecodeGray(bytes.NewReader(b), "fuzz", fuzzLimits())
		if err != nil {
			return
		}
		r := g.Rect
		if r.Min.X != 0 || r.Min.Y != 0 || r.Empty() || r.Dx()*r.Dy() > fuzzLimits().MaxPixels || len(g.Pix) != r.Dx()*r.Dy() {
			t.Fatalf("picture %v with %d pixels", r, len(g.Pix))
		}
	})
}

// FuzzLoadFile drives Load's format detection on one file, named as an
// MNIST images file with a valid labels file (6 labels) beside it.
func FuzzLoadFile(f *testing.F) {
	addFiles(f, "*.libsvm", "mnist/*images*", "mnistgz/*images*")
	f.Add(gzipped(f, []byte(smallLibSVM)))
	f.Add([]byte{})
	_, lb := smallIDX()
	labels := idxBytes(f, lb, false)
	// One folder for every input: inputs run one at a time in a process,
	// and a fresh folder per input would cost more than the input itself.
	dir := f.TempDir()
	must(f, os.WriteFile(filepath.Join(dir, "f-labels-idx1-ubyte"), labels, 0o644))
	f.Fuzz(func(t *testing.T, b []byte) {
		p := filepath.Join(dir, "f-images-idx3-ubyte")
		must(t, os.WriteFile(p, b, 0o644))
		d, err := Load(p, fuzzLimits())
		if err != nil {
			return
		}
		if err := d.Validate(); err != nil {
			t.Fatalf("Load returned an invalid set: %v", err)
		}
	})
}
