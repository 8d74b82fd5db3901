package cli

import (
	"os"
	"path/filepath"
)

// Paths are compared by one rule (sameFile), used by the frame
// (frame.go) to keep every output off every input.

// sameFile reports whether paths a and b name one file: the same cleaned
// absolute path, the same existing file after links are followed, or, for
// a file not made yet, the same place once the links of the folder it
// would be made in are followed.
func sameFile(a, b string) bool {
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
