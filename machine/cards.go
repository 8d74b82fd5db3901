package machine

import (
	"context"
	"errors"
	"fmt"

	"mark1/images"
)

// ErrNoRecipe says that a machine file does not record the data it was
// trained on (it has no recipe), so its cards cannot be made again.
var ErrNoRecipe = errors.New("the machine file does not record its data (no recipe)")

// Relabel maps the data sets' classes onto m's by name
// (images.Dataset.Relabel), refusing a class m was not trained on.
func (m *Machine) Relabel(sets ...*images.Dataset) error {
	for _, d := range sets {
		if err := d.Relabel(m.Classes); err != nil {
			return fmt.Errorf("%w: not one the machine was trained on", err)
		}
	}
	return nil
}

// Cards returns the training and held-out cards a loaded machine is looked
// at with: src's, labelled as m's classes (Relabel), when src is not nil,
// else those m's recipe records, made again within lim (Recipe.LoadContext;
// ErrNoRecipe without one). path names m's file in errors.
func (m *Machine) Cards(ctx context.Context, src *images.Source, path string, lim images.Limits) (train, test *images.Dataset, err error) {
	if src != nil {
		if train, test, err = src.LoadContext(ctx); err == nil {
			err = m.Relabel(train, test)
		}
		return train, test, err
	}
	if m.Recipe == nil {
		return nil, nil, fmt.Errorf("%s: %w", path, ErrNoRecipe)
	}
	return m.Recipe.LoadContext(ctx, m.Classes, path, lim)
}
