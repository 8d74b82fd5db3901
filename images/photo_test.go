package images

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/disintegration/imaging"

	"mark1/dataset"
)

// uprightFigure is an asymmetric picture, w×h, as the scene looks: white
// paper with a black bar along the top, a black block at the left end of the
// middle, and a grey square near the bottom right. No flip or turn of it
// equals another, so each EXIF orientation is told apart. Edges fall on
// multiples of 8 pixels so JPEG blocks keep them sharp.
func uprightFigure(w, h int) *image.Gray {
	g := image.NewGray(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			v := uint8(255)
			switch {
			case y < h/4:
				v = 0
			case y >= h/2-h/8 && y < h/2+h/8 && x < w/4:
				v = 0
			case y >= h-h/4 && x >= w-w/4:
				v = 128
			}
			g.SetGray(x, y, color.Gray{v})
		}
	}
	return g
}

// storeAs returns how a camera with EXIF orientation o stores the upright
// picture u, by the specification's table of where the stored 0th row and
// 0th column lie in the scene (written out here, independently of imaging):
// 1 top/left, 2 top/right, 3 bottom/right, 4 bottom/left, 5 left/top,
// 6 right/top, 7 right/bottom, 8 left/bottom.
func storeAs(u *image.Gray, o int) *image.Gray {
	w, h := u.Rect.Dx(), u.Rect.Dy()
	sw, sh := w, h
	if o >= 5 {
		sw, sh = h, w
	}
	s := image.NewGray(image.Rect(0, 0, sw, sh))
	for y := range sh {
		for x := range sw {
			// 5 to 8 swap rows and columns; a right (bottom) in the
			// table reads the scene's columns (rows) backwards.
			ux, uy := x, y
			if o >= 5 {
				ux, uy = y, x
			}
			if o == 2 || o == 3 || o == 6 || o == 7 {
				ux = w - 1 - ux
			}
			if o == 3 || o == 4 || o == 7 || o == 8 {
				uy = h - 1 - uy
			}
			s.Pix[y*s.Stride+x] = u.Pix[uy*u.Stride+ux]
		}
	}
	return s
}

// withEXIF inserts after the SOI marker an APP1 segment whose IFD0 holds a
// Make tag and then the Orientation tag o, in byte order bo.
func withEXIF(jpg []byte, o int, bo binary.ByteOrder) []byte {
	var t bytes.Buffer
	if bo == binary.LittleEndian {
		t.WriteString("II")
	} else {
		t.WriteString("MM")
	}
	put16 := func(v uint16) { b := make([]byte, 2); bo.PutUint16(b, v); t.Write(b) }
	put32 := func(v uint32) { b := make([]byte, 4); bo.PutUint32(b, v); t.Write(b) }
	put16(42)
	put32(8) // IFD0 right after the header
	put16(2) // two entries
	put16(0x010F)
	put16(2) // Make, ASCII, 4 bytes inline: "abc\0"
	put32(4)
	t.WriteString("abc\x00")
	put16(0x0112)
	put16(3) // Orientation, SHORT, count 1
	put32(1)
	put16(uint16(o))
	put16(0)
	put32(0) // no next IFD
	payload := append([]byte("Exif\x00\x00"), t.Bytes()...)
	seg := []byte{0xff, 0xe1, 0, 0}
	binary.BigEndian.PutUint16(seg[2:], uint16(len(payload)+2))
	out := append([]byte{}, jpg[:2]...)
	out = append(out, seg...)
	out = append(out, payload...)
	return append(out, jpg[2:]...)
}

