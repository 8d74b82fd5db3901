package images

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"mark1/dataset"
)

func TestLoadValid(t *testing.T) {
	im, lb := smallIDX()
	tests := []struct {
		name    string
		path    string
		classes []string
		counts  []int
		size    image.Point // of every sample; zero to skip
	}{
		{"folder", "testdata/folder", []string{"circle", "square"}, []int{5, 5}, image.Point{}},
		{"idx raw, labels by MNIST name", "testdata/mnist/t10k-images-idx3-ubyte", []string{"0", "3", "7"}, []int{2, 2, 2}, image.Pt(5, 4)},
		{"idx gzipped, labels by MNIST name", "testdata/mnistgz/train-images-idx3-ubyte.gz", []string{"0", "3", "7"}, []int{2, 2, 2}, image.Pt(5, 4)},
		{"idx pair", "testdata/mnist/t10k-images-idx3-ubyte,testdata/mnistgz/train-labels-idx1-ubyte.gz", []string{"0", "3", "7"}, []int{2, 2, 2}, image.Pt(5, 4)},
		{"libsvm", "testdata/small.libsvm", []string{"-1", "1"}, []int{2, 2}, image.Pt(3, 3)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Load(tt.path, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(d.Classes, tt.classes) {
				t.Errorf("classes %q; want %q", d.Classes, tt.classes)
			}
			if got := d.Counts(); !slices.Equal(got, tt.counts) {
				t.Errorf("counts %v; want %v", got, tt.counts)
			}
			if err := d.Validate(); err != nil {
				t.Error(err)
			}
			for _, s := range d.Samples {
				if tt.size != (image.Point{}) && s.Image.Rect.Size() != tt.size {
					t.Errorf("%s: size %v; want %v", s.Source, s.Image.Rect.Size(), tt.size)
				}
			}
			if strings.Contains(tt.path, "idx3") {
				// Pixels and labels exactly as written.
				per := 5 * 4
				for i, s := range d.Samples {
					if !bytes.Equal(s.Image.Pix, im.Data[i*per:(i+1)*per]) {
						t.Errorf("%s: pixels differ from the file", s.Source)
					}
					if got, want := d.Classes[s.Label], strconv.Itoa(int(lb.Data[i])); got != want {
						t.Errorf("%s: class %q; want %q", s.Source, got, want)
					}
				}
			}
		})
	}
}

// TestLoadFolderPixels checks that lossless formats give back the generated
// pixels exactly, JPEG nearly, and that transparency reads as white paper.
func TestLoadFolderPixels(t *testing.T) {
	d, err := Load("testdata/folder", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := fixtureCards(t)
	for _, s := range d.Samples {
		class := d.Classes[s.Label]
		base := filepath.Base(s.Source)
		if base == "transparent.png" {
			for _, c := range []struct {
				x, y int
				want uint8
			}{{1, 1, 255}, {2, 2, 0}, {3, 3, 0}, {5, 5, 255}, {0, 0, 127}} {
				if got := s.Image.GrayAt(c.x, c.y).Y; got != c.want {
					t.Errorf("%s: pixel (%d,%d) = %d; want %d", base, c.x, c.y, got, c.want)
				}
			}
			continue
		}
		i := int(base[len(class)] - 'a')
		if base[len(class)] == 'e' { // the TIFF copy of sample a
			i = 0
		}
		w := want[class][i]
		tol := 0
		if strings.HasSuffix(base, ".jpg") {
			tol = 40
		}
		if d := maxAbsDiff(s.Image, w); d > tol {
			t.Errorf("%s: pixels differ by up to %d from the generated card; want ≤ %d", s.Source, d, tol)
		}
	}
}

func maxAbsDiff(a, b *image.Gray) int {
	if a.Rect.Size() != b.Rect.Size() {
		return 256
	}
	m := 0
	for y := range a.Rect.Dy() {
		for x := range a.Rect.Dx() {
			d := int(a.GrayAt(a.Rect.Min.X+x, a.Rect.Min.Y+y).Y) - int(b.GrayAt(b.Rect.Min.X+x, b.Rect.Min.Y+y).Y)
			m = max(m, d, -d)
		}
	}
	return m
}

// hugePNG is the start of a PNG whose header declares w × h pixels,
// followed by junk: enough for DecodeConfig, never to be decoded.
func hugePNG(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 0 // 8-bit greyscale
	chunk := func(typ string, data []byte) {
		binary.Write(&b, binary.BigEndian, uint32(len(data)))
		crc := crc32.NewIEEE()
		crc.Write([]byte(typ))
		crc.Write(data)
		b.WriteString(typ)
		b.Write(data)
		binary.Write(&b, binary.BigEndian, crc.Sum32())
	}
	chunk("IHDR", ihdr)
	chunk("IDAT", []byte("not really deflate data"))
	return b.Bytes()
}

func pngBytes(t testing.TB, w, h int) []byte {
	var b bytes.Buffer
	must(t, png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))))
	return b.Bytes()
}

