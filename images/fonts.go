package images

import (
	"fmt"
	"sync"

	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// glyph is a letter's outline in em units (y down, origin on the baseline)
// with the bounding box of its control points, which contains the outline.
type glyph struct {
	outline                path
	minX, minY, maxX, maxY float64
}

func (g *glyph) width() float64  { return g.maxX - g.minX }
func (g *glyph) height() float64 { return g.maxY - g.minY }

// typeface holds the outlines of the capital letters A–Z of one font.
type typeface struct {
	name      string
	capHeight float64 // height of 'H' in em units
	letters   [26]glyph
}

// Typefaces used by the letter tasks: Go Regular, a humanist sans-serif,
// and Go Mono, a monospaced slab serif — two clearly different faces, as
// the second typeface of the 1960 demonstration was meant to be.
const (
	faceRegular = 0
	faceMono    = 1
)

// typefaces parses the embedded fonts once, on first use. The result is
// never modified after it is built, so sharing it between goroutines is
// safe; this is the package's only package-level value that is not a
// constant, and it holds no mutable state.
var typefaces = sync.OnceValues(func() ([]*typeface, error) {
	var faces []*typeface
	for _, f := range []struct {
		name string
		ttf  []byte
	}{{"Go Regular", goregular.TTF}, {"Go Mono", gomono.TTF}} {
		tf, err := parseTypeface(f.name, f.ttf)
		if err != nil {
			return nil, err
		}
		faces = append(faces, tf)
	}
	return faces, nil
})

// parseTypeface extracts the capital letters' outlines from a TrueType or
// OpenType font.
func parseTypeface(name string, ttf []byte) (*typeface, error) {
	f, err := opentype.Parse(ttf)
	if err != nil {
		return nil, fmt.Errorf("images: parsing font %s: %w", name, err)
	}
	upem := int(f.UnitsPerEm())
	ppem := fixed.I(upem) // one unit per font unit, then divided by upem below
	var buf sfnt.Buffer
	tf := &typeface{name: name}
	load := func(r rune) (glyph, error) {
		idx, err := f.GlyphIndex(&buf, r)
		if err != nil || idx == 0 {
			return glyph{}, fmt.Errorf("images: font %s has no glyph for %q: %v", name, r, err)
		}
		segs, err := f.LoadGlyph(&buf, idx, ppem, nil)
		if err != nil {
			return glyph{}, fmt.Errorf("images: font %s, glyph %q: %w", name, r, err)
		}
		g := glyph{minX: 1e9, minY: 1e9, maxX: -1e9, maxY: -1e9}
		for _, s := range segs {
			var seg segment
			n := 1
			switch s.Op {
			case sfnt.SegmentOpMoveTo:
				seg.op = opMove
			case sfnt.SegmentOpLineTo:
				seg.op = opLine
			case sfnt.SegmentOpQuadTo:
				seg.op, n = opQuad, 2
			case sfnt.SegmentOpCubeTo:
				seg.op, n = opCube, 3
			}
			for i := range n {
				x := float64(s.Args[i].X) / 64 / float64(upem)
				y := float64(s.Args[i].Y) / 64 / float64(upem)
				seg.pts[i] = [2]float64{x, y}
				g.minX, g.maxX = min(g.minX, x), max(g.maxX, x)
				g.minY, g.maxY = min(g.minY, y), max(g.maxY, y)
			}
			g.outline = append(g.outline, seg)
		}
		return g, nil
	}
	for i := range tf.letters {
		if tf.letters[i], err = load(rune('A' + i)); err != nil {
			return nil, err
		}
	}
	h, err := load('H')
	if err != nil {
		return nil, err
	}
	tf.capHeight = h.height()
	return tf, nil
}
