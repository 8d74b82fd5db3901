package images

import (
	"image"
	"math"

	"golang.org/x/image/vector"
)

// pathOp is a path segment's operator.
type pathOp uint8

const (
	opMove pathOp = iota
	opLine
	opQuad
	opCube
)

// segment is one path segment: its operator and up to three points (the
// end point last).
type segment struct {
	op  pathOp
	pts [3][2]float64
}

// path is a closed outline, or several; filled by the non-zero rule.
type path []segment

// affine maps (x, y) to (a*x + b*y + c, d*x + e*y + f).
type affine struct{ a, b, c, d, e, f float64 }

func (m affine) apply(p [2]float64) (float32, float32) {
	return float32(m.a*p[0] + m.b*p[1] + m.c), float32(m.d*p[0] + m.e*p[1] + m.f)
}

// card is a square white card on which ink is laid, with exact-area
// antialiasing: a pixel's grey level is 255 times the fraction of it left
// uncovered.
type card struct {
	size int
	ink  *image.Alpha // coverage, 0 blank to 255 fully inked
	z    *vector.Rasterizer
}

func newCard(size int) *card {
	return &card{
		size: size,
		ink:  image.NewAlpha(image.Rect(0, 0, size, size)),
		z:    vector.NewRasterizer(size, size),
	}
}

// fill inks the inside of p transformed by m, adding to what is there.
func (c *card) fill(p path, m affine) {
	c.z.Reset(c.size, c.size)
	for i, s := range p {
		switch s.op {
		case opMove:
			if i > 0 {
				c.z.ClosePath()
			}
			c.z.MoveTo(m.apply(s.pts[0]))
		case opLine:
			c.z.LineTo(m.apply(s.pts[0]))
		case opQuad:
			x1, y1 := m.apply(s.pts[0])
			x2, y2 := m.apply(s.pts[1])
			c.z.QuadTo(x1, y1, x2, y2)
		case opCube:
			x1, y1 := m.apply(s.pts[0])
			x2, y2 := m.apply(s.pts[1])
			x3, y3 := m.apply(s.pts[2])
			c.z.CubeTo(x1, y1, x2, y2, x3, y3)
		}
	}
	c.z.ClosePath()
	c.z.Draw(c.ink, c.ink.Bounds(), image.Opaque, image.Point{})
}

// rect inks the axis-aligned rectangle [x0, x1) × [y0, y1).
func (c *card) rect(x0, y0, x1, y1 float64) {
	c.fill(polygon([2]float64{x0, y0}, [2]float64{x1, y0}, [2]float64{x1, y1}, [2]float64{x0, y1}), identity())
}

// gray returns the card as grey levels: white paper, black ink.
func (c *card) gray() *image.Gray {
	g := image.NewGray(c.ink.Rect)
	for i, a := range c.ink.Pix {
		g.Pix[i] = 255 - a
	}
	return g
}

// identity is the affine map that changes nothing.
func identity() affine { return affine{a: 1, e: 1} }

// polygon returns the closed polygon through pts.
func polygon(pts ...[2]float64) path {
	p := make(path, 0, len(pts))
	for i, q := range pts {
		op := opLine
		if i == 0 {
			op = opMove
		}
		p = append(p, segment{op: op, pts: [3][2]float64{q}})
	}
	return p
}

// circle returns a circle of radius r about (cx, cy) as four cubic Bézier
// arcs (radial error below 0.03% of r).
func circle(cx, cy, r float64) path {
	k := r * 4 * (math.Sqrt2 - 1) / 3 // the usual 0.5523 r
	return path{
		{op: opMove, pts: [3][2]float64{{cx + r, cy}}},
		{op: opCube, pts: [3][2]float64{{cx + r, cy + k}, {cx + k, cy + r}, {cx, cy + r}}},
		{op: opCube, pts: [3][2]float64{{cx - k, cy + r}, {cx - r, cy + k}, {cx - r, cy}}},
		{op: opCube, pts: [3][2]float64{{cx - r, cy - k}, {cx - k, cy - r}, {cx, cy - r}}},
		{op: opCube, pts: [3][2]float64{{cx + k, cy - r}, {cx + r, cy - k}, {cx + r, cy}}},
	}
}
