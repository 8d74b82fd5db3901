package associator

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// Config describes how the plugboard is wired. The zero value means the
// documented defaults: 512 A-units with x=5 excitatory and y=5 inhibitory
// origin points and θ=2 (the 1958 paper's x=y=5; the Mark I's own x, y and θ are not
// recorded; these give a mean P_a of 5–16% on the built-in tasks and under 1% to
// about 20% per card, rising with the lit area as Model says; see mark1 pa).
type Config struct {
	Units      int `json:"units"`      // A-units; 0 means 512
	Excitatory int `json:"excitatory"` // x, origin points per unit; 0 means 5
	Inhibitory int `json:"inhibitory"` // y; 0 means 5 (use -1 for none)
	Threshold  int `json:"threshold"`  // θ; 0 means 2 (use -1 for θ=0)
	// Window is the diameter limit of Minsky and Papert's diameter-limited
	// perceptrons, and RT58's "focally distributed" origin points: each
	// A-unit's origin points all lie in one Window × Window square of the
	// retina, placed uniformly at random. 0 (the default) is the 1958
	// random wiring, origin points anywhere on the retina.
	Window int `json:"window,omitempty"`
}

// Defaults returns c with zero fields replaced by the defaults and the -1
// sentinels by zero.
func (c Config) Defaults() Config {
	def := func(v *int, d int) {
		switch *v {
		case 0:
			*v = d
		case -1:
			*v = 0
		}
	}
	def(&c.Units, 512)
	def(&c.Excitatory, 5)
	def(&c.Inhibitory, 5)
	def(&c.Threshold, 2)
	return c
}

// Unit is one A-unit: its origin points (indices of S-units, row-major),
// its threshold, and whether it has failed.
type Unit struct {
	Excitatory []int   `json:"exc"`
	Inhibitory []int   `json:"inh"`
	Threshold  float64 `json:"theta"`
	// Dead marks a failed A-unit: it never fires, whatever its inputs. A
	// unit whose wires are all broken is dead too (see BreakWire).
	Dead bool `json:"dead,omitempty"`
}

// Plugboard is the fixed wiring from a retina of Width x Height cells to the
// A-units.
type Plugboard struct {
	Width  int    `json:"width"`
	Height int    `json:"height"`
	Units  []Unit `json:"units"`
}

// Validate reports a setting out of range for a retina of width × height
// photocells as a *FieldError (after Defaults: a zero Config is valid).
// A range that depends on the retina's size names "cells" among the
// settings it depends on (FieldError.With).
func (c Config) Validate(width, height int) error {
	a := c.Defaults()
	cells := width * height
	if d := a.Window; d != 0 {
		side := min(width, height)
		switch {
		case d < 0 || d > side:
			return fieldErr("window", d, []string{"cells"}, "a window of 1 to %d cells across (the retina is %dx%d), or 0 for origin points anywhere", side, width, height)
		case d*d < a.Excitatory+a.Inhibitory:
			return fieldErr("window", d, []string{"excitatory", "inhibitory"},
				"a window of at least %d cells (%dx%d) to hold x + y = %d distinct origin points", a.Excitatory+a.Inhibitory, d, d, a.Excitatory+a.Inhibitory)
		}
		cells = d * d
	}
	x, y, theta := a.Excitatory, a.Inhibitory, a.Threshold
	switch {
	case a.Units < 1 || a.Units > MaxUnits:
		return fieldErr("units", a.Units, nil, "[1, %d] A-units", MaxUnits)
	case x < 0:
		return fieldErr("excitatory", x, nil, "a count ≥ 0")
	case y < 0:
		return fieldErr("inhibitory", y, nil, "a count ≥ 0")
	case x+y < 1 || x > cells || y > cells || x+y > cells:
		return fieldErr("excitatory", x, []string{"inhibitory", "cells"},
			"x + y = %d + %d origin points in [1, %d]: at least one, at most the %d cells of the retina", x, y, cells, cells)
	case theta < 0 || (theta > x && theta > cells-y):
		return fieldErr("threshold", theta, []string{"excitatory"}, "θ in range [0, x = %d]: above x the A-unit could never fire", x)
	case theta > x:
		return fieldErr("threshold", theta, []string{"excitatory"},
			"θ at most x = %d excitatory origin points, or the A-unit could never fire: x in range [%d, %d] (θ to the %d cells less y = %d) or θ in range [0, %d]",
			x, theta, cells-y, cells, y, x)
	}
	return nil
}

// Wire draws a plugboard for a width x height retina from seed. Within one
// A-unit the origin points are distinct (drawn without replacement); different
// units may share points. With a Window, a unit's window is placed first
// (its top-left cell uniform over the places the window fits) and its
// origin points drawn within it. The same seed gives the same plugboard.
func Wire(cfg Config, width, height int, seed uint64) (*Plugboard, error) {
	if err := cfg.Validate(width, height); err != nil {
		return nil, err
	}
	cfg = cfg.Defaults()
	rng := rand.New(rand.NewPCG(seed, 0xa55))
	p := &Plugboard{Width: width, Height: height, Units: make([]Unit, cfg.Units)}
	k := cfg.Excitatory + cfg.Inhibitory
	pick := make([]int, k)
	d := cfg.Window
	for u := range p.Units {
		if d == 0 {
			sample(rng, width*height, pick)
		} else {
			top, left := rng.IntN(height-d+1), rng.IntN(width-d+1)
			sample(rng, d*d, pick)
			for i, s := range pick {
				pick[i] = (top+s/d)*width + left + s%d
			}
		}
		p.Units[u] = Unit{
			Excitatory: append([]int(nil), pick[:cfg.Excitatory]...),
			Inhibitory: append([]int(nil), pick[cfg.Excitatory:]...),
			Threshold:  float64(cfg.Threshold),
		}
	}
	return p, nil
}

