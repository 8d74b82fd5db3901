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
	"math"
	"net"
	"net/http"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"mark1/chart"
	"mark1/dials"
	"mark1/images"
	"mark1/internal/base/param"
	"mark1/machine"
	"mark1/motors"

	"mark1/dataset"
)

//go:embed static
var static embed.FS

// LabSiteFiles are the files of the lab page that the static lab site
// (mark1 lab --site) serves without a mark1 server, by name.
func LabSiteFiles() map[string][]byte {
	files := map[string][]byte{}
	for _, name := range []string{"lab.html", "lab.js", "lab.css", "style.css"} {
		b, err := static.ReadFile("static/" + name)
		if err != nil {
			panic(fmt.Sprintf("panel: %s is not embedded: %v", name, err)) // cannot happen
		}
		files[name] = b
	}
	return files
}

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
	// recipe, at most MaxPerClass; 0 means 20.
	PerClass int
	// Seed draws the cards when the panel makes a recipe; 0 means the
	// machine's master seed.
	Seed uint64
	// SavePath is where the Save button writes the machine (atomically);
	// empty means saving is off.
	SavePath string
	// MaxUpload bounds an uploaded picture or machine file in bytes; 0
	// means 16 MiB. It may not be negative.
	MaxUpload int64
	// Limits bound an uploaded picture's pixels (images.Limits; zero
	// fields mean its defaults), and the data an uploaded machine's recipe
	// makes again: its own recorded limits count only where tighter.
	Limits images.Limits
	// Delay is the pause between presentations while training runs, at
	// most MaxDelay; 0 means 20 ms and NoDelay means none. Other negative
	// values are out of range.
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
	// 0 means 30 s. It may not be negative.
	UploadTimeout time.Duration
	// ReadTimeout bounds the time a request's headers and body may take to
	// arrive, from its first byte (an upload's body has UploadTimeout
	// instead); 0 means 10 s. It takes effect through HTTPServer.
	ReadTimeout time.Duration
	// MaxRenders bounds the pictures of the machine drawn and the lab runs
	// computed at once; 0 means 2.
	MaxRenders int
}

// Defaults of Config.
const (
	DefaultPerClass = 20
	// DefaultMaxUpload takes a phone photo: 12 megapixels are 3–6 MB as
	// JPEG, 24 megapixels up to about 12 MB.
	DefaultMaxUpload = 16 << 20
	DefaultDelay     = 20 * time.Millisecond
	// MaxPerClass bounds Config.PerClass.
	MaxPerClass = 10000
	// MaxDelay bounds Config.Delay and the delay the panel's speed
	// control sets.
	MaxDelay = 10 * time.Second
	// NoDelay as Config.Delay trains at full speed.
	NoDelay = time.Duration(math.MinInt64)
	// broadcastEvery bounds how often a running machine pushes its state.
	broadcastEvery = 50 * time.Millisecond
	// loopSlice bounds how long the training loop holds the lock when it
	// runs flat out (no delay) before it lets others in.
	loopSlice = 2 * time.Millisecond
)

// MemoryLimit is the soft memory limit a process serving the panel should
// ask of Go's garbage collector (debug.SetMemoryLimit): the uploads'
// decoding budget and 128 MiB for the machine, its cards and the pages.
// Uploads share one decoding budget, but the collector lets the heap grow
// to twice what is live before it runs: 8 uploads of a 24-megapixel photo
// took a server to 620 MB; under this limit it stays near 400 MB.
const MemoryLimit = images.DefaultMaxDecodeBytes + 128<<20

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
	layout int
	task   string
	sess   *machine.Session // trains s.m by its recipe
	// until is the recipe of a continued session (continueTraining), whose
	// stopping rule the panel checks itself; nil otherwise. ended says
	// why a continued session ended ("" while it runs).
	until   *machine.Recipe
	ended   string
	browse  int           // the deck's next card for Present
	cards   []*image.Gray // the training cards' pictures
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
	// clusters holds, by epoch, how a spontaneous run's responses split
	// the cards after it (epochClusters): that rule has no labels, so the
	// panel draws these where it draws mistakes and P_r for the others.
	clusters map[int]*epochClusters
}

