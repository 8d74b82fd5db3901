package images

import (
	"fmt"
	"math"
)

// Minsky and Papert's four figures (Perceptrons, 1969, §0.8; the argument
// of §5.1): three horizontal strands, top, middle and bottom, each Length
// cells long, and at each end a short vertical bar, the end's "switch",
// joining either the top strand to the middle one (0) or the middle one to
// the bottom one (1). X_ij has switch i at the left end and j at the right.
// X01 and X10 are one connected figure; X00 and X11 are two pieces (the
// top and middle strands make a ring and the bottom strand is alone, or
// the other way round).
//
// The figures differ only in the two switch columns, FourSpan cells apart.
// A predicate that sees less than that span sees either no switch, the left
// one only, or the right one only, so on every such predicate φ,
// φ(X00) + φ(X11) = φ(X01) + φ(X10): any weighted sum of such predicates
// takes the same total on the two connected figures as on the two
// disconnected ones, and no threshold can put both connected figures above
// it and both disconnected ones below. The figures are drawn on a grid of
// 20 cells, the retina's, scaled to the card.
const (
	// FourMinLength and FourMaxLength bound the strands' length in grid
	// cells: the figure with its switches spans Length + 2 of the 20.
	FourMinLength = 1
	FourMaxLength = 18
	// FourDefaultLength is the length of the task mp-four.
	FourDefaultLength = 12
	fourGrid          = 20
)

// fourRows returns the rows of the three strands on the 20-cell grid.
func fourRows() [3]int { return [3]int{5, 9, 13} }

// FourSpan returns the columns, on the 20-cell grid, of the left and the
// right switch of the four figures with strands length cells long: the
// only columns in which the four figures differ. The figure spans
// right − left + 1 = length + 2 columns.
func FourSpan(length int) (left, right int) {
	left = (fourGrid - (length + 2)) / 2
	return left, left + length + 1
}

// FourNames are the four figures' names in the order FourFigures gives them.
func FourNames() []string { return []string{"X00", "X01", "X10", "X11"} }

// drawFour inks figure X_ij with strands length cells long.
func drawFour(c *card, length, i, j int) {
	u := float64(c.size) / fourGrid
	cell := func(x0, y0, x1, y1 int) { // cells [x0, x1] × [y0, y1] of the grid
		c.rect(math.Round(float64(x0)*u), math.Round(float64(y0)*u), math.Round(float64(x1+1)*u), math.Round(float64(y1+1)*u))
	}
	left, right := FourSpan(length)
	rows := fourRows()
	for _, r := range rows {
		cell(left+1, r, right-1, r)
	}
	for k, col := range []int{left, right} {
		sw := i
		if k == 1 {
			sw = j
		}
		cell(col, rows[sw], col, rows[sw+1])
	}
}

// FourFigures returns Minsky and Papert's four figures X00, X01, X10, X11
// (in that order) with strands length cells long on size × size cards,
// labelled 0 "disconnected" (X00, X11) and 1 "connected" (X01, X10).
func FourFigures(length, size int) (*Dataset, error) {
	if length < FourMinLength || length > FourMaxLength {
		return nil, fmt.Errorf("images: four figures of length %d; want %d to %d cells of the 20-cell grid", length, FourMinLength, FourMaxLength)
	}
	if size < minCardSize || size > maxCardSize {
		return nil, fmt.Errorf("images: four figures: card size %d; want %d to %d pixels", size, minCardSize, maxCardSize)
	}
	d := &Dataset{Name: fmt.Sprintf("four figures, length %d", length), Classes: []string{"disconnected", "connected"}}
	for k, name := range FourNames() {
		i, j := k>>1, k&1
		c := newCard(size)
		drawFour(c, length, i, j)
		d.Samples = append(d.Samples, Sample{Image: c.gray(), Label: i ^ j, Source: name})
	}
	return d, nil
}

// ParityMaxK bounds ParityCards' K: 2^12 cards.
const ParityMaxK = 12

// ParityCells returns the cells, on the 20-cell grid (row-major, row × 20
// + column), that ParityCards lights: spread over the retina, four cells
// apart, K of them.
func ParityCells(k int) []int {
	cells := make([]int, k)
	for i := range cells {
		cells[i] = (2+4*(i/4))*fourGrid + 2 + 5*(i%4)
	}
	return cells
}

// ParityCards returns the 2^k cards of parity on k cells (ParityCells):
// card b lights cell i when bit i of b is 1, the other cells dark, and is
// labelled 1 "odd" when b has an odd number of bits, 0 "even" otherwise.
func ParityCards(k, size int) (*Dataset, error) {
	if k < 1 || k > ParityMaxK {
		return nil, fmt.Errorf("images: parity on %d cells; want 1 to %d", k, ParityMaxK)
	}
	if size < minCardSize || size > maxCardSize {
		return nil, fmt.Errorf("images: parity cards: card size %d; want %d to %d pixels", size, minCardSize, maxCardSize)
	}
	u := float64(size) / fourGrid
	d := &Dataset{Name: fmt.Sprintf("parity on %d cells", k), Classes: []string{"even", "odd"}}
	cells := ParityCells(k)
	for b := range 1 << k {
		c := newCard(size)
		odd := 0
		for i, cell := range cells {
			if b>>i&1 == 1 {
				x, y := float64(cell%fourGrid), float64(cell/fourGrid)
				c.rect(math.Round(x*u), math.Round(y*u), math.Round((x+1)*u), math.Round((y+1)*u))
				odd ^= 1
			}
		}
		d.Samples = append(d.Samples, Sample{Image: c.gray(), Label: odd, Source: fmt.Sprintf("parity card %0*b", k, b)})
	}
	return d, nil
}
