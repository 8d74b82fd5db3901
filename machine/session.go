package machine

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"mark1/images"
)

// Fields is a data set as the machine sees it: pictures fitted to the
// retina by its optics (Fit), with their labels.
type Fields struct {
	X [][]float32
	Y []int
}

// Len returns the number of fields.
func (f Fields) Len() int { return len(f.X) }

// FieldsContext is Fields stopped by ctx (FitContext).
func (m *Machine) FieldsContext(ctx context.Context, d *images.Dataset) (Fields, error) {
	x, err := m.FitContext(ctx, d)
	return Fields{X: x, Y: Labels(d)}, err
}

// Fields fits every sample of d to the retina (the optics, done once) and
// keeps the labels.
func (m *Machine) Fields(d *images.Dataset) Fields { return Fields{X: m.Fit(d), Y: Labels(d)} }

// Status says how a training session stands or how it ended.
type Status int

const (
	// Running: the session can go on.
	Running Status = iota
	// Converged: an epoch needed no correction (the NoMistakes rule).
	Converged
	// Recognized: after an epoch the machine recognized every training
	// card (the AllRecognized rule).
	Recognized
	// EpochLimitReached: the recipe's epoch limit is reached.
	EpochLimitReached
	// Cancelled: the context was cancelled in the middle of an epoch; the
	// epoch is incomplete and not recorded (Rollback undoes it).
	Cancelled
	// Stopped: a Recorder asked to stop, after the epoch it was told of.
	Stopped
)

func statusNames() []string {
	return []string{"running", "converged", "recognized", "epoch limit", "cancelled", "stopped"}
}

// String returns the status's short name.
func (s Status) String() string { return enumName(statusNames(), int(s)) }

// MarshalText writes the status's short name.
func (s Status) MarshalText() ([]byte, error) { return textOf(s.String(), int(s), statusNames()) }

// Done reports whether the status ends the session: anything but Running.
func (s Status) Done() bool { return s != Running }

// Converged reports whether the stopping rule was met (rather than a limit
// or an interruption).
func (s Status) Converged() bool { return s == Converged || s == Recognized }

// Recorder watches a session: Run tells it of every epoch it closes. If it
// returns an error, the run stops after that epoch (Status Stopped) and Run
// returns the error.
type Recorder interface {
	Record(e Epoch) error
}

// RecorderFunc adapts a function to a Recorder.
type RecorderFunc func(Epoch) error

// Record calls f(e).
func (f RecorderFunc) Record(e Epoch) error { return f(e) }

// ErrDone is returned by Step when the session has ended.
var ErrDone = errors.New("machine: training has ended")

// Presentation is what one Step did.
type Presentation struct {
	// Card is the index in the training fields of the card presented.
	Card int
	// Epoch is the epoch the card belongs to (1-based, counting the
	// machine's whole history).
	Epoch int
	// Mistake reports whether an R-unit answered wrongly (and so, under
	// error correction, its pots were corrected).
	Mistake bool
	// Closed reports whether this card ended its epoch; Record is then the
	// epoch's record, appended to the machine's history.
	Closed bool
	Record Epoch
}

// Session trains one machine by one recipe: the only place where cards are
// ordered, presented with the rule, epochs closed and the stopping rule
// applied. The CLI's train and train --resume, the web panel, ablate and
// compare all drive a Session.
//
// Each epoch presents every training card once, in an order drawn afresh
// from the machine's order seed and the epoch number (so a resumed run draws
// the same orders). After the last card the epoch is closed: P_r on the
// training fields and P_g on the held-out fields are measured with the
// weights frozen, the record is appended to the machine's history, and the
// stopping rule and the epoch limit are checked.
//
// On a machine whose retina has no reading noise (binary photocells), the
// session works out once, when it starts, which photocells each training
// and held-out card lights and which A-units it fires, and from then on
// presents a card by its R-unit sums and the motors alone; the answers, the
// pots and the streams of noise are exactly those of presenting the fitted
// field each time (Machine.Present). The retina and the plugboard must not
// change while a session uses them.
//
// A Session is not safe for concurrent use.
type Session struct {
	m           *Machine
	recipe      Recipe
	train, test Fields
	noise       *rand.Rand
	order       []int
	next        int // position in order of the next card
	mistakes    int // in the epoch under way
	status      Status
	snap        Snapshot  // as of the last closed epoch
	warnings    []Warning // found in the data when the session started
	// seenTrain and seenTest hold what the fixed parts make of each card
	// (nil when the retina has reading noise); see Session.
	seenTrain, seenTest *seen
}