// card is the picture on the retina.
type card struct {
	img    *image.Gray
	field  []float32
	label  int // -1 when unknown (an uploaded picture)
	source string
}

// Validate checks cfg's settings in its own words, returning a
// *param.FieldError naming the first out of range by its field
// ("per_class", "max_upload", "delay", "upload_timeout"; the limits'
// fields under "limits", as images.Limits.Validate names them:
// "limits.max_pixels"). It does not check Machine, which New requires.
// New calls it.
func (cfg Config) Validate() error {
	switch {
	case cfg.PerClass < 0 || cfg.PerClass > MaxPerClass:
		return param.Errorf("per_class", cfg.PerClass, "[1, %d]", MaxPerClass)
	case cfg.MaxUpload < 0:
		return param.Errorf("max_upload", cfg.MaxUpload, "at least 1 (bytes)")
	case cfg.Delay != NoDelay && (cfg.Delay < 0 || cfg.Delay > MaxDelay):
		return param.Errorf("delay", cfg.Delay, "a duration in [0s, %v]", MaxDelay)
	case cfg.UploadTimeout < 0:
		return param.Errorf("upload_timeout", cfg.UploadTimeout, "a positive duration")
	}
	return param.Prefixed("limits", cfg.Limits.Validate())
}

// New returns the panel for cfg, or cfg.Validate's error.
func New(cfg Config) (*Server, error) {
	if cfg.Machine == nil {
		return nil, errors.New("panel: no machine")
	}
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("panel: %w", err)
	}
	s := &Server{
		hub:       newHub(),
		maxUpload: orDefault(cfg.MaxUpload, DefaultMaxUpload),
		decoder:   images.NewDecoder(cfg.Limits),
		limits:    cfg.Limits,
		perClass:  orDefault(cfg.PerClass, DefaultPerClass),
		seed:      cfg.Seed,
		delay:     cfg.Delay,
		savePath:  cfg.SavePath,
	}
	if s.seed == 0 {
		s.seed = cfg.Machine.Seeds.Master
	}
	if s.delay == 0 {
		s.delay = DefaultDelay
	} else if s.delay == NoDelay {
		s.delay = 0
	}
	r, err := s.recipeFor(cfg.Machine, cfg.Task)
	if err != nil {
		return nil, err
	}
	l, err := s.load(cfg.Machine, r)
	if err != nil {
		return nil, err
	}
	s.install(l)
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

// budget is the memory a machine and its fitted cards may each take:
// Config.Limits.MaxBytes, or its default.
func (s *Server) budget() int64 {
	if s.limits.MaxBytes > 0 {
		return s.limits.MaxBytes
	}
	return images.DefaultMaxBytes
}

// loaded is a machine made ready to be the panel's: its session and its
// training cards' pictures.
type loaded struct {
	m     *machine.Machine
	sess  *machine.Session
	task  string
	cards []*image.Gray
}

// load makes m ready to be the panel's machine, trained by recipe r: it
// makes r's cards (whose classes must be m's) and starts a session. It
// reads only what does not change while the server runs, so it runs
// without s.mu: making a recipe's cards can take long. m must not be the
// panel's machine; install makes it so.
func (s *Server) load(m *machine.Machine, r machine.Recipe) (*loaded, error) {
	train, test, err := r.Load(m.Classes, "the panel's machine", s.limits)
	if err != nil {
		return nil, err
	}
	if err := m.Config.CheckFit(train.Len()+test.Len(), s.budget()); err != nil {
		return nil, err
	}
	sess, err := machine.NewSession(m, r, m.Fields(train), m.Fields(test))
	if err != nil {
		return nil, err
	}
	m.Recipe = &r
	l := &loaded{m: m, sess: sess, task: r.Data.String(), cards: make([]*image.Gray, len(train.Samples))}
	for i, smp := range train.Samples {
		l.cards[i] = smp.Image
	}
	return l, nil
}

