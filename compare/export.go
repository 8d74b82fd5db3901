package compare

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"mark1/dataset"
	"mark1/images"
	"mark1/internal/base/atomicfile"
	"mark1/machine"
)

// ExportLibSVM writes the train and test features of both kinds as libsvm
// files into folder dir (made if missing), labels as class indices: the
// files are named train-KIND.libsvm and test-KIND.libsvm for each of
// Features (IsExportName). It stops between files once ctx is
// cancelled, and a failure (a full disk) or an interrupt removes the files
// it wrote and the folder if it made it: an export is whole or absent.
// After a whole export, undo removes it the same way.
func ExportLibSVM(ctx context.Context, dir string, cfg machine.Config, seeds machine.Seeds, train, test *images.Dataset) (undo func(), err error) {
	made := false
	if _, statErr := os.Stat(dir); errors.Is(statErr, os.ErrNotExist) {
		made = true
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating %s: %w", dir, err)
	}
	var written []string
	remove := func() {
		for _, p := range written {
			os.Remove(p)
		}
		if made {
			os.Remove(dir)
		}
	}
	defer func() {
		if err != nil { // "return nil, err" has set undo to nil
			remove()
		}
	}()
	m, err := machine.New(cfg, train.Classes, seeds, nil)
	if err != nil {
		return nil, err
	}
	for _, part := range []struct {
		name string
		d    *images.Dataset
	}{{"train", train}, {"test", test}} {
		fields := m.Fields(part.d)
		for _, kind := range Features() {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			X := FeatureVectors(m, fields, kind)
			y := make([]float64, len(fields.Y))
			for i, c := range fields.Y {
				y[i] = float64(c)
			}
			path := filepath.Join(dir, exportName(part.name, kind))
			set, err := dataset.FromDense(path, X, y)
			if err != nil {
				return nil, err
			}
			if err := atomicfile.Write(path, func(f *os.File) error { return dataset.WriteLibSVM(f, set) }); err != nil {
				return nil, err
			}
			written = append(written, path)
		}
	}
	return remove, nil
}

// exportName is the file ExportLibSVM writes for part (train, test) and a
// feature kind.
func exportName(part, kind string) string { return part + "-" + kind + ".libsvm" }

// IsExportName reports whether name is one of the files ExportLibSVM
// writes.
func IsExportName(name string) bool {
	for _, part := range []string{"train", "test"} {
		for _, kind := range Features() {
			if name == exportName(part, kind) {
				return true
			}
		}
	}
	return false
}

// SquarePictures reports whether numeric data's rows could be k×k
// pictures (k² features, k > 1), and whether every value is already a grey
// level in [0,1]; k is 0 for other data.
func SquarePictures(s *dataset.Set) (k int, grey bool) {
	k = int(math.Sqrt(float64(s.Dim)) + 0.5)
	if k*k != s.Dim || k < 2 {
		return 0, false
	}
	for _, v := range s.Value {
		if v < 0 || v > 1 {
			return k, false
		}
	}
	return k, true
}
