//go:build !unix

package progress

import "io"

// termWidth returns 0: the width of the terminal is not known here.
func termWidth(io.Writer) int { return 0 }
