package cli

import (
	"fmt"
	"io"

	"mark1/chart"
)

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

// emitDrawn prints r (emit), then draws it to png, if given, and says so
// under the text (what names the picture).
func emitDrawn(w io.Writer, asJSON bool, r texter, draw func() (*chart.Drawing, error), png, what string) error {
	if err := emit(w, asJSON, r); err != nil || png == "" {
		return err
	}
	if err := drawTo(png, draw); err != nil || asJSON {
		return err
	}
	_, err := fmt.Fprintf(w, "Drew %s to %s.\n", what, png)
	return err
}

// drawTo draws a picture to the PNG file png, if given.
func drawTo(png string, draw func() (*chart.Drawing, error)) error {
	if png == "" {
		return nil
	}
	d, err := draw()
	if err != nil {
		return err
	}
	return writeDrawing(d, png, "")
}

// drawFiles writes d to the PNG and SVG files given (writeDrawing) and
// says so of each with say, a format of its path.
func drawFiles(w io.Writer, d *chart.Drawing, png, svg, say string) error {
	if err := writeDrawing(d, png, svg); err != nil {
		return err
	}
	for _, path := range []string{png, svg} {
		if path != "" {
			fmt.Fprintf(w, say, path)
		}
	}
	return nil
}
