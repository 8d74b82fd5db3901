package images

import (
	"cmp"
	"context"
	"fmt"
	"image"
	"math"
	"slices"
	"strconv"

	"mark1/dataset"
	"mark1/internal/base/limit"
)

// loadLibSVM reads a libsvm file, gzipped or not, as pictures. The text is
// dataset's to read (its reader, its messages); lim bounds it as it is
// read (indices numbered from 1, as LIBSVM's): the rows by MaxSamples, the largest feature index by MaxPixels,
// the non-zero values by MaxValues and their memory by MaxBytes.
func loadLibSVM(ctx context.Context, path string, lim Limits) (*Dataset, error) {
	set, err := dataset.ReadFileContext(ctx, path, dataset.Options{
		Format:    dataset.LibSVM,
		Indices:   dataset.OneBased, // LIBSVM's numbering, as mark1 writes cards
		MaxRows:   lim.MaxSamples,
		MaxDim:    lim.MaxPixels,
		MaxValues: lim.MaxValues,
		MaxBytes:  lim.MaxBytes,
	})
	if err != nil {
		return nil, err // a malformed file's error is ErrFormat: dataset's
	}
	return libsvmDataset(set, lim)
}

// libsvmDataset turns a numeric data set into square grey pictures, sample
// i named "file[i]": its dimension must be k×k; values in [0, 1] are
// multiplied by 255, values in [0, 255] kept, others scaled from the
// smallest to the largest value (zeros included) onto 0–255. The classes
// are the labels sorted by value.
func libsvmDataset(set *dataset.Set, lim Limits) (*Dataset, error) {
	name, dim, n := set.Name, set.Dim, set.Rows()
	k := int(math.Sqrt(float64(dim)) + 0.5)
	if dim == 0 || k*k != dim {
		return nil, errorf(ErrFormat, "%s: libsvm dimension %d is not a square k×k, so the rows are not pictures", name, dim)
	}
	if _, ok := limit.Mul(n, dim, lim.MaxValues); !ok {
		return nil, tooLarge(name, fmt.Sprintf("picture data (%d rows × %d pixels)", n, dim), limit.Product([]int{n, dim}), lim.MaxValues)
	}
	if err := checkMemory(name, n, n*dim, lim); err != nil {
		return nil, err
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range n {
		idx, val := set.Row(i)
		if len(idx) < dim { // implicit zeros
			lo, hi = min(lo, 0), max(hi, 0)
		}
		for _, v := range val {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	scale := func(v float64) float64 { return v }
	switch {
	case lo >= 0 && hi <= 1:
		scale = func(v float64) float64 { return v * 255 }
	case lo >= 0 && hi <= 255:
	case hi > lo:
		scale = func(v float64) float64 { return (v - lo) / (hi - lo) * 255 }
	default:
		scale = func(float64) float64 { return 0 }
	}
	level := func(v float64) uint8 { return uint8(min(max(math.Round(scale(v)), 0), 255)) }

	// The classes in the order of their labels' values.
	values := make([]float64, len(set.Classes))
	for c, l := range set.Classes {
		v, err := strconv.ParseFloat(l, 64)
		if err != nil {
			return nil, errorf(ErrFormat, "%s: label %q is not a number", name, l)
		}
		values[c] = v
	}
	order := make([]int, len(values))
	for c := range order {
		order[c] = c
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(values[a], values[b]) })
	classOf := make([]int, len(order)) // the set's class → the sorted class
	classes := make([]string, len(order))
	for i, c := range order {
		classOf[c] = i
		classes[i] = set.Classes[c]
	}

	zero := level(0)
	pix := make([]byte, n*dim)
	d := &Dataset{Name: name, Classes: classes, Samples: make([]Sample, n)}
	for i := range n {
		p := pix[i*dim : (i+1)*dim : (i+1)*dim]
		if zero != 0 {
			for j := range p {
				p[j] = zero
			}
		}
		idx, val := set.Row(i)
		for j, f := range idx {
			p[f] = level(val[j])
		}
		d.Samples[i] = Sample{
			Image:  &image.Gray{Pix: p, Stride: k, Rect: image.Rect(0, 0, k, k)},
			Label:  classOf[set.Y[i]],
			Source: fmt.Sprintf("%s[%d]", name, i),
		}
	}
	return d, nil
}
