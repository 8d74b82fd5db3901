package images

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	_ "image/gif"  // register GIF
	_ "image/jpeg" // register JPEG
	_ "image/png"  // register PNG
	"io"

	"github.com/disintegration/imaging"
	_ "golang.org/x/image/bmp"  // register BMP
	_ "golang.org/x/image/tiff" // register TIFF
	_ "golang.org/x/image/webp" // register WebP

	"mark1/internal/base/atomicfile"

	"mark1/dataset"
	"mark1/internal/base/limit"
)

// LoadImage reads one picture file (PNG, JPEG, GIF, BMP, TIFF or WebP,
// recognised by content) as grey levels, 0 black and 255 white. Colour is
// reduced to luma (ITU-R BT.601 weights, as color.GrayModel) and transparent
// parts are composited over white paper. A JPEG's EXIF orientation is
// applied, so a phone photo comes out the way up it was taken.
//
// Memory is bounded before any pixel is decoded: the size in the header is
// checked against lim.MaxPixels, and the memory the decoder will take for it
// (estimated from the header: the decoded planes, a progressive JPEG's DCT
// coefficients, the grey copy) against lim.MaxDecodeBytes. A picture of
// more than KeepPixels pixels is then reduced by box averaging over k×k
// blocks (the smallest whole k that brings it under KeepPixels) before it is
// returned, so a 24-megapixel photo is kept as 1 megapixel: the photocells
// integrate the light over their areas anyway, and even a 1024x1024 retina
// gets a picture pixel per cell. Go's image/jpeg cannot decode at a reduced
// scale, so the reduction follows the decoding. Errors name the file.
func LoadImage(path string, lim Limits) (*image.Gray, error) {
	f, err := atomicfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return DecodeGray(f, path, lim)
}

// DecodeGray is LoadImage for a stream: it decodes the picture read from r,
// naming it name in errors.
func DecodeGray(r io.Reader, name string, lim Limits) (*image.Gray, error) {
	return decodeGray(r, name, lim, nil, nil)
}

// Decoder decodes pictures for callers on several goroutines that share
// one memory budget: the decoders running at once take at most
// lim.MaxDecodeBytes together (each picture's share estimated from its
// header, as LoadImage does), and a decoding waits while the budget is
// short. The web panel decodes uploads through one. A Decoder is safe for
// concurrent use.
type Decoder struct {
	lim Limits
	mem *memBudget
}

// NewDecoder returns a Decoder holding pictures to lim.
func NewDecoder(lim Limits) *Decoder {
	lim = lim.withDefaults()
	return &Decoder{lim: lim, mem: newMemBudget(lim.MaxDecodeBytes)}
}

// DecodeGray is DecodeGray within the decoder's shared budget.
func (d *Decoder) DecodeGray(r io.Reader, name string) (*image.Gray, error) {
	return decodeGray(r, name, d.lim, nil, d.mem)
}

// KeepPixels is the most pixels LoadImage and DecodeGray return for one
// picture; larger pictures are reduced to at most this many (see LoadImage).
const KeepPixels = 1 << 20

// decodeGray is DecodeGray calling reserve, if not nil, with the number of
// pixels that will be kept (after reduction) before decoding them, and
// taking the decoder's memory from mem, if not nil, while it decodes; an
// error from reserve stops the decoding.
func decodeGray(r io.Reader, name string, lim Limits, reserve func(pixels int) error, mem *memBudget) (*image.Gray, error) {
	lim = lim.withDefaults()
	br := bufio.NewReader(r)
	// DecodeConfig reads only the header; keep what it reads so that Decode
	// can start again from the first byte. For a JPEG that includes every
	// segment before the frame header, EXIF among them.
	var head bytes.Buffer
	cfg, format, err := decodeConfig(io.TeeReader(br, &head))
	if err != nil {
		return nil, pictureError(name, br, &head, err)
	}
	if err := checkSize(name, format, cfg.Width, cfg.Height, lim); err != nil {
		return nil, err
	}
	var jh jpegHead
	if format == "jpeg" {
		jh = readJPEGHead(head.Bytes())
	}
	need := decodeBytes(format, cfg, jh)
	if need > lim.MaxDecodeBytes {
		return nil, errorf(dataset.ErrTooLarge, "%s: decoding this %dx%d %s picture takes about %d MiB, over the budget of %d MiB (a %s); reduce it to about %d megapixels first",
			name, cfg.Width, cfg.Height, format, need>>20, lim.MaxDecodeBytes>>20, decodeKind(format, jh),
			int(float64(cfg.Width)*float64(cfg.Height)*float64(lim.MaxDecodeBytes)/float64(need)/1e6))
	}
	k := reduction(cfg.Width, cfg.Height)
	if reserve != nil {
		if err := reserve(ceilDiv(cfg.Width, k) * ceilDiv(cfg.Height, k)); err != nil {
			return nil, err
		}
	}
	if mem != nil {
		mem.acquire(need)
		defer mem.release(need)
	}
	m, err := decode(io.MultiReader(&head, br))
	if err != nil {
		return nil, errorf(ErrFormat, "%s: corrupt %s picture: %w", name, format, err)
	}
	// A decoder must not return more than its header promised, but check:
	// the limit is the point.
	b := m.Bounds()
	if err := checkSize(name, format, b.Dx(), b.Dy(), lim); err != nil {
		return nil, err
	}
	if b.Empty() {
		return nil, errorf(ErrFormat, "%s: %s picture has no pixels", name, format)
	}
	return orient(reduceGray(m, reduction(b.Dx(), b.Dy())), jh.Orientation), nil
}

