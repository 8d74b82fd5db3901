package images

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"mark1/internal/base/atomicfile"

	"mark1/dataset"
	"mark1/internal/base/limit"
)

// Load reads a labelled data set from path, recognising its format by
// content (magic bytes, gzip header), not by extension:
//
//   - A folder holding one sub-folder per class, named after the class, each
//     holding picture files (PNG, JPEG, GIF, BMP, TIFF, WebP). Classes are
//     the sub-folder names, sorted. Names starting with '.' (such as
//     .DS_Store) are skipped; any other file that is not a picture, a file
//     beside the class folders, or a folder inside a class folder is an
//     error, so nothing is silently left out. Only these two levels are
//     read, so links cannot lead into loops.
//   - An IDX images file (MNIST style, magic 0x00000803: count × rows ×
//     cols unsigned bytes), gzipped or not. Its labels file (magic
//     0x00000801) is given as "IMAGES,LABELS" or found beside it by the
//     MNIST naming: "images" → "labels" and "idx3" → "idx1" in the file
//     name, with or without ".gz" (train-images-idx3-ubyte →
//     train-labels-idx1-ubyte[.gz]). Classes are the label values present,
//     in numeric order, as text ("0" … "9").
//   - libsvm text, gzipped or not (read by dataset.ReadFile within lim:
//     rows by MaxSamples, indices by MaxPixels), whose dimension is a
//     square k×k: each row is a k×k picture in row-major order. Samples are
//     named file[row]. Classes are
//     the labels present, in numeric order, written as strconv 'g' writes
//     them ("+1" becomes "1"). Values are scaled to grey levels by one rule
//     for the whole file: if all lie in [0, 1] they are multiplied by 255;
//     else if all lie in [0, 255] they are kept; otherwise they are mapped
//     linearly from [min, max] onto [0, 255] (a constant file maps to 0).
//     Results are rounded to the nearest level.
//
// Pictures are kept as read (see Sample): MNIST digits, for instance, stay
// white on black; the retina decides polarity. The set must hold at least
// two classes (see Dataset.Validate). Every error names the file and, where
// it applies, the line or record, and wraps dataset.ErrTooLarge, ErrFormat or
// ErrUnsupported when one of those is the cause.
func Load(path string, lim Limits) (*Dataset, error) {
	return LoadContext(context.Background(), path, lim)
}

// LoadContext is Load stopped by ctx: it looks at ctx before every picture
// of a folder and every block (at most atomicfile.ReadBlock bytes) of an
// IDX or libsvm file, so a cancelled read of a large data set ends within
// milliseconds, with an error wrapping ctx.Err() that names path.
func LoadContext(ctx context.Context, path string, lim Limits) (*Dataset, error) {
	d, err := load(ctx, path, lim)
	if err != nil && atomicfile.Done(ctx) {
		return nil, fmt.Errorf("%s: reading stopped: %w", path, ctx.Err())
	}
	return d, err
}

func load(ctx context.Context, path string, lim Limits) (*Dataset, error) {
	lim = lim.withDefaults()
	imagesPath, labelsPath, err := dataset.SplitPair(path)
	if err != nil {
		return nil, err
	}
	var d *Dataset
	if labelsPath != "" {
		d, err = loadIDXPair(ctx, imagesPath, labelsPath, lim)
	} else {
		d, err = loadPath(ctx, path, lim)
	}
	if err != nil {
		return nil, err
	}
	if err := d.Validate(); err != nil {
		return nil, err
	}
	return d, nil
}

// loadPath loads a folder, or a single file whose format it detects.
func loadPath(ctx context.Context, path string, lim Limits) (*Dataset, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return loadFolder(ctx, path, lim)
	}
	kind, err := sniffFile(path)
	if err != nil {
		return nil, err
	}
	switch kind {
	case kindIDXImages:
		return loadIDXPair(ctx, path, "", lim)
	case kindIDXLabels:
		return nil, fmt.Errorf("%s: is an IDX labels file; give its images file, or both as IMAGES,LABELS", path)
	case kindIDXOther:
		// ReadIDX explains what is wrong with it.
		_, err := readIDXFile(ctx, path, lim)
		if err == nil {
			err = errorf(ErrUnsupported, "%s: IDX file is neither images (3 dimensions) nor labels (1 dimension)", path)
		}
		return nil, err
	case kindPicture:
		return nil, fmt.Errorf("%s: is a single picture; a data set is a folder of class folders, an IDX file or libsvm text (mark1 predict reads one picture)", path)
	case kindText:
		return loadLibSVM(ctx, path, lim)
	}
	return nil, errorf(ErrFormat, "%s: not a data set: neither a folder, an IDX file, nor libsvm text (binary content)", path)
}