func gzipped(t testing.TB, b []byte) []byte {
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	zw.Write(b)
	must(t, zw.Close())
	return out.Bytes()
}

// idxHeader is an IDX header with the given type byte and dims.
func idxHeader(typ byte, dims ...uint32) []byte {
	b := []byte{0, 0, typ, byte(len(dims))}
	for _, d := range dims {
		b = binary.BigEndian.AppendUint32(b, d)
	}
	return b
}

// TestLoadErrors feeds Load (and LoadImage) one bad input per failure it
// must report, and checks the message names the file and the problem.
func TestLoadErrors(t *testing.T) {
	im, lb := smallIDX()
	good := pngBytes(t, 4, 4)
	type files map[string][]byte // relative path → content; a nil value makes a folder
	tests := []struct {
		name  string
		files files
		path  string // relative to the temporary folder; "IMG,LBL" allowed
		lim   Limits
		image bool   // call LoadImage, not Load
		where string // the file named in the message, relative
		msg   string // the problem, as a substring
		kind  error  // dataset.ErrTooLarge, ErrFormat or ErrUnsupported, or nil
	}{
		{name: "missing file", path: "nothing.idx", where: "nothing.idx", msg: "no such file"},
		{name: "missing pair", path: "a.idx,b.idx", where: "a.idx", msg: "no such file"},
		{name: "empty folder", files: files{"d": nil}, path: "d", where: "d", msg: "no class folders"},
		{name: "class folder without pictures", files: files{"d/a/1.png": good, "d/b/.DS_Store": []byte("x")}, path: "d", where: "d/b", msg: "class folder holds no pictures"},
		{name: "one class", files: files{"d/a/1.png": good, "d/a/2.png": good}, path: "d", where: "d", msg: `only one class folder ("a")`},
		{name: "non-picture in class folder", files: files{"d/a/1.png": good, "d/b/notes.txt": []byte("hello")}, path: "d", where: "d/b/notes.txt", msg: "not a picture", kind: ErrFormat},
		{name: "picture beside class folders", files: files{"d/a/1.png": good, "d/b/1.png": good, "d/x.png": good}, path: "d", where: "d/x.png", msg: "picture beside the class folders"},
		{name: "file beside class folders", files: files{"d/a/1.png": good, "d/b/1.png": good, "d/README": []byte("hi")}, path: "d", where: "d/README", msg: "file beside the class folders"},
		{name: "folder in class folder", files: files{"d/a/1.png": good, "d/b/1.png": good, "d/b/deeper": nil}, path: "d", where: "d/b/deeper", msg: "folder inside class folder"},
		{name: "picture over MaxPixels (header 200000x200000)", files: files{"d/a/1.png": good, "d/b/big.png": hugePNG(200000, 200000)}, path: "d", where: "d/b/big.png", msg: "png picture of 200000x200000 pixels exceeds the limit of 33554432", kind: dataset.ErrTooLarge},
		{name: "picture over a small MaxPixels", files: files{"d/a/1.png": good, "d/b/1.png": pngBytes(t, 10, 10)}, path: "d", lim: Limits{MaxPixels: 99}, where: "d/b/1.png", msg: "10x10 pixels exceeds the limit of 99", kind: dataset.ErrTooLarge},
		{name: "pictures over MaxValues", files: files{"d/a/1.png": good, "d/b/1.png": good, "d/b/2.png": good}, path: "d", lim: Limits{MaxValues: 40}, where: "d/", msg: "over the limit of 40", kind: dataset.ErrTooLarge},
		{name: "pictures over MaxSamples", files: files{"d/a/1.png": good, "d/b/1.png": good, "d/b/2.png": good}, path: "d", lim: Limits{MaxSamples: 2}, where: "d", msg: "more than 2 pictures", kind: dataset.ErrTooLarge},
		{name: "truncated picture", files: files{"d/a/1.png": good, "d/b/1.png": good[:len(good)-20]}, path: "d", where: "d/b/1.png", msg: "corrupt png picture", kind: ErrFormat},
		{name: "picture given to Load", files: files{"x.png": good}, path: "x.png", where: "x.png", msg: "is a single picture"},
		{name: "LoadImage on text", files: files{"x.txt": []byte("1 1:1\n")}, path: "x.txt", image: true, where: "x.txt", msg: "not a picture (unknown format", kind: ErrFormat},
		{name: "LoadImage on a folder", files: files{"d": nil}, path: "d", image: true, where: "d", msg: "is a folder"},
		{name: "LoadImage over MaxPixels", files: files{"x.png": hugePNG(70000, 70000)}, path: "x.png", image: true, where: "x.png", msg: "exceeds the limit", kind: dataset.ErrTooLarge},
		{name: "LoadImage dimension overflow", files: files{"x.png": hugePNG(1<<31-1, 1<<31-1)}, path: "x.png", image: true, where: "x.png", msg: "corrupt picture header: png: unsupported feature: dimension overflow", kind: ErrFormat},
		{name: "binary junk", files: files{"x.bin": {0xff, 0x00, 0x13, 0x37}}, path: "x.bin", where: "x.bin", msg: "not a data set", kind: ErrFormat},
		{name: "idx wrong magic", files: files{"x.bin": append([]byte{0, 0, 0x42, 3}, make([]byte, 8)...)}, path: "x.bin", where: "x.bin", msg: "not a data set", kind: ErrFormat},
		{name: "idx unsupported type", files: files{"f-images-idx3-ubyte": idxHeader(0x0D, 1, 2, 2)}, path: "f-images-idx3-ubyte", where: "f-images-idx3-ubyte", msg: "0x0d (float32) is not supported", kind: ErrUnsupported},
		{name: "idx truncated data", files: files{"f-images-idx3-ubyte": append(idxHeader(8, 2, 3, 3), 1, 2, 3), "f-labels-idx1-ubyte": append(idxHeader(8, 2), 0, 1)}, path: "f-images-idx3-ubyte", where: "f-images-idx3-ubyte", msg: "truncated IDX data: header [2 3 3] declares 18 bytes, file has 3", kind: ErrFormat},
		{name: "idx truncated header", files: files{"f-images-idx3-ubyte": idxHeader(8, 2, 3, 3)[:9]}, path: "f-images-idx3-ubyte", where: "f-images-idx3-ubyte", msg: "truncated IDX header", kind: ErrFormat},
		{name: "idx trailing data", files: files{"f-images-idx3-ubyte": append(idxHeader(8, 1, 1, 1), 1, 2), "f-labels-idx1-ubyte": append(idxHeader(8, 1), 0)}, path: "f-images-idx3-ubyte", where: "f-images-idx3-ubyte", msg: "trailing data", kind: ErrFormat},
		{name: "idx counts disagree", files: files{"f-images-idx3-ubyte": idxBytes(t, im, false), "f-labels-idx1-ubyte": idxBytes(t, &dataset.IDXFile{Dims: []int{5}, Data: lb.Data[:5]}, true)}, path: "f-images-idx3-ubyte", where: "f-images-idx3-ubyte", msg: "6 images, but", kind: ErrFormat},
		{name: "idx huge dims", files: files{"f-images-idx3-ubyte": idxHeader(8, 60000, 100000, 100000)}, path: "f-images-idx3-ubyte", where: "f-images-idx3-ubyte", msg: "exceeds the limit of 33554432", kind: dataset.ErrTooLarge},
		{name: "idx dims overflowing int", files: files{"f-images-idx3-ubyte": idxHeader(8, 1<<32-1, 1<<32-1, 1<<32-1)}, path: "f-images-idx3-ubyte", lim: Limits{MaxPixels: 1 << 62, MaxValues: 1 << 62}, where: "f-images-idx3-ubyte", msg: "exceeds the limit", kind: dataset.ErrTooLarge},
		{name: "idx too many items", files: files{"f-images-idx3-ubyte": idxHeader(8, 11, 1, 1)}, path: "f-images-idx3-ubyte", lim: Limits{MaxSamples: 10}, where: "f-images-idx3-ubyte", msg: "item count 11 exceeds the limit of 10", kind: dataset.ErrTooLarge},
		{name: "idx labels file alone", files: files{"f-labels-idx1-ubyte": idxBytes(t, lb, false)}, path: "f-labels-idx1-ubyte", where: "f-labels-idx1-ubyte", msg: "is an IDX labels file"},
		{name: "idx without labels", files: files{"f-images-idx3-ubyte": idxBytes(t, im, true)}, path: "f-images-idx3-ubyte", where: "f-images-idx3-ubyte", msg: "IDX labels file not found"},
		{name: "idx unguessable labels", files: files{"digits.idx": idxBytes(t, im, false)}, path: "digits.idx", where: "digits.idx", msg: "without a labels file"},
		{name: "idx labels of the wrong shape", files: files{"a.idx": idxBytes(t, im, false), "b.idx": idxBytes(t, im, false)}, path: "a.idx,b.idx", where: "b.idx", msg: "labels file has 3 dimensions", kind: ErrFormat},
		{name: "idx one class", files: files{"a.idx": idxBytes(t, im, false), "b.idx": idxBytes(t, &dataset.IDXFile{Dims: []int{6}, Data: make([]byte, 6)}, false)}, path: "a.idx,b.idx", where: "a.idx", msg: "only one class present"},
		{name: "gzip corrupt", files: files{"x.gz": []byte{0x1f, 0x8b, 0x08, 0x00, 1, 2, 3}}, path: "x.gz", where: "x.gz", msg: "gzip"},
		{name: "gzip checksum", files: files{"f-images-idx3-ubyte.gz": corruptTail(gzipped(t, idxBytes(t, im, false))), "f-labels-idx1-ubyte": idxBytes(t, lb, false)}, path: "f-images-idx3-ubyte.gz", where: "f-images-idx3-ubyte.gz", msg: "checksum"},
		{name: "libsvm label not a number", files: files{"x.txt": []byte("1 1:1\nyes 1:1\n")}, path: "x.txt", where: "x.txt:2", msg: `field 1: label: "yes" is not a number`, kind: ErrFormat},
		{name: "libsvm index not increasing", files: files{"x.txt": []byte("1 2:1 1:1\n")}, path: "x.txt", where: "x.txt:1", msg: "index 1 after 2; indices must increase strictly", kind: ErrFormat},
		{name: "libsvm repeated index", files: files{"x.txt": []byte("1 2:1 2:1\n")}, path: "x.txt", where: "x.txt:1", msg: "index 2 after 2", kind: ErrFormat},
		{name: "libsvm index below 1", files: files{"x.txt": []byte("1 0:1\n")}, path: "x.txt", where: "x.txt:1", msg: "index 0 is below 1", kind: ErrFormat},
		{name: "libsvm no colon", files: files{"x.txt": []byte("1 1:1\n0 4\n")}, path: "x.txt", where: "x.txt:2", msg: `field 2: "4" is not index:value`, kind: ErrFormat},
		{name: "libsvm index not an integer", files: files{"x.txt": []byte("1 a:1\n")}, path: "x.txt", where: "x.txt:1", msg: "the index is not an integer", kind: ErrFormat},
		{name: "libsvm empty value", files: files{"x.txt": []byte("1 3:\n")}, path: "x.txt", where: "x.txt:1", msg: "value of feature 3: empty value", kind: ErrFormat},
		{name: "libsvm NaN", files: files{"x.txt": []byte("1 1:NaN\n")}, path: "x.txt", where: "x.txt:1", msg: "not a finite number", kind: ErrFormat},
		{name: "libsvm Inf", files: files{"x.txt": []byte("1 1:1\n1 1:-Inf\n")}, path: "x.txt", where: "x.txt:2", msg: "not a finite number", kind: ErrFormat},
		{name: "libsvm NaN label", files: files{"x.txt": []byte("nan 1:1\n")}, path: "x.txt", where: "x.txt:1", msg: "not a finite number", kind: ErrFormat},
		{name: "libsvm index over MaxPixels", files: files{"x.txt": []byte("1 99999999:1\n")}, path: "x.txt", where: "x.txt:1", msg: "feature index 99999999 is above the limit of 33554432 features", kind: dataset.ErrTooLarge},
		{name: "libsvm huge index", files: files{"x.txt": []byte("1 99999999999:1\n")}, path: "x.txt", where: "x.txt:1", msg: "feature index 99999999999 is above 2147483647, the largest index the rows store", kind: dataset.ErrTooLarge},
		{name: "libsvm empty", files: files{"x.txt": []byte("# nothing\n\n")}, path: "x.txt", where: "x.txt", msg: "no rows", kind: ErrFormat},
		{name: "libsvm one class", files: files{"x.txt": []byte("1 1:1\n1 4:1\n")}, path: "x.txt", where: "x.txt", msg: "only one class present"},
		{name: "libsvm not square", files: files{"x.txt": []byte("1 1:1\n2 5:1\n")}, path: "x.txt", where: "x.txt", msg: "dimension 5 is not a square", kind: ErrFormat},
		{name: "libsvm too many lines", files: files{"x.txt": []byte("1 1:1\n2 1:1\n1 1:1\n")}, path: "x.txt", lim: Limits{MaxSamples: 2}, where: "x.txt:3", msg: "more than 2 rows", kind: dataset.ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for rel, content := range tt.files {
				p := filepath.Join(dir, rel)
				if content == nil {
					must(t, os.MkdirAll(p, 0o755))
					continue
				}
				must(t, os.MkdirAll(filepath.Dir(p), 0o755))
				must(t, os.WriteFile(p, content, 0o644))
			}
			var paths []string
			for _, p := range strings.Split(tt.path, ",") {
				paths = append(paths, filepath.Join(dir, p))
			}
			path := strings.Join(paths, ",")
			var err error
			if tt.image {
				_, err = LoadImage(path, tt.lim)
			} else {
				_, err = Load(path, tt.lim)
			}
			if err == nil {
				t.Fatalf("no error; want one naming %s and saying %q", tt.where, tt.msg)
			}
			msg := err.Error()
			where := filepath.Join(dir, tt.where)
			if strings.HasSuffix(tt.where, "/") {
				where += "/"
			}
			if !strings.Contains(msg, where) {
				t.Errorf("error %q does not name %s", msg, where)
			}
			if !strings.Contains(msg, tt.msg) {
				t.Errorf("error %q does not say %q", msg, tt.msg)
			}
			if strings.Contains(msg, "\n") {
				t.Errorf("error %q is not one line", msg)
			}
			if tt.kind != nil && !errors.Is(err, tt.kind) {
				t.Errorf("error %q is not %v", msg, tt.kind)
			}
		})
	}
}

