package atomicfile

import (
	"os"
	"path/filepath"
)

// Paths are compared by one rule (SameFile), which keeps a command's every
// output off every input.

// SameFile reports whether paths a and b name one file: the same cleaned
// absolute path, the same existing file after links are followed, or, for
// a file not made yet, the same place once the links of the folder it
// would be made in are followed.
func SameFile(a, b string) bool {
	if abs(a) == abs(b) {
		return true
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(fa, fb)
	}
	return RealPath(a) == RealPath(b)
}

// abs returns p absolute and cleaned (p itself when the working folder is
// unknown).
func abs(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return filepath.Clean(p)
}

// RealPath returns p absolute with every link followed: of p itself when
// it exists, else of the folder it would be made in.
func RealPath(p string) string {
	p = abs(p)
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	if d, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
		return filepath.Join(d, filepath.Base(p))
	}
	return p
}
