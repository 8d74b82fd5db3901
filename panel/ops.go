package panel

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"math"
	"net"
	"net/http"
	"runtime"
	"strings"
	"time"

	"mark1/dials"
	"mark1/images"
	"mark1/machine"
)

// The builds of a new machine (taskBuild, resetBuild, handleMachine's) run
// without s.mu, through replace; the other operations below run with s.mu
// held.

// taskBuild returns the build of a new machine with the same hardware and
// healthy wiring as cur (so the faults are drawn as they were, once) for a
// built-in task's classes, trained by the same rule.
func (s *Server) taskBuild(task string) func(cur *machine.Machine) (*loaded, error) {
	return func(cur *machine.Machine) (*loaded, error) {
		info, ok := images.LookupTask(task)
		if !ok {
			return nil, errorf(http.StatusBadRequest, "unknown task %q; the tasks are %s", task, strings.Join(images.TaskNames(), ", "))
		}
		r, err := s.recipeFor(cur, task)
		if err != nil {
			return nil, err
		}
		if err := cur.Config.CheckSize(len(info.Classes), s.budget()); err != nil { // more classes, more pots
			return nil, errorf(http.StatusBadRequest, "task %s on this machine: %v", task, err)
		}
		m, err := machine.New(cur.Config, info.Classes, cur.Seeds, cur.Wiring)
		if err != nil {
			return nil, errorf(http.StatusBadRequest, "task %s on this machine: %v", task, err)
		}
		l, err := s.load(m, r)
		if err != nil {
			return nil, errorf(http.StatusBadRequest, "%v", err)
		}
		return l, nil
	}
}

// modeBuild returns the build of a copy of cur, pots and history kept,
// trained by cur's recipe with another rule. It takes s.mu to copy cur. The stopping rule becomes the
// new rule's own, and R→A feedback is kept only for the rules it carries.
func (s *Server) modeBuild(rule machine.Rule) func(cur *machine.Machine) (*loaded, error) {
	return func(cur *machine.Machine) (*loaded, error) {
		r := *cur.Recipe
		r.Rule, r.Stop = rule, machine.StopAuto
		if rule != machine.ForcedMonovalent && rule != machine.Spontaneous {
			r.Feedback = 0
		}
		if err := r.CheckMachine(cur.Config); err != nil {
			return nil, errorf(http.StatusBadRequest, "mode %s on this machine: %v", rule, err)
		}
		// The pots move while training runs: copy them under the lock.
		s.mu.Lock()
		m, err := cur.Clone()
		s.mu.Unlock()
		if err != nil {
			return nil, err
		}
		l, err := s.load(m, r)
		if err != nil {
			return nil, errorf(http.StatusBadRequest, "%v", err)
		}
		return l, nil
	}
}

// resetBuild builds cur again with every pot where it started and no
// history, trained by the same recipe.
func (s *Server) resetBuild(cur *machine.Machine) (*loaded, error) {
	m, err := machine.New(cur.Config, cur.Classes, cur.Seeds, cur.Wiring)
	if err != nil {
		return nil, err
	}
	return s.load(m, *cur.Recipe)
}

// save writes the machine to the save path given at start.
func (s *Server) save() error {
	if s.savePath == "" {
		return errorf(http.StatusConflict, "saving is off: the panel was started without a file to save to")
	}
	if s.running {
		return errorf(http.StatusConflict, "pause training before saving")
	}
	if err := s.m.Save(s.savePath); err != nil {
		return errorf(http.StatusInternalServerError, "saving: %v", err)
	}
	s.message = fmt.Sprintf("Saved the machine (%d epochs) to %s.", len(s.m.History), s.savePath)
	return nil
}

