//go:build !unix

package atomicfile

import "os"

// Open flags: none of these systems' files need them.
const (
	openNoFollow = 0
	openNonBlock = 0
)

// canLock is false: without a lock, a live writer's temporary file cannot
// be told from a killed one's, so RemoveStale removes nothing.
const canLock = false

func tryLock(*os.File) error { return nil }
