package images

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"

	"mark1/dataset"
	"mark1/internal/base/atomicfile"
)

// WriteLibSVM writes d's cards as libsvm text (the class number, then
// every pixel's grey level as features 1 to the pixels), a block of rows at a
// time (as float64s, 8 bytes a pixel, the whole set would take eight times
// the cards' memory), stopping with ctx's error when it is cancelled.
func WriteLibSVM(ctx context.Context, w io.Writer, d *Dataset) error {
	const block = 1024
	bw := bufio.NewWriter(w)
	for from := 0; from < d.Len(); from += block {
		if err := ctx.Err(); err != nil {
			return err
		}
		part := d.Samples[from:min(from+block, d.Len())]
		X := make([][]float64, len(part))
		y := make([]float64, len(part))
		for i, s := range part {
			X[i] = make([]float64, len(s.Image.Pix))
			for j, v := range s.Image.Pix {
				X[i][j] = float64(v)
			}
			y[i] = float64(s.Label)
		}
		set, err := dataset.FromDense(d.Name, X, y)
		if err != nil {
			return err
		}
		if err := dataset.WriteLibSVM(bw, set); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// WriteIDXPair writes d's size×size cards and their class numbers as a
// gzipped IDX images file and labels file. Both are compressed in memory
// first, stopping with ctx's error when it is cancelled, and then written
// one after the other, so an interrupt never leaves one without the other.
func WriteIDXPair(ctx context.Context, d *Dataset, size int, imgPath, labelPath string) error {
	pix := &dataset.IDXFile{Dims: []int{d.Len(), size, size}}
	lab := &dataset.IDXFile{Dims: []int{d.Len()}}
	for _, s := range d.Samples {
		pix.Data = append(pix.Data, s.Image.Pix...)
		lab.Data = append(lab.Data, byte(s.Label))
	}
	var zipped [2]bytes.Buffer
	for i, x := range []*dataset.IDXFile{pix, lab} {
		z := gzip.NewWriter(ctxWriter{ctx, &zipped[i]})
		if err := dataset.WriteIDX(z, x); err != nil {
			return err
		}
		if err := z.Close(); err != nil {
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	for i, path := range []string{imgPath, labelPath} {
		if err := atomicfile.Write(path, func(w *os.File) error { _, err := w.Write(zipped[i].Bytes()); return err }); err != nil {
			return err
		}
	}
	return nil
}

// ctxWriter is a writer that fails with its context's error once the
// context is cancelled, so a long write stops at an interrupt.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}
