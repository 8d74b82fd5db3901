package cli

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"mark1/compare"
	"mark1/dataset"
	"mark1/internal/base/atomicfile"
	"mark1/learning"
	"mark1/learning/modelfile"
)

// pictureFeatures is the --features list for picture data; "raw" (numeric
// data) leaves the choice to the raw path.
func pictureFeatures(s string) []string {
	if s == compare.Raw {
		return nil
	}
	return split(s)
}

// isNumericFile reports whether path is a text file of numbers (libsvm, CSV
// or whitespace columns), gzipped or not, rather than pictures: a regular
// file whose first 4 KiB hold no NUL byte (IDX files and picture formats
// have them in their headers).
func isNumericFile(path string) bool {
	f, err := atomicfile.Open(path) // a named pipe must not block: the reader refuses it after
	if err != nil {
		return false
	}
	defer f.Close()
	br := bufio.NewReader(f)
	var r io.Reader = br
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return false
		}
		defer zr.Close()
		r = zr
	}
	head := make([]byte, 4096)
	n, _ := io.ReadFull(r, head)
	return n > 0 && !bytes.ContainsRune(head[:n], 0)
}

// compareRaw runs compare's software learners on a numeric data file's
// values as they are (scaled if asked), and says in one line why the
// hardware rows are missing and, for square rows, how to see them as
// pictures.
func compareRaw(ctx context.Context, env *Env, data dataFlags, scale string, spec compare.Spec, jsonOut, csvOut, quiet bool, plotPath string) error {
	all, err := readNumeric(ctx, data.memory.bytes(), data.data, dataset.Options{})
	if err != nil {
		return err
	}
	var train, test *dataset.Set
	if data.test != "" {
		if test, err = readNumeric(ctx, data.memory.bytes(), data.test, dataset.Options{}); err != nil {
			return err
		}
		if err := test.Relabel(all.Classes); err != nil {
			return err
		}
		train = all
		test.Dim = max(test.Dim, train.Dim)
		train.Dim = test.Dim
	} else {
		train, test = all.Split(data.testSplit, spec.Seed)
	}
	if len(train.Classes) < 2 {
		return fmt.Errorf("%s: every row has the label %q; a comparison needs at least two classes", data.data, train.Classes[0])
	}
	if scale != "none" {
		sc, err := dataset.FitScaler(train, scale)
		if err != nil {
			return usagef("--scale: %v", err)
		}
		if train, err = scaleSet(ctx, sc, train); err != nil {
			return err
		}
		if test, err = scaleSet(ctx, sc, test); err != nil {
			return err
		}
	}
	trR, err := modelfile.Rows(train)
	if err != nil {
		return fmt.Errorf("%s: %w", data.data, err)
	}
	teR, err := modelfile.Rows(test)
	if err != nil {
		return fmt.Errorf("%s: %w", data.data, err)
	}
	quiet = quiet || jsonOut || csvOut
	prog := startCompareProgress(env, quiet, &spec, len(train.Classes), true)
	rep, err := compare.RunRaw(learnerBudget(ctx), filepath.Base(data.data), train.Classes,
		&learning.Data{Rows: trR, Y: train.Y, Classes: len(train.Classes)},
		&learning.Data{Rows: teR, Y: test.Y, Classes: len(train.Classes)}, spec, prog.start)
	prog.end()
	if err != nil {
		return err
	}
	if k, grey := compare.SquarePictures(all); k > 0 && len(rep.Notes) > 0 {
		how := "--as-pictures (the values are grey levels in [0,1])"
		if !grey {
			how = "--as-pictures --scale 01 (to make the values grey levels in [0,1])"
		}
		rep.Notes[0] += fmt.Sprintf("; the %d features could be %dx%d pictures: compare them on the machine with %s", train.Dim, k, k, how)
	}
	return emitReport(env, rep, jsonOut, csvOut, quiet, plotPath)
}

// scaledCopy reads a numeric data file, scales it with method and writes it
// as libsvm text to a temporary file, for --as-pictures --scale; cleanup
// removes the file.
func scaledCopy(ctx context.Context, limit int64, path, method string) (string, func(), error) {
	s, err := readNumeric(ctx, limit, path, dataset.Options{})
	if err != nil {
		return "", nil, err
	}
	sc, err := dataset.FitScaler(s, method)
	if err != nil {
		return "", nil, usagef("--scale: %v", err)
	}
	if s, err = sc.Apply(s, 0); err != nil {
		return "", nil, err
	}
	f, err := os.CreateTemp("", "mark1-scaled-*.libsvm")
	if err != nil {
		return "", nil, err
	}
	cleanup := func() { os.Remove(f.Name()) }
	bw := bufio.NewWriter(f)
	err = dataset.WriteLibSVM(bw, s)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		cleanup()
		return "", nil, fmt.Errorf("%s: writing the scaled copy: %w", path, err)
	}
	return f.Name(), cleanup, nil
}
