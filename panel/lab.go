package panel

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"
	"time"

	"mark1/internal/param"
	"mark1/lab"
)

// The lab page (static/lab.html) runs the lecture notes' examples: it posts
// the data and the learner's settings with the frame it wants, and draws
// the answer, a lab.Frame. Nothing here touches the machine.

// Bounds of a lab request.
const (
	// maxLabPoints bounds the points of a lab request.
	maxLabPoints = 200
	// maxLabValue bounds the size of the numbers a lab request gives (the
	// points' coordinates, eps, start, C): with at most 200 points and 200
	// epochs the runs' numbers then stay far from overflowing.
	maxLabValue = 1e6
	// maxLabBody bounds the body of a lab request.
	maxLabBody = 64 << 10
)

// labRequest is the body of POST /api/lab.
type labRequest struct {
	// Example names a built-in example; empty means Points.
	Example string `json:"example"`
	// Points are the user's own, each [x1, x2, label ±1].
	Points [][3]float64 `json:"points"`
	// Generate draws the data instead (lab.Generate).
	Generate *lab.GenOptions `json:"generate"`
	Setup    lab.Setup       `json:"setup"`
	// Frame is the step to show: 0 the start, −1 the end.
	Frame int `json:"frame"`
}

// labExamples answers GET /api/lab/examples: the built-in examples.
func (s *Server) handleLabExamples(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"examples": lab.Examples(), "learners": lab.Learners(), "generators": lab.Generators(), "losses": lab.Losses()})
}

// handleLab answers POST /api/lab with the frame asked for.
func (s *Server) handleLab(w http.ResponseWriter, r *http.Request) {
	var req labRequest
	if err := readJSON(w, r, maxLabBody, &req); err != nil {
		writeError(w, err)
		return
	}
	if err := checkLabSetup(req.Setup); err != nil {
		writeError(w, err)
		return
	}
	var e lab.Example
	var err error
	switch {
	case req.Example != "":
		e, err = lab.Find(req.Example)
	case req.Generate != nil:
		e, err = lab.Generate(*req.Generate)
	default:
		if len(req.Points) > maxLabPoints {
			writeError(w, errorf(http.StatusBadRequest, "%d points; the lab takes at most %d", len(req.Points), maxLabPoints))
			return
		}
		x := make([][]float64, len(req.Points))
		y := make([]int, len(req.Points))
		for i, p := range req.Points {
			if math.Abs(p[0]) > maxLabValue || math.Abs(p[1]) > maxLabValue {
				writeError(w, errorf(http.StatusBadRequest, "point %d: coordinates beyond ±10⁶", i+1))
				return
			}
			x[i] = []float64{p[0], p[1]}
			y[i] = int(p[2])
			if float64(y[i]) != p[2] {
				y[i] = 0 // NewExample refuses it
			}
		}
		e, err = lab.NewExample("your points", x, y)
	}
	if err != nil {
		writeError(w, errorf(http.StatusBadRequest, "%v", err))
		return
	}
	// The page's runs are short: 100 epochs unless asked, never more than
	// 200 (with 200 points, 40,000 steps, each step a request).
	switch {
	case req.Setup.MaxEpochs == 0:
		req.Setup.MaxEpochs = 100
	case req.Setup.MaxEpochs > 200:
		req.Setup.MaxEpochs = 200
	}
	if req.Frame < -1 {
		writeError(w, errorf(http.StatusBadRequest, "frame %d: want −1 (the end) or a step ≥ 0", req.Frame))
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 10*time.Second)
	defer cancel()
	run, err := lab.Start(ctx, e, req.Setup)
	if err != nil {
		status := http.StatusBadRequest
		if errors.Is(err, context.DeadlineExceeded) {
			status = http.StatusServiceUnavailable
		}
		writeError(w, errorf(status, "%s", labFieldMessage(err)))
		return
	}
	if req.Frame >= run.Frames() {
		req.Frame = -1
	}
	// Points placed by clicking (and drawn data, to which points may be
	// added) keep the page's scale, ±5.
	half := 0.0
	if req.Example == "" {
		half = 5
	}
	fr, err := run.Frame(req.Frame, 60, half)
	if err != nil {
		writeError(w, errorf(http.StatusBadRequest, "%v", err))
		return
	}
	b, err := encodeJSON(fr)
	if err != nil {
		// A kernel can overflow where the bounded inputs do not (a
		// polynomial of high degree).
		writeError(w, errorf(http.StatusUnprocessableEntity, "the run's numbers are not finite (%v): they overflowed; ask for smaller ones (the points, eps, start, C, the kernel's degree or gamma)", err))
		return
	}
	writeBody(w, http.StatusOK, b)
}

// labMembers maps the registry's option names (the fields of its typed
// errors) to the members of a lab request that set them.
var labMembers = map[string]string{
	"learner": "setup.learner", "bias": "setup.bias", "eps": "setup.eps", "order": "setup.shuffle",
	"seed": "setup.seed", "line-search": "setup.line_search", "kernel": "setup.kernel", "C": "setup.C",
	"hard": "setup.hard", "epochs": "setup.max_epochs",
}

// labFieldMessage says what is wrong with a lab request in its members'
// names: a field error of the registry (param.FieldError) names the member
// that set the field ("setup.kernel: degree 30 …"); other errors as they are.
func labFieldMessage(err error) string {
	f := param.As(err)
	if f == nil {
		return err.Error()
	}
	field, rest, _ := strings.Cut(f.FieldName(), ".")
	member, ok := labMembers[field]
	if !ok {
		return err.Error()
	}
	if rest != "" {
		return fmt.Sprintf("%s: %s %s: want %s", member, rest, f.FieldValue(), f.FieldRange())
	}
	return fmt.Sprintf("%s %s: want %s", member, f.FieldValue(), f.FieldRange())
}

// checkLabSetup refuses, naming the field, a setting whose size would make
// a run's numbers overflow (JSON cannot carry NaN or infinities, so a
// non-finite number never arrives).
func checkLabSetup(s lab.Setup) error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"setup.eps", s.Eps}, {"setup.C", s.C}} {
		if math.Abs(f.v) > maxLabValue {
			return errorf(http.StatusBadRequest, "%s %g: beyond ±10⁶", f.name, f.v)
		}
	}
	for i, v := range s.Start {
		if math.Abs(v) > maxLabValue {
			return errorf(http.StatusBadRequest, "setup.start[%d] %g: beyond ±10⁶", i, v)
		}
	}
	return nil
}
