package images

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// IDX is the content of an IDX file, the format of the MNIST distribution:
// an array of unsigned bytes with its dimensions. For an images file Dims is
// [count, rows, cols] and image i occupies Data[i*rows*cols : (i+1)*rows*cols]
// in row-major order; for a labels file Dims is [count].
type IDX struct {
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

// ReadIDX reads an IDX file (not gzipped; Load handles gzip) of unsigned
// bytes, element type 0x08, with any number of dimensions from 1 to 255.
// The header is checked against lim before anything is allocated: the
// first dimension (the item count) against MaxSamples, the product of the
// others (pixels per item) against MaxPixels, and the whole against
// MaxValues. Data is read as it arrives, so a short file costs only its own
// size. Errors name the file (name) and the problem; other element types are
// reported as ErrUnsupported, truncated or trailing data as ErrFormat.
func ReadIDX(r io.Reader, name string, lim Limits) (*IDX, error) {
	lim = lim.withDefaults()
	var head [4]byte
	if n, err := io.ReadFull(r, head[:]); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, errorf(ErrFormat, "%s: not an IDX file: %d bytes, shorter than the 4-byte magic number", name, n)
		}
		return nil, fmt.Errorf("%s: reading IDX header: %w", name, err)
	}
	if head[0] != 0 || head[1] != 0 {
		return nil, errorf(ErrFormat, "%s: not an IDX file: magic number 0x%08x does not start with two zero bytes", name, binary.BigEndian.Uint32(head[:]))
	}
	if head[2] != idxTypeUByte {
		if idxTypeName(head[2]) == "unknown" {
			return nil, errorf(ErrFormat, "%s: not an IDX file: unknown element type 0x%02x in magic number 0x%08x", name, head[2], binary.BigEndian.Uint32(head[:]))
		}
		return nil, errorf(ErrUnsupported, "%s: IDX element type 0x%02x (%s) is not supported; only unsigned bytes (0x08) are", name, head[2], idxTypeName(head[2]))
	}
	nd := int(head[3])
	if nd == 0 {
		return nil, errorf(ErrFormat, "%s: IDX header declares zero dimensions", name)
	}
	raw := make([]byte, 4*nd)
	if _, err := io.ReadFull(r, raw); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, errorf(ErrFormat, "%s: truncated IDX header: %d dimension sizes declared, file ends before them", name, nd)
		}
		return nil, fmt.Errorf("%s: reading IDX header: %w", name, err)
	}
	dims := make([]int, nd)
	for i := range dims {
		d := binary.BigEndian.Uint32(raw[4*i:])
		if uint64(d) > uint64(lim.MaxValues) {
			return nil, tooLarge(name, fmt.Sprintf("IDX dimension %d of size", i), int(min(uint64(d), 1<<62)), lim.MaxValues)
		}
		dims[i] = int(d)
	}
	if dims[0] > lim.MaxSamples {
		return nil, tooLarge(name, "IDX item count", dims[0], lim.MaxSamples)
	}
	per := 1
	for i, d := range dims[1:] {
		p, ok := mulLimit(per, d, lim.MaxPixels)
		if !ok {
			return nil, tooLarge(name, fmt.Sprintf("IDX item size (product of dimensions 1..%d, %v)", i+1, dims[1:i+2]), saturatingProduct(dims[1:i+2]), lim.MaxPixels)
		}
		per = p
	}
	total, ok := mulLimit(dims[0], per, lim.MaxValues)
	if !ok {
		return nil, tooLarge(name, fmt.Sprintf("IDX size %v in bytes", dims), saturatingProduct(dims), lim.MaxValues)
	}
	if nd > 1 { // items with pixels: a data set's pictures
		if err := checkMemory(name, dims[0], total, lim); err != nil {
			return nil, err
		}
	}
	var buf bytes.Buffer
	n, err := io.CopyN(&buf, r, int64(total))
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errorf(ErrFormat, "%s: truncated IDX data: header %v declares %d bytes, file has %d", name, dims, total, n)
		}
		return nil, fmt.Errorf("%s: reading IDX data: %w", name, err)
	}
	var extra [1]byte
	k, err := io.ReadFull(r, extra[:])
	if k > 0 {
		return nil, errorf(ErrFormat, "%s: trailing data after the %d bytes declared by IDX header %v", name, total, dims)
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: reading IDX data: %w", name, err)
	}
	return &IDX{Dims: dims, Data: buf.Bytes()}, nil
}

// saturatingProduct multiplies dims, stopping at 1<<62 to avoid overflow;
// it is for messages only.
func saturatingProduct(dims []int) int {
	p := 1
	for _, d := range dims {
		if d == 0 {
			return 0
		}
		if p > (1<<62)/d {
			return 1 << 62
		}
		p *= d
	}
	return p
}

// WriteIDX writes x as an IDX file of unsigned bytes. It returns an error if
// x has no dimensions or more than 255, a dimension outside [0, 2³²), or a
// Data length that differs from the product of Dims.
func WriteIDX(w io.Writer, x *IDX) error {
	if len(x.Dims) == 0 || len(x.Dims) > 255 {
		return fmt.Errorf("images: IDX with %d dimensions; want 1 to 255", len(x.Dims))
	}
	want := 1
	for _, d := range x.Dims {
		if d < 0 || uint64(d) > 0xffffffff {
			return fmt.Errorf("images: IDX dimension %d out of range", d)
		}
		p, ok := mulLimit(want, d, math.MaxInt)
		if !ok {
			return fmt.Errorf("images: IDX dimensions %v overflow", x.Dims)
		}
		want = p
	}
	if want != len(x.Data) {
		return fmt.Errorf("images: IDX dimensions %v need %d data bytes, have %d", x.Dims, want, len(x.Data))
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