// install makes l the panel's machine, stopping training on the one it
// replaces. Called with s.mu held or before serving.
func (s *Server) install(l *loaded) {
	s.stopRunning()
	s.clusters = keptClusters(s.clusters, s.m, l.m)
	s.m, s.sess, s.task, s.cards = l.m, l.sess, l.task, l.cards
	s.until, s.ended, s.browse = nil, "", 0
	s.cur, s.moved = nil, nil
	s.resp = machine.Response{}
	s.layout++
}

// replace answers a request that gives the panel a new machine (an
// uploaded one, a task change, a reset). build makes it from the panel's
// machine as it stands, and runs without s.mu: making a recipe's cards can
// take long, and meanwhile the state, the pictures and training on the old
// machine go on. It may read only what stays the same while a machine is
// the panel's (its configuration, classes, seeds, wiring and recipe). The
// guard lets one replacement run at a time, so the machine build starts
// from is still the panel's when the new one is installed, with the lock
// held; then done returns the message to show.
func (s *Server) replace(build func(cur *machine.Machine) (*loaded, error), done func(l *loaded) string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		cur := s.m
		s.mu.Unlock()
		l, err := build(cur)
		if err != nil {
			writeError(w, err)
			return
		}
		s.action(func() error {
			if s.closed {
				return errorf(http.StatusServiceUnavailable, "the panel is shutting down")
			}
			s.install(l)
			s.message = done(l)
			return nil
		})(w, r)
	}
}

func (s *Server) routes() {
	s.mux = http.NewServeMux()
	sub, _ := fs.Sub(static, "static") // cannot fail: the folder is embedded
	s.mux.Handle("GET /", s.guard.page(sub))
	s.mux.HandleFunc("GET /api/layout", s.handleLayout)
	s.mux.HandleFunc("GET /api/state", s.handleState)
	s.mux.HandleFunc("GET /api/machine.json", s.guard.limit(s.guard.renders, "pictures and lab runs", s.handleMachineFile))
	s.mux.HandleFunc("GET /api/events", s.guard.limit(s.guard.streams, "event streams", s.handleEvents))
	rendered := func(h http.HandlerFunc) http.HandlerFunc {
		return s.guard.limit(s.guard.renders, "pictures and lab runs", h)
	}
	picture := rendered(s.handlePicture)
	s.mux.HandleFunc("GET /api/dials.png", picture)
	s.mux.HandleFunc("GET /api/weights.png", picture)
	s.mux.HandleFunc("GET /api/sensitivity.png", picture)
	s.mux.HandleFunc("GET /api/means.png", picture)
	change := func(h http.HandlerFunc) http.HandlerFunc {
		return s.guard.limit(s.guard.loads, "changes of machine (an uploaded machine, a task change, a reset)", h)
	}
	s.mux.HandleFunc("POST /api/task", change(s.handleTask))
	s.mux.HandleFunc("POST /api/mode", change(s.handleMode))
	s.mux.HandleFunc("POST /api/reset", change(s.replace(s.resetBuild, func(*loaded) string {
		return "The pots are back at their starting positions."
	})))
	s.mux.HandleFunc("POST /api/present", s.handlePresent)
	s.mux.HandleFunc("POST /api/continue", s.action(s.continueTraining))
	s.mux.HandleFunc("POST /api/step", s.action(s.stepOnce))
	s.mux.HandleFunc("POST /api/run", s.action(s.run))
	s.mux.HandleFunc("POST /api/pause", s.action(s.pause))
	s.mux.HandleFunc("POST /api/speed", s.handleSpeed)
	s.mux.HandleFunc("POST /api/upload", s.guard.limit(s.guard.uploads, "uploads", s.handleUpload))
	s.mux.HandleFunc("POST /api/force", s.handleForce)
	s.mux.HandleFunc("POST /api/save", s.action(s.save))
	s.mux.HandleFunc("POST /api/machine", s.guard.limit(s.guard.uploads, "uploads", change(s.handleMachine)))
	s.mux.HandleFunc("GET /api/lab/examples", s.handleLabExamples)
	s.mux.HandleFunc("POST /api/lab", rendered(s.handleLab))
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

// writeError answers err as {"error": message}, with err's status if it is
// an apiError, else 400.
func writeError(w http.ResponseWriter, err error) {
	status := http.StatusBadRequest
	var ae *apiError
	if errors.As(err, &ae) {
		status = ae.status
	}
	writeJSON(w, status, map[string]string{"error": err.Error()})
}

// encodeJSON encodes an answer. A value JSON cannot hold (a number that is
// not finite) is an error with status 500.
func encodeJSON(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, errorf(http.StatusInternalServerError, "the answer cannot be written as JSON: %v", err)
	}
	return b, nil
}

