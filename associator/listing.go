package associator

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The plugboard listing is a line-oriented text format:
//
//	# comments start with '#'
//	mark1-plugboard 1
//	retina 20x20
//	a0 theta 2 exc 3,4 5,6 0,19 inh 7,7 12,1
//	a1 theta 2 exc ...
//	a2 theta 2 exc 1,1 inh 2,2 dead
//
// Origin points are row,column with row 0 at the top of the retina. Units
// must appear in order a0, a1, … with no gaps. "inh" may be empty or left
// out. A trailing "dead" marks a failed A-unit (see Unit.Dead), which may
// have no origin points left.

const listingMagic = "mark1-plugboard"

// MaxUnits bounds the A-units of a plugboard, wired (Wire) or read from a
// listing (ReadListing).
const MaxUnits = 1 << 20

// WriteTo writes the plugboard as a listing.
func (p *Plugboard) WriteTo(w io.Writer) (int64, error) {
	bw := bufio.NewWriter(w)
	cw := &countWriter{w: bw}
	fmt.Fprintf(cw, "# The Mark I plugboard: each A-unit's threshold and its origin points\n")
	fmt.Fprintf(cw, "# (row,col of S-units; row 0 at the top). An A-unit fires when its\n")
	fmt.Fprintf(cw, "# excitatory inputs minus its inhibitory inputs reach theta.\n")
	fmt.Fprintf(cw, "%s 1\nretina %dx%d\n", listingMagic, p.Width, p.Height)
	for u, unit := range p.Units {
		fmt.Fprintf(cw, "a%d theta %s exc", u, strconv.FormatFloat(unit.Threshold, 'g', -1, 64))
		for _, s := range unit.Excitatory {
			fmt.Fprintf(cw, " %d,%d", s/p.Width, s%p.Width)
		}
		if len(unit.Inhibitory) > 0 {
			fmt.Fprint(cw, " inh")
			for _, s := range unit.Inhibitory {
				fmt.Fprintf(cw, " %d,%d", s/p.Width, s%p.Width)
			}
		}
		if unit.Dead {
			fmt.Fprint(cw, " dead")
		}
		fmt.Fprintln(cw)
	}
	if cw.err != nil {
		return cw.n, cw.err
	}
	return cw.n, bw.Flush()
}

type countWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (c *countWriter) Write(b []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(b)
	c.n += int64(n)
	c.err = err
	return n, err
}

// Read parses a plugboard listing. name is used in error messages, which
// give the line number.
func Read(r io.Reader, name string) (*Plugboard, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	p := &Plugboard{}
	line := 0
	state := 0 // 0: want magic, 1: want retina, 2: units
	fail := func(format string, a ...any) error {
		return fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, a...))
	}
	for sc.Scan() {
		line++
		text := sc.Text()
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		f := strings.Fields(text)
		if len(f) == 0 {
			continue
		}
		switch state {
		case 0:
			if len(f) != 2 || f[0] != listingMagic {
				return nil, fail("not a plugboard listing (want %q first)", listingMagic+" 1")
			}
			if f[1] != "1" {
				return nil, fail("plugboard listing format %q is not supported (want 1)", f[1])
			}
			state = 1
		case 1:
			if len(f) != 2 || f[0] != "retina" {
				return nil, fail("want \"retina WxH\"")
			}
			ws, hs, ok := strings.Cut(f[1], "x")
			w, err1 := strconv.Atoi(ws)
			h, err2 := strconv.Atoi(hs)
			if !ok || err1 != nil || err2 != nil || w < 1 || h < 1 || w > 1024 || h > 1024 {
				return nil, fail("bad retina size %q (want WxH, each 1 to 1024)", f[1])
			}
			p.Width, p.Height = w, h
			state = 2
		case 2:
			if len(p.Units) >= MaxUnits {
				return nil, fail("more than %d A-units", MaxUnits)
			}
			u, err := parseUnit(f, len(p.Units), p.Width, p.Height)
			if err != nil {
				return nil, fail("%v", err)
			}
			p.Units = append(p.Units, u)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, line+1, err)
	}
	if state < 2 {
		return nil, fmt.Errorf("%s: incomplete plugboard listing (no %s)", name, map[int]string{0: "header", 1: "retina line"}[state])
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return p, nil
}

func parseUnit(f []string, want, w, h int) (Unit, error) {
	var u Unit
	if f[0] != "a"+strconv.Itoa(want) {
		return u, fmt.Errorf("want A-unit a%d, got %q", want, f[0])
	}
	if len(f) < 4 || f[1] != "theta" || f[3] != "exc" {
		return u, fmt.Errorf("a%d: want \"a%d theta T exc r,c ... [inh r,c ...]\"", want, want)
	}
	t, err := strconv.ParseFloat(f[2], 64)
	if err != nil || t != t || t > 1e9 || t < -1e9 {
		return u, fmt.Errorf("a%d: bad threshold %q", want, f[2])
	}
	u.Threshold = t
	dst := &u.Excitatory
	seen := map[int]bool{}
	rest := f[4:]
	if n := len(rest); n > 0 && rest[n-1] == "dead" {
		u.Dead = true
		rest = rest[:n-1]
	}
	for _, tok := range rest {
		if tok == "inh" {
			if dst == &u.Inhibitory {
				return u, fmt.Errorf("a%d: \"inh\" twice", want)
			}
			dst = &u.Inhibitory
			continue
		}
		rs, cs, ok := strings.Cut(tok, ",")
		r, err1 := strconv.Atoi(rs)
		c, err2 := strconv.Atoi(cs)
		if !ok || err1 != nil || err2 != nil {
			return u, fmt.Errorf("a%d: bad origin point %q (want row,col)", want, tok)
		}
		if r < 0 || r >= h || c < 0 || c >= w {
			return u, fmt.Errorf("a%d: origin point %s is off the %dx%d retina", want, tok, w, h)
		}
		s := r*w + c
		if seen[s] {
			return u, fmt.Errorf("a%d: origin point %s appears twice", want, tok)
		}
		seen[s] = true
		*dst = append(*dst, s)
	}
	if len(u.Excitatory)+len(u.Inhibitory) == 0 && !u.Dead {
		return u, fmt.Errorf("a%d: no origin points", want)
	}
	return u, nil
}
