package chart

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
	paint func(p *Pen)
}

// New returns a drawing of w by h pixels that paint draws, each time the
// drawing is rendered, with the Pen it is given.
func New(w, h int, paint func(p *Pen)) *Drawing {
	return &Drawing{w: w, h: h, paint: paint}
}

// Size returns the drawing's width and height in pixels.
func (d *Drawing) Size() (w, h int) { return d.w, d.h }

// Image renders the drawing as a raster image on a white ground.
func (d *Drawing) Image() *image.RGBA {
	c := vgimg.NewWith(vgimg.UseWH(vg.Length(d.w), vg.Length(d.h)), vgimg.UseDPI(72))
	d.paint(&Pen{c: c, h: float64(d.h)})
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
	p := &Pen{c: c, h: float64(d.h)}
	p.FillRect(0, 0, float64(d.w), float64(d.h), color.White)
	d.paint(p)
	_, err := c.WriteTo(w)
	return err
}

// A Pen draws on a vg.Canvas in image coordinates: x to the right, y down,
// in pixels from the top left corner.
type Pen struct {
	c vg.Canvas
	h float64
}

func (p *Pen) pt(x, y float64) vg.Point { return vg.Point{X: vg.Length(x), Y: vg.Length(p.h - y)} }

// Canvas returns the canvas under the pen, for gonum/plot to draw on (its
// coordinates are vg's: y up from the bottom edge).
func (p *Pen) Canvas() vg.Canvas { return p.c }

// rect returns the closed outline of the rectangle at (x, y), w by h.
func (p *Pen) rect(x, y, w, h float64) vg.Path {
	var path vg.Path
	path.Move(p.pt(x, y))
	path.Line(p.pt(x+w, y))
	path.Line(p.pt(x+w, y+h))
	path.Line(p.pt(x, y+h))
	path.Close()
	return path
}

// FillRect fills the w by h rectangle at (x, y) with c.
func (p *Pen) FillRect(x, y, w, h float64, c color.Color) {
	p.c.SetColor(c)
	p.c.Fill(p.rect(x, y, w, h))
}

// StrokeRect outlines the w by h rectangle at (x, y) with a line of the
// given width in c.
func (p *Pen) StrokeRect(x, y, w, h, width float64, c color.Color) {
	p.c.SetColor(c)
	p.c.SetLineWidth(vg.Length(width))
	p.c.Stroke(p.rect(x, y, w, h))
}

func (p *Pen) circle(x, y, r float64) vg.Path {
	var path vg.Path
	path.Move(p.pt(x+r, y))
	path.Arc(p.pt(x, y), vg.Length(r), 0, 2*math.Pi)
	path.Close()
	return path
}

// FillCircle fills the circle of radius r at (x, y) with c.
func (p *Pen) FillCircle(x, y, r float64, c color.Color) {
	p.c.SetColor(c)
	p.c.Fill(p.circle(x, y, r))
}

// StrokeCircle outlines the circle of radius r at (x, y) with a line of the
// given width in c.
func (p *Pen) StrokeCircle(x, y, r, width float64, c color.Color) {
	p.c.SetColor(c)
	p.c.SetLineWidth(vg.Length(width))
	p.c.Stroke(p.circle(x, y, r))
}

// Arc strokes the arc of the circle at (x, y) of radius r from angle a0
// through the signed sweep da, in radians, counterclockwise on screen.
func (p *Pen) Arc(x, y, r, a0, da, width float64, c color.Color) {
	var path vg.Path
	path.Move(p.pt(x+r*math.Cos(a0), y-r*math.Sin(a0)))
	path.Arc(p.pt(x, y), vg.Length(r), a0, da)
	p.c.SetColor(c)
	p.c.SetLineWidth(vg.Length(width))
	p.c.Stroke(path)
}

// Line draws a line of the given width in c from (x0, y0) to (x1, y1).
func (p *Pen) Line(x0, y0, x1, y1, width float64, c color.Color) {
	var path vg.Path
	path.Move(p.pt(x0, y0))
	path.Line(p.pt(x1, y1))
	p.c.SetColor(c)
	p.c.SetLineWidth(vg.Length(width))
	p.c.Stroke(path)
}

// An Align says where Pen.Text places a string about its x.
type Align int

// Text alignments.
const (
	Left   Align = iota // the string starts at x
	Center              // the string is centred on x
	Right               // the string ends at x
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

// Text writes s in Liberation Sans of size pixels, bold if asked, with its
// baseline at y, aligned on x.
func (p *Pen) Text(x, y, size float64, align Align, bold bool, c color.Color, s string) {
	fc := fontFace(size, bold)
	switch align {
	case Center:
		x -= float64(fc.Width(s)) / 2
	case Right:
		x -= float64(fc.Width(s))
	}
	p.c.SetColor(c)
	p.c.FillString(*fc, p.pt(x, y), s)
}

// TextWidth returns the width of s written as Pen.Text writes it.
func TextWidth(size float64, bold bool, s string) float64 {
	return float64(fontFace(size, bold).Width(s))
}

// Image draws img scaled into the w by h rectangle at (x, y).
func (p *Pen) Image(x, y, w, h float64, img image.Image) {
	p.c.DrawImage(vg.Rectangle{Min: p.pt(x, y+h), Max: p.pt(x+w, y)}, img)
}

// ink is the colour of the captions Plots writes.
var ink = color.RGBA{0x22, 0x22, 0x22, 0xff}