// writeJSON answers v as JSON with status. v is encoded before anything
// is written, so an answer that cannot be encoded is a 500 with a message,
// not a 200 with an empty body.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := encodeJSON(v)
	if err != nil {
		writeError(w, err) // a map of strings: cannot fail
		return
	}
	writeBody(w, status, b)
}

// writeBody answers b, encoded JSON, with status: every JSON answer of the
// panel goes out here.
func writeBody(w http.ResponseWriter, status int, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(b)
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
		writeBody(w, http.StatusOK, b)
	}
}

// maxControlBody bounds the JSON body of a control.
const maxControlBody = 4096

// readJSON decodes a JSON request body of at most limit bytes into v: one
// JSON value, with nothing after it but white space. The fields an
// endpoint needs are pointers in v, checked by the endpoint (missing
// reports one), since a body of {} or null leaves v as it was.
func readJSON(w http.ResponseWriter, r *http.Request, limit int64, v any) error {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, limit))
	err := dec.Decode(v)
	var tooBig *http.MaxBytesError
	var ne net.Error
	switch {
	case err == io.EOF:
		return errorf(http.StatusBadRequest, "empty request body: a JSON object is wanted")
	case err == nil:
		if _, err = dec.Token(); err == io.EOF {
			return nil
		}
		if !errors.As(err, &tooBig) && !errors.As(err, &ne) {
			return errorf(http.StatusBadRequest, "bad request body: something follows the JSON value (one JSON object is wanted)")
		}
	}
	switch {
	case errors.As(err, &tooBig):
		return errorf(http.StatusRequestEntityTooLarge, "request body larger than %d bytes", limit)
	case errors.As(err, &ne) && ne.Timeout():
		return errorf(http.StatusRequestTimeout, "the request body did not arrive in time")
	}
	return errorf(http.StatusBadRequest, "bad request body: %v", err)
}

// readControl reads a control's JSON body into req and checks with given
// that it gives its field (an example of the body says how); on failure
// it writes the error and returns false.
func readControl(w http.ResponseWriter, r *http.Request, req any, given func() bool, field, example string) bool {
	if err := readJSON(w, r, maxControlBody, req); err != nil {
		writeError(w, err)
		return false
	}
	if !given() {
		writeError(w, missing(field, example))
		return false
	}
	return true
}

// missing is the error for a request body without a field the endpoint
// needs; example shows the body wanted.
func missing(field, example string) error {
	return errorf(http.StatusBadRequest, "the request body gives no %q; send %s", field, example)
}

