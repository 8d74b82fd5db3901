package machine

import (
	"context"
	"math/bits"
)

// seen is what the machine's fixed parts — the retina with its faults and
// the plugboard — make of a fixed set of fields: for each card, which
// photocells are lit and which A-units fire. Neither changes while a
// machine learns, and without reading noise they are the same at every
// presentation, so a Session works them out once per card and then only
// the R-units' sums and the motors remain per presentation (the retina's
// threshold, Otsu's histogram and every A-unit's input are most of the
// cost of a card).
//
// Both are bit sets, a bit a cell and a bit an A-unit: 120 bytes a card for
// the default 400-cell, 512-unit machine, whatever P_a.
type seen struct {
	cells          int
	sWords, aWords int
	s, a           []uint64 // card i's words are [i*words, (i+1)*words)
}

// cacheable reports whether m answers a field the same way at every
// presentation up to the pots: a binary retina without reading noise. (An
// analog retina's outputs are light levels, which bits cannot hold.)
func cacheable(m *Machine) bool {
	c := m.Retina.Config()
	return c.Noise == 0 && !c.Analog
}

// words returns the 64-bit words that hold n bits.
func words(n int) int { return (n + 63) / 64 }

// cacheWords returns the 64-bit words a card takes in a seen of a machine
// with the given numbers of retina cells and A-units.
func cacheWords(cells, units int) int { return words(cells) + words(units) }

// setBits sets bit k%64 of w[k/64] for every k in idx: the layout of seen
// and of learning.Bits.
func setBits(w []uint64, idx []int) {
	for _, k := range idx {
		w[k/64] |= 1 << (k % 64)
	}
}

// see presents every field to m once, without noise, and keeps what the
// retina and the A-units made of it; nil once ctx is cancelled (looked at
// every 1,024 fields).
func see(ctx context.Context, m *Machine, fields [][]float32) *seen {
	c := &seen{cells: m.Retina.Cells(), sWords: words(m.Retina.Cells()), aWords: words(len(m.Plugboard.Units))}
	c.s = make([]uint64, c.sWords*len(fields))
	c.a = make([]uint64, c.aWords*len(fields))
	var r Response
	var lit []int
	for i, x := range fields {
		if i%1024 == 1023 && ctx.Err() != nil {
			return nil
		}
		m.Present(&r, x, nil)
		lit = lit[:0]
		for j, v := range r.S {
			if v > 0 {
				lit = append(lit, j)
			}
		}
		setBits(c.s[i*c.sWords:(i+1)*c.sWords], lit)
		setBits(c.a[i*c.aWords:(i+1)*c.aWords], r.Active)
	}
	return c
}

// FiredBits presents every field to m, without reading noise, and returns
// which A-units each fires as bit sets of perCard words, A-unit u being
// bit u%64 of the card's word u/64 (learning.Bits's layout).
func (m *Machine) FiredBits(fields [][]float32) (perCard int, w []uint64) {
	perCard = words(len(m.Plugboard.Units))
	w = make([]uint64, perCard*len(fields))
	var r Response
	for i, x := range fields {
		m.Present(&r, x, nil)
		setBits(w[i*perCard:(i+1)*perCard], r.Active)
	}
	return perCard, w
}

// lit reports whether card i lights any photocell.
func (c *seen) lit(i int) bool {
	for _, w := range c.s[i*c.sWords : (i+1)*c.sWords] {
		if w != 0 {
			return true
		}
	}
	return false
}

// active sets r.Active to the A-units card i fires, in increasing order as
// Plugboard.Active gives them.
func (c *seen) active(r *Response, i int) {
	r.Active = r.Active[:0]
	for k, w := range c.a[i*c.aWords : (i+1)*c.aWords] {
		for w != 0 {
			r.Active = append(r.Active, k*64+bits.TrailingZeros64(w))
			w &= w - 1
		}
	}
}

// retina sets r.S to the outputs of the photocells for card i, 0 or 1.
func (c *seen) retina(r *Response, i int) {
	if cap(r.S) < c.cells {
		r.S = make([]float64, c.cells)
	}
	r.S = r.S[:c.cells]
	clear(r.S)
	for k, w := range c.s[i*c.sWords : (i+1)*c.sWords] {
		for w != 0 {
			r.S[k*64+bits.TrailingZeros64(w)] = 1
			w &= w - 1
		}
	}
}
