package panel

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"io"
	"io/fs"
	"net"
	"net/http"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"mark1/dials"
	"mark1/images"
	"mark1/machine"
	"mark1/motors"
)

//go:embed static
var static embed.FS

// Config says what the panel shows. Machine is required; the zero value of
// every other field means its documented default.
type Config struct {
	// Machine is the machine to show and train. The server owns it from
	// then on: the caller must not use it while the server runs. Its
	// hardware configuration and wiring are kept when the task changes.
	Machine *machine.Machine
	// Task is the built-in task whose cards are presented; empty means
	// the data of the machine's recipe (how it was trained), if it has one,
	// else "shapes". The panel trains by the machine's recipe (rule, value
	// system, pulses, epoch limit, cards per class, split, seed); a machine
	// without one, or a change of task, gets the default recipe for the
	// task with PerClass cards per class.
	Task string
	// PerClass is the number of cards per class when the panel makes a
	// recipe; 0 means 20.
	PerClass int
	// Seed draws the cards when the panel makes a recipe; 0 means the
	// machine's master seed.
	Seed uint64
	// SavePath is where the Save button writes the machine (atomically);
	// empty means saving is off.
	SavePath string
	// MaxUpload bounds an uploaded picture in bytes; 0 means 8 MiB.
	MaxUpload int64
	// Limits bound an uploaded picture's pixels (images.Limits; zero
	// fields mean its defaults), and the data an uploaded machine's recipe
	// makes again: its own recorded limits count only where tighter.
	Limits images.Limits
	// Delay is the pause between presentations while training runs; 0
	// means 20 ms. A negative value means none.
	Delay time.Duration

	// Hosts are the names or addresses, besides loopback ones, that a
	// request's Host header may give: the address the panel serves when it
	// is not a loopback one. See guard.go for the request checks.
	Hosts []string
	// MaxUploads bounds the uploads in progress at once; 0 means 8.
	MaxUploads int
	// MaxStreams bounds the open event streams; 0 means 64.
	MaxStreams int
	// MaxDecodes bounds the pictures decoded at once; 0 means 2.
	MaxDecodes int
	// UploadTimeout bounds the time an upload's body may take to arrive;
	// 0 means 30 s.
	UploadTimeout time.Duration
}

// Defaults of Config.
const (
	DefaultPerClass = 20
	// DefaultMaxUpload takes a phone photo: 12 megapixels are 3–6 MB as
	// JPEG, 24 megapixels up to about 12 MB.
	DefaultMaxUpload = 16 << 20
	DefaultDelay     = 20 * time.Millisecond
	// broadcastEvery bounds how often a running machine pushes its state.
	broadcastEvery = 50 * time.Millisecond
	// loopSlice bounds how long the training loop holds the lock when it
	// runs flat out (no delay) before it lets others in.
	loopSlice = 2 * time.Millisecond
)

// Server is the panel: an http.Handler for one machine. Close stops its
// training and ends the event streams.
type Server struct {
	mux       *http.ServeMux
	hub       *hub
	guard     *guard
	maxUpload int64
	decoder   *images.Decoder // uploads: cfg.Limits, one memory budget for all
	limits    images.Limits   // cfg.Limits: also bound an uploaded machine's recorded data
	perClass  int
	seed      uint64
	savePath  string

	mu sync.Mutex // guards everything below
	m  *machine.Machine
	// layout is bumped whenever the machine is replaced.
	layout  int
	task    string
	sess    *machine.Session // trains s.m by its recipe
	cards   []*image.Gray    // the training cards' pictures
	cur     *card
	resp    machine.Response
	moved   []int
	message string
	running bool
	stop    chan struct{}
	delay   time.Duration
	seq     uint64
	closed  bool
	lastPub time.Time
	wg      sync.WaitGroup
}

// card is the picture on the retina.
type card struct {
	img    *image.Gray
	field  []float32
	label  int // -1 when unknown (an uploaded picture)
	source string
}