// handleTask changes the task: a fresh machine with the same hardware for
// the task's classes, or with "keep" true the panel's own machine, its
// training kept, on the task's cards (its classes must be the task's), its
// training continued from where it stands (continueTraining).
func (s *Server) handleTask(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Task *string `json:"task"`
		Keep bool    `json:"keep"`
	}
	if !readControl(w, r, &req, func() bool { return req.Task != nil }, "task", `{"task": "shapes"}`) {
		return
	}
	task := *req.Task
	if req.Keep {
		s.action(func() error { return s.keepTask(task) })(w, r)
		return
	}
	s.replace(s.taskBuild(task), func(l *loaded) string {
		return fmt.Sprintf("A fresh machine for task %s: %d classes, %d training cards, %d pots.", task, len(l.m.Classes), len(l.cards), l.m.Bank.Len())
	})(w, r)
}

// handleMode switches the training mode, as the Operators' Manual's console
// switched between forced learning, error correction and spontaneous
// learning: the machine keeps its pots and history and goes on by the same
// recipe with another rule (and that rule's own stopping rule).
func (s *Server) handleMode(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Rule *string `json:"rule"`
	}
	if !readControl(w, r, &req, func() bool { return req.Rule != nil }, "rule", `{"rule": "forced"}`) {
		return
	}
	rule, err := machine.ParseRule(*req.Rule)
	if err != nil {
		writeError(w, errorf(http.StatusBadRequest, "%v", err))
		return
	}
	s.replace(s.modeBuild(rule), func(l *loaded) string {
		return fmt.Sprintf("Training mode: %s, on the same machine (%d epochs so far).", rule, len(l.m.History))
	})(w, r)
}

// keepTask puts the panel's machine, as trained, on task's cards, and
// continues its training there. Called with s.mu held: the machine's cards
// are made while it stands still.
func (s *Server) keepTask(task string) error {
	info, ok := images.LookupTask(task)
	if !ok {
		return errorf(http.StatusBadRequest, "unknown task %q; the tasks are %s", task, strings.Join(images.TaskNames(), ", "))
	}
	if !slices.Equal(info.Classes, s.m.Classes) {
		return errorf(http.StatusBadRequest, "task %s has the classes %s; this machine knows %s: only a fresh machine can learn them",
			task, strings.Join(info.Classes, ", "), strings.Join(s.m.Classes, ", "))
	}
	r, err := s.recipeFor(s.m, task)
	if err != nil {
		return err
	}
	old := s.m.Recipe
	r.Rule, r.Values, r.Pulses, r.MaxEpochs, r.Stop = old.Rule, old.Values, old.Pulses, old.MaxEpochs, old.Stop
	train, test, err := r.Load(s.m.Classes, "the panel's machine", s.limits)
	if err != nil {
		return errorf(http.StatusBadRequest, "%v", err)
	}
	if err := s.m.Config.CheckFit(train.Len()+test.Len(), s.budget()); err != nil {
		return errorf(http.StatusBadRequest, "%v", err)
	}
	if err := s.resume(s.m, r, s.m.Fields(train), s.m.Fields(test)); err != nil {
		return errorf(http.StatusBadRequest, "%v", err)
	}
	r.TrainSize, r.TestSize = train.Len(), test.Len()
	s.m.Recipe = &r
	s.task = r.Data.String()
	s.cards = make([]*image.Gray, len(train.Samples))
	for i, smp := range train.Samples {
		s.cards[i] = smp.Image
	}
	s.cur, s.moved, s.browse = nil, nil, 0
	s.resp = machine.Response{}
	s.layout++
	s.message = fmt.Sprintf("The machine keeps its training (%d epochs) and goes on to task %s: %d training cards. Step or Run.", len(s.m.History), task, len(train.Samples))
	return nil
}

// handlePresent shows a training card, weights frozen: {"card": i} card i
// (0-based), an empty body the deck's next.
func (s *Server) handlePresent(w http.ResponseWriter, r *http.Request) {
	card := -1
	if r.ContentLength != 0 {
		var req struct {
			Card *int `json:"card"`
		}
		if err := readJSON(w, r, maxControlBody, &req); err != nil {
			writeError(w, err)
			return
		}
		if req.Card != nil {
			if card = *req.Card; card < 0 {
				writeError(w, errorf(http.StatusBadRequest, "card %d out of range: the cards are numbered from 0", card))
				return
			}
		}
	}
	s.action(func() error { return s.presentCard(card) })(w, r)
}

