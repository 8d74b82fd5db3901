package lab

import (
	"context"
	"strings"

	"mark1/dataset"
	"mark1/internal/base/param"
)

// A Job is a lab run as a front end orders it by name (mark1 lab's flags,
// through JobOptions): the data, a built-in example or a data file of 2 to
// 4 classes, and the picture drawn of the run. The learner and its options
// are the registry's (learning/learners), set apart as a Setup.
type Job struct {
	// Example names a built-in example (Names); Data, a data file read
	// with Read (ReadData), replaces it.
	Example string
	Data    string
	Read    dataset.Options
	Picture Picture
}

// JobOptions returns the settings of a Job that a front end offers by
// name, with their defaults: the example, the data file, its format and
// label column, the view and the step drawn, and an animation's delay and
// largest number of frames (Picture, whose Validate checks them).
func JobOptions() []param.Option[Job] {
	return []param.Option[Job]{
		param.Setting("example", "example", "notes-004", "the example data set", param.To(func(j *Job, v string) { j.Example = v })),
		param.Setting("data", "data", "", "your own data instead of an example: libsvm, CSV or \"x1 x2 ... label\" text, any dimension, 2 to 4 classes\n(more than two: one-vs-rest and one-vs-one runs, drawn by {view} classes; pictures need 2 features)",
			param.To(func(j *Job, v string) { j.Data = v })),
		param.Setting("format", "format", "auto", "{data} format: auto, libsvm, csv or text",
			func(j *Job, v string) (err error) { j.Read.Format, err = dataset.ParseFormat(v); return err }),
		param.Setting("label-column", "label_column", "", "{data} CSV: the label column, by name or 1-based position (default: label/class/target/y, else the last)",
			param.To(func(j *Job, v string) { j.Read.LabelColumn = v })),
		param.Setting("view", "view", "", "picture: "+strings.Join(Views(), ", ")+" (default notes, or regions for the kernel perceptron and the SVM;\nsgd draws notes, x, risk and losses; data of 3 or 4 classes draw classes)",
			param.To(func(j *Job, v string) { j.Picture.View = v })),
		param.Setting("step", "step", -1, "the step to draw: 0 is the start, -1 the end", param.To(func(j *Job, v int) { j.Picture.Step = v })),
		param.Setting("delay", "delay", 80, "time each step is shown, in hundredths of a second", param.To(func(j *Job, v int) { j.Picture.Delay = v })),
		param.Setting("max-frames", "max-frames", 200, "refuse runs with more steps than this", param.To(func(j *Job, v int) { j.Picture.MaxFrames = v })),
	}
}

// Load returns the job's data: the data file when Data names one
// (ReadData), else the built-in example (Find).
func (j Job) Load(ctx context.Context) (Data, error) {
	if j.Data != "" {
		return ReadData(ctx, j.Data, j.Read)
	}
	e, err := Find(j.Example)
	return Data{Example: e}, err
}