// encodeJPEG encodes the grey picture g as a colour JPEG (4:2:0 YCbCr,
// what phones write), its paper slightly warm.
func encodeJPEG(t testing.TB, g *image.Gray) []byte {
	t.Helper()
	m := image.NewRGBA(g.Rect)
	for i, v := range g.Pix {
		m.Pix[4*i], m.Pix[4*i+1], m.Pix[4*i+2], m.Pix[4*i+3] = v, v, v-v/32, 255
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, m, &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// sameInk compares two grey pictures after thresholding at mid-grey, with
// the grey square counted as ink: JPEG changes levels a little, never which
// side of 192 a pixel is on in these figures.
func sameInk(a, b *image.Gray) (bool, string) {
	if a.Rect.Size() != b.Rect.Size() {
		return false, "size " + a.Rect.Size().String() + " vs " + b.Rect.Size().String()
	}
	bad := 0
	for y := range a.Rect.Dy() {
		for x := range a.Rect.Dx() {
			if (a.GrayAt(a.Rect.Min.X+x, a.Rect.Min.Y+y).Y < 192) != (b.GrayAt(b.Rect.Min.X+x, b.Rect.Min.Y+y).Y < 192) {
				bad++
			}
		}
	}
	if bad > 0 {
		return false, "pixels differ"
	}
	return true, ""
}

func TestEXIFOrientation(t *testing.T) {
	up := uprightFigure(64, 48)
	for o := 1; o <= 8; o++ {
		for _, bo := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
			file := withEXIF(encodeJPEG(t, storeAs(up, o)), o, bo)
			if h := readJPEGHead(file); h.Orientation != o || h.Progressive || h.Samples != 1.5 {
				t.Errorf("orientation %d (%v): header read as %+v", o, bo, h)
			}
			got, err := DecodeGray(bytes.NewReader(file), "photo.jpg", Limits{})
			if err != nil {
				t.Fatalf("orientation %d: %v", o, err)
			}
			if ok, why := sameInk(got, up); !ok {
				t.Errorf("orientation %d (%v): decoded picture is not upright: %s", o, bo, why)
			}
			// imaging reads the tag with its own parser: the fixture
			// means what it says, and we agree with imaging.
			ref, err := imaging.Decode(bytes.NewReader(file), imaging.AutoOrientation(true))
			if err != nil {
				t.Fatal(err)
			}
			if ok, why := sameInk(toGray(ref), up); !ok {
				t.Errorf("orientation %d (%v): imaging does not read the fixture upright: %s", o, bo, why)
			}
		}
	}
	// Without EXIF the picture is as stored.
	plain := encodeJPEG(t, storeAs(up, 6))
	got, err := DecodeGray(bytes.NewReader(plain), "plain.jpg", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if ok, why := sameInk(got, storeAs(up, 6)); !ok {
		t.Errorf("JPEG without EXIF was turned: %s", why)
	}
}

func TestReadJPEGHead(t *testing.T) {
	sof := func(marker byte, factors ...byte) []byte {
		n := len(factors)
		seg := []byte{0xff, 0xd8, 0xff, marker, 0, byte(8 + 3*n), 8, 0, 16, 0, 16, byte(n)}
		for i, f := range factors {
			seg = append(seg, byte(i+1), f, 0)
		}
		return seg
	}
	app1 := func(payload string) []byte {
		b := []byte{0xff, 0xd8, 0xff, 0xe1, 0, byte(len(payload) + 2)}
		return append(b, payload...)
	}
	tests := []struct {
		name string
		b    []byte
		want jpegHead
	}{
		{"empty", nil, jpegHead{}},
		{"not a JPEG", []byte("\x89PNG\r\n\x1a\n"), jpegHead{}},
		{"baseline 4:2:0", sof(0xc0, 0x22, 0x11, 0x11), jpegHead{Samples: 1.5}},
		{"baseline 4:4:4", sof(0xc0, 0x11, 0x11, 0x11), jpegHead{Samples: 3}},
		{"progressive 4:2:2", sof(0xc2, 0x21, 0x11, 0x11), jpegHead{Progressive: true, Samples: 2}},
		{"progressive grey", sof(0xc2, 0x11), jpegHead{Progressive: true, Samples: 1}},
		{"DHT is not a frame", []byte{0xff, 0xd8, 0xff, 0xc4, 0, 3, 0}, jpegHead{}},
		{"frame cut short", sof(0xc0, 0x22, 0x11, 0x11)[:14], jpegHead{}},
		{"APP1 not EXIF", app1("XMP\x00 something"), jpegHead{}},
		{"EXIF bad byte order", app1("Exif\x00\x00XX\x00\x2a\x00\x00\x00\x08"), jpegHead{}},
		{"EXIF IFD offset past the end", app1("Exif\x00\x00MM\x00\x2a\x00\x00\x01\x00"), jpegHead{}},
		{"EXIF orientation 9", app1("Exif\x00\x00MM\x00\x2a\x00\x00\x00\x08\x00\x01\x01\x12\x00\x03\x00\x00\x00\x01\x00\x09\x00\x00"), jpegHead{}},
		{"EXIF orientation as LONG", app1("Exif\x00\x00MM\x00\x2a\x00\x00\x00\x08\x00\x01\x01\x12\x00\x04\x00\x00\x00\x01\x00\x06\x00\x00"), jpegHead{}},
		{"EXIF orientation 6", app1("Exif\x00\x00MM\x00\x2a\x00\x00\x00\x08\x00\x01\x01\x12\x00\x03\x00\x00\x00\x01\x00\x06\x00\x00"), jpegHead{Orientation: 6}},
		{"EXIF entries cut short", app1("Exif\x00\x00MM\x00\x2a\x00\x00\x00\x08\x00\x05\x01\x12\x00\x03"), jpegHead{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := readJPEGHead(tt.b); got != tt.want {
				t.Errorf("readJPEGHead = %+v; want %+v", got, tt.want)
			}
		})
	}
}

func FuzzReadJPEGHead(f *testing.F) {
	up := uprightFigure(16, 16)
	var b bytes.Buffer
	jpeg.Encode(&b, up, nil)
	f.Add(b.Bytes())
	f.Add(withEXIF(b.Bytes(), 6, binary.BigEndian))
	f.Add(withEXIF(b.Bytes(), 3, binary.LittleEndian))
	f.Fuzz(func(t *testing.T, b []byte) {
		h := readJPEGHead(b)
		if h.Orientation < 0 || h.Orientation > 8 || h.Samples < 0 || h.Samples > 255 {
			t.Fatalf("readJPEGHead = %+v: out of range", h)
		}
		// The tag written is the tag read, whatever the rest of the file.
		if len(b) >= 2 && b[0] == 0xff && b[1] == 0xd8 {
			for _, o := range []int{1, 8} {
				if got := readJPEGHead(withEXIF(b, o, binary.LittleEndian)).Orientation; got != o {
					t.Fatalf("EXIF orientation %d read back as %d", o, got)
				}
			}
		}
	})
}

// TestLargePhoto decodes a 6-megapixel phone-style JPEG taken sideways
// (orientation 6): it comes back upright, reduced under KeepPixels, each
// pixel the mean of its 3×3 block of the decoded luma.
func TestLargePhoto(t *testing.T) {
	if testing.Short() {
		t.Skip("encodes a 6-megapixel JPEG")
	}
	const w, h = 3000, 2000
	up := uprightFigure(w, h)
	stored := storeAs(up, 6)
	file := withEXIF(encodeJPEG(t, stored), 6, binary.BigEndian)
	got, err := DecodeGray(bytes.NewReader(file), "big.jpg", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	k := reduction(w, h)
	if k != 3 || got.Rect.Dx() != 1000 || got.Rect.Dy() != 667 {
		t.Fatalf("reduced by %d to %v; want 3, 1000x667", k, got.Rect.Size())
	}
	// Brute force: decode the stored JPEG, average 3×3 blocks of Y, turn.
	ref, err := jpeg.Decode(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	y := ref.(*image.YCbCr)
	sw, sh := stored.Rect.Dx(), stored.Rect.Dy()
	for _, p := range []image.Point{{0, 0}, {999, 666}, {500, 300}, {10, 600}, {998, 100}} {
		// Orientation 6 stores upright (x, y) at (y, w-1-x); in reduced
		// pixels upright p is the stored block (p.Y, blocks down - 1 - p.X).
		bx, by := p.Y, ceilDiv(sh, 3)-1-p.X
		sum, n := 0, 0
		for yy := by * 3; yy < min(by*3+3, sh); yy++ {
			for xx := bx * 3; xx < min(bx*3+3, sw); xx++ {
				sum += int(y.Y[y.YOffset(xx, yy)])
				n++
			}
		}
		if want := uint8((sum + n/2) / n); got.GrayAt(p.X, p.Y).Y != want {
			t.Errorf("reduced pixel %v = %d; want the block mean %d", p, got.GrayAt(p.X, p.Y).Y, want)
		}
	}
	if ok, why := sameInk(got, reduceGray(up, 3)); !ok {
		t.Errorf("reduced photo is not the upright figure: %s", why)
	}
}

func TestDecodeBudget(t *testing.T) {
	file := encodeJPEG(t, uprightFigure(640, 480)) // 4:2:0 YCbCr: 1.5 bytes a pixel
	need := decodeBytes("jpeg", image.Config{ColorModel: color.YCbCrModel, Width: 640, Height: 480}, readJPEGHead(file))
	if want := 640*480*3/2 + 5*640*480; need != want {
		t.Fatalf("decodeBytes = %d; want %d", need, want)
	}
	_, err := DecodeGray(bytes.NewReader(file), "p.jpg", Limits{MaxDecodeBytes: need - 1})
	if !errors.Is(err, dataset.ErrTooLarge) || !strings.Contains(err.Error(), "p.jpg: decoding this 640x480 jpeg picture takes about") {
		t.Fatalf("over the budget: err = %v", err)
	}
	if _, err := DecodeGray(bytes.NewReader(file), "p.jpg", Limits{MaxDecodeBytes: need}); err != nil {
		t.Fatalf("at the budget: %v", err)
	}
	// A folder whose pictures fit the budget only one at a time loads
	// (they wait for each other), in order.
	dir := t.TempDir()
	for _, c := range []string{"a", "b"} {
		os.MkdirAll(filepath.Join(dir, c), 0o755)
		for i := range 4 {
			if err := os.WriteFile(filepath.Join(dir, c, string(rune('0'+i))+".jpg"), file, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.jpg"))
	pics, err := decodeFiles(context.Background(), files, Limits{MaxDecodeBytes: need}.withDefaults())
	if err != nil || len(pics) != 8 {
		t.Fatalf("decodeFiles under a one-picture budget: %d pictures, %v", len(pics), err)
	}
}

// A Decoder shared by goroutines holds their decoders to one budget: with
// room for one picture at a time, eight concurrent decodings all finish,
// each as DecodeGray alone decodes it.
func TestDecoderSharedBudget(t *testing.T) {
	file := withEXIF(encodeJPEG(t, storeAs(uprightFigure(640, 480), 8)), 8, binary.LittleEndian)
	need := decodeBytes("jpeg", image.Config{ColorModel: color.YCbCrModel, Width: 480, Height: 640}, readJPEGHead(file))
	want, err := DecodeGray(bytes.NewReader(file), "p.jpg", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	d := NewDecoder(Limits{MaxDecodeBytes: need + need/2})
	errs := make(chan error)
	for range 8 {
		go func() {
			got, err := d.DecodeGray(bytes.NewReader(file), "p.jpg")
			if err == nil && !bytes.Equal(got.Pix, want.Pix) {
				err = errors.New("decoded picture differs")
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if d.mem.free != need+need/2 {
		t.Errorf("budget after all decodings: %d bytes free; want all %d back", d.mem.free, need+need/2)
	}
}
