package lab

import (
	"context"
	"fmt"
	"io"
	"strings"

	"mark1/dataset"
)

// Data are a data set read for the lab (ReadData): an Example of two
// classes, or a Multi of three or four.
type Data struct {
	Example Example
	Multi   *Multi // nil for two classes
}

// String says what the data hold: "N points, D features; what they teach".
func (d Data) String() string {
	if m := d.Multi; m != nil {
		return fmt.Sprintf("%d points, %d features; %s", len(m.X), len(m.X[0]), m.Teaches)
	}
	return fmt.Sprintf("%d points, %d features; %s", len(d.Example.X), d.Example.Dim(), d.Example.Teaches)
}

// ReadData reads the data file path (dataset.ReadFileContext with o, at
// most MaxDataRows rows) as an Example of two classes (FromDataset), or a
// Multi of more (MultiFromDataset).
func ReadData(ctx context.Context, path string, o dataset.Options) (Data, error) {
	o.MaxRows = MaxDataRows + 1
	s, err := dataset.ReadFileContext(ctx, path, o)
	if err != nil {
		return Data{}, err
	}
	if len(s.Classes) > 2 {
		m, err := MultiFromDataset(s)
		return Data{Multi: &m}, err
	}
	e, err := FromDataset(s)
	return Data{Example: e}, err
}

// WriteExamples lists the built-in examples (Examples), a line each: the
// name, the points and features, and what it teaches.
func WriteExamples(w io.Writer) error {
	b := &strings.Builder{}
	for _, e := range Examples() {
		fmt.Fprintf(b, "%-11s %d points, %d features: %s\n", e.Name, len(e.X), e.Dim(), e.Teaches)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// DefaultView is the view a run is drawn in when none is asked for: the
// notes' side by side, or the regions of a kernel learner (it has no line
// in x-space).
func (r *Run) DefaultView() string {
	if r.Perceptron == nil && r.GD == nil && r.Loss == nil && r.ALayer == nil {
		return "regions"
	}
	return "notes"
}

// DefaultView is the view a run of more than two classes is drawn in when
// none is asked for: the classes.
func (r *MultiRun) DefaultView() string { return "classes" }
