package machine

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"mark1/dataset"
	"mark1/images"
	"mark1/response"
)

// Recipe is how a machine is trained: its data and how they were split, the
// rule, the value system, the pulses per correction, the epoch limit and the
// stopping rule. It is saved in the machine file, so that a resumed run, the
// web panel, ablate and compare train the machine exactly as it was trained.
// The zero value of each field means its documented default; Defaults fills
// them in.
type Recipe struct {
	// Data says how the training and held-out cards are made.
	Data images.Source `json:"data"`
	// Rule is error correction (the default), forced training (bivalent or
	// monovalent), trial and error, or spontaneous learning.
	Rule Rule `json:"rule"`
	// Values is the value system: α (the default), β or γ.
	Values ValueSystem `json:"values"`
	// Decay is the fraction of its value every pot loses after each
	// presentation (RT58's Class C′: values decay at a rate proportional
	// to their magnitude); the motors turn each pot back toward zero by
	// that fraction of its position. 0 (the default) is no decay: Class C.
	Decay float64 `json:"decay,omitempty"`
	// Feedback is RT58's R→A feedback for the monovalent rules
	// (forced-monovalent, spontaneous): the responding R-unit multiplies the
	// activity of its own source-set by Feedback, and every active A-unit
	// gains value in proportion to its activity — Pulses steps, or
	// Feedback × Pulses in the responding set (RT58's example: doubled,
	// Feedback = 2). 0 (the default) is no feedback: only the responding
	// set gains, 1958's rule (a).
	Feedback float64 `json:"feedback,omitempty"`
	// Pulses is the motor pulses per correction; 0 means 1.
	Pulses int `json:"pulses"`
	// MaxEpochs bounds training, counting every epoch the machine has had;
	// 0 means DefaultMaxEpochs.
	MaxEpochs int `json:"max_epochs"`
	// Stop ends training early; StopAuto is the rule's own stopping rule.
	Stop Stop `json:"stop"`
	// TrainSize and TestSize are the numbers of cards the data gave when
	// training began (0 if unknown); making the data again must give as many.
	TrainSize int `json:"train_size,omitempty"`
	TestSize  int `json:"test_size,omitempty"`
	// TrainSum and TestSum are the fingerprints of the training and
	// held-out cards when training began (images.Dataset.Fingerprint;
	// empty if unknown): making the data again must give the same cards,
	// not only as many.
	TrainSum string `json:"train_sha256,omitempty"`
	TestSum  string `json:"test_sha256,omitempty"`
	// TrainCards and TestCards hold a short digest of each training and
	// held-out card read from files when training began
	// (images.Dataset.CardDigests, 4 bytes a card, base64 in the file;
	// empty if unknown, for a built-in task, or over
	// images.MaxCardDigests cards): when the fingerprint differs, the
	// first card that differs is named.
	TrainCards []byte `json:"train_cards,omitempty"`
	TestCards  []byte `json:"test_cards,omitempty"`
}

// DefaultMaxEpochs is the epoch limit of a Recipe whose MaxEpochs is 0.
const DefaultMaxEpochs = 50

// Defaults returns the recipe with every zero field set to its default.
func (r Recipe) Defaults() Recipe {
	if r.Pulses == 0 {
		r.Pulses = 1
	}
	if r.MaxEpochs == 0 {
		r.MaxEpochs = DefaultMaxEpochs
	}
	if r.Stop == StopAuto {
		r.Stop = NoMistakes
		switch r.Rule {
		case Forced, ForcedMonovalent:
			r.Stop = AllRecognized
		case Spontaneous:
			r.Stop = EpochLimit // it has no labels to judge by
		}
	}
	return r
}

// MaxDecay bounds Recipe.Decay: a pot may lose at most half its value
// after one presentation.
const MaxDecay = 0.5

// MaxFeedback bounds Recipe.Feedback.
const MaxFeedback = 1000

// MaxEpochLimit bounds a recipe's epoch limit, and so every count of
// epochs (checkpoints, retraining, a recording's frames).
const MaxEpochLimit = 1_000_000

