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

	_ "golang.org/x/image/bmp"  // register BMP
	_ "golang.org/x/image/tiff" // register TIFF
	_ "golang.org/x/image/webp" // register WebP

	"mark1/internal/atomicfile"
)

// LoadImage reads one picture file (PNG, JPEG, GIF, BMP, TIFF or WebP,
// recognised by content) as grey levels, 0 black and 255 white. Colour is
// reduced to luma (ITU-R BT.601 weights, as color.GrayModel) and transparent
// parts are composited over white paper. The size in the header is checked
// against lim.MaxPixels before any pixel is decoded. Errors name the file.
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
	return decodeGray(r, name, lim, nil)
}

// decodeGray is DecodeGray calling reserve, if not nil, with the number of
// pixels declared by the header before decoding them; an error from reserve
// stops the decoding.
func decodeGray(r io.Reader, name string, lim Limits, reserve func(pixels int) error) (*image.Gray, error) {
	lim = lim.withDefaults()
	br := bufio.NewReader(r)
	// DecodeConfig reads only the header; keep what it reads so that Decode
	// can start again from the first byte.
	var head bytes.Buffer
	cfg, format, err := decodeConfig(io.TeeReader(br, &head))
	if err != nil {
		return nil, pictureError(name, br, &head, err)
	}
	if err := checkSize(name, format, cfg.Width, cfg.Height, lim); err != nil {
		return nil, err
	}
	if reserve != nil {
		if err := reserve(cfg.Width * cfg.Height); err != nil {
			return nil, err
		}
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
	return toGray(m), nil
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
	if _, ok := mulLimit(w, h, lim.MaxPixels); !ok {
		return errorf(ErrTooLarge, "%s: %s picture of %dx%d pixels exceeds the limit of %d pixels", name, format, w, h, lim.MaxPixels)
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
