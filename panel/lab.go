package panel

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"mark1/internal/base/param"
	"mark1/lab"
	"mark1/learning"
)

// The lab page (static/lab.html) runs the lecture notes' examples: it posts
// a lab.Request (the data, the learner's settings, the frame it wants) and
// draws the answer, a lab.Frame. Nothing here touches the machine; the
// static lab site's WebAssembly answers the same requests with the same
// code (lab.Request.Answer).

// maxLabBody bounds the body of a lab request.
const maxLabBody = 64 << 10

// labExamples answers GET /api/lab/examples: the built-in examples.
func (s *Server) handleLabExamples(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, lab.Contents())
}

// handleLab answers POST /api/lab (a lab.Request) with the frame asked for.
func (s *Server) handleLab(w http.ResponseWriter, r *http.Request) {
	var req lab.Request
	if err := readJSON(w, r, maxLabBody, &req); err != nil {
		writeError(w, err)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 10*time.Second)
	defer cancel()
	fr, err := req.Answer(ctx, 60)
	if err != nil {
		status := http.StatusBadRequest
		switch {
		case errors.Is(err, context.DeadlineExceeded):
			status = http.StatusServiceUnavailable
		case errors.Is(err, learning.ErrOverflow): // a kernel overflowing where the bounded inputs do not
			writeError(w, errorf(http.StatusUnprocessableEntity, "the run's numbers are not finite (%v); ask for smaller ones (the points, eps, start, C, the kernel's degree or gamma)", err))
			return
		}
		writeError(w, errorf(status, "%s", strings.TrimPrefix(labFieldMessage(err), lab.ErrRequest.Error()+": ")))
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
	"hard": "setup.hard", "epochs": "setup.max_epochs", "units": "setup.units", "unit-kind": "setup.unit_kind",
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