// fileKind is what sniffing found in a file.
type fileKind int

const (
	kindUnknown fileKind = iota
	kindIDXImages
	kindIDXLabels
	kindIDXOther
	kindPicture
	kindText
)

// sniffFile looks at the first bytes of path (decompressed if gzipped).
func sniffFile(path string) (fileKind, error) {
	r, f, err := openData(context.Background(), path)
	if err != nil {
		return kindUnknown, err
	}
	defer f.Close()
	head := make([]byte, 512)
	n, err := io.ReadFull(r, head)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return kindUnknown, fmt.Errorf("%s: reading: %w", path, err)
	}
	return sniff(head[:n]), nil
}

// sniff classifies the first bytes of a file.
func sniff(b []byte) fileKind {
	switch dataset.SniffIDX(b) {
	case dataset.IDXImages:
		return kindIDXImages
	case dataset.IDXLabels:
		return kindIDXLabels
	case dataset.IDXOther:
		return kindIDXOther
	}
	for _, magic := range [][]byte{
		[]byte("\x89PNG\r\n\x1a\n"), []byte("\xff\xd8\xff"), []byte("GIF87a"), []byte("GIF89a"),
		[]byte("BM"), []byte("II*\x00"), []byte("MM\x00*"),
	} {
		if bytes.HasPrefix(b, magic) {
			return kindPicture
		}
	}
	if len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP" {
		return kindPicture
	}
	if len(b) == 0 {
		return kindText // an empty file: the libsvm reader reports "no rows"
	}
	// Text, for the libsvm parser to judge line by line: no NUL byte.
	if bytes.IndexByte(b, 0) >= 0 {
		return kindUnknown
	}
	return kindText
}

// openData opens path for reading, decompressed if it is gzipped, read in
// blocks that look at ctx first (atomicfile.ContextReader). The caller
// closes the returned file.
func openData(ctx context.Context, path string) (io.Reader, *os.File, error) {
	f, err := atomicfile.Open(path)
	if err != nil {
		return nil, nil, err
	}
	r, err := maybeGunzip(f, path)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return atomicfile.ContextReader(ctx, r), f, nil
}

// maybeGunzip returns r decompressed if it starts with the gzip magic
// bytes, else r itself (buffered).
func maybeGunzip(r io.Reader, name string) (io.Reader, error) {
	br := bufio.NewReader(r)
	magic, _ := br.Peek(2)
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, errorf(ErrFormat, "%s: corrupt gzip header: %w", name, err)
		}
		return zr, nil
	}
	return br, nil
}

