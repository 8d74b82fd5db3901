package chart

import (
	"image/color"
	"math"
)

// Diverging maps t in [-1, 1] to a blue–white–red colour (negative blue,
// positive red), the ColorBrewer RdBu scheme interpolated in sRGB; NaN is
// mid grey.
func Diverging(t float64) color.RGBA {
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

// Tint is a light version of Diverging(t), for faces whose marks must stay
// visible over it.
func Tint(t float64) color.RGBA { return Diverging(t * 0.55) }

// Blend mixes a and b: t = 0 gives a, 1 gives b.
func Blend(a, b color.RGBA, t float64) color.RGBA {
	mix := func(x, y uint8) uint8 { return uint8(math.Round(float64(x)*(1-t) + float64(y)*t)) }
	return color.RGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), 0xff}
}

// transparent is the palette index of the transparent colour in a
// GIFPalette.
const transparent = 255

// GIFPalette returns a 256-colour palette for Frames: 48 greys, the
// Diverging scale and its Tint at 96 points each, then marks (the
// picture's own colours, at most 15), then tints of the first mark towards
// white; the last entry is transparent.
func GIFPalette(marks ...color.RGBA) color.Palette {
	var p color.Palette
	for i := range 48 {
		v := uint8(i * 255 / 47)
		p = append(p, color.RGBA{v, v, v, 0xff})
	}
	for i := range 96 {
		t := 2*float64(i)/95 - 1
		p = append(p, Diverging(t), Tint(t))
	}
	for _, c := range marks {
		p = append(p, c)
	}
	p = p[:min(len(p), transparent)]
	pad := color.RGBA{0xff, 0xff, 0xff, 0xff}
	if len(marks) > 0 {
		pad = marks[0]
	}
	for i := 0; len(p) < transparent; i++ {
		p = append(p, Blend(pad, color.RGBA{0xff, 0xff, 0xff, 0xff}, float64(i)/float64(transparent-len(p)+i)))
	}
	return append(p, color.RGBA{})
}