// NewSession starts (or continues, if m has a history) training m by the
// recipe r on the fitted training and held-out fields. It returns an error
// for an invalid recipe or fields that do not fit the machine; a machine
// that has already met the stopping rule or the epoch limit gives a session
// that is already Done. Training data that light no photocell on any card
// are refused with a Warning (kind NoLight) as the error, saying why and
// what to do; lesser troubles are kept for Warnings.
func NewSession(m *Machine, r Recipe, train, test Fields) (*Session, error) {
	return NewSessionContext(context.Background(), m, r, train, test)
}

// NewSessionContext is NewSession stopped by ctx: its first look at every
// card (the cache of what the retina and the A-units make of them) returns
// ctx's error once ctx is cancelled.
func NewSessionContext(ctx context.Context, m *Machine, r Recipe, train, test Fields) (*Session, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	if err := r.CheckMachine(m.Config); err != nil {
		return nil, err
	}
	if train.Len() == 0 {
		return nil, fmt.Errorf("machine: no training cards")
	}
	for _, f := range []Fields{train, test} {
		if len(f.X) != len(f.Y) {
			return nil, fmt.Errorf("machine: %d fields but %d labels", len(f.X), len(f.Y))
		}
		for i, x := range f.X {
			if len(x) != m.Retina.Cells() {
				return nil, fmt.Errorf("machine: field %d has %d values; the retina has %d cells", i, len(x), m.Retina.Cells())
			}
			if c := f.Y[i]; c < 0 || c >= len(m.Classes) {
				return nil, fmt.Errorf("machine: field %d has label %d; the machine knows %d classes", i, c, len(m.Classes))
			}
		}
	}
	s := &Session{m: m, recipe: r.Defaults(), train: train, test: test, noise: m.TrainingNoise()}
	m.LearnSequence(train.X) // a four-layer machine's first phase; then the couplings are frozen
	if cacheable(m) {
		s.seenTrain, s.seenTest = see(ctx, m, train.X), see(ctx, m, test.X)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	s.warnings = lightWarnings(m, train, s.seenTrain)
	for _, w := range s.warnings {
		if w.Kind == NoLight {
			return nil, w
		}
	}
	s.order = make([]int, train.Len())
	s.snap = m.Snapshot()
	s.status = s.judge()
	s.shuffle()
	return s, nil
}

// Machine returns the machine being trained.
func (s *Session) Machine() *Machine { return s.m }

// Recipe returns the recipe, with its defaults filled in.
func (s *Session) Recipe() Recipe { return s.recipe }

// Train and Test return the fields the session trains and measures on.
func (s *Session) Train() Fields { return s.train }

// Test returns the held-out fields.
func (s *Session) Test() Fields { return s.test }

// Status returns how the session stands.
func (s *Session) Status() Status { return s.status }

// Done reports whether the session has ended.
func (s *Session) Done() bool { return s.status.Done() }

// EpochUnderWay returns the number of the epoch the next card belongs to.
func (s *Session) EpochUnderWay() int { return len(s.m.History) + 1 }

// Position returns how many cards of the epoch under way have been
// presented, and how many it has in all.
func (s *Session) Position() (presented, total int) { return s.next, len(s.order) }

// Mistakes returns the mistakes so far in the epoch under way.
func (s *Session) Mistakes() int { return s.mistakes }

// shuffle draws the order of the epoch under way: a permutation that
// depends only on the order seed and the epoch number.
func (s *Session) shuffle() {
	rng := rand.New(rand.NewPCG(s.m.Seeds.Order, uint64(s.EpochUnderWay())))
	for i := range s.order {
		s.order[i] = i
	}
	rng.Shuffle(len(s.order), func(i, j int) { s.order[i], s.order[j] = s.order[j], s.order[i] })
	s.next, s.mistakes = 0, 0
}

// NextCard returns the index of the training card the next Step presents.
func (s *Session) NextCard() int { return s.order[s.next] }

// Step presents the next training card with the recipe's rule, filling r
// (reuse one Response across steps), and closes the epoch if the card was
// its last. It returns ErrDone if the session has ended.
func (s *Session) Step(r *Response) (Presentation, error) {
	if s.status.Done() {
		return Presentation{}, ErrDone
	}
	i := s.order[s.next]
	p := Presentation{Card: i, Epoch: s.EpochUnderWay()}
	if s.seenTrain != nil {
		s.seenTrain.retina(r, i)
		s.seenTrain.active(r, i)
		s.m.respond(r)
	} else {
		s.m.Present(r, s.train.X[i], s.noise)
	}
	p.Mistake = s.correct(r, s.train.Y[i], s.recipe.Rule)
	if p.Mistake {
		s.mistakes++
	}
	s.next++
	if s.next == len(s.order) {
		p.Closed, p.Record = true, s.closeEpoch()
	}
	return p, nil
}

// Epoch presents the rest of the epoch under way and closes it. If ctx is
// cancelled first it stops after the card under way, with the epoch
// incomplete, Status Cancelled, and returns ctx.Err(); Rollback then goes
// back to the end of the last closed epoch.
func (s *Session) Epoch(ctx context.Context) (Epoch, error) {
	var r Response
	for {
		if err := ctx.Err(); err != nil {
			s.status = Cancelled
			return Epoch{}, err
		}
		p, err := s.Step(&r)
		if err != nil {
			return Epoch{}, err
		}
		if p.Closed {
			return p.Record, nil
		}
	}
}

// Run trains until the session is done: the stopping rule is met, the epoch
// limit is reached, ctx is cancelled (it returns ctx.Err()) or rec (if not
// nil) returns an error (it returns that error). rec is told of every
// epoch closed.
func (s *Session) Run(ctx context.Context, rec Recorder) (Status, error) {
	for !s.status.Done() {
		e, err := s.Epoch(ctx)
		if err != nil {
			return s.status, err
		}
		if rec != nil {
			if err := rec.Record(e); err != nil {
				if !s.status.Done() {
					s.status = Stopped
				}
				return s.status, err
			}
		}
	}
	return s.status, nil
}

// Rollback undoes the epoch under way: the machine goes back to the end of
// the last closed epoch (pots, motor and reading-noise streams, clock,
// history) and the session to that epoch's start.
func (s *Session) Rollback() error {
	if err := s.m.Rollback(s.snap); err != nil {
		return err
	}
	s.noise = s.m.TrainingNoise()
	s.status = s.judge()
	s.shuffle()
	return nil
}

// Force plays the 1960 trainer: it presents field with the response of
// class forced, whatever the machine answers, so that the motors reinforce
// the active A-units' pots toward that class on every R-unit. The
// presentation is not part of any epoch. It fills r with the machine's
// response before the reinforcement.
func (s *Session) Force(r *Response, field []float32, class int) {
	if class < 0 || class >= len(s.m.Classes) {
		panic(fmt.Sprintf("machine: forced class %d out of range [0, %d)", class, len(s.m.Classes)))
	}
	s.m.Present(r, field, s.noise)
	s.correct(r, class, Forced)
}

// accuracy measures the fraction of f the machine classifies as labelled,
// with the weights frozen: by Machine.Accuracy, or from what the cards were
// seen to fire if c is not nil (the same answers, without the retina and
// the A-units).
func (s *Session) accuracy(f Fields, c *seen) float64 {
	if c == nil {
		return s.m.Accuracy(f.X, f.Y)
	}
	return fractionRight(f.Y, func(r *Response, i int) {
		c.active(r, i)
		s.m.respond(r)
	})
}

// closeEpoch records the finished epoch in the machine's history, judges
// the session and draws the next epoch's order.
func (s *Session) closeEpoch() Epoch {
	m := s.m
	rec := Epoch{
		Epoch:         s.EpochUnderWay(),
		Presentations: len(s.order),
		Mistakes:      s.mistakes,
		Pr:            s.accuracy(s.train, s.seenTrain),
		Seconds:       m.Bank.Seconds(),
		Pulses:        m.Bank.Pulses(),
		Saturations:   m.Bank.Saturations(),
	}
	if n := len(m.History); n > 0 {
		rec.Presentations += m.History[n-1].Presentations
	}
	if len(s.test.X) > 0 {
		pg := s.accuracy(s.test, s.seenTest)
		rec.Pg = &pg
	}
	m.History = append(m.History, rec)
	s.snap = m.Snapshot()
	s.status = s.judge()
	s.shuffle()
	return rec
}

// judge applies the stopping rule and the epoch limit to the history.
func (s *Session) judge() Status {
	h := s.m.History
	if len(h) == 0 {
		return Running
	}
	last := h[len(h)-1]
	switch {
	case s.recipe.Stop == NoMistakes && last.Mistakes == 0:
		return Converged
	case s.recipe.Stop == AllRecognized && last.Pr == 1:
		return Recognized
	case len(h) >= s.recipe.MaxEpochs:
		return EpochLimitReached
	}
	return Running
}

// Summary says in one sentence how the session stands, for people.
func (s *Session) Summary() string {
	h := s.m.History
	if len(h) == 0 {
		return "not trained yet"
	}
	last := h[len(h)-1]
	switch s.status {
	case Converged:
		return fmt.Sprintf("converged: epoch %d needed no correction", last.Epoch)
	case Recognized:
		return fmt.Sprintf("converged: every training card recognized after epoch %d", last.Epoch)
	case EpochLimitReached:
		if s.recipe.Rule == Spontaneous { // no labels: no mistakes to count
			return fmt.Sprintf("ran to the epoch limit (%d): spontaneous learning has no labels to stop on", s.recipe.MaxEpochs)
		}
		return fmt.Sprintf("stopped at the epoch limit (%d) with %d mistakes in the last epoch; P_r = %.1f%%",
			s.recipe.MaxEpochs, last.Mistakes, 100*last.Pr)
	case Cancelled:
		return fmt.Sprintf("interrupted in epoch %d; the epoch is incomplete and was not recorded", last.Epoch+1)
	case Stopped:
		return fmt.Sprintf("stopped after epoch %d", last.Epoch)
	}
	return fmt.Sprintf("training: %d epochs so far, %d mistakes in the last", last.Epoch, last.Mistakes)
}

// correct judges the machine's response r to a card of class label and, as
// the rule says, runs the motors. It reports whether the machine answered
// wrongly: for error correction and bivalent forced training, whether any
// R-unit did; for 1958's rules on mutually exclusive responses, whether
// the response was not the card's class (the spontaneous rule does not
// learn from the label: it is only counted). The pots then decay as the
// recipe says, and the clock advances by the presentation time and by the
// time the motors ran.
func (s *Session) correct(r *Response, label int, rule Rule) bool {
	m := s.m
	var mistake bool
	if rule.Needs1958Responses() {
		mistake = s.correct1958(r, label, rule)
	} else {
		for u, sum := range r.Sums {
			want := m.Layer.Want(u, label)
			// An R-unit is on for a positive sum and off for a negative one; a
			// zero sum lights neither lamp and counts as wrong, as y·(w·x) ≤ 0
			// does for the textbook perceptron.
			wrong := (want && sum <= 0) || (!want && sum >= 0)
			mistake = mistake || wrong
			if !wrong && rule == ErrorCorrection {
				continue
			}
			n := s.recipe.Pulses
			if !want {
				n = -n
			}
			s.reinforce(r.Active, u, float64(n))
		}
	}
	s.decay()
	m.Bank.Settle()
	m.Bank.Advance(m.Config.PresentSeconds)
	return mistake
}

// correct1958 applies a rule on mutually exclusive responses (one R-unit
// per class) and reports whether the machine's response was not label.
func (s *Session) correct1958(r *Response, label int, rule Rule) bool {
	n := float64(s.recipe.Pulses)
	switch rule {
	case ForcedMonovalent:
		// The trainer forces the response: the machine's own answer is
		// only judged, and no tie needs breaking.
		s.monovalent(r.Active, label, n)
		return r.Class != label
	case TrialAndError:
		u := s.response(r)
		if u == label {
			s.reinforce(r.Active, u, n)
		} else {
			s.reinforce(r.Active, u, -n)
		}
		return u != label
	default: // Spontaneous
		u := s.response(r)
		s.monovalent(r.Active, u, n)
		return u != label
	}
}

// response returns the R-unit that answers, one per class: the largest
// signal, or, when several share it, one of them drawn from the training
// noise stream (1958's responses have no neutral state: "either by chance
// or because of forcing").
func (s *Session) response(r *Response) int {
	best, ties := 0, 1
	for u := 1; u < len(r.Sums); u++ {
		switch {
		case r.Sums[u] > r.Sums[best]:
			best, ties = u, 1
		case r.Sums[u] == r.Sums[best]:
			ties++
		}
	}
	if ties == 1 {
		return best
	}
	k := s.noise.IntN(ties)
	for u, v := range r.Sums {
		if v == r.Sums[best] {
			if k == 0 {
				return u
			}
			k--
		}
	}
	return best
}

// monovalent reinforces response u by n steps: its source-set's active
// A-units gain, and nothing is punished. With R→A feedback (Recipe.Feedback
// = F) every active A-unit gains in proportion to its activity: n steps, F·n
// in u's set, whose activity the responding R-unit multiplies by F (RT58).
func (s *Session) monovalent(active []int, u int, n float64) {
	f := s.recipe.Feedback
	if f == 0 {
		s.reinforce(active, u, n)
		return
	}
	for v := range s.m.Layer.Used() {
		g := n
		if v == u {
			g = f * n
		}
		s.reinforce(active, v, g)
	}
}

// reinforce moves the pots of R-unit u's active A-units by n steps (and
// its bias pot, if any) by the value system: under α each active pot by n;
// under β the set's n steps shared equally among its active pots; under γ
// each active pot by n while the inactive A-units of its source-set pay for
// the gain, so the set's total value is unchanged. Whole steps are motor
// pulses; fractions are shorter runs.
func (s *Session) reinforce(active []int, u int, n float64) {
	bank, layer := s.m.Bank, s.m.Layer
	move := func(p int, steps float64) {
		if k := int(steps); float64(k) == steps {
			bank.Pulse(p, k)
		} else {
			bank.Move(p, steps*bank.Config().StepSize())
		}
	}
	inSet := 0
	for _, a := range active {
		if layer.Pot(a, u) >= 0 {
			inSet++
		}
	}
	each := n
	if s.recipe.Values == Beta && inSet > 0 {
		each = n / float64(inSet)
	}
	for _, a := range active {
		if p := layer.Pot(a, u); p >= 0 {
			move(p, each)
		}
	}
	if b := layer.BiasPot(u); b >= 0 {
		move(b, n)
	}
	if s.recipe.Values != Gamma || inSet == 0 {
		return
	}
	inputs := layer.Inputs(u)
	inactive := len(inputs) - inSet
	if inactive == 0 {
		return
	}
	share := -n * bank.Config().StepSize() * float64(inSet) / float64(inactive)
	ai := 0
	for _, in := range inputs {
		for ai < len(active) && active[ai] < in.A {
			ai++
		}
		if ai < len(active) && active[ai] == in.A {
			continue
		}
		bank.Move(in.Pot, share)
	}
}

// decay turns every pot back toward zero by the recipe's fraction of its
// position (RT58's Class C′), as its motor would: a run of that length.
func (s *Session) decay() {
	d := s.recipe.Decay
	if d == 0 {
		return
	}
	bank := s.m.Bank
	for i := range bank.Len() {
		if p := bank.Position(i); p != 0 {
			bank.Move(i, -d*p)
		}
	}
}
