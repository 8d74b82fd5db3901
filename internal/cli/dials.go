package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"image/gif"
	"os"
	"path/filepath"
	"strings"

	"mark1/dials"
	"mark1/images"
	"mark1/internal/base/atomicfile"
	"mark1/internal/base/param"
	"mark1/machine"

	"mark1/dataset"

	"github.com/spf13/pflag"
)

type dialsOptions struct {
	given    givenFlags // the flags given
	machine  string
	table    dials.TableOptions   // dials.TableSettings
	anim     dials.AnimateOptions // dials.AnimateSettings: the panel's size, the animation's
	asJSON   bool
	asCSV    bool
	png, svg string
	view     string
	image    string
	animate  string
	record   string
	data     dataFlags
	cards    string
	fields   fieldFlags // the settings' fields (dials.ValidateBins, AnimateOptions.Validate) → the flags that set them
}

// dialsFlags registers dials' flags on a new flag set.
func dialsFlags(env *Env, o *dialsOptions) *pflag.FlagSet {
	fs := newFlags(env, "dials --machine FILE [flags]", `Reads a saved machine's potentiometers, the values it learned. By default
prints a summary (saturated pots, a histogram of positions, motor pulses) and
a table of every pot; --json and --csv print them for other programs.
--png and --svg draw a picture instead (--view panel, weights, sensitivity,
means, retina or curves), and --animate turns a recording made with mark1 train --record DIR
into an animated GIF of the dials turning.`)
	fs.StringVar(&o.machine, "machine", "mark1.json", "the machine file")
	o.fields = fieldFlags{}
	addOptions(fs, o.fields, dials.TableSettings(), "sort", "desc", "top")
	fs.BoolVar(&o.asJSON, "json", false, "print the summary and pots as JSON")
	fs.BoolVar(&o.asCSV, "csv", false, "print the pots as CSV")
	addOptions(fs, o.fields, dials.TableSettings(), "bins")
	fs.StringVar(&o.png, "png", "", "draw the view to this PNG file")
	fs.StringVar(&o.svg, "svg", "", "draw the view to this SVG file")
	fs.StringVar(&o.view, "view", "panel", "picture: panel (the dials), weights (each R-unit's values on the retina),\n"+
		"sensitivity (what each R-unit responds to: the change of its sum when each photocell is turned on,\n"+
		"averaged over the training cards), means (each class's mean card and the mean of those it gets wrong),\n"+
		"retina (one --image as the machine sees it) or curves (learning curves)")
	o.data.register(fs, true)
	fs.StringVar(&o.cards, "cards", "", "cards for --view sensitivity and means: train or held-out (default: train for sensitivity,\n"+
		"held-out for means when there are any); without --task or --data, the cards the machine file records")
	fs.StringVar(&o.image, "image", "", "the picture for --view retina")
	addOptions(fs, o.fields, dials.AnimateSettings(), "width", "height")
	fs.StringVar(&o.animate, "animate", "", "write an animated GIF of the recording in --record DIR to this file")
	fs.StringVar(&o.record, "record", "", "the recording folder for --animate (made by mark1 train --record DIR)")
	addOptions(fs, o.fields, under("--animate", dials.AnimateSettings()), "delay", "every")
	return fs
}

func runDials(ctx context.Context, env *Env, args []string) error {
	var o dialsOptions
	fs := dialsFlags(env, &o)
	if err := env.parse(fs, args); err != nil {
		return err
	}
	o.given = given(fs)
	if err := o.check(fs); err != nil {
		return err
	}
	if o.animate != "" || o.record != "" {
		if o.animate == "" || o.record == "" {
			return usagef("dials: --animate FILE.gif needs --record DIR, the folder mark1 train --record wrote")
		}
		return animate(ctx, env, o)
	}
	m, err := loadMachine(ctx, o.data.memory.bytes(), o.machine)
	if err != nil {
		return err
	}
	if o.png != "" || o.svg != "" {
		return drawView(ctx, env, m, o)
	}
	if o.given.has("view") || o.image != "" {
		return usagef("dials: --view and --image draw a picture: give --png FILE or --svg FILE")
	}
	sum, pots, err := dials.Table(m, o.table)
	if err != nil {
		return usageError{fmt.Errorf("--sort: %w", err)}
	}
	switch {
	case o.asJSON:
		return dials.WriteJSON(env.Stdout, sum, pots)
	case o.asCSV:
		return dials.WriteCSV(env.Stdout, pots)
	}
	return dials.WriteReport(env.Stdout, o.machine, m, sum, pots)
}