// handleMachine loads a machine file sent as the request body (bounded by
// the upload limit) and makes it the panel's machine, trained by its own
// recipe. Its cards are made without the lock (replace), one machine at a
// time (the guard).
func (s *Server) handleMachine(w http.ResponseWriter, r *http.Request) {
	s.guard.bodyDeadline(w)
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.maxUpload))
	var m *machine.Machine
	if err == nil {
		m, err = machine.Decode(bytes.NewReader(data), "the machine file")
	}
	if err != nil {
		var tooBig *http.MaxBytesError
		var ne net.Error
		switch {
		case errors.As(err, &tooBig):
			err = errorf(http.StatusRequestEntityTooLarge, "the machine file is larger than the upload limit of %d bytes", s.maxUpload)
		case errors.As(err, &ne) && ne.Timeout():
			err = errorf(http.StatusRequestTimeout, "the machine file did not arrive within %v", s.guard.bodyTimeout)
		default:
			err = errorf(http.StatusBadRequest, "%v", err)
		}
		writeError(w, err)
		return
	}
	var rec machine.Recipe
	build := func(*machine.Machine) (*loaded, error) {
		if rec, err = s.recipeFor(m, ""); err != nil {
			return nil, err
		}
		l, err := s.load(m, rec)
		if err != nil {
			return nil, errorf(http.StatusBadRequest, "%v", err)
		}
		return l, nil
	}
	s.replace(build, func(l *loaded) string {
		return fmt.Sprintf("Loaded a machine: %s, %d epochs so far, trained by %s/%s.", l.task, len(l.m.History), rec.Rule, rec.Values)
	})(w, r)
}

// show puts a card on the retina and reads the machine's answer, weights
// frozen.
func (s *Server) show(c *card) {
	s.cur = c
	s.m.Present(&s.resp, c.field, s.m.EvalNoise())
	s.moved = nil
}

// answer names the class the R-units show.
func (s *Server) answer() string {
	if s.resp.Class < 0 || s.resp.Class >= len(s.m.Classes) {
		return "no class"
	}
	return fmt.Sprintf("%q", s.m.Classes[s.resp.Class])
}

// presentCard shows training card i (−1: the next in the deck, which Present
// walks through card by card) and reads the machine's answer, weights
// frozen. It works whether or not training has ended: a trained machine
// is demonstrated this way, and learns nothing.
func (s *Server) presentCard(i int) error {
	n := s.sess.Train().Len()
	if i >= n || i < -1 {
		return errorf(http.StatusBadRequest, "card %d out of range: the deck has cards 0 to %d", i, n-1)
	}
	if i < 0 {
		i = s.browse % n
	}
	s.browse = i + 1
	c := s.card(i)
	s.show(c) // presenting is not training
	s.message = fmt.Sprintf("Training card %d of %d (class %s): the machine says %s%s. Nothing was learned.", i+1, n, s.m.Classes[c.label], s.answer(), verdict(s.resp.Class, c.label))
	return nil
}

// done reports whether training has ended: the session's own end, or, on
// a continued run, the machine's stopping rule met again.
func (s *Server) done() bool { return s.sess.Done() || s.ended != "" }

// summary says how training stands, for people.
func (s *Server) summary() string {
	if s.ended != "" {
		return s.ended
	}
	return s.sess.Summary()
}

// errEnded is the answer to Step and Run once training has ended.
func (s *Server) errEnded() error {
	return errorf(http.StatusConflict, "training has ended (%s): the machine only answers now; press Continue training to train it further", s.summary())
}

// continueTraining resumes training on a machine whose training has ended
// (converged, or at its epoch limit): the machine's stopping rule is
// checked afresh from the next epoch on, for up to the recipe's epoch limit
// more epochs.
func (s *Server) continueTraining() error {
	if !s.done() {
		return errorf(http.StatusConflict, "training has not ended: Step or Run trains the machine")
	}
	if err := s.resume(s.m, *s.m.Recipe, s.sess.Train(), s.sess.Test()); err != nil {
		return errorf(http.StatusInternalServerError, "continuing: %v", err)
	}
	s.message = fmt.Sprintf("Training continues after epoch %d: up to %d more epochs, until %s. Step or Run.", len(s.m.History), s.until.MaxEpochs, stopText(s.until.Stop))
	return nil
}

// resume starts a continued session on m (the panel's machine, or one
// about to be) by recipe r on the given fields: r's stopping rule is kept
// by the panel (s.until) and the session runs to an epoch limit counted
// from now, so that a machine that met its rule already trains again.
func (s *Server) resume(m *machine.Machine, r machine.Recipe, train, test machine.Fields) error {
	r = r.Defaults()
	c := r
	c.Stop = machine.EpochLimit
	c.MaxEpochs = min(len(m.History)+r.MaxEpochs, machine.MaxEpochLimit)
	sess, err := machine.NewSession(m, c, train, test)
	if err != nil {
		return err
	}
	s.stopRunning()
	s.sess, s.until, s.ended = sess, &r, ""
	return nil
}

