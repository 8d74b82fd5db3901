package images

import (
	"mark1/internal/base/param"

	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path/filepath"
	"slices"
	"strings"
)

// DefaultTask is the built-in task used when a Source names neither a task
// nor a path.
const DefaultTask = "shapes"

// Source says how a data set is made, so that it can be made again exactly:
// a built-in task drawn with a seed, or the user's files; and how the
// held-out part is chosen. It is saved with a trained machine (in its
// recipe), so that a resumed run, ablate and the web panel see the same
// cards. The zero value is the default task with the default sizes, 20%
// held out, seed 0.
type Source struct {
	// Task names a built-in task (see Tasks); empty with no Path means
	// DefaultTask.
	Task string `json:"task,omitempty"`
	// PerClass is the number of cards per class of a task; 0 means 50.
	PerClass int `json:"n,omitempty"`
	// CardSize is the side in pixels of a task's cards; 0 means 20.
	CardSize int `json:"card_size,omitempty"`
	// Path is the user's data (see Load); it excludes Task.
	Path string `json:"path,omitempty"`
	// TestPath is held-out data in the same forms as Path; when empty,
	// TestSplit of the data is held out.
	TestPath string `json:"test_path,omitempty"`
	// TestSplit is the fraction of the data held out (seeded, stratified)
	// when there is no TestPath, in [0, 1).
	TestSplit float64 `json:"test_split"`
	// Seed draws a task's cards and the split.
	Seed uint64 `json:"seed"`
	// MaxPixels bounds a picture read from Path or TestPath; 0 means the
	// default of Limits.
	MaxPixels int `json:"max_pixels,omitempty"`
	// MaxBytes bounds the memory of the data read from Path or TestPath;
	// 0 means the default of Limits.
	MaxBytes int64 `json:"max_bytes,omitempty"`
}

// Defaults of Source.
const (
	DefaultPerClass = 50
	DefaultCardSize = 20
)

// TaskName returns the task the source draws, or "" if it reads files.
func (s Source) TaskName() string {
	switch {
	case s.Path != "":
		return ""
	case s.Task == "":
		return DefaultTask
	}
	return s.Task
}

func (s Source) perClass() int {
	if s.PerClass == 0 {
		return DefaultPerClass
	}
	return s.PerClass
}

func (s Source) cardSize() int {
	if s.CardSize == 0 {
		return DefaultCardSize
	}
	return s.CardSize
}

// Limits returns the limits pictures read from files are held to.
func (s Source) Limits() Limits { return Limits{MaxPixels: s.MaxPixels, MaxBytes: s.MaxBytes} }

// FailedPath names, for an error of Load, the file or folder it came from:
// TestPath or Path when the error says which (a *fs.PathError naming a file
// in one of them), else both ("PATH and held-out TEST_PATH") when there
// are two.
func (s Source) FailedPath(err error) string {
	var pe *fs.PathError
	if s.TestPath != "" && errors.As(err, &pe) {
		switch {
		case within(pe.Path, s.TestPath):
			return s.TestPath
		case within(pe.Path, s.Path):
			return s.Path
		}
	}
	if s.TestPath != "" {
		return s.Path + " and held-out " + s.TestPath
	}
	return s.Path
}

