package images

import (
	"errors"
	"io/fs"
	"testing"
)

// TestSourceWithin: a recorded limit is kept where it is tighter than the
// reader's, and never raises it; zero means the default on either side.
func TestSourceWithin(t *testing.T) {
	for _, c := range []struct {
		name       string
		own, bound Limits
		wantPixels int
		wantBytes  int64
	}{
		{"both default", Limits{}, Limits{}, DefaultMaxPixels, DefaultMaxBytes},
		{"recorded looser: the reader's", Limits{MaxPixels: 1 << 40, MaxBytes: 1 << 40}, Limits{}, DefaultMaxPixels, DefaultMaxBytes},
		{"recorded tighter: kept", Limits{MaxPixels: 100, MaxBytes: 5 << 20}, Limits{}, 100, 5 << 20},
		{"reader tighter", Limits{MaxBytes: 1 << 40}, Limits{MaxPixels: 50, MaxBytes: 2 << 20}, 50, 2 << 20},
		{"reader raised, recorded default", Limits{}, Limits{MaxPixels: 1 << 26, MaxBytes: 1 << 31}, DefaultMaxPixels, DefaultMaxBytes},
		{"each field on its own", Limits{MaxPixels: 10, MaxBytes: 1 << 40}, Limits{MaxPixels: 20, MaxBytes: 1 << 20}, 10, 1 << 20},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := Source{Task: "shapes", MaxPixels: c.own.MaxPixels, MaxBytes: c.own.MaxBytes}.Within(c.bound)
			if s.MaxPixels != c.wantPixels || s.MaxBytes != c.wantBytes {
				t.Errorf("Within: pixels %d, bytes %d; want %d, %d", s.MaxPixels, s.MaxBytes, c.wantPixels, c.wantBytes)
			}
			if s.Task != "shapes" {
				t.Errorf("Within changed the task: %q", s.Task)
			}
		})
	}
}

// TestFailedPath: an error of Load is put on the file it came from: the
// held-out data or the training data when the error names a file in
// them, both when it does not.
func TestFailedPath(t *testing.T) {
	notFound := func(p string) error { return &fs.PathError{Op: "open", Path: p, Err: fs.ErrNotExist} }
	two := Source{Path: "data/train", TestPath: "/elsewhere/test.libsvm"}
	for _, c := range []struct {
		name string
		s    Source
		err  error
		want string
	}{
		{"the held-out file", two, notFound("/elsewhere/test.libsvm"), "/elsewhere/test.libsvm"},
		{"a file in the training folder", two, notFound("data/train/a/1.png"), "data/train"},
		{"no file named", two, errors.New("malformed"), "data/train and held-out /elsewhere/test.libsvm"},
		{"one path", Source{Path: "x.libsvm"}, errors.New("malformed"), "x.libsvm"},
		{"a neighbour is not inside", Source{Path: "data/train", TestPath: "data/train2"}, notFound("data/train2/b.png"), "data/train2"},
	} {
		if got := c.s.FailedPath(c.err); got != c.want {
			t.Errorf("%s: %q; want %q", c.name, got, c.want)
		}
	}
}