func (s *Server) handleSpeed(w http.ResponseWriter, r *http.Request) {
	var req struct {
		DelayMS *int `json:"delay_ms"`
	}
	if !readControl(w, r, &req, func() bool { return req.DelayMS != nil }, "delay_ms", `{"delay_ms": 20}`) {
		return
	}
	ms := *req.DelayMS
	if ms < 0 || ms > int(MaxDelay/time.Millisecond) {
		writeError(w, errorf(http.StatusBadRequest, "delay_ms %d out of range [0, %d]", ms, MaxDelay/time.Millisecond))
		return
	}
	s.action(func() error {
		s.delay = time.Duration(ms) * time.Millisecond
		return nil
	})(w, r)
}

func (s *Server) handleForce(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Class *int `json:"class"`
	}
	if !readControl(w, r, &req, func() bool { return req.Class != nil }, "class", `the class to force, as {"class": N}`) {
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
		case errors.Is(err, dataset.ErrTooLarge):
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
		HeldOut int      `json:"held_out"` // held-out cards P_g is measured on
		Rules   []string `json:"rules"`    // the training modes (machine.RuleNames)
	}{s.layoutInfo(), s.sess.Test().Len(), machine.RuleNames()}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, l)
}

// handleMachineFile answers GET /api/machine.json with the machine as a
// machine file (what Save writes, and Load machine… and mark1 serve
// --machine read), so that a trained machine can be kept without --out.
func (s *Server) handleMachineFile(w http.ResponseWriter, r *http.Request) {
	var buf bytes.Buffer
	s.mu.Lock()
	err := s.m.Encode(&buf)
	s.mu.Unlock()
	if err != nil {
		writeError(w, errorf(http.StatusInternalServerError, "encoding the machine: %v", err))
		return
	}
	w.Header().Set("Content-Disposition", `attachment; filename="mark1-machine.json"`)
	w.Header().Set("Content-Type", "application/json")
	w.Write(buf.Bytes())
}

func (s *Server) handleState(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	b := s.stateJSON()
	s.mu.Unlock()
	writeBody(w, http.StatusOK, b)
}

// handlePicture renders the dial panel, the weight maps, the sensitivity
// maps (over the training cards) or the mean cards (of the held-out cards,
// or the training cards when none are held out) as PNG. Drawing
// takes a good fraction of a second, so it works on a copy of the machine's
// moving parts taken under the lock, and other tabs are not held up; the
// guard bounds the pictures drawn at once. The dials package takes no
// context, so a picture whose client has gone is abandoned between its
// stages (the figures, the rendering, the encoding), not within one.
func (s *Server) handlePicture(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	m, cards, err := s.snapshot()
	if err != nil {
		writeError(w, errorf(http.StatusInternalServerError, "%v", err))
		return
	}
	train, test, task := cards.train, cards.test, cards.task
	var d *chart.Drawing
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
	if ctx.Err() != nil {
		return // the client has gone: nobody to answer
	}
	img := d.Image()
	if ctx.Err() != nil {
		return
	}
	var b bytes.Buffer
	if err := encodePNG(&b, img); err != nil {
		writeError(w, errorf(http.StatusInternalServerError, "encoding the picture: %v", err))
		return
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(b.Bytes())
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

// handleEvents streams the state to one tab as server-sent events. A
// request with a body is refused: until its body has been read net/http
// does not watch the connection, so the stream would not learn that its
// client has gone.
func (s *Server) handleEvents(w http.ResponseWriter, r *http.Request) {
	if r.ContentLength != 0 {
		refuse(w, r, errorf(http.StatusBadRequest, "an event stream is asked for without a request body"))
		return
	}
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
