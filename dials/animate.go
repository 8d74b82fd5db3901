package dials

import (
	"context"
	"fmt"
	"image/gif"
	"math"

	"mark1/chart"
	"mark1/dataset"
	"mark1/internal/base/param"
	"mark1/machine"
)

// AnimateOptions adjust Animate. The zero value means the defaults.
type AnimateOptions struct {
	// Panel sizes each frame; zero means 1024 by 800 pixels.
	Panel PanelOptions
	// Delay is each frame's time on screen in hundredths of a second; 0
	// means 40, and it is at most MaxDelay. The last frame stays four
	// times as long.
	Delay int
	// Every keeps every Every-th frame (the first, then every Every-th
	// after it) and always the last; 0 or 1 keeps them all. It is at most
	// MaxEvery.
	Every int
	// MaxBytes bounds the memory the GIF's frames may take, counted before
	// any is drawn as frames × width × height bytes (each frame keeps at
	// most a byte a pixel); 0 means no bound. Over it Animate returns an
	// error wrapping dataset.ErrTooLarge.
	MaxBytes int64
}

// MaxEvery bounds AnimateOptions.Every: the machine's bound on every count
// of epochs.
const MaxEvery = machine.MaxEpochLimit

// MaxDelay bounds AnimateOptions.Delay: a minute a frame, in hundredths
// of a second.
const MaxDelay = 6000

// Validate checks opt's settings in its own words, returning a
// *param.FieldError naming the first out of range ("panel.width",
// "panel.height", "delay" or "every"). Animate calls it.
func (opt AnimateOptions) Validate() error {
	if err := opt.Panel.Validate(); err != nil {
		return param.Prefixed("panel", err)
	}
	if opt.Delay < 0 || opt.Delay > MaxDelay {
		return param.Errorf("delay", opt.Delay, "a whole number in [1, %d] (hundredths of a second)", MaxDelay)
	}
	if opt.Every < 0 || opt.Every > MaxEvery {
		return param.Errorf("every", opt.Every, "a whole number in [1, %d]", MaxEvery)
	}
	return nil
}

// Animate draws the dial panel of m with its pots as in each frame, and
// returns the frames as an animated GIF that loops. m gives the layout and
// configuration; its own pot positions are not used. It stops, returning
// ctx.Err(), if ctx is cancelled between frames.
func Animate(ctx context.Context, m *machine.Machine, frames []Frame, opt AnimateOptions) (*gif.GIF, error) {
	if err := opt.Validate(); err != nil {
		return nil, fmt.Errorf("dials: %w", err)
	}
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
	if delay == 0 {
		delay = 40
	}
	if opt.Panel.ColorScale == 0 { // one colour scale for every frame
		for _, f := range frames {
			for _, p := range f.Positions {
				opt.Panel.ColorScale = max(opt.Panel.ColorScale, math.Abs(float64(p)))
			}
		}
	}
	ds := make([]*chart.Drawing, len(frames))
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
			w, h := ds[0].Size()
			if need := int64(len(frames)) * int64(w) * int64(h); need > opt.MaxBytes {
				return nil, fmt.Errorf("the animation's %d frames of %d×%d pixels would take up to %d bytes of memory, %w of %d",
					len(frames), w, h, need, dataset.ErrTooLarge, opt.MaxBytes)
			}
		}
	}
	return chart.Frames(ctx, ds, delay, gifPalette())
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
