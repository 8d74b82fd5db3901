package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The rules for where an output may go, before anything is written: what
// each kind of output may replace (Output.Check), and one rule to compare
// paths by (SameFile, Within), so that a caller keeps every output off
// every input.

// A Kind is what an output path is to become.
type Kind int

const (
	// File is a file, replaced atomically (Write) if it exists.
	File Kind = iota
	// NewFile is a file that must not exist yet.
	NewFile
	// Folder is a folder made whole (WriteDirMarked): new, empty, or made
	// before as the same kind (Output.Marker).
	Folder
	// Results is a folder results are added to: new, empty, or holding
	// only what Output.Owns accepts.
	Results
)

// An Output is one path a job writes, and what it is to become there.
type Output struct {
	Path string
	Kind Kind
	// Marker is the kind of folder a Folder output is (WriteDirMarked):
	// "cards", "lab site".
	Marker string
	// Owns, for a Results folder, tells the names of the files the job
	// may add to it: a folder holding anything else is refused.
	Owns func(name string) bool
}

// ErrExists is Check's error for a NewFile output that exists.
var ErrExists = errors.New("exists: give the name of a new file")

// Check reports, without writing anything, whether o may be written: a file
// must be writable atomically where it is (Check) and, for NewFile, not
// exist (an error wrapping ErrExists); a folder must not be a system
// folder, and a Folder must be new, empty or made before as o.Marker
// (CheckFolder), a Results folder new, empty, or holding only files o.Owns
// accepts (and temporary files of atomic writes).
func (o Output) Check() error {
	switch o.Kind {
	case NewFile:
		if Exists(o.Path) {
			return fmt.Errorf("%s %w", o.Path, ErrExists)
		}
		return Check(o.Path)
	case Folder:
		return CheckFolder(o.Path, o.Marker)
	case Results:
		return checkResults(o.Path, o.Owns)
	}
	return Check(o.Path)
}

// A ClashKind is how an output clashes with what its job reads or writes.
type ClashKind int

const (
	// ClashInput is an output that names an input, through symbolic and
	// hard links (SameFile).
	ClashInput ClashKind = iota
	// ClashInside is an output that would replace a file inside an input
	// folder (Within).
	ClashInside
	// ClashOutput is an output that names another output.
	ClashOutput
)

// A Clash is an output that would replace what its own job reads, or what
// another of its outputs writes. Out is the output's index among the
// outputs; With is the input's index (ClashInput, ClashInside) or the other
// output's (ClashOutput).
type Clash struct {
	Kind      ClashKind
	Out, With int
	Path      string // the output's path
	WithPath  string // the input's or the other output's path
}

func (c *Clash) Error() string {
	switch c.Kind {
	case ClashInside:
		return fmt.Sprintf("%s is inside input folder %s: refusing to replace a file of an input", c.Path, c.WithPath)
	case ClashOutput:
		return fmt.Sprintf("%s is also the output %s: two outputs cannot be written to one file", c.Path, c.WithPath)
	}
	return fmt.Sprintf("%s is also the input %s: refusing to replace an input with an output", c.Path, c.WithPath)
}

// An OutputError is an output its own kind refuses (Output.Check); Out is
// its index among the outputs.
type OutputError struct {
	Out int
	Err error
}

func (e *OutputError) Error() string { return e.Err.Error() }
func (e *OutputError) Unwrap() error { return e.Err }

// CheckOutputs checks, before anything is written, the outputs of a job
// that reads ins: each output in turn against every input (unless
// exempt(out, in) allows the pair: an output that continues an input in
// place) and every later output, then on its own (Output.Check). The first
// trouble is returned, a *Clash or an *OutputError.
func CheckOutputs(outs []Output, ins []string, exempt func(out, in int) bool) error {
	for i, o := range outs {
		for j, in := range ins {
			switch {
			case exempt != nil && exempt(i, j):
			case SameFile(o.Path, in):
				return &Clash{Kind: ClashInput, Out: i, With: j, Path: o.Path, WithPath: in}
			case Within(o.Path, in) && Exists(o.Path):
				return &Clash{Kind: ClashInside, Out: i, With: j, Path: o.Path, WithPath: in}
			}
		}
		for j := i + 1; j < len(outs); j++ {
			if SameFile(o.Path, outs[j].Path) {
				return &Clash{Kind: ClashOutput, Out: i, With: j, Path: o.Path, WithPath: outs[j].Path}
			}
		}
		if err := o.Check(); err != nil {
			return &OutputError{Out: i, Err: err}
		}
	}
	return nil
}

// checkResults checks a folder that results are added to: CheckPlace, and
// if it exists, every entry one that owns accepts (or a temporary file of
// an atomic write), so that nothing else a user keeps there is mixed with
// the results.
func checkResults(dir string, owns func(string) bool) error {
	if err := CheckPlace(dir); err != nil {
		return err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil // not made yet (CheckPlace checked its folder)
	}
	for _, e := range entries {
		if (owns == nil || !owns(e.Name())) && !IsTemp(e.Name()) {
			return fmt.Errorf("%s holds %s, which is not a result: give a new or empty folder, or one that holds only results", dir, e.Name())
		}
	}
	return nil
}

// RemoveIfEmpty removes the folder dir if it exists and is empty: a folder
// output that a failed or interrupted job made and left with nothing in it.
func RemoveIfEmpty(dir string) {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) == 0 {
		os.Remove(dir)
	}
}

// Exists reports whether something (a file, folder or link) is at path.
func Exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// SameFile reports whether paths a and b name one file: the same cleaned
// absolute path, the same existing file after links are followed (symbolic
// and hard), or, for a file not made yet, the same place once the links of
// the folder it would be made in are followed.
func SameFile(a, b string) bool {
	if abs(a) == abs(b) {
		return true
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(fa, fb)
	}
	return resolved(a) == resolved(b)
}

// Within reports whether path lies inside folder dir (after links are
// followed), dir being an existing folder.
func Within(path, dir string) bool {
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return false
	}
	d := resolved(dir)
	p := resolved(path)
	return p != d && strings.HasPrefix(p, d+string(filepath.Separator))
}

// abs returns p absolute and cleaned (p itself when the working folder is
// unknown).
func abs(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return filepath.Clean(p)
}

// resolved returns p absolute with every link followed: of p itself when
// it exists, else of the folder it would be made in.
func resolved(p string) string {
	p = abs(p)
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	if d, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
		return filepath.Join(d, filepath.Base(p))
	}
	return p
}