// New returns the panel for cfg.
func New(cfg Config) (*Server, error) {
	if cfg.Machine == nil {
		return nil, errors.New("panel: no machine")
	}
	s := &Server{
		hub:       newHub(),
		maxUpload: cfg.MaxUpload,
		decoder:   images.NewDecoder(cfg.Limits),
		limits:    cfg.Limits,
		perClass:  cfg.PerClass,
		seed:      cfg.Seed,
		delay:     cfg.Delay,
		savePath:  cfg.SavePath,
	}
	if s.maxUpload <= 0 {
		s.maxUpload = DefaultMaxUpload
	}
	if s.perClass <= 0 {
		s.perClass = DefaultPerClass
	}
	if s.seed == 0 {
		s.seed = cfg.Machine.Seeds.Master
	}
	if s.delay == 0 {
		s.delay = DefaultDelay
	} else if s.delay < 0 {
		s.delay = 0
	}
	r, err := s.recipeFor(cfg.Machine, cfg.Task)
	if err != nil {
		return nil, err
	}
	if err := s.load(cfg.Machine, r); err != nil {
		return nil, err
	}
	g, err := newGuard(cfg)
	if err != nil {
		return nil, err
	}
	s.guard = g
	s.routes()
	return s, nil
}

// recipeFor returns the recipe the panel trains m by: m's own, for its own
// task (or data), or for another task with the same rule, value system,
// pulses and epoch limit, and the panel's cards per class and seed.
func (s *Server) recipeFor(m *machine.Machine, task string) (machine.Recipe, error) {
	var r machine.Recipe
	if m.Recipe != nil {
		r = *m.Recipe
		if task == "" || task == r.Data.TaskName() {
			return r, nil
		}
	}
	if task == "" {
		task = images.DefaultTask
	}
	if _, ok := images.LookupTask(task); !ok {
		return r, errorf(http.StatusBadRequest, "unknown task %q; the tasks are %s", task, strings.Join(images.TaskNames(), ", "))
	}
	seed := s.seed
	if seed == 0 {
		seed = m.Seeds.Master
	}
	r.Data = images.Source{Task: task, PerClass: s.perClass, TestSplit: 0.2, Seed: seed}
	r.TrainSize, r.TestSize = 0, 0
	return r, nil
}

// load makes m the panel's machine, trained by recipe r: it makes r's
// cards (whose classes must be m's) and starts a session. Called with s.mu
// held or before serving.
func (s *Server) load(m *machine.Machine, r machine.Recipe) error {
	train, test, err := r.Load(m.Classes, "the panel's machine", s.limits)
	if err != nil {
		return err
	}
	sess, err := machine.NewSession(m, r, m.Fields(train), m.Fields(test))
	if err != nil {
		return err
	}
	m.Recipe = &r
	s.m, s.sess, s.task = m, sess, r.Data.String()
	s.cards = make([]*image.Gray, len(train.Samples))
	for i, smp := range train.Samples {
		s.cards[i] = smp.Image
	}
	s.cur, s.moved = nil, nil
	s.resp = machine.Response{}
	s.layout++
	return nil
}

