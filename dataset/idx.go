package dataset

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"mark1/internal/base/limit"
)

// IDXFile is the content of an IDX file, the format of the MNIST distribution:
// an array of unsigned bytes with its dimensions. For an images file Dims is
// [count, rows, cols] and image i occupies Data[i*rows*cols : (i+1)*rows*cols]
// in row-major order; for a labels file Dims is [count].
type IDXFile struct {
	Dims []int
	Data []byte
}

// IDX magic numbers, as written by the MNIST files: two zero bytes, the
// element type, and the number of dimensions.
const (
	idxMagicImages = 0x00000803 // unsigned bytes, 3 dimensions
	idxMagicLabels = 0x00000801 // unsigned bytes, 1 dimension
	idxTypeUByte   = 0x08
)

// IDXKind is what the first bytes of a file say of it as IDX.
type IDXKind int

const (
	// NotIDX: the bytes do not start an IDX file.
	NotIDX IDXKind = iota
	// IDXImages: unsigned bytes in 3 dimensions (count, rows, columns).
	IDXImages
	// IDXLabels: unsigned bytes in 1 dimension (count).
	IDXLabels
	// IDXOther: an IDX magic number of another type or shape, which
	// ReadIDX reports on.
	IDXOther
)

// SniffIDX tells from the first (at least 4) bytes of a file, decompressed,
// whether it is an IDX file and of which kind. Text never starts with
// two zero bytes.
func SniffIDX(b []byte) IDXKind {
	if len(b) < 4 || b[0] != 0 || b[1] != 0 || b[2] < 0x08 || b[2] > 0x0E {
		return NotIDX
	}
	switch binary.BigEndian.Uint32(b) {
	case idxMagicImages:
		return IDXImages
	case idxMagicLabels:
		return IDXLabels
	}
	return IDXOther
}

// ErrUnsupported is wrapped by errors that report valid content mark1 does
// not read, such as an IDX file of 32-bit floats.
var ErrUnsupported = errors.New("unsupported")

// idxTypeName names an IDX element type, for messages.
func idxTypeName(t byte) string {
	switch t {
	case 0x08:
		return "unsigned byte"
	case 0x09:
		return "signed byte"
	case 0x0B:
		return "int16"
	case 0x0C:
		return "int32"
	case 0x0D:
		return "float32"
	case 0x0E:
		return "float64"
	}
	return "unknown"
}

// IDXLimits bound what ReadIDX accepts, checked on the header before
// anything is allocated. A zero field means no bound beyond the format's.
type IDXLimits struct {
	// MaxItems bounds the first dimension (the item count).
	MaxItems int
	// MaxItemSize bounds the product of the other dimensions (the pixels
	// of an image).
	MaxItemSize int
	// MaxBytes bounds the product of all dimensions (the data's bytes).
	MaxBytes int
	// Check, when not nil, is given the dimensions once they have passed
	// the bounds above and before the data are read; its error is
	// returned as it is (a reader's own memory estimate).
	Check func(dims []int) error

	itemsBound, sizeBound Bound // what raises MaxItems and MaxItemSize (readIDXSet's, from Options)
}

// ReadIDX reads an IDX file (not gzipped) of unsigned bytes, element type
// 0x08, with any number of dimensions from 1 to 255. The header is checked
// against lim before anything is allocated. Data is read as it arrives, so
// a short file costs only its own size. Errors name the file (name) and
// the problem: other element types wrap ErrUnsupported, a malformed,
// truncated or overlong file ErrFormat, a header over lim ErrTooLarge.
func ReadIDX(r io.Reader, name string, lim IDXLimits) (*IDXFile, error) {
	dims, total, err := readIDXHeader(r, name, lim)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	n, err := io.CopyN(&buf, r, int64(total))
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, truncatedIDX(name, dims, total, int(n))
		}
		return nil, fmt.Errorf("%s: reading IDX data: %w", name, err)
	}
	if err := idxEnd(r, name, dims, total); err != nil {
		return nil, err
	}
	return &IDXFile{Dims: dims, Data: buf.Bytes()}, nil
}