// readIDXFile reads an IDX file, gzipped or not (dataset.ReadIDX), within
// lim: the item count within MaxSamples, an item's bytes within MaxPixels,
// the whole within MaxValues, and a data set's pictures within the memory
// budget.
func readIDXFile(ctx context.Context, path string, lim Limits) (*dataset.IDXFile, error) {
	r, f, err := openData(ctx, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return dataset.ReadIDX(r, path, dataset.IDXLimits{
		MaxItems: lim.MaxSamples, MaxItemSize: lim.MaxPixels, MaxBytes: lim.MaxValues,
		Check: func(dims []int) error {
			if len(dims) == 1 {
				return nil // labels
			}
			return checkMemory(path, dims[0], limit.Product(dims), lim)
		},
	})
}

// loadIDXPair reads an IDX images file and its labels file, found by
// dataset.ReadIDXLabels (beside it, if labelsPath is "").
func loadIDXPair(ctx context.Context, imagesPath, labelsPath string, lim Limits) (*Dataset, error) {
	im, err := readIDXFile(ctx, imagesPath, lim)
	if err != nil {
		return nil, err
	}
	if err := dataset.CheckIDXImages(imagesPath, im.Dims); err != nil {
		return nil, err
	}
	n, rows, cols := im.Dims[0], im.Dims[1], im.Dims[2]
	labels, _, err := dataset.ReadIDXLabels(ctx, imagesPath, labelsPath, n, lim.MaxSamples)
	if err != nil {
		return nil, err
	}
	var present [256]bool
	for _, v := range labels {
		present[v] = true
	}
	var index [256]int
	var classes []string
	for v, ok := range present {
		if ok {
			index[v] = len(classes)
			classes = append(classes, strconv.Itoa(v))
		}
	}
	d := &Dataset{Name: imagesPath, Classes: classes, Samples: make([]Sample, n)}
	per := rows * cols
	for i := range n {
		pix := im.Data[i*per : (i+1)*per : (i+1)*per]
		d.Samples[i] = Sample{
			Image:  &image.Gray{Pix: pix, Stride: cols, Rect: image.Rect(0, 0, cols, rows)},
			Label:  index[labels[i]],
			Source: fmt.Sprintf("%s[%d]", imagesPath, i),
		}
	}
	return d, nil
}

// isHidden reports whether a directory entry is hidden by the Unix
// convention (.DS_Store, .git, ._resource forks).
func isHidden(name string) bool { return strings.HasPrefix(name, ".") }

// loadFolder reads a folder of class folders.
func loadFolder(ctx context.Context, dir string, lim Limits) (*Dataset, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	d := &Dataset{Name: dir}
	var files []string
	var labels []int
	for _, e := range entries {
		if isHidden(e.Name()) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		isDir, err := entryIsDir(p, e)
		if err != nil {
			return nil, err
		}
		if !isDir {
			if k, _ := sniffFile(p); k == kindPicture {
				return nil, fmt.Errorf("%s: picture beside the class folders; put each class's pictures in a sub-folder named after the class", p)
			}
			return nil, fmt.Errorf("%s: file beside the class folders; a data set folder holds only one sub-folder per class", p)
		}
		if atomicfile.Done(ctx) {
			return nil, ctx.Err()
		}
		class := e.Name()
		if !utf8.ValidString(class) {
			return nil, fmt.Errorf("%s: class folder name %q is not valid UTF-8 text (a class name is saved as text in the machine file); rename the folder", p, class)
		}
		inner, err := os.ReadDir(p)
		if err != nil {
			return nil, err
		}
		n := 0
		for _, f := range inner {
			if isHidden(f.Name()) {
				continue
			}
			fp := filepath.Join(p, f.Name())
			sub, err := entryIsDir(fp, f)
			if err != nil {
				return nil, err
			}
			if sub {
				return nil, fmt.Errorf("%s: folder inside class folder %q; class folders hold pictures only", fp, class)
			}
			if len(files) == lim.MaxSamples {
				return nil, errorf(dataset.ErrTooLarge, "%s: more than %d pictures (the MaxSamples limit)", dir, lim.MaxSamples)
			}
			files = append(files, fp)
			labels = append(labels, len(d.Classes))
			n++
		}
		if n == 0 {
			return nil, fmt.Errorf("%s: class folder holds no pictures", p)
		}
		d.Classes = append(d.Classes, class)
	}
	switch len(d.Classes) {
	case 0:
		return nil, fmt.Errorf("%s: no class folders (a data set folder holds one sub-folder of pictures per class)", dir)
	case 1:
		return nil, fmt.Errorf("%s: only one class folder (%q); a classifier needs at least two", dir, d.Classes[0])
	}
	if err := checkMemory(dir, len(files), 0, lim); err != nil {
		return nil, err
	}
	pics, err := decodeFiles(ctx, files, lim)
	if err != nil {
		return nil, err
	}
	d.Samples = make([]Sample, len(files))
	for i, f := range files {
		d.Samples[i] = Sample{Image: pics[i], Label: labels[i], Source: f}
	}
	return d, nil
}

// entryIsDir reports whether e, at path p, is a folder, following a link
// (once: nothing below a class folder is read, so loops cannot form).
func entryIsDir(p string, e fs.DirEntry) (bool, error) {
	if e.Type()&fs.ModeSymlink == 0 {
		return e.IsDir(), nil
	}
	fi, err := os.Stat(p)
	if err != nil {
		return false, fmt.Errorf("%s: broken link: %w", p, err)
	}
	return fi.IsDir(), nil
}