// within reports whether path is root or a file under it.
func within(path, root string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// Within returns s with its limits (MaxPixels, MaxBytes) no looser than
// lim's, a zero field of either meaning its default: a Source recorded in
// a file keeps a tighter limit it records but cannot raise the limits of
// the program that reads it.
func (s Source) Within(lim Limits) Source {
	own, bound := s.Limits().withDefaults(), lim.withDefaults()
	s.MaxPixels = min(own.MaxPixels, bound.MaxPixels)
	s.MaxBytes = min(own.MaxBytes, bound.MaxBytes)
	return s
}

// Used returns s with only the settings its data use, the others zero
// (their defaults): a task's card count and size when it draws a task, the
// picture bound when it reads files, the memory bound when it is not the
// default, no split when a held-out file is named. A recipe records its
// Source so.
func (s Source) Used() Source {
	if s.Path != "" {
		s.PerClass, s.CardSize = 0, 0
	}
	if s.Path == "" && s.TestPath == "" {
		s.MaxPixels = 0
	}
	if s.MaxBytes == DefaultMaxBytes {
		s.MaxBytes = 0
	}
	if s.TestPath != "" {
		s.TestSplit = 0
	}
	return s
}

// MaxPerClass bounds the cards a class of a built-in task may have.
const MaxPerClass = 1_000_000

// Validate reports a field out of range as a *param.FieldError naming the
// field as a Source's JSON spells it (n, card_size, test_split,
// max_pixels, max_bytes); a front end names its own word for it.
func (s Source) Validate() error {
	switch {
	case s.Task != "" && s.Path != "":
		return fmt.Errorf("give a task or a data path, not both (task %q, path %q)", s.Task, s.Path)
	case s.Task != "" && !slices.ContainsFunc(Tasks(), func(t TaskInfo) bool { return t.Name == s.Task }):
		return fmt.Errorf("unknown task %q; the tasks are %s", s.Task, strings.Join(TaskNames(), ", "))
	case s.PerClass < 0 || s.PerClass > MaxPerClass:
		return param.Errorf("n", s.PerClass, "a whole number in [1, %d]", MaxPerClass)
	case s.CardSize != 0 && (s.CardSize < minCardSize || s.CardSize > maxCardSize):
		return param.Errorf("card_size", s.CardSize, "a whole number in [%d, %d]", minCardSize, maxCardSize)
	case !(s.TestSplit >= 0 && s.TestSplit < 1) || math.IsNaN(s.TestSplit):
		return param.Errorf("test_split", s.TestSplit, "a fraction in [0, 1)")
	}
	return s.Limits().Validate()
}

// String names the data for people: "task shapes (50 cards per class,
// 20x20)" or the path.
func (s Source) String() string {
	if t := s.TaskName(); t != "" {
		return fmt.Sprintf("task %s (%d cards per class, %dx%d)", t, s.perClass(), s.cardSize(), s.cardSize())
	}
	return s.Path
}

// Load makes the data set and splits off the held-out part, which may be
// empty (TestSplit 0). The same Source gives the same cards in the same
// order, every time.
func (s Source) Load() (train, test *Dataset, err error) {
	return s.LoadContext(context.Background())
}

// LoadContext is Load stopped by ctx while it reads files (LoadContext);
// the error then wraps ctx.Err().
func (s Source) LoadContext(ctx context.Context) (train, test *Dataset, err error) {
	if err := s.Validate(); err != nil {
		return nil, nil, err
	}
	var all *Dataset
	if t := s.TaskName(); t != "" {
		info, _ := LookupTask(t)
		cards := len(info.Classes) * s.perClass()
		if err := checkMemory("task "+t, cards, cards*s.cardSize()*s.cardSize(), s.Limits().withDefaults()); err != nil {
			return nil, nil, err
		}
		all, err = GenerateContext(ctx, t, s.perClass(), s.cardSize(), s.Seed)
	} else {
		all, err = LoadContext(ctx, s.Path, s.Limits())
	}
	if err != nil {
		return nil, nil, err
	}
	if err := all.Validate(); err != nil {
		return nil, nil, err
	}
	if s.TestPath != "" {
		test, err = LoadContext(ctx, s.TestPath, s.Limits())
		if err != nil {
			return nil, nil, err
		}
		if err := SameClasses(all, test); err != nil {
			return nil, nil, err
		}
		return all, test, nil
	}
	if s.TestSplit == 0 {
		return all, &Dataset{Name: all.Name + " (none held out)", Classes: all.Classes}, nil
	}
	train, test = all.Split(s.TestSplit, s.Seed)
	return train, test, nil
}

// SameClasses reports an error unless b has a's classes in a's order.
func SameClasses(a, b *Dataset) error {
	if len(a.Classes) != len(b.Classes) {
		return fmt.Errorf("%s has %d classes but %s has %d", b.Name, len(b.Classes), a.Name, len(a.Classes))
	}
	for i := range a.Classes {
		if a.Classes[i] != b.Classes[i] {
			return fmt.Errorf("%s: class %d is %q, but %q in %s", b.Name, i, b.Classes[i], a.Classes[i], a.Name)
		}
	}
	return nil
}

// LookupTask returns the built-in task of that name.
func LookupTask(name string) (TaskInfo, bool) {
	for _, t := range Tasks() {
		if t.Name == name {
			return t, true
		}
	}
	return TaskInfo{}, false
}

// TaskNames lists the built-in tasks' names.
func TaskNames() []string {
	var names []string
	for _, t := range Tasks() {
		names = append(names, t.Name)
	}
	return names
}
