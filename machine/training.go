package machine

import (
	"context"
	"errors"
	"fmt"
	"io"

	"mark1/associator"
	"mark1/images"
)

// A Training is a machine ready to be trained: the machine, the recipe
// it is trained by and its cards, read and checked (NewTraining,
// Machine.Resume). Session starts it.
type Training struct {
	Machine     *Machine
	Recipe      Recipe
	Train, Test *images.Dataset
}

// TrainOptions describe a new training run: a machine of Config (wired by
// Plugboard if it is not nil, whose A-units it then has), with the seeds
// Seeds, trained as Recipe says on the cards Data (drawn and split with
// Data.Seed).
type TrainOptions struct {
	Config    Config
	Plugboard *associator.Plugboard
	Seeds     Seeds
	Recipe    Recipe
	Data      images.Source
	// MaxBytes, if positive, bounds the machine and its cards fitted onto
	// the retina (Config.CheckData).
	MaxBytes int64
}

// Validate reports, before any data are read, a recipe out of range or
// one that cannot train a machine of o.Config (Recipe.Validate,
// Recipe.CheckMachine), as a *FieldError in the recipe's words.
func (o TrainOptions) Validate() error {
	if err := o.Recipe.Validate(); err != nil {
		return err
	}
	return o.Recipe.CheckMachine(o.Config)
}

// NewTraining reads the cards o.Data names, checks that the machine and
// its cards fit within o.MaxBytes, makes the machine and records in the
// recipe the data it trains on (Recipe.WithData), so that a resumed run
// can make them again.
func NewTraining(ctx context.Context, o TrainOptions) (*Training, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	cfg := o.Config
	if o.Plugboard != nil {
		cfg.Associator.Units = len(o.Plugboard.Units)
	}
	train, test, err := o.Data.LoadContext(ctx)
	if err != nil {
		return nil, err
	}
	if err := o.checkData(cfg, train, test); err != nil {
		return nil, err
	}
	m, err := New(cfg, train.Classes, o.Seeds, o.Plugboard)
	if err != nil {
		return nil, err
	}
	return &Training{Machine: m, Recipe: o.Recipe.WithData(o.Data, train, test), Train: train, Test: test}, nil
}

// checkData checks the machine of cfg and its cards against o.MaxBytes.
func (o TrainOptions) checkData(cfg Config, sets ...*images.Dataset) error {
	if o.MaxBytes <= 0 {
		return nil
	}
	return cfg.CheckData(o.MaxBytes, sets...)
}

// ErrNoRecipe is Resume's error for a machine file that does not record
// how it was trained.
var ErrNoRecipe = errors.New("the machine file does not record how it was trained (no recipe)")

// Resume returns m's training continued: its recipe and the cards it
// records, made again within lim (Recipe.LoadContext) and checked with
// the machine against lim.MaxBytes. name is the machine file, for errors.
// The recipe's epoch limit may be raised before the session starts.
func (m *Machine) Resume(ctx context.Context, name string, lim images.Limits) (*Training, error) {
	if m.Recipe == nil {
		return nil, fmt.Errorf("%s: %w, so its training cannot be continued", name, ErrNoRecipe)
	}
	train, test, err := m.Recipe.LoadContext(ctx, m.Classes, name, lim)
	if err != nil {
		return nil, err
	}
	if err := (TrainOptions{MaxBytes: lim.MaxBytes}).checkData(m.Config, train, test); err != nil {
		return nil, err
	}
	return &Training{Machine: m, Recipe: *m.Recipe, Train: train, Test: test}, nil
}

// Session fits the cards onto the machine's retina and starts the session
// (NewSessionContext), the recipe recorded in the machine. Training cards
// that light no photocell are refused with the Warning, named by the
// cards' name.
func (t *Training) Session(ctx context.Context) (*Session, error) {
	m := t.Machine
	tr, err := m.FieldsContext(ctx, t.Train)
	if err != nil {
		return nil, err
	}
	te, err := m.FieldsContext(ctx, t.Test)
	if err != nil {
		return nil, err
	}
	s, err := NewSessionContext(ctx, m, t.Recipe, tr, te)
	if err != nil {
		var dead Warning
		if errors.As(err, &dead) {
			return nil, fmt.Errorf("%s: %w", t.Train.Name, err)
		}
		return nil, err
	}
	r := t.Recipe
	m.Recipe = &r
	return s, nil
}

// WriteFinished says on w that the session of the machine file name has
// nothing left to do: how it ended, its epochs and its epoch limit.
func (s *Session) WriteFinished(w io.Writer, name string) error {
	m := s.m
	ended := fmt.Sprintf("%d mistakes in the last", m.History[len(m.History)-1].Mistakes)
	if s.recipe.Rule == Spontaneous {
		ended = "spontaneous learning, no labels"
	}
	_, err := fmt.Fprintf(w, "%s has finished training (%s): %d epochs (limit %d), %s; nothing to do.\n",
		name, s.Status(), len(m.History), s.recipe.MaxEpochs, ended)
	return err
}