// readIDXHeader reads an IDX header and checks it against lim; total is
// the product of the dimensions, the data's bytes.
func readIDXHeader(r io.Reader, name string, lim IDXLimits) (dims []int, total int, err error) {
	for _, p := range []*int{&lim.MaxItems, &lim.MaxItemSize, &lim.MaxBytes} {
		if *p <= 0 {
			*p = math.MaxInt
		}
	}
	var head [4]byte
	if n, err := io.ReadFull(r, head[:]); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, 0, parseErr(name, 0, 0, "not an IDX file: %d bytes, shorter than the 4-byte magic number", n)
		}
		return nil, 0, fmt.Errorf("%s: reading IDX header: %w", name, err)
	}
	if head[0] != 0 || head[1] != 0 {
		return nil, 0, parseErr(name, 0, 0, "not an IDX file: magic number 0x%08x does not start with two zero bytes", binary.BigEndian.Uint32(head[:]))
	}
	if head[2] != idxTypeUByte {
		if idxTypeName(head[2]) == "unknown" {
			return nil, 0, parseErr(name, 0, 0, "not an IDX file: unknown element type 0x%02x in magic number 0x%08x", head[2], binary.BigEndian.Uint32(head[:]))
		}
		return nil, 0, kindf(ErrUnsupported, "%s: IDX element type 0x%02x (%s) is not supported; only unsigned bytes (0x08) are", name, head[2], idxTypeName(head[2]))
	}
	nd := int(head[3])
	if nd == 0 {
		return nil, 0, parseErr(name, 0, 0, "IDX header declares zero dimensions")
	}
	raw := make([]byte, 4*nd)
	if _, err := io.ReadFull(r, raw); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, 0, parseErr(name, 0, 0, "truncated IDX header: %d dimension sizes declared, file ends before them", nd)
		}
		return nil, 0, fmt.Errorf("%s: reading IDX header: %w", name, err)
	}
	dims = make([]int, nd)
	for i := range dims {
		d := binary.BigEndian.Uint32(raw[4*i:])
		if uint64(d) > uint64(lim.MaxBytes) {
			return nil, 0, tooLargef("%s: IDX dimension %d of size %d exceeds the limit of %d", name, i, d, lim.MaxBytes)
		}
		dims[i] = int(d)
	}
	if dims[0] > lim.MaxItems {
		return nil, 0, boundf(lim.itemsBound, "%s: IDX item count %d exceeds the limit of %d rows%s", name, dims[0], lim.MaxItems, boundWords(lim.itemsBound))
	}
	per := 1
	for i, d := range dims[1:] {
		p, ok := limit.Mul(per, d, lim.MaxItemSize)
		if !ok {
			return nil, 0, boundf(lim.sizeBound, "%s: IDX item size (product of dimensions 1..%d, %v) %d exceeds the limit of %d features%s", name, i+1, dims[1:i+2], limit.Product(dims[1:i+2]), lim.MaxItemSize, boundWords(lim.sizeBound))
		}
		per = p
	}
	total, ok := limit.Mul(dims[0], per, lim.MaxBytes)
	if !ok {
		return nil, 0, tooLargef("%s: IDX size %v in bytes %d exceeds the limit of %d", name, dims, limit.Product(dims), lim.MaxBytes)
	}
	if lim.Check != nil {
		if err := lim.Check(dims); err != nil {
			return nil, 0, err
		}
	}
	return dims, total, nil
}

// truncatedIDX reports an IDX file whose data end after got of its total
// bytes.
func truncatedIDX(name string, dims []int, total, got int) error {
	return parseErr(name, 0, 0, "truncated IDX data: header %v declares %d bytes, file has %d", dims, total, got)
}

// idxEnd checks that r holds nothing after an IDX file's data.
func idxEnd(r io.Reader, name string, dims []int, total int) error {
	var extra [1]byte
	k, err := io.ReadFull(r, extra[:])
	if k > 0 {
		return parseErr(name, 0, 0, "trailing data after the %d bytes declared by IDX header %v", total, dims)
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("%s: reading IDX data: %w", name, err)
	}
	return nil
}

// WriteIDX writes x as an IDX file of unsigned bytes. It returns an error if
// x has no dimensions or more than 255, a dimension outside [0, 2³²), or a
// Data length that differs from the product of Dims.
func WriteIDX(w io.Writer, x *IDXFile) error {
	if len(x.Dims) == 0 || len(x.Dims) > 255 {
		return fmt.Errorf("dataset: IDX with %d dimensions; want 1 to 255", len(x.Dims))
	}
	want := 1
	for _, d := range x.Dims {
		if d < 0 || uint64(d) > 0xffffffff {
			return fmt.Errorf("dataset: IDX dimension %d out of range", d)
		}
		p, ok := limit.Mul(want, d, math.MaxInt)
		if !ok {
			return fmt.Errorf("dataset: IDX dimensions %v overflow", x.Dims)
		}
		want = p
	}
	if want != len(x.Data) {
		return fmt.Errorf("dataset: IDX dimensions %v need %d data bytes, have %d", x.Dims, want, len(x.Data))
	}
	bw := bufio.NewWriter(w)
	head := make([]byte, 4+4*len(x.Dims))
	head[2] = idxTypeUByte
	head[3] = byte(len(x.Dims))
	for i, d := range x.Dims {
		binary.BigEndian.PutUint32(head[4+4*i:], uint32(d))
	}
	bw.Write(head)
	bw.Write(x.Data)
	return bw.Flush()
}