func (s *Server) routes() {
	s.mux = http.NewServeMux()
	sub, _ := fs.Sub(static, "static") // cannot fail: the folder is embedded
	s.mux.Handle("GET /", s.guard.page(sub))
	s.mux.HandleFunc("GET /api/layout", s.handleLayout)
	s.mux.HandleFunc("GET /api/state", s.handleState)
	s.mux.HandleFunc("GET /api/events", s.guard.limit(s.guard.streams, "event streams", s.handleEvents))
	s.mux.HandleFunc("GET /api/dials.png", s.handlePicture)
	s.mux.HandleFunc("GET /api/weights.png", s.handlePicture)
	s.mux.HandleFunc("GET /api/sensitivity.png", s.handlePicture)
	s.mux.HandleFunc("GET /api/means.png", s.handlePicture)
	s.mux.HandleFunc("POST /api/task", s.handleTask)
	s.mux.HandleFunc("POST /api/reset", s.action(s.reset))
	s.mux.HandleFunc("POST /api/present", s.action(s.presentNext))
	s.mux.HandleFunc("POST /api/step", s.action(s.stepOnce))
	s.mux.HandleFunc("POST /api/run", s.action(s.run))
	s.mux.HandleFunc("POST /api/pause", s.action(s.pause))
	s.mux.HandleFunc("POST /api/speed", s.handleSpeed)
	s.mux.HandleFunc("POST /api/upload", s.guard.limit(s.guard.uploads, "uploads", s.handleUpload))
	s.mux.HandleFunc("POST /api/force", s.handleForce)
	s.mux.HandleFunc("POST /api/save", s.action(s.save))
	s.mux.HandleFunc("POST /api/machine", s.guard.limit(s.guard.uploads, "uploads", s.handleMachine))
	s.mux.HandleFunc("GET /api/lab/examples", s.handleLabExamples)
	s.mux.HandleFunc("POST /api/lab", s.handleLab)
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", "frame-ancestors 'none'")
	h.Set("Referrer-Policy", "no-referrer")
	if err := s.guard.check(r); err != nil {
		refuse(w, r, err)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// Close stops training, waits for it to finish, and ends every event
// stream. The machine is then the caller's again.
func (s *Server) Close() {
	s.mu.Lock()
	s.closed = true
	s.stopRunning()
	s.mu.Unlock()
	s.wg.Wait()
	s.hub.close()
}

// Machine returns the panel's machine; use it only after Close.
func (s *Server) Machine() *machine.Machine {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m
}

// apiError is an error with the HTTP status to answer it with.
type apiError struct {
	status int
	msg    string
}

func (e *apiError) Error() string { return e.msg }

func errorf(status int, format string, a ...any) error {
	return &apiError{status, fmt.Sprintf(format, a...)}
}

func writeError(w http.ResponseWriter, err error) {
	status := http.StatusBadRequest
	var ae *apiError
	if errors.As(err, &ae) {
		status = ae.status
	}
	writeJSON(w, status, map[string]string{"error": err.Error()})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// action wraps a change of state: it runs f with the lock held, answers
// with the new state and pushes it to every tab.
func (s *Server) action(f func() error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		err := f()
		var b []byte
		if err == nil {
			b = s.stateJSON()
		}
		s.mu.Unlock()
		if err != nil {
			writeError(w, err)
			return
		}
		s.hub.publish(b)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		w.Write(b)
	}
}

// readJSON decodes a small JSON request body into v.
func readJSON(w http.ResponseWriter, r *http.Request, v any) error {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4096))
	if err := dec.Decode(v); err != nil {
		return errorf(http.StatusBadRequest, "bad request body: %v", err)
	}
	return nil
}

func (s *Server) handleTask(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Task string `json:"task"`
	}
	if err := readJSON(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	s.action(func() error { return s.changeTask(req.Task) })(w, r)
}

func (s *Server) handleSpeed(w http.ResponseWriter, r *http.Request) {
	var req struct {
		DelayMS int `json:"delay_ms"`
	}
	if err := readJSON(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	if req.DelayMS < 0 || req.DelayMS > 10000 {
		writeError(w, errorf(http.StatusBadRequest, "delay %d ms out of range [0, 10000]", req.DelayMS))
		return
	}
	s.action(func() error {
		s.delay = time.Duration(req.DelayMS) * time.Millisecond
		return nil
	})(w, r)
}

func (s *Server) handleForce(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Class *int `json:"class"`
	}
	if err := readJSON(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	if req.Class == nil {
		writeError(w, errorf(http.StatusBadRequest, `give the class to force, as {"class": N}`))
		return
	}
	s.action(func() error { return s.force(*req.Class) })(w, r)
}

// handleUpload reads a picture from the request body (the raw file, as
// fetch sends a File) and shows it to the machine.
func (s *Server) handleUpload(w http.ResponseWriter, r *http.Request) {
	name := path.Base(r.URL.Query().Get("name"))
	if name == "." || name == "/" || name == "" {
		name = "upload"
	}
	if len(name) > 100 {
		name = name[:100]
	}
	// Read the whole body first, so that every upload over the limit is
	// refused as such, whatever its first bytes say.
	s.guard.bodyDeadline(w)
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.maxUpload))
	var img *image.Gray
	if err == nil {
		var release func()
		if release, err = s.guard.decodeSlot(r.Context()); err == nil {
			img, err = s.decoder.DecodeGray(bytes.NewReader(data), name)
			release()
		}
	}
	if err != nil {
		var tooBig *http.MaxBytesError
		var ne net.Error
		var ae *apiError
		switch {
		case errors.As(err, &ae):
		case errors.As(err, &ne) && ne.Timeout():
			err = errorf(http.StatusRequestTimeout, "%s: the upload did not arrive within %v", name, s.guard.bodyTimeout)
		case errors.As(err, &tooBig):
			err = errorf(http.StatusRequestEntityTooLarge, "%s: larger than the upload limit of %d bytes", name, s.maxUpload)
		case errors.Is(err, images.ErrTooLarge):
			err = errorf(http.StatusRequestEntityTooLarge, "%v", err)
		default:
			err = errorf(http.StatusUnsupportedMediaType, "%v", err)
		}
		writeError(w, err)
		return
	}
	s.action(func() error {
		s.show(&card{img: img, field: s.m.Retina.Fit(nil, img), label: -1, source: name})
		s.message = fmt.Sprintf("%s on the retina: the machine says %s", name, s.answer())
		return nil
	})(w, r)
}

