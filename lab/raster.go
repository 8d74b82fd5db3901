package lab

import (
	"math"
	"math/rand/v2"
	"strings"

	"mark1/learning/learners"
)

// The kinds of the A-layer's units (the registry's option unit-kind).
const (
	// HalfPlanes are random half-planes of the plane (RandomUnits).
	HalfPlanes = learners.UnitHalfPlane
	// Raster units are wired to the plane rasterised into a small retina,
	// like the Mark I's A-units to its photocells (RandomRaster).
	Raster = learners.UnitRaster
)

// The raster A-layer's documented guesses. The Mark I's origin points and
// threshold are the associator package's defaults (the 1958 paper's x =
// y = 5, θ = 2); the retina is small enough for a unit's cells to show in
// a thumbnail, and a point lights a 3×3 spot, 9 of its 64 cells (14%, the
// lit fraction of a middling Mark I card).
const (
	RasterSide       = 8 // the retina's cells across and down
	RasterSpot       = 1 // a point lights the cells within 1 of its own: a 3×3 square
	RasterExcitatory = 5 // x, excitatory origin cells per A-unit
	RasterInhibitory = 5 // y, inhibitory origin cells per A-unit
	RasterThreshold  = 2 // θ
)

// Retina is the plane rasterised for the raster A-units: Side × Side
// cells over Box (x0, x1, y0, y1: the data's bounding box), numbered row
// by row from the bottom left (cell c + Side·r is column c, row r). A
// point lights the cells of the (2·Spot+1)² square around the cell it
// falls in (cut off at the retina's edges); a point beyond the box falls
// in the nearest edge cell.
type Retina struct {
	Side int        `json:"side"`
	Spot int        `json:"spot"`
	Box  [4]float64 `json:"box"`
}

// NewRetina returns the default retina (RasterSide, RasterSpot) over e's
// bounding box.
func NewRetina(e Example) Retina {
	x0, x1, y0, y1 := bounds(e)
	return Retina{Side: RasterSide, Spot: RasterSpot, Box: [4]float64{x0, x1, y0, y1}}
}

// bounds returns the bounding box of e's points (the first two features).
func bounds(e Example) (x0, x1, y0, y1 float64) {
	x0, x1, y0, y1 = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, x := range e.X {
		x0, x1 = min(x0, x[0]), max(x1, x[0])
		y0, y1 = min(y0, x[1]), max(y1, x[1])
	}
	return x0, x1, y0, y1
}

// index returns the column (or row) of v over [lo, hi] split in r.Side:
// the middle one when the range is a single value.
func (r Retina) index(v, lo, hi float64) int {
	if !(hi > lo) {
		return r.Side / 2
	}
	k := math.Floor(float64(r.Side) * (v - lo) / (hi - lo))
	return int(min(max(k, 0), float64(r.Side-1)))
}

// Cell returns the cell x falls in.
func (r Retina) Cell(x []float64) int {
	return r.index(x[0], r.Box[0], r.Box[1]) + r.Side*r.index(x[1], r.Box[2], r.Box[3])
}

// Lit reports whether a point in cell at lights cell k: whether k lies in
// the spot around at.
func (r Retina) Lit(at, k int) bool {
	dc, dr := k%r.Side-at%r.Side, k/r.Side-at/r.Side
	return max(dc, -dc) <= r.Spot && max(dr, -dr) <= r.Spot
}

// CellBox returns cell k's part of the plane, x0, x1, y0, y1.
func (r Retina) CellBox(k int) [4]float64 {
	c, w := float64(k%r.Side), float64(r.Side)
	row := float64(k / r.Side)
	b := r.Box
	return [4]float64{b[0] + (b[1]-b[0])*c/w, b[0] + (b[1]-b[0])*(c+1)/w, b[2] + (b[3]-b[2])*row/w, b[2] + (b[3]-b[2])*(row+1)/w}
}

// RasterUnit is one A-unit wired to the retina as the Mark I's plugboard
// wires one to the photocells: x excitatory and y inhibitory origin cells
// (distinct), and a threshold. It fires (outputs 1) when the excitatory
// cells lit less the inhibitory cells lit reach Theta (Rosenblatt 1958;
// the associator package's rule).
type RasterUnit struct {
	Excitatory []int `json:"exc"`
	Inhibitory []int `json:"inh"`
	Theta      int   `json:"theta"`
}

// Input returns the unit's input for a point in cell at: its excitatory
// cells lit less its inhibitory cells lit.
func (u RasterUnit) Input(r Retina, at int) int {
	v := 0
	for _, k := range u.Excitatory {
		if r.Lit(at, k) {
			v++
		}
	}
	for _, k := range u.Inhibitory {
		if r.Lit(at, k) {
			v--
		}
	}
	return v
}

// Fires reports whether the unit fires for a point in cell at.
func (u RasterUnit) Fires(r Retina, at int) bool { return u.Input(r, at) >= u.Theta }

// FireMap returns where the unit fires: a 1 for each cell of the retina
// (in its numbering) where a point makes it fire, else a 0.
func (u RasterUnit) FireMap(r Retina) string {
	var b strings.Builder
	for k := range r.Side * r.Side {
		if u.Fires(r, k) {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	}
	return b.String()
}

// RandomRaster draws n raster A-units for the retina r from seed, each
// with RasterExcitatory and RasterInhibitory distinct origin cells chosen
// uniformly (as associator.Wire draws a plugboard) and the threshold
// RasterThreshold. The same seed draws the same units on every machine.
func RandomRaster(r Retina, n int, seed uint64) []RasterUnit {
	rng := rand.New(rand.NewPCG(seed, 0x5e7a1))
	units := make([]RasterUnit, n)
	for i := range units {
		p := rng.Perm(r.Side * r.Side)[:RasterExcitatory+RasterInhibitory]
		units[i] = RasterUnit{
			Excitatory: append([]int(nil), p[:RasterExcitatory]...),
			Inhibitory: append([]int(nil), p[RasterExcitatory:]...),
			Theta:      RasterThreshold,
		}
	}
	return units
}
