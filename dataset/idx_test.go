package dataset

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"mark1/internal/base/limit"
)

// idxHeader is an IDX header with the given type byte and dims.
func idxHeader(typ byte, dims ...uint32) []byte {
	b := []byte{0, 0, typ, byte(len(dims))}
	for _, d := range dims {
		b = binary.BigEndian.AppendUint32(b, d)
	}
	return b
}

// idxBytes is x written by WriteIDX.
func idxBytes(t testing.TB, x *IDXFile) string {
	var b bytes.Buffer
	if err := WriteIDX(&b, x); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestIDXRoundTrip(t *testing.T) {
	for _, x := range []*IDXFile{
		{Dims: []int{3}, Data: []byte{1, 2, 3}},
		{Dims: []int{2, 2, 3}, Data: []byte{0, 1, 2, 3, 4, 5, 250, 251, 252, 253, 254, 255}},
		{Dims: []int{0, 28, 28}, Data: []byte{}},
		{Dims: []int{48, 0}, Data: []byte{}}, // found by FuzzReadIDX
		{Dims: []int{1, 1, 1, 1, 2}, Data: []byte{9, 8}},
	} {
		y, err := ReadIDX(strings.NewReader(idxBytes(t, x)), "buf", IDXLimits{})
		if err != nil {
			t.Fatalf("%v: %v", x.Dims, err)
		}
		if !slices.Equal(x.Dims, y.Dims) || !bytes.Equal(x.Data, y.Data) {
			t.Errorf("read back %v %v; want %v %v", y.Dims, y.Data, x.Dims, x.Data)
		}
	}
}

func TestReadIDXErrors(t *testing.T) {
	refuse := errors.New("refused by Check")
	tests := []struct {
		name string
		in   []byte
		lim  IDXLimits
		msg  string
		kind error
	}{
		{"empty", nil, IDXLimits{}, "f: not an IDX file: 0 bytes", ErrFormat},
		{"bad magic", []byte{1, 0, 8, 1, 0, 0, 0, 0}, IDXLimits{}, "f: not an IDX file: magic number 0x01000801", ErrFormat},
		{"unknown type", []byte{0, 0, 0x42, 1, 0, 0, 0, 0}, IDXLimits{}, "unknown element type 0x42", ErrFormat},
		{"int32 type", idxHeader(0x0C, 1), IDXLimits{}, "f: IDX element type 0x0c (int32) is not supported", ErrUnsupported},
		{"zero dimensions", []byte{0, 0, 8, 0}, IDXLimits{}, "declares zero dimensions", ErrFormat},
		{"truncated header", idxHeader(8, 5, 5)[:7], IDXLimits{}, "truncated IDX header: 2 dimension sizes declared", ErrFormat},
		{"truncated data", append(idxHeader(8, 4), 1, 2), IDXLimits{}, "f: truncated IDX data: header [4] declares 4 bytes, file has 2", ErrFormat},
		{"trailing data", append(idxHeader(8, 1), 1, 2), IDXLimits{}, "f: trailing data after the 1 bytes", ErrFormat},
		{"too many items", idxHeader(8, 1001, 1), IDXLimits{MaxItems: 1000}, "f: IDX item count 1001 exceeds the limit of 1000", ErrTooLarge},
		{"item too large", idxHeader(8, 1, 100, 101), IDXLimits{MaxItemSize: 10000}, "f: IDX item size (product of dimensions 1..2, [100 101]) 10100 exceeds the limit of 10000", ErrTooLarge},
		{"set too large", idxHeader(8, 100, 100), IDXLimits{MaxBytes: 9999}, "f: IDX size [100 100] in bytes 10000 exceeds the limit of 9999", ErrTooLarge},
		{"overflowing product", idxHeader(8, 1<<32-1, 1<<32-1, 1<<32-1, 1<<32-1), IDXLimits{}, "exceeds the limit", ErrTooLarge},
		{"check", append(idxHeader(8, 1, 1), 5), IDXLimits{Check: func([]int) error { return refuse }}, "refused by Check", refuse},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadIDX(bytes.NewReader(tt.in), "f", tt.lim)
			if err == nil || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("got %v; want an error saying %q", err, tt.msg)
			}
			if !errors.Is(err, tt.kind) {
				t.Errorf("error %q is not %v", err, tt.kind)
			}
		})
	}
}

