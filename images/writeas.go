package images

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"mark1/internal/base/atomicfile"
)

// WriteFormats are the forms WriteAs writes cards in.
func WriteFormats() []string { return []string{"png", "idx", "libsvm"} }

// IDXPairNames are the files WriteAs writes in format idx at out:
// OUT-images-idx3-ubyte.gz and OUT-labels-idx1-ubyte.gz (MNIST's layout).
func IDXPairNames(out string) (images, labels string) {
	return out + "-images-idx3-ubyte.gz", out + "-labels-idx1-ubyte.gz"
}

// WriteAs writes d's size×size cards to out in format (WriteFormats): png,
// a folder of class sub-folders (WriteFolderMarked, marked marker); idx,
// the gzipped pair IDXPairNames(out) (WriteIDXPair); or libsvm, the text
// file out (WriteLibSVM), replaced atomically. It returns what it wrote,
// in words ("X and Y" for the pair).
func WriteAs(ctx context.Context, d *Dataset, size int, format, out, marker string) (string, error) {
	switch format {
	case "png":
		return out, WriteFolderMarked(ctx, d, out, marker)
	case "idx":
		imgs, labels := IDXPairNames(out)
		return imgs + " and " + labels, WriteIDXPair(ctx, d, size, imgs, labels)
	case "libsvm":
		return out, atomicfile.Write(out, func(f *os.File) error { return WriteLibSVM(ctx, f, d) })
	}
	return "", fmt.Errorf("images: format %q: want %s", format, strings.Join(WriteFormats(), ", "))
}

// WriteTaskList writes the built-in tasks (Tasks), a line each: its name,
// what it draws and its number of classes.
func WriteTaskList(w io.Writer) error {
	b := &strings.Builder{}
	for _, t := range Tasks() {
		fmt.Fprintf(b, "  %-20s %s (%d classes)\n", t.Name, t.Description, len(t.Classes))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