// stopText names a stopping rule for people.
func stopText(st machine.Stop) string {
	switch st {
	case machine.NoMistakes:
		return "an epoch needs no correction"
	case machine.AllRecognized:
		return "every training card is recognized"
	}
	return "the epoch limit"
}

func verdict(got, want int) string {
	if want < 0 {
		return ""
	}
	if got == want {
		return " (right)"
	}
	return " (wrong)"
}

// card returns training card i.
func (s *Server) card(i int) *card {
	tr := s.sess.Train()
	return &card{img: s.cards[i], field: tr.X[i], label: tr.Y[i], source: fmt.Sprintf("training card %d of %d, %s", i+1, s.sess.Train().Len(), s.task)}
}

// stepOnce presents the next training card with the recipe's rule.
func (s *Server) stepOnce() error {
	if s.done() {
		return s.errEnded()
	}
	s.train1()
	return nil
}

// train1 presents the next training card by the session and reports
// whether training has ended.
func (s *Server) train1() (done bool) {
	before := s.m.Bank.State().Positions
	p, err := s.sess.Step(&s.resp)
	if err != nil {
		s.message = capital(s.sess.Summary()) + "."
		return true
	}
	s.cur = s.card(p.Card)
	s.moved = movedPots(before, s.m)
	at, of := s.sess.Position()
	if p.Closed {
		at = of
	}
	if s.sess.Recipe().Rule == machine.Spontaneous {
		// No labels: the machine's own response is reinforced, and a
		// response is neither right nor wrong.
		s.message = fmt.Sprintf("Epoch %d, card %d of %d (a %s card; the machine is not told): its own response reinforced; %d pots moved.",
			p.Epoch, at, of, s.m.Classes[s.cur.label], len(s.moved))
		if p.Closed {
			s.recordClusters(p.Record.Epoch)
		}
	} else {
		s.message = fmt.Sprintf("Epoch %d, card %d of %d (%s): %s; %d pots moved.", p.Epoch, at, of,
			s.m.Classes[s.cur.label], map[bool]string{true: "wrong, corrected", false: "right"}[p.Mistake], len(s.moved))
	}
	if p.Closed && s.until != nil && !s.sess.Done() {
		// A continued run stops where the machine's own rule says.
		switch rec := p.Record; {
		case s.until.Stop == machine.NoMistakes && rec.Mistakes == 0:
			s.ended = fmt.Sprintf("converged again: epoch %d needed no correction", rec.Epoch)
		case s.until.Stop == machine.AllRecognized && rec.Pr == 1:
			s.ended = fmt.Sprintf("converged again: every training card recognized after epoch %d", rec.Epoch)
		}
	}
	if p.Closed && s.done() {
		s.message += " " + capital(s.summary()) + "."
	}
	return s.done()
}

func capital(x string) string {
	if x == "" {
		return x
	}
	return strings.ToUpper(x[:1]) + x[1:]
}

func movedPots(before []float64, m *machine.Machine) []int {
	var moved []int
	for i, p := range before {
		if m.Bank.Position(i) != p {
			moved = append(moved, i)
		}
	}
	return moved
}

// force plays the 1960 trainer: the response of class c is forced on the
// card shown, so the motors reinforce the active A-units' pots toward it on
// every R-unit, and the machine is asked again.
func (s *Server) force(c int) error {
	if c < 0 || c >= len(s.m.Classes) {
		return errorf(http.StatusBadRequest, "class %d out of range [0, %d)", c, len(s.m.Classes))
	}
	if s.cur == nil {
		return errorf(http.StatusConflict, "no card on the retina: present a card or upload a picture first")
	}
	if s.running {
		return errorf(http.StatusConflict, "pause training before forcing a response")
	}
	was := s.answer()
	before := s.m.Bank.State().Positions
	s.sess.Force(&s.resp, s.cur.field, c)
	moved := movedPots(before, s.m)
	s.m.Present(&s.resp, s.cur.field, s.m.EvalNoise())
	s.moved = moved
	s.message = fmt.Sprintf("Forced %q (the machine had said %s): %d pots turned; it now says %s.", s.m.Classes[c], was, len(moved), s.answer())
	return nil
}