// Validate reports a field out of range as a *FieldError naming the
// field as the machine file does ("pulses", "decay"; the data's under
// "data": "data.n").
func (r Recipe) Validate() error {
	switch {
	case r.Rule < ErrorCorrection || r.Rule > Spontaneous:
		return fieldErr("rule", int(r.Rule), "a training rule: %s", orList(ruleNames()))
	case r.Values < Alpha || r.Values > Beta:
		return fieldErr("values", int(r.Values), "a value system: %s", orList(valueNames()))
	case r.Pulses < 0 || r.Pulses > 1000:
		return fieldErr("pulses", r.Pulses, "[1, 1000] motor pulses per correction")
	case r.MaxEpochs < 0 || r.MaxEpochs > MaxEpochLimit:
		return fieldErr("max_epochs", r.MaxEpochs, "[1, %d]", MaxEpochLimit)
	case r.Stop < StopAuto || r.Stop > EpochLimit:
		return fieldErr("stop", int(r.Stop), "a stopping rule: %s", orList(stopNames()))
	case r.TrainSize < 0:
		return fieldErr("train_size", r.TrainSize, "a count ≥ 0")
	case r.TestSize < 0:
		return fieldErr("test_size", r.TestSize, "a count ≥ 0")
	case !validSum(r.TrainSum):
		return fieldErr("train_sha256", r.TrainSum, "a fingerprint: sha256: and 64 hex digits")
	case !validSum(r.TestSum):
		return fieldErr("test_sha256", r.TestSum, "a fingerprint: sha256: and 64 hex digits")
	case !validDigests(r.TrainCards, r.TrainSize):
		return fieldErr("train_cards", len(r.TrainCards), "%d bytes of card digests (%d a card) for train_size %d", r.TrainSize*images.CardDigestBytes, images.CardDigestBytes, r.TrainSize)
	case !validDigests(r.TestCards, r.TestSize):
		return fieldErr("test_cards", len(r.TestCards), "%d bytes of card digests (%d a card) for test_size %d", r.TestSize*images.CardDigestBytes, images.CardDigestBytes, r.TestSize)
	case !(r.Decay >= 0 && r.Decay <= MaxDecay):
		return fieldErr("decay", r.Decay, "[0, %g], the fraction of its value a pot loses after each presentation", MaxDecay)
	case !(r.Feedback == 0 || r.Feedback >= 1 && r.Feedback <= MaxFeedback):
		return fieldErr("feedback", r.Feedback, "0 (none) or [1, %d], the factor by which the responding R-unit multiplies its source-set's activity", MaxFeedback)
	case r.Feedback != 0 && r.Rule != ForcedMonovalent && r.Rule != Spontaneous:
		return &FieldError{Field: "feedback", Value: r.Feedback, With: []string{"rule"},
			Range: fmt.Sprintf("0 with the rule %s: R→A feedback carries the monovalent rules only (forced-monovalent, spontaneous)", r.Rule)}
	case r.Rule == Spontaneous && r.Stop != StopAuto && r.Stop != EpochLimit:
		return &FieldError{Field: "stop", Value: r.Stop, With: []string{"rule"},
			Range: "the epoch limit: spontaneous learning uses no labels, so it can stop only there"}
	}
	if err := r.Data.Validate(); err != nil {
		return nested("data", err, nil)
	}
	return nil
}

// CheckMachine reports a *FieldError if the recipe cannot train a machine
// of configuration c: 1958's rules on mutually exclusive responses
// (forced-monovalent, trial-and-error, spontaneous) need one R-unit per
// class, each a response with its source-set.
func (r Recipe) CheckMachine(c Config) error {
	if r.Rule.Needs1958Responses() && c.Response.Code != response.OnePerClass {
		return fieldErr("rule", r.Rule, "a rule for the machine's %s code (error-correction or forced): %s needs mutually exclusive responses, one R-unit per class (code one-per-class)", c.Response.Code, r.Rule)
	}
	return nil
}

// checkClasses reports an error if the recipe trains on a built-in task
// whose classes are not classes, in that order: a machine file's class
// names must be those of the task it records.
func (r Recipe) checkClasses(classes []string) error {
	if r.Data.Path != "" {
		return nil // the user's data: checked when they are read again (Load)
	}
	name := r.Data.Task
	if name == "" {
		name = images.DefaultTask
	}
	t, ok := images.LookupTask(name)
	if !ok {
		return fmt.Errorf("the recipe names the task %q, which mark1 does not know", name)
	}
	if !slices.Equal(t.Classes, classes) {
		return fmt.Errorf("the classes %q are not those of the task %s it was trained on, %q", classes, name, t.Classes)
	}
	return nil
}

// WithData returns r recording the data it trains on, so that Load can
// make them again and check them: the source, the numbers of cards, their
// fingerprints and, for cards read from files, each card's digest.
func (r Recipe) WithData(src images.Source, train, test *images.Dataset) Recipe {
	r.Data, r.TrainSize, r.TestSize = src, train.Len(), test.Len()
	r.TrainSum, r.TestSum = train.Fingerprint(), test.Fingerprint()
	r.TrainCards, r.TestCards = nil, nil
	if src.Path != "" {
		r.TrainCards, r.TestCards = train.CardDigests(), test.CardDigests()
	}
	return r
}

// Load makes the recipe's data again and checks that it is what the
// recipe recorded: the machine's classes, and as many cards as before.
// name is the machine file, for errors. lim bounds the data whatever the
// recipe records (its limits count only where they are tighter,
// images.Source.Within), so a machine file cannot ask for more memory
// than the program reading it allows.
func (r Recipe) Load(classes []string, name string, lim images.Limits) (train, test *images.Dataset, err error) {
	return r.LoadContext(context.Background(), classes, name, lim)
}