// sample fills dst with distinct integers from [0, n) in random order
// (Floyd's algorithm keeps it O(len(dst)) in time and allocation-free).
func sample(rng *rand.Rand, n int, dst []int) {
	k := len(dst)
	for j := n - k; j < n; j++ {
		t := rng.IntN(j + 1)
		dup := false
		for _, v := range dst[:k-(n-j)] {
			if v == t {
				dup = true
				break
			}
		}
		if dup {
			t = j
		}
		dst[k-(n-j)] = t
	}
	rng.Shuffle(k, func(a, b int) { dst[a], dst[b] = dst[b], dst[a] })
}

// Cells returns the number of S-units the plugboard expects.
func (p *Plugboard) Cells() int { return p.Width * p.Height }

// Validate checks that every origin point is on the retina and every
// threshold is finite.
func (p *Plugboard) Validate() error {
	if p.Width < 1 || p.Height < 1 {
		return fmt.Errorf("plugboard: retina %dx%d is empty", p.Width, p.Height)
	}
	if len(p.Units) == 0 {
		return fmt.Errorf("plugboard: no A-units")
	}
	n := p.Cells()
	for u, unit := range p.Units {
		if len(unit.Excitatory)+len(unit.Inhibitory) == 0 && !unit.Dead {
			return fmt.Errorf("plugboard: A-unit %d has no origin points", u)
		}
		for _, pts := range [][]int{unit.Excitatory, unit.Inhibitory} {
			for _, s := range pts {
				if s < 0 || s >= n {
					return fmt.Errorf("plugboard: A-unit %d: origin point %d is off the %dx%d retina", u, s, p.Width, p.Height)
				}
			}
		}
		if unit.Threshold != unit.Threshold || unit.Threshold > 1e9 || unit.Threshold < -1e9 {
			return fmt.Errorf("plugboard: A-unit %d: threshold %v out of range", u, unit.Threshold)
		}
	}
	return nil
}

// Input returns excitatory minus inhibitory input of A-unit u for the S-unit
// outputs s.
func (p *Plugboard) Input(u int, s []float64) float64 {
	unit := &p.Units[u]
	var v float64
	for _, i := range unit.Excitatory {
		v += s[i]
	}
	for _, i := range unit.Inhibitory {
		v -= s[i]
	}
	return v
}

// Active appends to dst[:0] the indices, in increasing order, of the A-units
// that fire for S-unit outputs s, and returns it. It panics if len(s) is not
// the number of cells.
func (p *Plugboard) Active(dst []int, s []float64) []int {
	if len(s) != p.Cells() {
		panic("associator: S-unit vector does not match the plugboard's retina")
	}
	dst = dst[:0]
	for u := range p.Units {
		if p.Units[u].Dead {
			continue
		}
		if p.Input(u, s) >= p.Units[u].Threshold {
			dst = append(dst, u)
		}
	}
	return dst
}

// Clone returns a deep copy.
func (p *Plugboard) Clone() *Plugboard {
	q := &Plugboard{Width: p.Width, Height: p.Height, Units: make([]Unit, len(p.Units))}
	for i, u := range p.Units {
		q.Units[i] = Unit{
			Excitatory: slices.Clone(u.Excitatory),
			Inhibitory: slices.Clone(u.Inhibitory),
			Threshold:  u.Threshold,
			Dead:       u.Dead,
		}
	}
	return q
}

// Kill marks A-unit u dead: it never fires again (a fault).
func (p *Plugboard) Kill(u int) { p.Units[u].Dead = true }

// Dead returns the number of dead A-units.
func (p *Plugboard) Dead() int {
	n := 0
	for _, u := range p.Units {
		if u.Dead {
			n++
		}
	}
	return n
}

// BreakWires removes the origin points of A-unit u for which broken reports
// true (a fault: the plugboard wire from that S-unit is broken), keeping the
// others in order, and returns how many it removed. broken is called once
// per origin point, excitatory ones first. A unit left with no origin
// points cannot respond to the retina and is marked dead.
func (p *Plugboard) BreakWires(u int, broken func() bool) int {
	unit := &p.Units[u]
	n := 0
	keep := func(pts []int) []int {
		out := pts[:0]
		for _, s := range pts {
			if broken() {
				n++
				continue
			}
			out = append(out, s)
		}
		return out
	}
	unit.Excitatory = keep(unit.Excitatory)
	unit.Inhibitory = keep(unit.Inhibitory)
	if len(unit.Excitatory)+len(unit.Inhibitory) == 0 {
		unit.Dead = true
	}
	return n
}

// ParseWiring reads a wiring's name: "random" (origin points anywhere on
// the retina: Window 0) or "local:D" (every A-unit's origin points inside
// one D × D window: Window D). It returns the Window.
func ParseWiring(s string) (int, error) {
	if s == "random" {
		return 0, nil
	}
	if rest, ok := strings.CutPrefix(s, "local:"); ok {
		if d, err := strconv.Atoi(rest); err == nil && d >= 1 {
			return d, nil
		}
	}
	return 0, fmt.Errorf("wiring %.40q: want random or local:D with D a window size ≥ 1 cells", s)
}

// Wiring names the configuration's wiring as ParseWiring reads it:
// "random" or "local:D".
func (c Config) Wiring() string {
	if c.Window == 0 {
		return "random"
	}
	return "local:" + strconv.Itoa(c.Window)
}