// Files returns every file a data path reads: for "IMAGES,LABELS" the
// two files, for an IDX images file the labels file beside it
// (LabelsBeside), and otherwise path itself; a path holding commas whose
// parts are not two existing files counts as each of its parts. A writer
// that must not replace any of a job's inputs checks its outputs against
// them all.
func Files(path string) []string {
	images, labels, err := SplitPair(path)
	if err != nil {
		return strings.Split(path, ",")
	}
	if labels == "" {
		labels, _ = LabelsBeside(images)
	}
	if labels == "" {
		return []string{images}
	}
	return []string{images, labels}
}

// SplitPair recognises an IDX pair given as one path, "IMAGES,LABELS": it
// returns the two files when path does not exist and a comma splits it
// into two that do, and path itself (labels "") when path exists or holds
// no comma, so that file names containing commas still work.
func SplitPair(path string) (images, labels string, err error) {
	if _, err := os.Stat(path); err == nil || !strings.Contains(path, ",") {
		return path, "", nil
	}
	for i := range len(path) {
		if path[i] != ',' {
			continue
		}
		a, b := path[:i], path[i+1:]
		_, errA := os.Stat(a)
		_, errB := os.Stat(b)
		if errA == nil && errB == nil {
			return a, b, nil
		}
		if strings.Count(path, ",") == 1 {
			if errA != nil {
				return "", "", fmt.Errorf("%s: IDX images file of the pair %q: %w", a, path, errA)
			}
			return "", "", fmt.Errorf("%s: IDX labels file of the pair %q: %w", b, path, errB)
		}
	}
	return "", "", fmt.Errorf("%s: no such file, and no comma splits it into two existing files IMAGES,LABELS", path)
}

// ErrNoLabelsFile is wrapped by LabelsBeside's errors: an IDX images file
// has no labels file beside it (a front end may offer to read the images
// without labels).
var ErrNoLabelsFile = errors.New("no IDX labels file")

