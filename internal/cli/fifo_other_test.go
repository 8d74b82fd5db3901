//go:build !unix

package cli

import "errors"

// mkfifo makes a named pipe at path; these systems have none.
func mkfifo(string) error { return errors.New("no named pipes on this system") }