func TestWriteIDXErrors(t *testing.T) {
	for _, x := range []*IDXFile{
		{Dims: nil, Data: nil},
		{Dims: []int{2, 2}, Data: []byte{1, 2, 3}},
		{Dims: []int{-1}, Data: nil},
		{Dims: []int{1 << 40, 1 << 40}, Data: []byte{1}},
	} {
		if err := WriteIDX(new(bytes.Buffer), x); err == nil {
			t.Errorf("WriteIDX(%v, %d bytes): no error", x.Dims, len(x.Data))
		}
	}
}

func FuzzReadIDX(f *testing.F) {
	f.Add(idxHeader(8, 2, 1, 1))
	f.Add(append(idxHeader(8, 1, 2), 7, 9))
	f.Add(append(idxHeader(8, 2, 2, 2), 0, 1, 2, 3, 252, 253, 254, 255))
	f.Add(idxHeader(0x0D, 1))
	f.Fuzz(func(t *testing.T, b []byte) {
		x, err := ReadIDX(bytes.NewReader(b), "fuzz", IDXLimits{MaxItems: 1 << 12, MaxItemSize: 1 << 14, MaxBytes: 1 << 18})
		if err != nil {
			return
		}
		if got := limit.Product(x.Dims); got != len(x.Data) {
			t.Fatalf("dims %v hold %d bytes; data has %d", x.Dims, got, len(x.Data))
		}
		var w bytes.Buffer
		if err := WriteIDX(&w, x); err != nil {
			t.Fatalf("writing what was read: %v", err)
		}
		if !bytes.Equal(w.Bytes(), b) {
			t.Fatalf("rewritten IDX differs from the input")
		}
	})
}

// mnistLike returns n images of rows×cols pixels and their labels, every
// pixel a different mix of its image, row and column, some zero.
func mnistLike(n, rows, cols int, labels []byte) (images, lab *IDXFile) {
	images = &IDXFile{Dims: []int{n, rows, cols}, Data: make([]byte, n*rows*cols)}
	for k := range images.Data {
		if k%3 != 0 {
			images.Data[k] = byte(k*37 + k/7)
		}
	}
	return images, &IDXFile{Dims: []int{n}, Data: labels[:n]}
}

