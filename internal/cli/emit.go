package cli

import "io"

// A texter is a typed result that writes itself as text, as its package
// renders it (limits.CapacityResult.WriteText, curves.Figure.WriteText).
type texter interface{ WriteText(w io.Writer) error }

// emit prints a command's result: exactly the marshalled result with
// --json, else its text.
func emit(w io.Writer, asJSON bool, r texter) error {
	if asJSON {
		return writeJSON(w, r)
	}
	return r.WriteText(w)
}
