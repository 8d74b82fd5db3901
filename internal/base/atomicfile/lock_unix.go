//go:build unix

package atomicfile

import (
	"os"
	"syscall"
)

// Open flags: do not follow a final symbolic link; do not block opening a
// named pipe.
const (
	openNoFollow = syscall.O_NOFOLLOW
	openNonBlock = syscall.O_NONBLOCK
)

// canLock reports whether tryLock really locks, so that RemoveStale can
// tell a live writer's temporary file from a killed one's.
const canLock = true

// tryLock takes an exclusive lock on f without waiting; it is released
// when f is closed.
func tryLock(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}
