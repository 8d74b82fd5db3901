package dials

import (
	"bufio"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"

	xfont "golang.org/x/image/font"
	_ "gonum.org/v1/plot" // registers the Liberation fonts
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// A Drawing is a picture described once and rendered on demand, as a
// raster image or as SVG. Its unit is the pixel of the raster image (one
// point at 72 dots per inch).
type Drawing struct {
	w, h  int
	paint func(p *pen)
}

// Size returns the drawing's width and height in pixels.
func (d *Drawing) Size() (w, h int) { return d.w, d.h }

// Image renders the drawing as a raster image on a white ground.
func (d *Drawing) Image() *image.RGBA {
	c := vgimg.NewWith(vgimg.UseWH(vg.Length(d.w), vg.Length(d.h)), vgimg.UseDPI(72))
	d.paint(&pen{c: c, h: float64(d.h)})
	img := c.Image()
	if rgba, ok := img.(*image.RGBA); ok {
		return rgba
	}
	out := image.NewRGBA(img.Bounds())
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			out.Set(x, y, img.At(x, y))
		}
	}
	return out
}

// WritePNG writes the drawing as a PNG image.
func (d *Drawing) WritePNG(w io.Writer) error {
	bw := bufio.NewWriter(w)
	if err := (&png.Encoder{CompressionLevel: png.DefaultCompression}).Encode(bw, d.Image()); err != nil {
		return err
	}
	return bw.Flush()
}

// WriteSVG writes the drawing as an SVG document.
func (d *Drawing) WriteSVG(w io.Writer) error {
	c := vgsvg.NewWith(vgsvg.UseWH(vg.Length(d.w), vg.Length(d.h)), vgsvg.EmbedFonts(false))
	p := &pen{c: c, h: float64(d.h)}
	p.fillRect(0, 0, float64(d.w), float64(d.h), color.White)
	d.paint(p)
	_, err := c.WriteTo(w)
	return err
}

// pen draws on a vg.Canvas in image coordinates: x to the right, y down,
// in pixels from the top left corner.
type pen struct {
	c vg.Canvas
	h float64
}

func (p *pen) pt(x, y float64) vg.Point { return vg.Point{X: vg.Length(x), Y: vg.Length(p.h - y)} }

// rect returns the closed outline of the rectangle at (x, y), w by h.
func (p *pen) rect(x, y, w, h float64) vg.Path {
	var path vg.Path
	path.Move(p.pt(x, y))
	path.Line(p.pt(x+w, y))
	path.Line(p.pt(x+w, y+h))
	path.Line(p.pt(x, y+h))
	path.Close()
	return path
}

func (p *pen) fillRect(x, y, w, h float64, c color.Color) {
	p.c.SetColor(c)
	p.c.Fill(p.rect(x, y, w, h))
}

func (p *pen) strokeRect(x, y, w, h, width float64, c color.Color) {
	p.c.SetColor(c)
	p.c.SetLineWidth(vg.Length(width))
	p.c.Stroke(p.rect(x, y, w, h))
}

func (p *pen) circle(x, y, r float64) vg.Path {
	var path vg.Path
	path.Move(p.pt(x+r, y))
	path.Arc(p.pt(x, y), vg.Length(r), 0, 2*math.Pi)
	path.Close()
	return path
}

func (p *pen) fillCircle(x, y, r float64, c color.Color) {
	p.c.SetColor(c)
	p.c.Fill(p.circle(x, y, r))
}

func (p *pen) strokeCircle(x, y, r, width float64, c color.Color) {
	p.c.SetColor(c)
	p.c.SetLineWidth(vg.Length(width))
	p.c.Stroke(p.circle(x, y, r))
}

// arc strokes the arc of the circle at (x, y) of radius r from angle a0
// through the signed sweep da, in radians, counterclockwise on screen.
func (p *pen) arc(x, y, r, a0, da, width float64, c color.Color) {
	var path vg.Path
	path.Move(p.pt(x+r*math.Cos(a0), y-r*math.Sin(a0)))
	path.Arc(p.pt(x, y), vg.Length(r), a0, da)
	p.c.SetColor(c)
	p.c.SetLineWidth(vg.Length(width))
	p.c.Stroke(path)
}

func (p *pen) line(x0, y0, x1, y1, width float64, c color.Color) {
	var path vg.Path
	path.Move(p.pt(x0, y0))
	path.Line(p.pt(x1, y1))
	p.c.SetColor(c)
	p.c.SetLineWidth(vg.Length(width))
	p.c.Stroke(path)
}

// Text alignment for pen.text.
const (
	left = iota
	center
	right
)