// decodeBytes estimates from its header the memory the standard decoders
// take for a picture, with the grey copy and the reduced picture: for a JPEG
// the decoded planes (1 byte per sample after chroma subsampling), a
// progressive JPEG's coefficients (4 bytes per sample) and for colour that is
// not YCbCr an RGBA copy; for other formats the bytes per pixel of the
// decoded colour model; plus a grey byte per pixel unless the decoder's
// output is grey or YCbCr already (whose Y plane is read in place). A TIFF
// whose strips are compressed is inflated into a buffer of up to 8 bytes a
// pixel of the strip whatever its colour model (x/image/tiff allows that
// for 64-bit RGBA), a bytes.Buffer grown by doubling: its last growth
// holds the old buffer and one twice as large, and the earlier ones may
// not have been collected yet, up to 4 × 8 bytes a pixel in all. The
// strips' sizes are not in the header DecodeConfig reads, and one strip
// may hold the whole picture, so a TIFF counts 32 bytes a pixel more
// (TestTIFFBomb measures 29–31 in all; a 261 kB deflated TIFF of
// 5792×5792 grey pixels took 476 MB when it counted 1). The default
// budget so admits TIFFs of up to about 7.5 megapixels.
func decodeBytes(format string, cfg image.Config, jh jpegHead) int {
	px := float64(cfg.Width) * float64(cfg.Height)
	var per float64
	if format == "jpeg" && jh.Samples > 0 {
		per = jh.Samples
		if jh.Progressive {
			per += 4 * jh.Samples
		}
		if cfg.ColorModel != color.YCbCrModel && cfg.ColorModel != color.GrayModel {
			per += 4
		}
	} else {
		per = bytesPerPixel(cfg.ColorModel)
	}
	if cfg.ColorModel != color.YCbCrModel && cfg.ColorModel != color.GrayModel {
		per++
	}
	if format == "tiff" {
		per += 32
	}
	// The reduced grey picture and its turned copy (4 bytes a pixel).
	kept := min(px, KeepPixels)
	total := px*per + 5*kept
	return int(min(total, 1<<62))
}

// bytesPerPixel is the memory per pixel of an image in colour model cm.
func bytesPerPixel(cm color.Model) float64 {
	switch cm {
	case color.GrayModel, color.AlphaModel:
		return 1
	case color.Gray16Model, color.Alpha16Model:
		return 2
	case color.YCbCrModel:
		return 3 // at most: 4:4:4
	case color.NYCbCrAModel:
		return 4
	case color.RGBAModel, color.NRGBAModel, color.CMYKModel:
		return 4
	}
	if _, ok := cm.(color.Palette); ok {
		return 1
	}
	return 8 // 16-bit RGBA, and anything unknown
}

// decodeKind names what makes a picture costly to decode, for the error.
func decodeKind(format string, jh jpegHead) string {
	if format == "jpeg" && jh.Progressive {
		return "progressive JPEG keeps every DCT coefficient until its last scan"
	}
	return format + " decoder holds the whole picture"
}

