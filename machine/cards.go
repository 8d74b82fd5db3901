package machine

import (
	"context"
	"fmt"

	"mark1/images"
)

// noDataError is Cards' error for a machine without a recipe: ErrNoRecipe
// (errors.Is), said of the cards that cannot be made again.
type noDataError struct{}

func (noDataError) Error() string        { return "the machine file does not record its data (no recipe)" }
func (noDataError) Is(target error) bool { return target == ErrNoRecipe }

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
// an error that is ErrNoRecipe without one). path names m's file in errors.
func (m *Machine) Cards(ctx context.Context, src *images.Source, path string, lim images.Limits) (train, test *images.Dataset, err error) {
	if src != nil {
		if train, test, err = src.LoadContext(ctx); err == nil {
			err = m.Relabel(train, test)
		}
		return train, test, err
	}
	if m.Recipe == nil {
		return nil, nil, fmt.Errorf("%s: %w", path, noDataError{})
	}
	return m.Recipe.LoadContext(ctx, m.Classes, path, lim)
}