// libsvmOf writes images and labels as libsvm text, pixel b as b/255 in
// shortest form, 1-based indices: the reference ReadFile reads IDX against.
func libsvmOf(im, lb *IDXFile) string {
	var b strings.Builder
	per := im.Dims[1] * im.Dims[2]
	for i := range im.Dims[0] {
		b.WriteString(strconv.Itoa(int(lb.Data[i])))
		for j, v := range im.Data[i*per : (i+1)*per] {
			if v != 0 {
				fmt.Fprintf(&b, " %d:%s", j+1, strconv.FormatFloat(float64(v)/255, 'g', -1, 64))
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// An IDX pair reads as the same rows as the same pictures written as libsvm
// text with every pixel b as b/255: pixels in row-major order, labels as
// numbers, classes in the order of first appearance. Every way of naming
// the pair (the labels beside, "IMAGES,LABELS", gzipped) and of reading
// (whole, in blocks, a block at a time) gives it.
func TestReadIDXSet(t *testing.T) {
	write := tempFiles(t)
	im, lb := mnistLike(7, 3, 4, []byte{7, 2, 7, 0, 2, 9, 0})
	ref, err := Read(strings.NewReader(libsvmOf(im, lb)), "ref", Options{Indices: OneBased})
	if err != nil {
		t.Fatal(err)
	}
	ref.Dim = 12 // the libsvm file cannot say its last pixels are features
	imgs, labs := idxBytes(t, im), idxBytes(t, lb)
	beside := write("t10k-images-idx3-ubyte", imgs)
	write("t10k-labels-idx1-ubyte", labs)
	gz := write("gz-images-idx3-ubyte.gz", gzipped(imgs))
	write("gz-labels-idx1-ubyte.gz", gzipped(labs))
	pair := write("a.bin", imgs) + "," + write("b.bin", labs)
	for _, path := range []string{beside, gz, pair} {
		for _, format := range []Format{Auto, IDX} {
			s, err := ReadFile(path, Options{Format: format})
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			if s.Format != IDX || s.Dim != 12 || !slices.Equal(s.Classes, []string{"7", "2", "0", "9"}) {
				t.Errorf("%s: format %v, dim %d, classes %q", path, s.Format, s.Dim, s.Classes)
			}
			if s.Fingerprint() != ref.Fingerprint() {
				t.Errorf("%s: rows differ from the libsvm reference", path)
			}
			if h, err := ReadHead(path, Auto); err != nil || h.Format != IDX {
				t.Errorf("%s: ReadHead %v, %v", path, h, err)
			}
		}
		whole, blocks, err := ReadFileBlocks(context.Background(), path, Options{}, 3)
		if err != nil || len(blocks) != 3 {
			t.Fatalf("%s: ReadFileBlocks: %d blocks, %v", path, len(blocks), err)
		}
		if !slices.Equal(whole.Y, ref.Y) {
			t.Errorf("%s: ReadFileBlocks labels %v, want %v", path, whole.Y, ref.Y)
		}
		var rows []int
		err = ReadBlocks(context.Background(), path, Options{}, 2, func(b *Set, first int) error {
			for i := range b.Rows() {
				idx, val := b.Row(i)
				ri, rv := ref.Row(first + i)
				if !slices.Equal(idx, ri) || !slices.Equal(val, rv) || b.Label(i) != ref.Label(first+i) || b.Dim != 12 {
					t.Errorf("%s: ReadBlocks row %d differs", path, first+i)
				}
				rows = append(rows, first+i)
			}
			return nil
		})
		if err != nil || len(rows) != 7 {
			t.Errorf("%s: ReadBlocks read rows %v: %v", path, rows, err)
		}
	}
	// Without labels, the images alone: no labels file is looked for.
	alone := write("x-images-idx3-ubyte", imgs)
	s, err := ReadFile(alone, Options{NoLabels: true})
	if err != nil || !s.Unlabelled || s.Rows() != 7 {
		t.Fatalf("images alone, no labels: %v", err)
	}
}

// Every bad IDX input is refused with an error naming the file and the
// problem, of the kind errors.Is tells.
func TestReadIDXSetErrors(t *testing.T) {
	write := tempFiles(t)
	im, lb := mnistLike(4, 2, 2, []byte{1, 0, 1, 0})
	imgs, labs := idxBytes(t, im), idxBytes(t, lb)
	dir := filepath.Dir(write("x", ""))
	for _, tc := range []struct {
		name  string
		files map[string]string
		path  string
		opt   Options
		msg   string
		kind  error
	}{
		{"no labels file", map[string]string{"n-images-idx3-ubyte": imgs}, "n-images-idx3-ubyte", Options{}, "IDX labels file not found", ErrNoLabelsFile},
		{"not MNIST-named", map[string]string{"pics.bin": imgs}, "pics.bin", Options{}, "IDX images file without a labels file", ErrNoLabelsFile},
		{"labels given as data", map[string]string{"l-labels-idx1-ubyte": labs}, "l-labels-idx1-ubyte", Options{}, "is an IDX labels file; give its images file", nil},
		{"counts differ", map[string]string{"c-images-idx3-ubyte": imgs, "c-labels-idx1-ubyte": idxBytes(t, &IDXFile{Dims: []int{3}, Data: lb.Data[:3]})}, "c-images-idx3-ubyte", Options{}, "4 images, but", ErrFormat},
		{"truncated", map[string]string{"t-images-idx3-ubyte": imgs[:len(imgs)-3], "t-labels-idx1-ubyte": labs}, "t-images-idx3-ubyte", Options{}, "truncated IDX data: header [4 2 2] declares 16 bytes, file has 13", ErrFormat},
		{"trailing", map[string]string{"r-images-idx3-ubyte": imgs + "x", "r-labels-idx1-ubyte": labs}, "r-images-idx3-ubyte", Options{}, "trailing data", ErrFormat},
		{"two dimensions", map[string]string{"d-images-idx3-ubyte": idxBytes(t, &IDXFile{Dims: []int{4, 4}, Data: im.Data}), "d-labels-idx1-ubyte": labs}, "d-images-idx3-ubyte", Options{}, "has 2 dimensions [4 4]; want 3", ErrFormat},
		{"float32", map[string]string{"f-images-idx3-ubyte": string(idxHeader(0x0D, 1, 1, 1)) + "abcd", "f-labels-idx1-ubyte": labs}, "f-images-idx3-ubyte", Options{}, "IDX element type 0x0d (float32) is not supported", ErrUnsupported},
		{"rows budget", map[string]string{"b-images-idx3-ubyte": imgs, "b-labels-idx1-ubyte": labs}, "b-images-idx3-ubyte", Options{MaxRows: 3}, "IDX item count 4 exceeds the limit of 3", ErrTooLarge},
		{"dim budget", map[string]string{"m-images-idx3-ubyte": imgs, "m-labels-idx1-ubyte": labs}, "m-images-idx3-ubyte", Options{MaxDim: 3}, "IDX item size", ErrTooLarge},
		{"bytes budget", map[string]string{"y-images-idx3-ubyte": imgs, "y-labels-idx1-ubyte": labs}, "y-images-idx3-ubyte", Options{MaxBytes: 100}, "over the budget of 100", ErrTooLarge},
		{"label column", map[string]string{"k-images-idx3-ubyte": imgs, "k-labels-idx1-ubyte": labs}, "k-images-idx3-ubyte", Options{LabelColumn: "2"}, "a label column (\"2\") is only for CSV files; this is idx data", nil},
		{"idx forced on text", map[string]string{"t.libsvm": "1 1:1\n"}, "t.libsvm", Options{Format: IDX}, "not an IDX file", ErrFormat},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for name, text := range tc.files {
				write(name, text)
			}
			path := filepath.Join(dir, tc.path)
			_, err := ReadFile(path, tc.opt)
			if err == nil || !strings.Contains(err.Error(), tc.msg) || !strings.Contains(err.Error(), dir) {
				t.Fatalf("got %v; want an error naming the file and saying %q", err, tc.msg)
			}
			if tc.kind != nil && !errors.Is(err, tc.kind) {
				t.Errorf("error %q is not %v", err, tc.kind)
			}
		})
	}
}

// FuzzReadIDXSet feeds arbitrary images and labels files to ReadFile:
// whatever it accepts holds, row for row, the pixels ReadIDX reads from
// the images file, each b/255, with the labels file's numbers as labels;
// whatever it refuses gets an error naming a file.
func FuzzReadIDXSet(f *testing.F) {
	im, lb := mnistLike(5, 2, 3, []byte{3, 1, 3, 0, 1})
	f.Add(idxBytes(f, im), idxBytes(f, lb))
	f.Add(string(append(idxHeader(8, 1, 1, 2), 0, 255)), string(append(idxHeader(8, 1), 9)))
	f.Add(string(idxHeader(8, 2, 1, 1)), string(idxHeader(8, 2)))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, images, labels string) {
		ip, lp := filepath.Join(dir, "f-images-idx3-ubyte"), filepath.Join(dir, "f-labels-idx1-ubyte")
		if err := os.WriteFile(ip, []byte(images), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(lp, []byte(labels), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := ReadFile(ip, Options{MaxRows: 1 << 10, MaxDim: 1 << 10, MaxValues: 1 << 16})
		if err != nil {
			if !strings.Contains(err.Error(), dir) {
				t.Fatalf("error %q names no file", err)
			}
			return
		}
		if s.Format != IDX { // text, read as text
			if SniffIDX([]byte(images)) != NotIDX {
				t.Fatalf("an IDX file read as %v", s.Format)
			}
			return
		}
		want, err := ReadIDX(strings.NewReader(images), "images", IDXLimits{})
		if err != nil {
			t.Fatalf("ReadFile accepted images ReadIDX refuses: %v", err)
		}
		lab, err := ReadIDX(strings.NewReader(labels), "labels", IDXLimits{})
		if err != nil {
			t.Fatalf("ReadFile accepted labels ReadIDX refuses: %v", err)
		}
		per := want.Dims[1] * want.Dims[2]
		if s.Rows() != want.Dims[0] || s.Dim != per || s.Format != IDX {
			t.Fatalf("%d rows of %d features (%v); the file has %v", s.Rows(), s.Dim, s.Format, want.Dims)
		}
		row := make([]float64, per)
		for i := range s.Rows() {
			row = s.DenseRow(row, i)
			for k, v := range row {
				if v != float64(want.Data[i*per+k])/255 {
					t.Fatalf("row %d, feature %d: %v; the file's byte is %d", i, k, v, want.Data[i*per+k])
				}
			}
			if s.Label(i) != strconv.Itoa(int(lab.Data[i])) {
				t.Fatalf("row %d: label %q; the labels file says %d", i, s.Label(i), lab.Data[i])
			}
		}
	})
}