// run starts continuous training.
func (s *Server) run() error {
	if s.running {
		return nil
	}
	if s.closed {
		return errorf(http.StatusServiceUnavailable, "the panel is shutting down")
	}
	if s.done() {
		return s.errEnded()
	}
	s.running = true
	s.stop = make(chan struct{})
	s.message = "Training…"
	s.wg.Add(1)
	go s.loop(s.stop)
	return nil
}

// pause stops continuous training after the presentation under way.
func (s *Server) pause() error {
	if s.running {
		at, of := s.sess.Position()
		s.message = fmt.Sprintf("Paused in epoch %d at card %d of %d.", s.sess.EpochUnderWay(), at, of)
	}
	s.stopRunning()
	return nil
}

func (s *Server) stopRunning() {
	if s.running {
		s.running = false
		close(s.stop)
	}
}

// loop trains until paused or converged. With a delay it presents one card
// per turn of the lock and then waits. Flat out (no delay) it presents
// cards for at most loopSlice per turn of the lock, then releases the lock
// and yields, so that requests and the event stream are served between
// batches however loaded the machine is: a request waits for at most one
// batch (Go's mutex hands the lock to a waiter that has waited over a
// millisecond), and the state is published at least every broadcastEvery.
func (s *Server) loop(stop chan struct{}) {
	defer s.wg.Done()
	for {
		s.mu.Lock()
		select {
		case <-stop:
			s.mu.Unlock()
			return
		default:
		}
		delay := s.delay
		start := time.Now()
		var done, epochEnd bool
		for {
			done = s.train1()
			at, _ := s.sess.Position()
			epochEnd = at == 0
			if done || epochEnd || delay > 0 || time.Since(start) >= loopSlice {
				break
			}
		}
		if done {
			s.stopRunning()
		}
		var b []byte
		now := time.Now()
		if done || epochEnd || now.Sub(s.lastPub) >= broadcastEvery {
			b = s.stateJSON()
			s.lastPub = now
		}
		s.mu.Unlock()
		if b != nil {
			s.hub.publish(b)
		}
		if done {
			return
		}
		if delay == 0 {
			runtime.Gosched()
			continue
		}
		t := time.NewTimer(delay)
		select {
		case <-stop:
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// layoutInfo describes what stays the same while the machine does.
type layoutInfo struct {
	Version int      `json:"version"`
	Task    string   `json:"task"`
	Tasks   []string `json:"tasks"`
	// TaskClasses gives each task's classes: a task with the machine's
	// own can take the machine on, its training kept.
	TaskClasses map[string][]string `json:"task_classes"`
	Preset      string              `json:"preset"`
	Classes     []string            `json:"classes"`
	Width       int                 `json:"retina_width"`
	Height      int                 `json:"retina_height"`
	AUnits      int                 `json:"a_units"`
	// Wiring names how the plugboard was wired: random, or local:D
	// (every A-unit's origin points inside one D×D window).
	Wiring string     `json:"wiring"`
	Pots   int        `json:"pots"`
	Limit  float64    `json:"limit"`
	Code   string     `json:"code"` // the class code on the R-units: binary or one-per-class
	Groups []potGroup `json:"groups"`
	// SourceSet gives each A-unit's R-unit (source-set layout), or is
	// empty when every A-unit feeds every R-unit.
	SourceSet []int `json:"source_set,omitempty"`
}

type potGroup struct {
	RUnit  int    `json:"r_unit"`
	Title  string `json:"title"`
	Pots   []int  `json:"pots"`
	AUnits []int  `json:"a_units"` // -1 for the bias pot
}

func (s *Server) layoutInfo() layoutInfo {
	m := s.m
	w, h := m.Retina.Size()
	l := layoutInfo{
		Version: s.layout, Task: s.sess.Recipe().Data.TaskName(), Preset: m.Config.Preset, Classes: m.Classes,
		Width: w, Height: h, AUnits: len(m.Plugboard.Units), Wiring: m.Config.Associator.Wiring(), Pots: m.Bank.Len(), Limit: m.Bank.Config().Limit,
		Code: m.Layer.Config().Code.String(),
	}
	l.Tasks = images.TaskNames()
	l.TaskClasses = map[string][]string{}
	for _, t := range images.Tasks() {
		l.TaskClasses[t.Name] = t.Classes
	}
	for r := range m.Layer.Used() {
		g := potGroup{RUnit: r, Title: dials.RUnitName(m, r)}
		for _, in := range m.Layer.Inputs(r) {
			g.Pots = append(g.Pots, in.Pot)
			g.AUnits = append(g.AUnits, in.A)
		}
		if b := m.Layer.BiasPot(r); b >= 0 {
			g.Pots = append(g.Pots, b)
			g.AUnits = append(g.AUnits, -1)
		}
		l.Groups = append(l.Groups, g)
	}
	if m.Layer.SourceSet(0) >= 0 {
		l.SourceSet = make([]int, l.AUnits)
		for a := range l.SourceSet {
			l.SourceSet[a] = m.Layer.SourceSet(a)
		}
	}
	return l
}

// state is what changes, pushed to every tab.
type state struct {
	Seq     uint64 `json:"seq"`
	Layout  int    `json:"layout"`
	Running bool   `json:"running"`
	DelayMS int    `json:"delay_ms"`
	Epoch   int    `json:"epoch"` // the epoch under way
	Card    int    `json:"card"`  // cards of it presented
	Cards   int    `json:"cards"` // cards in an epoch
	Status  string `json:"status"`
	// Done: training has ended (the machine answers, Step and Run are
	// refused until Continue); Summary says how it stands; Trained: the
	// machine has learned something (epochs or pulses) a reset or a task
	// change would lose.
	Done        bool           `json:"done"`
	Summary     string         `json:"summary"`
	Trained     bool           `json:"trained"`
	Recipe      machine.Recipe `json:"recipe"`
	CanSave     bool           `json:"can_save"`
	Mistakes    int            `json:"mistakes"`
	Positions   []float32      `json:"positions"`
	Stuck       []int          `json:"stuck"`
	AtStop      int            `json:"at_stop"`
	Pulses      int64          `json:"pulses"`
	Saturations int64          `json:"saturations"`
	Seconds     float64        `json:"seconds"`
	Moved       []int          `json:"moved"`
	Retina      *retinaView    `json:"retina"`
	History     []epochView    `json:"history"`
	Message     string         `json:"message"`
}

type retinaView struct {
	Source    string    `json:"source"`
	Label     int       `json:"label"`
	Field     []float32 `json:"field"`
	S         []float32 `json:"s"`
	Active    []int     `json:"active"`
	Sums      []float32 `json:"sums"`
	Class     int       `json:"class"`
	ClassName string    `json:"class_name"`
	Pa        float64   `json:"pa"`
}

type epochView struct {
	Epoch    int      `json:"epoch"`
	Mistakes int      `json:"mistakes"`
	Pr       float64  `json:"p_r"`
	Pg       *float64 `json:"p_g,omitempty"`
	// Clusters, for an epoch of spontaneous learning, says how the
	// responses split the cards after it; the panel then shows it, not
	// mistakes, P_r and P_g, which count a response as the class of its
	// number.
	Clusters *epochClusters `json:"clusters,omitempty"`
}

// epochClusters is how a spontaneous run's responses split the training
// and the held-out cards after an epoch, against the labels the machine
// never saw (machine.ClustersOf).
type epochClusters struct {
	Purity     float64  `json:"purity"`
	Chance     float64  `json:"chance"`
	Responses  int      `json:"responses"`
	Of         int      `json:"of"`
	Collapsed  bool     `json:"collapsed"`
	TestPurity *float64 `json:"test_purity,omitempty"`
	TestChance *float64 `json:"test_chance,omitempty"`
}

// recordClusters measures the responses' clusters after epoch, on the
// session's training and held-out cards.
func (s *Server) recordClusters(epoch int) {
	tr, te := s.sess.Train(), s.sess.Test()
	c := s.m.ClustersOf(tr.X, tr.Y)
	ec := &epochClusters{Purity: c.Purity, Chance: c.Chance, Responses: c.Responses, Of: len(c.Class), Collapsed: c.Collapsed}
	if te.Len() > 0 {
		tc := s.m.ClustersOf(te.X, te.Y)
		ec.TestPurity, ec.TestChance = &tc.Purity, &tc.Chance
	}
	if s.clusters == nil {
		s.clusters = map[int]*epochClusters{}
	}
	s.clusters[epoch] = ec
}

// keptClusters returns the clusters of the epochs that the machine next
// shares with old (a new mode or task on the same machine keeps its
// history; a reset or another machine does not).
func keptClusters(c map[int]*epochClusters, old, next *machine.Machine) map[int]*epochClusters {
	if old == nil || len(c) == 0 {
		return nil
	}
	kept := map[int]*epochClusters{}
	for e, v := range c {
		if e <= len(old.History) && e <= len(next.History) && sameEpoch(old.History[e-1], next.History[e-1]) {
			kept[e] = v
		}
	}
	return kept
}

// sameEpoch reports whether two records are of the same epoch of one
// training.
func sameEpoch(a, b machine.Epoch) bool {
	return a.Epoch == b.Epoch && a.Presentations == b.Presentations && a.Mistakes == b.Mistakes && a.Pr == b.Pr &&
		a.Seconds == b.Seconds && a.Pulses == b.Pulses && (a.Pg == nil) == (b.Pg == nil)
}

// status names how training stands: the session's status, or on a
// continued run "running" until the machine's rule is met again.
func (s *Server) status() string {
	if s.ended == "" {
		return s.sess.Status().String()
	}
	if s.until.Stop == machine.AllRecognized {
		return machine.Recognized.String()
	}
	return machine.Converged.String()
}

// recipe is the recipe the machine is trained by (a continued session's
// own runs to an epoch limit counted from where it continued).
func (s *Server) recipe() machine.Recipe {
	if s.until != nil {
		return *s.until
	}
	return s.sess.Recipe()
}

func (s *Server) stateJSON() []byte {
	m := s.m
	s.seq++
	st := state{
		Seq: s.seq, Layout: s.layout, Running: s.running, DelayMS: int(s.delay / time.Millisecond),
		Epoch: s.sess.EpochUnderWay(), Mistakes: s.sess.Mistakes(), Status: s.status(),
		Done: s.done(), Summary: s.summary(), Trained: len(m.History) > 0 || m.Bank.Pulses() > 0,
		Recipe: s.recipe(), CanSave: s.savePath != "",
		Pulses: m.Bank.Pulses(), Saturations: m.Bank.Saturations(), Seconds: m.Bank.Seconds(),
		Moved: s.moved, Message: s.message, Stuck: []int{},
	}
	st.Card, st.Cards = s.sess.Position()
	if st.Moved == nil {
		st.Moved = []int{}
	}
	st.Positions = make([]float32, m.Bank.Len())
	lim := m.Bank.Config().Limit
	for i := range st.Positions {
		p := m.Bank.Position(i)
		st.Positions[i] = float32(math.Round(p*1e5) / 1e5)
		if m.Bank.Stuck(i) {
			st.Stuck = append(st.Stuck, i)
		}
		if lim > 0 && math.Abs(p) >= lim {
			st.AtStop++
		}
	}
	for _, e := range m.History {
		st.History = append(st.History, epochView{e.Epoch, e.Mistakes, e.Pr, e.Pg, s.clusters[e.Epoch]})
	}
	if st.History == nil {
		st.History = []epochView{}
	}
	if c := s.cur; c != nil {
		rv := &retinaView{Source: c.source, Label: c.label, Class: s.resp.Class, Pa: s.resp.Pa(m), Active: s.resp.Active}
		if rv.Active == nil {
			rv.Active = []int{}
		}
		rv.ClassName = "no class"
		if s.resp.Class >= 0 && s.resp.Class < len(m.Classes) {
			rv.ClassName = m.Classes[s.resp.Class]
		}
		rv.Field = make([]float32, len(c.field))
		for i, v := range c.field {
			rv.Field[i] = float32(math.Round(float64(v)*100) / 100)
		}
		rv.S = make([]float32, len(s.resp.S))
		for i, v := range s.resp.S {
			rv.S[i] = float32(math.Round(v*100) / 100)
		}
		rv.Sums = make([]float32, len(s.resp.Sums))
		for i, v := range s.resp.Sums {
			rv.Sums[i] = float32(v)
		}
		st.Retina = rv
	}
	b, err := json.Marshal(st)
	if err != nil { // cannot happen: the state holds no NaN (positions are finite)
		panic(fmt.Sprintf("panel: encoding state: %v", err))
	}
	return b
}

func encodePNG(w io.Writer, img image.Image) error {
	return (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(w, img)
}
