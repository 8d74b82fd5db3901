package lab

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
)

// Bounds of a page's request (Request).
const (
	// MaxRequestPoints bounds the points of a request.
	MaxRequestPoints = 200
	// MaxRequestValue bounds the size of the numbers a request gives (the
	// points' coordinates, eps, start, C): with at most 200 points and 200
	// epochs the runs' numbers then stay far from overflowing.
	MaxRequestValue = MaxValue
	// MaxRequestEpochs bounds a page's run: with 200 points, 40,000 steps.
	MaxRequestEpochs = 200
)

// Request is what the lab page asks for: the data (a built-in example, its
// own points, or a generator's), a setup, and the frame to show. The panel
// (POST /api/lab) and the static lab's WebAssembly answer it alike, with
// Answer.
type Request struct {
	// Example names a built-in example; empty means Generate, or Points.
	Example string `json:"example"`
	// Points are the user's own, each [x1, x2, label ±1].
	Points [][3]float64 `json:"points"`
	// Generate draws the data instead (Generate; GenerateMulti when it
	// asks for more than two classes).
	Generate *GenOptions `json:"generate"`
	// Classes is 3 or 4 when Points are of more than two classes: their
	// labels are then the class numbers 1 to Classes (0 or 2: ±1).
	Classes int   `json:"classes,omitempty"`
	Setup   Setup `json:"setup"`
	// Frame is the step to show: 0 the start, −1 the end.
	Frame int `json:"frame"`
}

// ErrRequest marks a request the page should not have sent (bad data or
// settings), as against a run that failed on its own.
var ErrRequest = errors.New("bad lab request")

func badRequest(format string, a ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrRequest}, a...)...)
}

// requestError marks err as the request's fault, keeping it (and the typed
// field errors in it) for errors.As.
func requestError(err error) error { return fmt.Errorf("%w: %w", ErrRequest, err) }

// Data returns the request's data as an Example, and the smallest half-width
// of its x-space view (a page where points are placed by clicking keeps its
// scale, ±5).
func (q Request) Data() (Example, float64, error) {
	switch {
	case q.Example != "":
		e, err := Find(q.Example)
		if err != nil {
			return Example{}, 0, badRequest("%v", err)
		}
		return e, 0, nil
	case q.Generate != nil:
		e, err := Generate(*q.Generate)
		if err != nil {
			return Example{}, 0, badRequest("generate: %v", err)
		}
		return e, 5, nil
	}
	if len(q.Points) > MaxRequestPoints {
		return Example{}, 0, badRequest("%d points; the lab takes at most %d", len(q.Points), MaxRequestPoints)
	}
	x := make([][]float64, len(q.Points))
	y := make([]int, len(q.Points))
	for i, p := range q.Points {
		if math.Abs(p[0]) > MaxRequestValue || math.Abs(p[1]) > MaxRequestValue {
			return Example{}, 0, badRequest("point %d: coordinates beyond ±10⁶", i+1)
		}
		x[i] = []float64{p[0], p[1]}
		y[i] = int(p[2])
		if float64(y[i]) != p[2] {
			y[i] = 0 // NewExample refuses it
		}
	}
	e, err := NewExample("your points", x, y)
	if err != nil {
		return Example{}, 0, badRequest("%v", err)
	}
	return e, 5, nil
}

// Multi reports whether the request's data are of more than two classes
// (MultiData), to be run with StartMulti.
func (q Request) Multi() bool {
	if q.Example != "" {
		return false
	}
	if q.Generate != nil {
		return q.Generate.Classes > 2
	}
	return q.Classes > 2
}

