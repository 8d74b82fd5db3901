package images

import (
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"testing"

	"mark1/dataset"
)

// TestWriteFilesRoundTrip writes a task's cards as libsvm text and as an
// IDX pair and reads both back with dataset's readers: every pixel and
// label as written.
func TestWriteFilesRoundTrip(t *testing.T) {
	d, err := Generate("shapes", 3, 8, 1)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteLibSVM(context.Background(), &b, d); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	text := filepath.Join(dir, "c.libsvm")
	os.WriteFile(text, b.Bytes(), 0o644)
	s, err := dataset.ReadFile(text, dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	imgs, labels := filepath.Join(dir, "c-images-idx3-ubyte.gz"), filepath.Join(dir, "c-labels-idx1-ubyte.gz")
	if err := WriteIDXPair(context.Background(), d, 8, imgs, labels); err != nil {
		t.Fatal(err)
	}
	read := func(p string) *dataset.IDXFile {
		f, _ := os.Open(p)
		defer f.Close()
		z, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		x, err := dataset.ReadIDX(z, p, dataset.IDXLimits{})
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	pix, lab := read(imgs), read(labels)
	for i, smp := range d.Samples {
		if got := s.Classes[s.Y[i]]; got != string(rune('0'+smp.Label)) || int(lab.Data[i]) != smp.Label {
			t.Fatalf("card %d: label %q / %d; want %d", i, got, lab.Data[i], smp.Label)
		}
		row := make([]float64, s.Dim)
		for k := s.RowStart[i]; k < s.RowStart[i+1]; k++ {
			row[s.Index[k]] = s.Value[k]
		}
		for j, v := range smp.Image.Pix {
			if row[j] != float64(v) || pix.Data[i*64+j] != v {
				t.Fatalf("card %d pixel %d: %v / %d; want %d", i, j, row[j], pix.Data[i*64+j], v)
			}
		}
	}
}

// TestGenerateContextStops: cancelled, GenerateContext draws no card and
// returns the context's error.
func TestGenerateContextStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if d, err := GenerateContext(ctx, "letters", 1000, 20, 1); err != context.Canceled || d != nil {
		t.Errorf("got %v, %v; want nil, context.Canceled", d, err)
	}
}