func (s *Server) handleLayout(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	l := struct {
		layoutInfo
		HeldOut int `json:"held_out"` // held-out cards P_g is measured on
	}{s.layoutInfo(), s.sess.Test().Len()}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, l)
}

func (s *Server) handleState(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	b := s.stateJSON()
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(b)
}

// handlePicture renders the dial panel, the weight maps, the sensitivity
// maps (over the training cards) or the mean cards (of the held-out cards,
// or the training cards when none are held out) as PNG. Drawing
// takes a good fraction of a second, so it works on a copy of the machine's
// moving parts taken under the lock, and other tabs are not held up.
func (s *Server) handlePicture(w http.ResponseWriter, r *http.Request) {
	m, cards, err := s.snapshot()
	if err != nil {
		writeError(w, errorf(http.StatusInternalServerError, "%v", err))
		return
	}
	train, test, task := cards.train, cards.test, cards.task
	var d *dials.Drawing
	switch path.Base(r.URL.Path) {
	case "weights.png":
		d = dials.WeightMaps(m)
	case "sensitivity.png":
		d = dials.SensitivityMaps(m, train.X, task+" (training cards)")
	case "means.png":
		if len(test.X) > 0 {
			d = dials.MeanCards(m, test.X, test.Y, task+" (held-out cards)")
		} else {
			d = dials.MeanCards(m, train.X, train.Y, task+" (training cards)")
		}
	default:
		d = dials.Panel(m, dials.PanelOptions{})
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "no-store")
	encodePNG(w, d.Image())
}

// snapshot returns a copy of the machine for drawing: the pots and the
// history are copied; the wiring, retina and R-units never change while the
// panel runs and are shared. It also returns the machine's cards, which a
// new task replaces but nothing changes.
func (s *Server) snapshot() (*machine.Machine, drawCards, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := *s.m
	bank, err := motors.Restore(s.m.Bank.Config(), s.m.Bank.State())
	if err != nil {
		return nil, drawCards{}, err
	}
	c.Bank = bank
	c.History = slices.Clone(s.m.History)
	return &c, drawCards{s.sess.Train(), s.sess.Test(), s.task}, nil
}

// drawCards are the cards a picture of the machine is drawn over.
type drawCards struct {
	train, test machine.Fields
	task        string
}

// handleEvents streams the state to one tab as server-sent events.
func (s *Server) handleEvents(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		writeError(w, errorf(http.StatusInternalServerError, "streaming is not supported by this connection"))
		return
	}
	sub := s.hub.subscribe()
	if sub == nil {
		writeError(w, errorf(http.StatusServiceUnavailable, "the panel is shutting down"))
		return
	}
	defer s.hub.unsubscribe(sub)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	s.mu.Lock()
	first := s.stateJSON()
	s.mu.Unlock()
	if writeEvent(w, first) != nil {
		return
	}
	fl.Flush()
	keepalive := time.NewTicker(15 * time.Second)
	defer keepalive.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case b, ok := <-sub.ch:
			if !ok {
				return
			}
			if writeEvent(w, b) != nil {
				return
			}
			fl.Flush()
		case <-keepalive.C:
			if _, err := fmt.Fprint(w, ": keepalive\n\n"); err != nil {
				return
			}
			fl.Flush()
		}
	}
}

func writeEvent(w http.ResponseWriter, data []byte) error {
	_, err := fmt.Fprintf(w, "event: state\ndata: %s\n\n", data)
	return err
}