// corruptTail flips a byte of a gzip stream's CRC.
func corruptTail(b []byte) []byte {
	b = slices.Clone(b)
	b[len(b)-6] ^= 0xff
	return b
}

// TestLoadSymlinkLoop checks that a link from a class folder back up to
// the data set is reported, not followed.
func TestLoadSymlinkLoop(t *testing.T) {
	dir := t.TempDir()
	good := pngBytes(t, 3, 3)
	for _, c := range []string{"a", "b"} {
		must(t, os.MkdirAll(filepath.Join(dir, c), 0o755))
		must(t, os.WriteFile(filepath.Join(dir, c, "1.png"), good, 0o644))
	}
	if err := os.Symlink("..", filepath.Join(dir, "b", "loop")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	_, err := Load(dir, Limits{})
	if err == nil || !strings.Contains(err.Error(), "folder inside class folder") {
		t.Fatalf("got %v; want a folder-inside-class-folder error", err)
	}
	// A linked class folder is followed (once).
	must(t, os.Remove(filepath.Join(dir, "b", "loop")))
	must(t, os.Symlink("a", filepath.Join(dir, "c")))
	d, err := Load(dir, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Counts(); !slices.Equal(got, []int{1, 1, 1}) {
		t.Errorf("counts %v; want [1 1 1]", got)
	}
}

// doneAfter is a context that reports itself done from its n-th look at
// Done on: a read that looks at its context only at the end (issue 26)
// still finishes under it.
type doneAfter struct {
	context.Context
	n      int64
	looks  atomic.Int64
	closed chan struct{}
}

func newDoneAfter(n int64) *doneAfter {
	c := &doneAfter{Context: context.Background(), n: n, closed: make(chan struct{})}
	close(c.closed)
	return c
}

func (c *doneAfter) Done() <-chan struct{} {
	if c.looks.Add(1) >= c.n {
		return c.closed
	}
	return nil
}

func (c *doneAfter) Err() error {
	if c.looks.Load() >= c.n {
		return context.Canceled
	}
	return nil
}

// TestLoadContextStops reads large data sets of each form under a context
// that is cancelled after a few looks: the load must stop with an error
// that wraps context.Canceled and names the data, having looked at the
// context before every picture or block.
func TestLoadContextStops(t *testing.T) {
	dir := t.TempDir()
	// 200 pictures of 100x100 as IDX (2 MB), the same as gzipped libsvm
	// text, and a folder of 60 PNGs in two classes.
	const n, side = 200, 100
	im := &dataset.IDXFile{Dims: []int{n, side, side}, Data: make([]byte, n*side*side)}
	for i := range im.Data {
		im.Data[i] = byte(i * 7)
	}
	lb := &dataset.IDXFile{Dims: []int{n}, Data: make([]byte, n)}
	for i := range lb.Data {
		lb.Data[i] = byte(i % 2)
	}
	writeIDX := func(name string, x *dataset.IDXFile) {
		var b bytes.Buffer
		if err := dataset.WriteIDX(&b, x); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, name), b.Bytes(), 0o644)
	}
	writeIDX("big-images-idx3-ubyte", im)
	writeIDX("big-labels-idx1-ubyte", lb)
	var text bytes.Buffer
	zw := gzip.NewWriter(&text)
	for i := range n {
		zw.Write([]byte(strconv.Itoa(i % 2)))
		for j := range side * side {
			zw.Write([]byte(" " + strconv.Itoa(j+1) + ":" + strconv.Itoa(int(im.Data[i*side*side+j])|1)))
		}
		zw.Write([]byte("\n"))
	}
	zw.Close()
	os.WriteFile(filepath.Join(dir, "big.libsvm.gz"), text.Bytes(), 0o644)
	for _, c := range []string{"a", "b"} {
		os.MkdirAll(filepath.Join(dir, "folder", c), 0o755)
		for i := range 30 {
			var b bytes.Buffer
			png.Encode(&b, image.NewGray(image.Rect(0, 0, 8, 8)))
			os.WriteFile(filepath.Join(dir, "folder", c, strconv.Itoa(i)+".png"), b.Bytes(), 0o644)
		}
	}
	for _, name := range []string{"big-images-idx3-ubyte", "big.libsvm.gz", "folder"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name)
			if _, err := LoadContext(context.Background(), path, Limits{}); err != nil {
				t.Fatalf("uncancelled: %v", err)
			}
			_, err := LoadContext(newDoneAfter(4), path, Limits{})
			if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), path) {
				t.Fatalf("err = %v; want one naming %s and wrapping context.Canceled", err, path)
			}
			src := Source{Path: path, TestSplit: 0.2}
			if _, _, err := src.LoadContext(newDoneAfter(4)); !errors.Is(err, context.Canceled) {
				t.Errorf("Source.LoadContext: err = %v; want context.Canceled", err)
			}
		})
	}
}
