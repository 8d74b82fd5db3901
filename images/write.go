package images

import (
	"context"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"

	"mark1/internal/base/atomicfile"
)

// WriteFolder writes d as a folder that Load reads back: one sub-folder per
// class, named after the class, holding the class's samples as PNG files
// numbered from 0001.png in the order of d.Samples (more digits when a class
// has more than 9,999 samples). Classes without samples get no folder.
//
// The folder appears whole or not at all (atomicfile.WriteDir): the files
// are written into a temporary sibling folder, which is renamed to dir at
// the end. dir may not exist yet, or be an empty folder; anything else is
// an error. Folders and files get 0777 and 0666 less the umask. When ctx is
// cancelled, writing stops, nothing is left behind, and ctx's error is
// returned. Class names
// must be usable as folder names: not empty, not "." or "..", not starting
// with '.' (Load would skip them), without '/', '\\' or NUL, and distinct.
func WriteFolder(ctx context.Context, d *Dataset, dir string) error {
	return WriteFolderMarked(ctx, d, dir, "")
}

// WriteFolderMarked is WriteFolder with atomicfile.WriteDirMarked's
// marker: dir may also be a folder an earlier call with the same marker
// made, which is replaced whole.
func WriteFolderMarked(ctx context.Context, d *Dataset, dir, marker string) error {
	if err := checkClassNames(d.Classes); err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	for i, s := range d.Samples {
		if s.Label < 0 || s.Label >= len(d.Classes) {
			return fmt.Errorf("%s: sample %d (%s): label %d out of range [0, %d)", dir, i, s.Source, s.Label, len(d.Classes))
		}
		if s.Image == nil || s.Image.Rect.Empty() {
			return fmt.Errorf("%s: sample %d (%s): empty image", dir, i, s.Source)
		}
	}
	return atomicfile.WriteDirMarked(dir, marker, func(tmp string) error { return writeClasses(ctx, d, tmp) })
}

// writeClasses writes the class folders of d into dir, which exists. It
// stops with ctx's error when ctx is cancelled.
func writeClasses(ctx context.Context, d *Dataset, dir string) error {
	counts := d.Counts()
	width := 4
	for _, n := range counts {
		width = max(width, len(fmt.Sprint(n)))
	}
	for c, n := range counts {
		if n == 0 {
			continue
		}
		if err := os.Mkdir(filepath.Join(dir, d.Classes[c]), 0o777); err != nil {
			return err
		}
	}
	next := make([]int, len(d.Classes))
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	for _, s := range d.Samples {
		if err := ctx.Err(); err != nil {
			return err
		}
		next[s.Label]++
		name := filepath.Join(dir, d.Classes[s.Label], fmt.Sprintf("%0*d.png", width, next[s.Label]))
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if err != nil {
			return err
		}
		err = enc.Encode(f, s.Image)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("writing %s (%s): %w", name, s.Source, err)
		}
	}
	return nil
}

// checkClassNames checks that class names can be folder names that Load
// reads back as the same classes.
func checkClassNames(classes []string) error {
	seen := make(map[string]bool, len(classes))
	for i, c := range classes {
		switch {
		case c == "":
			return fmt.Errorf("class %d has an empty name", i)
		case strings.HasPrefix(c, "."):
			return fmt.Errorf("class %d name %q starts with '.' (a hidden folder, which Load skips)", i, c)
		case strings.ContainsAny(c, "/\\\x00"):
			return fmt.Errorf("class %d name %q contains '/', '\\' or NUL", i, c)
		case seen[c]:
			return fmt.Errorf("class name %q appears twice", c)
		}
		seen[c] = true
	}
	return nil
}