// check sets the table's and the animation's settings from their flags
// and checks the flags, whichever of the table, the pictures and the
// animation the command makes.
func (o *dialsOptions) check(fs *pflag.FlagSet) error {
	if err := cmp.Or(setOptions(fs, &o.table, dials.TableSettings(), false), setOptions(fs, &o.anim, dials.AnimateSettings(), false)); err != nil {
		return err
	}
	if f := param.As(dials.CheckView(o.view, o.cards)); f != nil {
		return usagef("dials: --%s %s: want %s", f.FieldName(), f.FieldValue(), f.FieldRange())
	}
	if o.asJSON && o.asCSV {
		return usagef("dials: give --json or --csv, not both")
	}
	if o.table.Top < 0 {
		return usagef("dials: --top %d: want 0 (every pot) or more", o.table.Top)
	}
	if _, err := o.data.source(o.given, 0); err != nil { // the data flags' values, whether or not a view reads data
		return err
	}
	// dials' rules for the histogram (dials.ValidateBins) and for the
	// picture and the animation (dials.AnimateOptions.Validate, which
	// checks the panel's size too), checked whichever of them the command
	// draws; --bins 0, --delay 0 and --every 0 ask for none (the settings'
	// param.None), --width 0 and --height 0 for the default size.
	return o.fields.refuse(cmp.Or(dials.ValidateBins(o.table.Bins), o.anim.Validate()), o.given)
}

// drawView writes the chosen picture of m to --png and/or --svg.
func drawView(ctx context.Context, env *Env, m *machine.Machine, o dialsOptions) error {
	vo := dials.ViewOptions{Panel: o.anim.Panel}
	var err error
	switch o.view {
	case "sensitivity", "means":
		if vo.Cards, err = viewCards(ctx, m, o); err != nil {
			return err
		}
		if vo.Cards.Len() == 0 {
			return usagef("dials: --view %s: no %s cards (give --cards train, or data with cards held out)", o.view, o.cards)
		}
	case "retina":
		if o.image == "" {
			return usagef("dials: --view retina needs --image FILE, the picture to show the machine")
		}
		lim, err := o.data.limits(o.given)
		if err != nil {
			return err
		}
		if vo.Image, err = images.LoadImage(o.image, images.Limits{MaxPixels: lim.MaxPixels}); err != nil {
			return err
		}
	}
	d, err := dials.View(m, o.view, vo)
	if err != nil { // the curves of a machine never trained
		return fmt.Errorf("%s: %w (train it first)", o.machine, err)
	}
	w, h := d.Size()
	return drawFiles(env.Stdout, d, o.png, o.svg, fmt.Sprintf("Wrote the %s view (%dx%d) to %%s.\n", o.view, w, h))
}

// viewCards returns the cards --view sensitivity and means average over:
// from --task or --data if given, else the data the machine file records;
// the part --cards names (dials.CardsFor).
func viewCards(ctx context.Context, m *machine.Machine, o dialsOptions) (*images.Dataset, error) {
	train, test, err := o.data.machineCards(ctx, o.given, m, o.machine, m.Seeds.Master, "dials")
	if err != nil {
		return nil, err
	}
	return dials.CardsFor(o.view, o.cards, train, test), nil
}

func animate(ctx context.Context, env *Env, o dialsOptions) error {
	if ext := strings.ToLower(filepath.Ext(o.animate)); ext != ".gif" {
		return usagef("dials: --animate %s: the animation is a GIF; name the file .gif", o.animate)
	}
	limit := o.data.memory.bytes()
	m, frames, err := dials.LoadRecording(o.record, limit)
	if errors.Is(err, dataset.ErrTooLarge) {
		return fmt.Errorf("%w (raise it with --max-memory)", err)
	}
	if err != nil {
		return err
	}
	opt := o.anim
	opt.MaxBytes = limit
	g, err := dials.Animate(ctx, m, frames, opt)
	if errors.Is(err, dataset.ErrTooLarge) {
		return fmt.Errorf("%s: %w (raise it with --max-memory, draw every Nth epoch with --every N, or smaller frames with --width and --height)", o.record, err)
	}
	if err != nil {
		return err
	}
	if err := atomicfile.Write(o.animate, func(f *os.File) error { return gif.EncodeAll(f, g) }); err != nil {
		return err
	}
	b := g.Image[0].Bounds()
	fmt.Fprintf(env.Stdout, "Wrote %d frames (epochs %d to %d, %dx%d) to %s.\n", len(g.Image), frames[0].Epoch, frames[len(frames)-1].Epoch, b.Dx(), b.Dy(), o.animate)
	return nil
}