// reduction is the box size k (1 for none) that brings a w×h picture under
// KeepPixels.
func reduction(w, h int) int {
	k := 1
	for ceilDiv(w, k)*ceilDiv(h, k) > KeepPixels {
		k++
	}
	return k
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// reduceGray returns m in grey levels (see toGray), reduced by averaging
// k×k blocks when k > 1 (edge blocks average the pixels they have). A YCbCr
// or grey picture is read in place, without a grey copy.
func reduceGray(m image.Image, k int) *image.Gray {
	if k <= 1 {
		return toGray(m)
	}
	var src *image.Gray
	switch m := m.(type) {
	case *image.Gray:
		src = m
	case *image.YCbCr:
		src = &image.Gray{Pix: m.Y, Stride: m.YStride, Rect: m.Rect}
	default:
		src = toGray(m)
	}
	b := src.Rect
	w, h := ceilDiv(b.Dx(), k), ceilDiv(b.Dy(), k)
	dst := image.NewGray(image.Rect(0, 0, w, h))
	sums := make([]int, w)
	counts := make([]int, w)
	for oy := range h {
		clear(sums)
		clear(counts)
		for y := b.Min.Y + oy*k; y < min(b.Min.Y+(oy+1)*k, b.Max.Y); y++ {
			row := src.Pix[src.PixOffset(b.Min.X, y):][:b.Dx()]
			for x, v := range row {
				sums[x/k] += int(v)
				counts[x/k]++
			}
		}
		out := dst.Pix[oy*dst.Stride:]
		for x := range w {
			out[x] = uint8((sums[x] + counts[x]/2) / counts[x])
		}
	}
	return dst
}

// orient turns a decoded picture the way up its EXIF orientation o says
// (1 to 8, as in the TIFF/EXIF specification; anything else leaves it as
// stored), with imaging's transforms: 6 is a phone held upright, its stored
// rows the scene's right-hand column, turned 90° clockwise.
func orient(g *image.Gray, o int) *image.Gray {
	turn := [...]func(image.Image) *image.NRGBA{
		2: imaging.FlipH,
		3: imaging.Rotate180,
		4: imaging.FlipV,
		5: imaging.Transpose,
		6: imaging.Rotate270,
		7: imaging.Transverse,
		8: imaging.Rotate90,
	}
	if o < 0 || o >= len(turn) || turn[o] == nil {
		return g
	}
	return toGray(turn[o](g))
}

// pictureError explains a failed DecodeConfig: not a picture at all, or a
// picture with a corrupt header.
func pictureError(name string, br *bufio.Reader, head *bytes.Buffer, err error) error {
	if errors.Is(err, image.ErrFormat) {
		var kind string
		b := head.Bytes()
		if len(b) < 16 {
			more, _ := br.Peek(16 - len(b))
			b = append(b[:len(b):len(b)], more...)
		}
		switch {
		case len(b) == 0:
			kind = "empty file"
		case len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b:
			kind = "gzip data"
		case len(b) >= 4 && b[0] == 0 && b[1] == 0 && (b[2] == 0x08 || b[2] >= 0x09 && b[2] <= 0x0E):
			kind = "an IDX file"
		default:
			kind = "unknown format"
		}
		return errorf(ErrFormat, "%s: not a picture (%s; PNG, JPEG, GIF, BMP, TIFF and WebP are read)", name, kind)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return errorf(ErrFormat, "%s: truncated picture header", name)
	}
	return errorf(ErrFormat, "%s: corrupt picture header: %w", name, err)
}

// checkSize checks a picture's declared size against lim.
func checkSize(name, format string, w, h int, lim Limits) error {
	if w <= 0 || h <= 0 {
		return errorf(ErrFormat, "%s: %s picture of size %dx%d has no pixels", name, format, w, h)
	}
	if _, ok := limit.Mul(w, h, lim.MaxPixels); !ok {
		return errorf(dataset.ErrTooLarge, "%s: %s picture of %dx%d pixels exceeds the limit of %d pixels", name, format, w, h, lim.MaxPixels)
	}
	return nil
}

// decodeConfig is image.DecodeConfig turning a decoder's panic into an
// error: a malformed file must never bring the program down.
func decodeConfig(r io.Reader) (cfg image.Config, format string, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("decoder failed: %v", p)
		}
	}()
	return image.DecodeConfig(r)
}

// decode is image.Decode turning a decoder's panic into an error.
func decode(r io.Reader) (m image.Image, err error) {
	defer func() {
		if p := recover(); p != nil {
			m, err = nil, fmt.Errorf("decoder failed: %v", p)
		}
	}()
	m, _, err = image.Decode(r)
	return m, err
}

// toGray converts m to grey levels with its origin at (0, 0), compositing
// any transparency over white.
func toGray(m image.Image) *image.Gray {
	b := m.Bounds()
	g := image.NewGray(image.Rect(0, 0, b.Dx(), b.Dy()))
	switch m := m.(type) {
	case *image.Gray:
		for y := 0; y < b.Dy(); y++ {
			copy(g.Pix[y*g.Stride:y*g.Stride+b.Dx()], m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):])
		}
		return g
	case *image.YCbCr:
		// Y is luma already; JPEG's full-range Y matches color.GrayModel
		// to within rounding.
		for y := 0; y < b.Dy(); y++ {
			copy(g.Pix[y*g.Stride:y*g.Stride+b.Dx()], m.Y[m.YOffset(b.Min.X, b.Min.Y+y):])
		}
		return g
	case *image.Paletted:
		lut := make([]uint8, 256)
		for i, c := range m.Palette[:min(len(m.Palette), 256)] {
			lut[i] = grayOverWhite(c)
		}
		for y := 0; y < b.Dy(); y++ {
			row := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):]
			out := g.Pix[y*g.Stride:]
			for x := 0; x < b.Dx(); x++ {
				out[x] = lut[row[x]]
			}
		}
		return g
	}
	for y := 0; y < b.Dy(); y++ {
		out := g.Pix[y*g.Stride:]
		for x := 0; x < b.Dx(); x++ {
			out[x] = grayOverWhite(m.At(b.Min.X+x, b.Min.Y+y))
		}
	}
	return g
}

// grayOverWhite is the luma of c composited over white, with the weights of
// color.GrayModel.
func grayOverWhite(c color.Color) uint8 {
	r, g, b, a := c.RGBA() // premultiplied, 16 bits
	paper := 0xffff - a
	r, g, b = r+paper, g+paper, b+paper
	y := (19595*r + 38470*g + 7471*b + 1<<15) >> 24
	return uint8(y)
}
