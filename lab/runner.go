package lab

import (
	"cmp"
	"context"
	"image/gif"
	"io"

	"mark1/chart"
	"mark1/internal/base/param"
	"mark1/learning/learners"
)

// A Runner is a lab run of two classes (*Run) or of more (*MultiRun), as
// a front end draws and writes it.
type Runner interface {
	// Frames is the number of steps drawn, the start included.
	Frames() int
	Picture(ctx context.Context, view string, step int) (*chart.Drawing, error)
	Animate(ctx context.Context, view string, delay, maxFrames int) (*gif.GIF, error)
	WriteJSON(w io.Writer) error
	WriteText(w io.Writer) error
	// DefaultView is the view drawn when none is asked for.
	DefaultView() string
}

var (
	_ Runner = (*Run)(nil)
	_ Runner = (*MultiRun)(nil)
)

// Start runs the setup s on the data: Start on an Example of two classes,
// StartMulti on a Multi of more.
func (d Data) Start(ctx context.Context, s Setup) (Runner, error) {
	if d.Multi != nil {
		return StartMulti(ctx, *d.Multi, s)
	}
	return Start(ctx, d.Example, s)
}

// NotesSettings are the registry's options, as text by name, that the
// notes set otherwise than its defaults (NotesOptions): an example runs
// with them unless told otherwise.
func NotesSettings() map[string]string {
	notes, defaults := NotesOptions(), learners.Defaults()
	set := map[string]string{}
	for _, name := range []string{"bias", "order", "line-search", "kernel", "loss"} {
		if v := notes.Get(name); v != defaults.Get(name) {
			set[name] = v
		}
	}
	return set
}

// Bounds of a Picture's animation.
const (
	// MaxDelay bounds Picture.Delay: a minute a step.
	MaxDelay = 6000
	// MaxAnimationFrames bounds Picture.MaxFrames.
	MaxAnimationFrames = 2000
)

// A Picture says how a run is drawn: in one view, at one step or at every
// step as an animation.
type Picture struct {
	// View is one of Views (MultiViews for more than two classes); empty
	// means the run's DefaultView.
	View string
	// Step is the step drawn: 0 the start, -1 the end.
	Step int
	// Delay is the time each step of an animation is shown, in hundredths
	// of a second, in [1, MaxDelay].
	Delay int
	// MaxFrames refuses an animation of more steps, in [1,
	// MaxAnimationFrames].
	MaxFrames int
}

// Validate checks p's numbers, whatever run they draw, returning a
// *param.FieldError ("delay", "max-frames" or "step") whose range is
// written "[lo, hi]" or "at least lo".
func (p Picture) Validate() error {
	switch {
	case p.Delay < 1 || p.Delay > MaxDelay:
		return param.Errorf("delay", p.Delay, "[1, %d]", MaxDelay)
	case p.MaxFrames < 1 || p.MaxFrames > MaxAnimationFrames:
		return param.Errorf("max-frames", p.MaxFrames, "[1, %d]", MaxAnimationFrames)
	case p.Step < -1:
		return param.Errorf("step", p.Step, "at least -1")
	}
	return nil
}

// Draw draws r in p's view (its default view when p has none) at p's step.
func (p Picture) Draw(ctx context.Context, r Runner) (*chart.Drawing, error) {
	return r.Picture(ctx, cmp.Or(p.View, r.DefaultView()), p.Step)
}

// Animate draws r in p's view (its default view when p has none) at every
// step, as a looping GIF.
func (p Picture) Animate(ctx context.Context, r Runner) (*gif.GIF, error) {
	return r.Animate(ctx, cmp.Or(p.View, r.DefaultView()), p.Delay, p.MaxFrames)
}