// fontFace returns the Liberation Sans face (shipped with gonum/plot) of
// the given size in pixels, bold if asked.
func fontFace(size float64, bold bool) *font.Face {
	f := font.Font{Typeface: "Liberation", Variant: "Sans"}
	if bold {
		f.Weight = xfont.WeightBold
	}
	fc := font.DefaultCache.Lookup(f, vg.Length(size))
	return &fc
}

// text writes s with its baseline at y, aligned on x.
func (p *pen) text(x, y, size float64, align int, bold bool, c color.Color, s string) {
	fc := fontFace(size, bold)
	switch align {
	case center:
		x -= float64(fc.Width(s)) / 2
	case right:
		x -= float64(fc.Width(s))
	}
	p.c.SetColor(c)
	p.c.FillString(*fc, p.pt(x, y), s)
}

// textWidth returns the width of s in pixels.
func textWidth(size float64, bold bool, s string) float64 {
	return float64(fontFace(size, bold).Width(s))
}

func (p *pen) image(x, y, w, h float64, img image.Image) {
	p.c.DrawImage(vg.Rectangle{Min: p.pt(x, y+h), Max: p.pt(x+w, y)}, img)
}

// Colours of the panel.
var (
	ink      = color.RGBA{0x22, 0x22, 0x22, 0xff}
	faint    = color.RGBA{0x77, 0x77, 0x77, 0xff}
	rule     = color.RGBA{0xcc, 0xcc, 0xcc, 0xff}
	stopRed  = color.RGBA{0xd0, 0x1c, 0x1c, 0xff}
	stuckBg  = color.RGBA{0x9a, 0x9a, 0x9a, 0xff}
	biasGold = color.RGBA{0xc8, 0x8a, 0x00, 0xff}
	lampOn   = color.RGBA{0xff, 0xb3, 0x00, 0xff}
	lampOff  = color.RGBA{0x3a, 0x32, 0x2a, 0xff}
	cellOff  = color.RGBA{0x2a, 0x2a, 0x30, 0xff}
	cellOn   = color.RGBA{0xff, 0xe0, 0x66, 0xff}
)

// diverging maps t in [-1, 1] to a blue–white–red colour (negative blue,
// positive red), the ColorBrewer RdBu scheme interpolated in sRGB.
func diverging(t float64) color.RGBA {
	if math.IsNaN(t) {
		return color.RGBA{0x80, 0x80, 0x80, 0xff}
	}
	t = min(max(t, -1), 1)
	stops := [...][3]float64{
		{0x05, 0x30, 0x61}, {0x21, 0x66, 0xac}, {0x43, 0x93, 0xc3}, {0x92, 0xc5, 0xde}, {0xd1, 0xe5, 0xf0},
		{0xf7, 0xf7, 0xf7},
		{0xfd, 0xdb, 0xc7}, {0xf4, 0xa5, 0x82}, {0xd6, 0x60, 0x4d}, {0xb2, 0x18, 0x2b}, {0x67, 0x00, 0x1f},
	}
	u := (t + 1) / 2 * float64(len(stops)-1)
	i := min(int(u), len(stops)-2)
	f := u - float64(i)
	var c [3]uint8
	for k := range 3 {
		c[k] = uint8(math.Round(stops[i][k]*(1-f) + stops[i+1][k]*f))
	}
	return color.RGBA{c[0], c[1], c[2], 0xff}
}

// tint is a light version of diverging(t), for dial faces whose needle
// must stay visible.
func tint(t float64) color.RGBA {
	c := diverging(t * 0.55)
	return c
}

// hue returns a distinct bright colour for R-unit r of n (-1: all).
func hue(r, n int) color.RGBA {
	if r < 0 {
		return cellOn
	}
	palette := [...]color.RGBA{
		{0x4e, 0xa8, 0xff, 0xff}, {0xff, 0x9f, 0x40, 0xff}, {0x5c, 0xd6, 0x7a, 0xff}, {0xff, 0x6b, 0x8a, 0xff},
		{0xb9, 0x8c, 0xff, 0xff}, {0xff, 0xe0, 0x66, 0xff}, {0x4f, 0xd8, 0xd0, 0xff}, {0xe0, 0xe0, 0xe0, 0xff},
	}
	return palette[r%len(palette)]
}

// dim darkens c towards the off-cell colour.
func dim(c color.RGBA) color.RGBA { return blend(cellOff, c, 0.22) }

// blend mixes a and b: t = 0 gives a, 1 gives b.
func blend(a, b color.RGBA, t float64) color.RGBA {
	mix := func(x, y uint8) uint8 { return uint8(math.Round(float64(x)*(1-t) + float64(y)*t)) }
	return color.RGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), 0xff}
}