// LoadContext is Load stopped by ctx while it reads the data
// (images.Source.LoadContext); the error then wraps ctx.Err().
func (r Recipe) LoadContext(ctx context.Context, classes []string, name string, lim images.Limits) (train, test *images.Dataset, err error) {
	train, test, err = r.Data.Within(lim).LoadContext(ctx)
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return nil, nil, fmt.Errorf("%s: making its training data again: %w", name, err)
	}
	if err != nil && r.Data.Path != "" {
		// The paths come from the machine file, not from the user: say what
		// went wrong without quoting what the file holds.
		return nil, nil, fmt.Errorf("%s: its recorded data %s: %w", name, r.Data.FailedPath(err), recordedError(err))
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%s: making its training data again (%s): %w", name, r.Data, err)
	}
	if err := images.SameClasses(&images.Dataset{Name: name, Classes: classes}, train); err != nil {
		return nil, nil, fmt.Errorf("%s: the data changed since training: %w", name, err)
	}
	if r.TrainSize > 0 && (train.Len() != r.TrainSize || test.Len() != r.TestSize) {
		return nil, nil, fmt.Errorf("%s: the data changed since training: %d training and %d held-out cards then, %d and %d now",
			name, r.TrainSize, r.TestSize, train.Len(), test.Len())
	}
	for _, part := range []struct {
		what, sum string
		cards     []byte
		d         *images.Dataset
		from      string
	}{{"training", r.TrainSum, r.TrainCards, train, r.Data.Path}, {"held-out", r.TestSum, r.TestCards, test, r.Data.TestPath}} {
		if part.sum == "" || part.d.Fingerprint() == part.sum {
			continue
		}
		if i := part.d.FirstDifferent(part.cards); i >= 0 {
			return nil, nil, fmt.Errorf("%s: the data changed since training: %s, %s card %d of %d, is not the one trained on (fingerprint %s then, %s now)",
				name, part.d.Samples[i].Source, part.what, i+1, part.d.Len(), short(part.sum), short(part.d.Fingerprint()))
		}
		from := part.from
		switch {
		case from == "" && r.Data.Path != "": // held out from the training data
			from = r.Data.Path
		case from == "":
			from = r.Data.String()
		}
		return nil, nil, fmt.Errorf("%s: the data changed since training: the %s cards from %s are as many as then but not the same (fingerprint %s then, %s now)",
			name, part.what, from, short(part.sum), short(part.d.Fingerprint()))
	}
	return train, test, nil
}

// validSum reports whether s is empty or "sha256:" and 64 hex digits.
func validSum(s string) bool {
	if s == "" {
		return true
	}
	h, ok := strings.CutPrefix(s, "sha256:")
	if !ok || len(h) != 64 {
		return false
	}
	_, err := hex.DecodeString(h)
	return err == nil
}

// validDigests reports whether b is empty or holds a card digest for each
// of n cards.
func validDigests(b []byte, n int) bool {
	return len(b) == 0 || len(b) == n*images.CardDigestBytes
}

// short abbreviates a fingerprint for messages.
func short(sum string) string { return sum[:min(len(sum), 7+12)] }

// A RecordedDataError says why the data at a path a machine file records
// could not be read, by the kind of failure alone: an error message of the
// data readers may quote a line of the file, and a machine file could name
// any file on the computer (/etc/shadow). Kind (fs.ErrNotExist,
// fs.ErrPermission, dataset.ErrTooLarge, images.ErrUnsupported,
// images.ErrFormat, or the system's error) is kept for errors.Is; a front
// end says how to see the details (name the data yourself) in its own
// words.
type RecordedDataError struct {
	Kind error
	What string // the kind, for people
}

// Error returns what went wrong, saying that the details are withheld.
func (e *RecordedDataError) Error() string {
	s := e.What + " (details withheld, as the path comes from the machine file)"
	if k := e.Kind.Error(); k != e.What {
		s += ": " + k
	}
	return s
}

// Unwrap returns the kind.
func (e *RecordedDataError) Unwrap() error { return e.Kind }

// recordedError describes err, from loading data at a path recorded in a
// machine file, as a RecordedDataError.
func recordedError(err error) error {
	var pe *fs.PathError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &RecordedDataError{fs.ErrNotExist, "not found"}
	case errors.Is(err, fs.ErrPermission):
		return &RecordedDataError{fs.ErrPermission, "permission denied"}
	case errors.Is(err, dataset.ErrTooLarge):
		return &RecordedDataError{dataset.ErrTooLarge, "larger than the data limits (the memory budget and the largest picture)"}
	case errors.Is(err, images.ErrUnsupported):
		return &RecordedDataError{images.ErrUnsupported, "a kind of data mark1 does not read"}
	case errors.As(err, &pe):
		return &RecordedDataError{pe.Err, pe.Err.Error()}
	}
	return &RecordedDataError{images.ErrFormat, "not a data set mark1 reads (a folder of class folders of pictures, IDX or libsvm)"}
}
