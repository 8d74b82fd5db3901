package chart

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"image/gif"
)

// Frames returns the drawings as a looping animated GIF, each shown delay
// hundredths of a second (0 means 40) and the last four times as long. The
// drawings must be of one size; each frame stores only what changed, in
// pal, which must have 256 colours, the last transparent (GIFPalette makes
// one from a picture's colours). It stops, returning ctx.Err(), if ctx is
// cancelled between frames.
func Frames(ctx context.Context, ds []*Drawing, delay int, pal color.Palette) (*gif.GIF, error) {
	if len(ds) == 0 {
		return nil, fmt.Errorf("chart: no frames to animate")
	}
	if delay <= 0 {
		delay = 40
	}
	if len(pal) != transparent+1 {
		return nil, fmt.Errorf("chart: a GIF palette has %d colours, not %d", len(pal), transparent+1)
	}
	conv := newQuantizer(pal)
	g := &gif.GIF{}
	var prev *image.Paletted
	for i, d := range ds {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if d.w != ds[0].w || d.h != ds[0].h {
			return nil, fmt.Errorf("chart: frame %d is %d×%d, frame 1 is %d×%d", i+1, d.w, d.h, ds[0].w, ds[0].h)
		}
		img := conv.paletted(d.Image())
		if prev == nil {
			g.Image = append(g.Image, img)
		} else {
			g.Image = append(g.Image, changes(prev, img))
		}
		g.Disposal = append(g.Disposal, gif.DisposalNone)
		prev = img
		dl := delay
		if i == len(ds)-1 {
			dl *= 4
		}
		g.Delay = append(g.Delay, dl)
	}
	return g, nil
}

// changes returns the part of cur that differs from prev, cropped to the
// changed rectangle, with unchanged pixels transparent: a frame drawn over
// the one before (disposal "none") that compresses well.
func changes(prev, cur *image.Paletted) *image.Paletted {
	b := cur.Bounds()
	box := image.Rectangle{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		off := (y - b.Min.Y) * cur.Stride
		for x := 0; x < b.Dx(); x++ {
			if cur.Pix[off+x] != prev.Pix[off+x] {
				box = box.Union(image.Rect(b.Min.X+x, y, b.Min.X+x+1, y+1))
			}
		}
	}
	if box.Empty() {
		box = image.Rect(b.Min.X, b.Min.Y, b.Min.X+1, b.Min.Y+1)
	}
	out := image.NewPaletted(box, cur.Palette)
	for y := box.Min.Y; y < box.Max.Y; y++ {
		for x := box.Min.X; x < box.Max.X; x++ {
			i := cur.PixOffset(x, y)
			c := cur.Pix[i]
			if c == prev.Pix[i] {
				c = transparent
			}
			out.Pix[out.PixOffset(x, y)] = c
		}
	}
	return out
}

// quantizer maps colours to a palette, remembering the answers: a panel
// has few distinct colours, so this is much faster than draw.Draw.
type quantizer struct {
	pal   color.Palette
	cache map[uint32]uint8
}

func newQuantizer(pal color.Palette) *quantizer {
	return &quantizer{pal: pal, cache: map[uint32]uint8{}}
}

func (q *quantizer) paletted(img *image.RGBA) *image.Paletted {
	b := img.Bounds()
	out := image.NewPaletted(b, q.pal)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := img.Pix[(y-b.Min.Y)*img.Stride:]
		for x := 0; x < b.Dx(); x++ {
			r, g, bl := row[4*x], row[4*x+1], row[4*x+2]
			key := uint32(r)<<16 | uint32(g)<<8 | uint32(bl)
			idx, ok := q.cache[key]
			if !ok {
				idx = uint8(q.pal[:transparent].Index(color.RGBA{r, g, bl, 0xff}))
				q.cache[key] = idx
			}
			out.Pix[(y-b.Min.Y)*out.Stride+x] = idx
		}
	}
	return out
}
