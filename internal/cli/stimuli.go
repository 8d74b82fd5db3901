package cli

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"

	"mark1/images"
	"mark1/internal/base/atomicfile"
	"mark1/machine"

	"mark1/dataset"
)

func runStimuli(ctx context.Context, env *Env, args []string) error {
	var task, out, format string
	var n, size int
	var seed uint64
	fs := newFlags(env, "stimuli --task NAME --n N --out DIR [--format png|idx|libsvm]", `Writes a built-in task's cards as PNG files, one sub-folder per class, so you can
see what the machine sees (and train on them with --data DIR). --format idx
writes OUT-images-idx3-ubyte.gz and OUT-labels-idx1-ubyte.gz (MNIST's layout);
--format libsvm writes the file OUT, a line per card: the class number, then
every pixel's grey level (0 black, 255 white) as features 1 to size².`)
	fs.StringVar(&task, "task", defaultTask, "the task (see mark1 tasks)")
	fs.IntVar(&n, "n", 20, "cards per class")
	fs.IntVar(&size, "card-size", 20, "side of a card in pixels")
	fs.StringVar(&out, "out", "", "the folder to create (must not exist or be empty)")
	fs.Uint64Var(&seed, "seed", 1, "seed for drawing the cards")
	fs.StringVar(&format, "format", "png", "png (class folders), idx (gzipped MNIST-style pair) or libsvm (text)")
	if err := env.parse(fs, args); err != nil {
		return err
	}
	if out == "" {
		return usagef("stimuli: --out DIR is required")
	}
	switch {
	case n < 1 || n > 100000:
		return usagef("stimuli: --n %d out of range [1, 100000]", n)
	case size < 4 || size > 4096:
		return usagef("stimuli: --card-size %d out of range [4, 4096]", size)
	}
	d, err := images.Generate(task, n, size, seed)
	if err != nil {
		return usageError{err}
	}
	if err := ctx.Err(); err != nil { // interrupted while the cards were drawn
		return err
	}
	switch format {
	case "png":
		if err := images.WriteFolderMarked(ctx, d, out, env.marker("out")); err != nil {
			return err
		}
	case "idx":
		imgs, labels := idxPairNames(out)
		if err := writeIDXPair(ctx, d, size, imgs, labels); err != nil {
			return err
		}
		out = imgs + " and " + labels
	case "libsvm":
		if err := atomicfile.Write(out, func(f *os.File) error { return writeCardsLibSVM(ctx, f, d) }); err != nil {
			return err
		}
	default:
		return usagef("stimuli: --format %q: want png, idx or libsvm", format)
	}
	fmt.Fprintf(env.Stdout, "Wrote %d cards of task %q (%d classes) to %s.\n", d.Len(), task, len(d.Classes), out)
	return nil
}

// writeCardsLibSVM writes d's cards as libsvm text, a block of rows at a
// time (as float64s, 8 bytes a pixel, the whole set would take eight times
// the cards' memory), stopping with ctx's error when it is cancelled.
func writeCardsLibSVM(ctx context.Context, w io.Writer, d *images.Dataset) error {
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

// writeIDXPair writes d's size×size cards and their class numbers as a
// gzipped IDX images file and labels file. Both are compressed in memory
// first, stopping with ctx's error when it is cancelled, and then written
// one after the other, so an interrupt never leaves one without the other.
func writeIDXPair(ctx context.Context, d *images.Dataset, size int, imgPath, labelPath string) error {
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

func runTasks(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "tasks", "Lists the built-in tasks and the machine presets.")
	if err := env.parse(fs, args); err != nil {
		return err
	}
	w := env.Stdout
	fmt.Fprintln(w, "Built-in tasks (mark1 train --task NAME; mark1 stimuli --task NAME --out DIR):")
	for _, t := range images.Tasks() {
		fmt.Fprintf(w, "  %-20s %s (%d classes)\n", t.Name, t.Description, len(t.Classes))
	}
	fmt.Fprintln(w, "\nMachine presets (mark1 train --preset NAME):")
	for _, p := range machine.Presets() {
		fmt.Fprintf(w, "  %-20s %s\n", p.Name, p.Description)
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

// idxPairNames are the files stimuli --format idx --out OUT writes.
func idxPairNames(out string) (images, labels string) {
	return out + "-images-idx3-ubyte.gz", out + "-labels-idx1-ubyte.gz"
}