// MultiData returns the request's data of several classes (Multi), and
// the smallest half-width of its x-space view. Points of the classes
// 1 to Classes make the classes that have points, named by their numbers.
func (q Request) MultiData() (Multi, float64, error) {
	if q.Generate != nil {
		m, err := GenerateMulti(*q.Generate)
		if err != nil {
			return Multi{}, 0, badRequest("generate: %v", err)
		}
		return m, 5, nil
	}
	if q.Classes > MaxClasses {
		return Multi{}, 0, badRequest("classes %d: the lab takes at most %d", q.Classes, MaxClasses)
	}
	if len(q.Points) > MaxRequestPoints {
		return Multi{}, 0, badRequest("%d points; the lab takes at most %d", len(q.Points), MaxRequestPoints)
	}
	var present [MaxClasses + 1]bool
	for i, p := range q.Points {
		if math.Abs(p[0]) > MaxRequestValue || math.Abs(p[1]) > MaxRequestValue {
			return Multi{}, 0, badRequest("point %d: coordinates beyond ±10⁶", i+1)
		}
		c := int(p[2])
		if float64(c) != p[2] || c < 1 || c > q.Classes {
			return Multi{}, 0, badRequest("point %d: label %g; with %d classes want 1 to %d", i+1, p[2], q.Classes, q.Classes)
		}
		present[c] = true
	}
	index := make([]int, MaxClasses+1)
	var classes []string
	for c := 1; c <= q.Classes; c++ {
		if present[c] {
			index[c] = len(classes)
			classes = append(classes, strconv.Itoa(c))
		}
	}
	if len(classes) < 2 {
		return Multi{}, 0, badRequest("your points: %d class with points; place points of at least two", len(classes))
	}
	x := make([][]float64, len(q.Points))
	y := make([]int, len(q.Points))
	for i, p := range q.Points {
		x[i] = []float64{p[0], p[1]}
		y[i] = index[int(p[2])]
	}
	m, err := NewMulti("your points", x, y, classes)
	if err != nil {
		return Multi{}, 0, badRequest("%v", err)
	}
	m.Teaches = fmt.Sprintf("your points: %d classes", len(classes))
	return m, 5, nil
}

// check refuses, naming the field, a setting whose size would make a run's
// numbers overflow (JSON cannot carry NaN or infinities).
func (q Request) check() error {
	s := q.Setup
	for _, f := range []struct {
		name string
		v    float64
	}{{"setup.eps", s.Eps}, {"setup.C", s.C}} {
		if math.Abs(f.v) > MaxRequestValue {
			return badRequest("%s %g: beyond ±10⁶", f.name, f.v)
		}
	}
	for i, v := range s.Start {
		if math.Abs(v) > MaxRequestValue {
			return badRequest("setup.start[%d] %g: beyond ±10⁶", i, v)
		}
	}
	if q.Frame < -1 {
		return badRequest("frame %d: want −1 (the end) or a step ≥ 0", q.Frame)
	}
	return nil
}

// Answer runs the request and returns its frame, with n×n grids. Errors
// in the request wrap ErrRequest; a run cut short by ctx returns ctx's
// error.
func (q Request) Answer(ctx context.Context, n int) (*Frame, error) {
	if err := q.check(); err != nil {
		return nil, err
	}
	// The page's runs are short: 100 epochs unless asked, never more than
	// MaxRequestEpochs (each step a request).
	switch {
	case q.Setup.MaxEpochs == 0:
		q.Setup.MaxEpochs = 100
	case q.Setup.MaxEpochs > MaxRequestEpochs:
		q.Setup.MaxEpochs = MaxRequestEpochs
	}
	if q.Multi() {
		m, half, err := q.MultiData()
		if err != nil {
			return nil, err
		}
		run, err := StartMulti(ctx, m, q.Setup)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, requestError(err)
		}
		fr, err := run.Frame(q.Frame, n, half)
		if err != nil {
			return nil, badRequest("%v", err)
		}
		return fr, nil
	}
	e, half, err := q.Data()
	if err != nil {
		return nil, err
	}
	run, err := Start(ctx, e, q.Setup)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, requestError(err)
	}
	f := q.Frame
	if f >= run.Frames() {
		f = -1
	}
	fr, err := run.Frame(f, n, half)
	if err != nil {
		return nil, badRequest("%v", err)
	}
	return fr, nil
}

// Catalog is what the lab page lists: the built-in examples, the learners,
// the generators and the losses.
type Catalog struct {
	Examples   []Example `json:"examples"`
	Learners   []string  `json:"learners"`
	Generators []string  `json:"generators"`
	Losses     []string  `json:"losses"`
	MaxClasses int       `json:"max_classes"`
}

// Contents returns the lab page's catalog.
func Contents() Catalog {
	return Catalog{Examples: Examples(), Learners: Learners(), Generators: Generators(), Losses: Losses(), MaxClasses: MaxClasses}
}
