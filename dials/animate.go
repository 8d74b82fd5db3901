package dials

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"math"

	"mark1/machine"
)

// AnimateOptions adjust Animate. The zero value means the defaults.
type AnimateOptions struct {
	// Panel sizes each frame; zero means 1024 by 800 pixels.
	Panel PanelOptions
	// Delay is each frame's time on screen in hundredths of a second; 0
	// means 40. The last frame stays four times as long.
	Delay int
	// Every keeps every Every-th frame (the first, then every Every-th
	// after it) and always the last; 0 or 1 keeps them all.
	Every int
	// MaxBytes bounds the memory the GIF's frames may take, counted before
	// any is drawn as frames × width × height bytes (each frame keeps at
	// most a byte a pixel); 0 means no bound. Over it Animate returns an
	// error wrapping ErrTooLarge.
	MaxBytes int64
}

// ErrTooLarge is wrapped by Animate's error when the frames would take more
// than AnimateOptions.MaxBytes.
var ErrTooLarge = errors.New("over the memory limit")

// Animate draws the dial panel of m with its pots as in each frame, and
// returns the frames as an animated GIF that loops. m gives the layout and
// configuration; its own pot positions are not used. It stops, returning
// ctx.Err(), if ctx is cancelled between frames.
func Animate(ctx context.Context, m *machine.Machine, frames []Frame, opt AnimateOptions) (*gif.GIF, error) {
	if len(frames) == 0 {
		return nil, fmt.Errorf("dials: no frames to animate")
	}
	if opt.Every > 1 {
		frames = everyNth(frames, opt.Every)
	}
	if opt.Panel.Width == 0 && opt.Panel.Height == 0 {
		opt.Panel.Width, opt.Panel.Height = 1024, 800
	}
	delay := opt.Delay
	if delay <= 0 {
		delay = 40
	}
	if opt.Panel.ColorScale == 0 { // one colour scale for every frame
		for _, f := range frames {
			for _, p := range f.Positions {
				opt.Panel.ColorScale = max(opt.Panel.ColorScale, math.Abs(float64(p)))
			}
		}
	}
	ds := make([]*Drawing, len(frames))
	for i, f := range frames {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if len(f.Positions) != m.Bank.Len() {
			return nil, fmt.Errorf("dials: frame of epoch %d has %d positions, the machine has %d pots", f.Epoch, len(f.Positions), m.Bank.Len())
		}
		pos := make([]float64, len(f.Positions))
		for j, p := range f.Positions {
			pos[j] = float64(p)
		}
		o := opt.Panel
		if o.Title == "" {
			o.Title = fmt.Sprintf("Mark I dials, epoch %d", f.Epoch)
		}
		if o.Subtitle == "" {
			o.Subtitle = frameSubtitle(m, f, pos)
		}
		ds[i] = panelOf(m, potsAt(m, pos, f.Stuck), o)
		if i == 0 && opt.MaxBytes > 0 {
			if need := int64(len(frames)) * int64(ds[0].w) * int64(ds[0].h); need > opt.MaxBytes {
				return nil, fmt.Errorf("the animation's %d frames of %d×%d pixels would take up to %d bytes of memory, %w of %d",
					len(frames), ds[0].w, ds[0].h, need, ErrTooLarge, opt.MaxBytes)
			}
		}
	}
	return Frames(ctx, ds, delay)
}

// everyNth returns the first of frames and every n-th after it, and the
// last.
func everyNth(frames []Frame, n int) []Frame {
	var out []Frame
	for i := 0; i < len(frames); i += n {
		out = append(out, frames[i])
	}
	if (len(frames)-1)%n != 0 {
		out = append(out, frames[len(frames)-1])
	}
	return out
}

func frameSubtitle(m *machine.Machine, f Frame, pos []float64) string {
	lim := m.Bank.Config().Limit
	sat := 0
	for _, p := range pos {
		if lim > 0 && math.Abs(p) >= lim {
			sat++
		}
	}
	s := fmt.Sprintf("%d pots, %d at an end stop, %d stuck", len(pos), sat, len(f.Stuck))
	if e := f.Record; e != nil {
		s += fmt.Sprintf(" · %d mistakes this epoch · P_r %.1f%%", e.Mistakes, 100*e.Pr)
		if e.Pg != nil {
			s += fmt.Sprintf(" · P_g %.1f%%", 100**e.Pg)
		}
		s += fmt.Sprintf(" · %d motor pulses so far", e.Pulses)
	} else {
		s += " · before training"
	}
	return s
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

// transparent is the palette index of the transparent colour.
const transparent = 255

// gifPalette holds the panel's colours: greys, the diverging scale and its
// tints, and the marks.
func gifPalette() color.Palette {
	var p color.Palette
	for i := range 48 {
		v := uint8(i * 255 / 47)
		p = append(p, color.RGBA{v, v, v, 0xff})
	}
	for i := range 96 {
		t := 2*float64(i)/95 - 1
		p = append(p, diverging(t), tint(t))
	}
	for _, c := range []color.RGBA{ink, faint, rule, stopRed, stuckBg, biasGold, lampOn, lampOff, cellOff, cellOn} {
		p = append(p, c)
	}
	for i := 0; len(p) < transparent; i++ {
		p = append(p, blend(stopRed, color.RGBA{0xff, 0xff, 0xff, 0xff}, float64(i)/float64(transparent-len(p)+i)))
	}
	return append(p[:transparent], color.RGBA{})
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