// LabelsBeside finds the labels file of an IDX images file by the MNIST
// naming: "images" → "labels" and "idx3" → "idx1" in the file name, with
// or without ".gz" (train-images-idx3-ubyte → train-labels-idx1-ubyte[.gz]).
// Its error, when there is none, wraps ErrNoLabelsFile.
func LabelsBeside(images string) (string, error) {
	dir, base := filepath.Split(images)
	name := strings.Replace(strings.Replace(base, "images", "labels", 1), "idx3", "idx1", 1)
	if name == base {
		return "", kindf(ErrNoLabelsFile, "%s: IDX images file without a labels file: name it like MNIST (train-images-idx3-ubyte beside train-labels-idx1-ubyte) or give IMAGES,LABELS", images)
	}
	stem := strings.TrimSuffix(name, ".gz")
	tried := []string{filepath.Join(dir, stem), filepath.Join(dir, stem+".gz")}
	for _, p := range tried {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", kindf(ErrNoLabelsFile, "%s: IDX labels file not found (looked for %s and %s); give IMAGES,LABELS", images, tried[0], tried[1])
}

// readIDXSet reads an IDX images file (gzipped or not; path may be
// "IMAGES,LABELS") as numeric data: image i is row i, its pixels in
// row-major order are the features, pixel value b is b/255 (grey levels
// in [0, 1], as people scale MNIST), and its label is the labels file's
// number i (the file beside it by the MNIST naming unless given; none
// with opt.NoLabels). The rows go through the builder, a block at a time,
// as the text formats' do, after a first pass has checked the file whole.
func readIDXSet(ctx context.Context, path string, opt Options) (*Set, error) {
	opt = opt.withDefaults()
	if opt.LabelColumn != "" {
		return nil, fmt.Errorf("%s: a label column (%q) is only for CSV files; this is %s data", path, opt.LabelColumn, IDX)
	}
	imagesPath, labelsPath, err := SplitPair(path)
	if err != nil {
		return nil, err
	}
	// A first pass checks the file and counts its non-zero pixels, the
	// values the rows hold (as ReadFile counts a text file's colons), so
	// that their arrays are allocated at their size, not the pixels'.
	var dims []int
	var labels []byte
	nnz := 0
	err = openText(ctx, imagesPath, func(r io.Reader) error {
		var total int
		if dims, total, err = readIDXHeader(r, imagesPath, IDXLimits{MaxItems: opt.MaxRows, MaxItemSize: opt.MaxDim, itemsBound: opt.rowsBound, sizeBound: opt.dimBound}); err != nil {
			return err
		}
		if err := CheckIDXImages(imagesPath, dims); err != nil {
			return err
		}
		n := dims[0]
		if !opt.NoLabels {
			if labels, _, err = ReadIDXLabels(ctx, imagesPath, labelsPath, n, opt.MaxRows); err != nil {
				return err
			}
		}
		if n == 0 {
			return parseErr(imagesPath, 0, 0, "no images (the IDX header declares a count of 0)")
		}
		buf := make([]byte, 64<<10)
		for got := 0; got < total; {
			k, err := r.Read(buf[:min(len(buf), total-got)])
			for _, v := range buf[:k] {
				if v != 0 {
					nnz++
				}
			}
			got += k
			if errors.Is(err, io.EOF) && got < total {
				return truncatedIDX(imagesPath, dims, total, got)
			}
			if err != nil && !errors.Is(err, io.EOF) {
				return fmt.Errorf("%s: reading IDX data: %w", imagesPath, err)
			}
		}
		return idxEnd(r, imagesPath, dims, total)
	})
	if err != nil {
		return nil, err
	}
	var set *Set
	err = openText(ctx, imagesPath, func(r io.Reader) error {
		if _, _, err := readIDXHeader(r, imagesPath, IDXLimits{}); err != nil {
			return err
		}
		n, per := dims[0], dims[1]*dims[2]
		opt.hintRows, opt.hintValues = n, nnz
		b := newBuilder(imagesPath, IDX, opt)
		b.set.Dim = per
		pix := make([]byte, per)
		for i := range n {
			if _, err := io.ReadFull(r, pix); err != nil {
				return fmt.Errorf("%s: reading IDX data: %w", imagesPath, err) // changed since the first pass
			}
			if err := b.startRow(i + 1); err != nil {
				return err
			}
			for j, v := range pix {
				if err := b.add(j, float64(v)/255, i+1); err != nil {
					return err
				}
			}
			label := ""
			if labels != nil {
				label = strconv.Itoa(int(labels[i]))
			}
			if err := b.endRow(label); err != nil {
				return err
			}
		}
		set, err = b.finish()
		return err
	})
	if err != nil {
		return nil, err
	}
	return set, nil
}

// idxFormat returns IDX when path names IDX data: a pair "IMAGES,LABELS",
// or a file (gzipped or not) that starts with an IDX magic number; else
// Auto. An IDX labels file is refused: its images file is the data.
func idxFormat(path string) (Format, error) {
	images, labels, err := SplitPair(path)
	if err != nil {
		return Auto, err
	}
	if labels != "" {
		return IDX, nil
	}
	var head [4]byte
	n := 0
	err = openText(context.Background(), images, func(r io.Reader) error {
		n, _ = io.ReadFull(r, head[:])
		return nil
	})
	if err != nil {
		return Auto, err
	}
	switch SniffIDX(head[:n]) {
	case IDXImages, IDXOther:
		return IDX, nil
	case IDXLabels:
		return Auto, fmt.Errorf("%s: is an IDX labels file; give its images file, or both as IMAGES,LABELS", path)
	}
	return Auto, nil
}

// CheckIDXImages checks the dimensions dims of the IDX images file at
// path: three (count, rows, columns), of pictures of at least one pixel.
// Its error wraps ErrFormat.
func CheckIDXImages(path string, dims []int) error {
	if len(dims) != 3 {
		return parseErr(path, 0, 0, "IDX images file has %d dimensions %v; want 3 (count, rows, columns)", len(dims), dims)
	}
	if dims[1] == 0 || dims[2] == 0 {
		return parseErr(path, 0, 0, "IDX images of %dx%d pixels are empty", dims[2], dims[1])
	}
	return nil
}

// ReadIDXLabels reads the labels of the n images of the IDX images file
// imagesPath (gzipped or not): the file labelsPath, or the one beside the
// images by the MNIST naming (LabelsBeside) when labelsPath is "". The
// file must hold n labels in one dimension, and at most maxItems (0: no
// bound). It returns the labels file's path too. Errors name the file
// and wrap ErrFormat, ErrTooLarge or ErrNoLabelsFile.
func ReadIDXLabels(ctx context.Context, imagesPath, labelsPath string, n, maxItems int) ([]byte, string, error) {
	if labelsPath == "" {
		var err error
		if labelsPath, err = LabelsBeside(imagesPath); err != nil {
			return nil, "", err
		}
	}
	var labels []byte
	err := openText(ctx, labelsPath, func(r io.Reader) error {
		lb, err := ReadIDX(r, labelsPath, IDXLimits{MaxItems: maxItems})
		switch {
		case err != nil:
			return err
		case len(lb.Dims) != 1:
			return parseErr(labelsPath, 0, 0, "IDX labels file has %d dimensions %v; want 1 (count)", len(lb.Dims), lb.Dims)
		case lb.Dims[0] != n:
			return parseErr(imagesPath, 0, 0, "%d images, but %s has %d labels", n, labelsPath, lb.Dims[0])
		}
		labels = lb.Data
		return nil
	})
	return labels, labelsPath, err
}
