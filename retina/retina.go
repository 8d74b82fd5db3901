package retina

import (
	"fmt"
	"image"
	"math"
	"math/rand/v2"
	"strconv"
	"sync"
)

// Polarity says which part of a picture is the figure the cells respond to.
type Polarity int

const (
	// Auto takes the figure to be whatever differs from the picture's
	// border: dark ink on a light card, or a light figure on a dark ground
	// (as in MNIST).
	Auto Polarity = iota
	// Dark takes dark pixels as the figure.
	Dark
	// Light takes light pixels as the figure.
	Light
)

var polarityNames = [...]string{"auto", "dark", "light"}

func (p Polarity) String() string {
	if p < 0 || int(p) >= len(polarityNames) {
		return fmt.Sprintf("Polarity(%d)", int(p))
	}
	return polarityNames[p]
}

// ParsePolarity reads "auto", "dark" or "light".
func ParsePolarity(s string) (Polarity, error) {
	for i, n := range polarityNames {
		if s == n {
			return Polarity(i), nil
		}
	}
	return 0, fmt.Errorf("unknown polarity %q (want auto, dark or light)", s)
}

// MarshalText implements encoding.TextMarshaler.
func (p Polarity) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (p *Polarity) UnmarshalText(b []byte) error {
	v, err := ParsePolarity(string(b))
	*p = v
	return err
}

// Config describes a retina. The zero value is the Mark I's: 20x20 cells,
// no cropping, automatic polarity and threshold, ideal cells.
type Config struct {
	// Width and Height are the grid size in cells; 0 means 20.
	Width  int `json:"width"`
	Height int `json:"height"`
	// Crop fits the figure's bounding box rather than the whole card. It
	// removes position (so "left vs right" becomes unlearnable) and keeps
	// shape; off by default.
	Crop bool `json:"crop"`
	// Polarity picks the figure; see Polarity.
	Polarity Polarity `json:"polarity"`
	// Threshold is the light level in (0, 1) at which a cell turns on. Zero
	// means automatic: Otsu's threshold of each picture's field, kept within
	// [0.1, 0.9].
	Threshold float64 `json:"threshold"`
	// Adaptive gives each cell its own threshold: the mean light level of
	// the cells around it plus AdaptiveOffset (see LocalThresholds), for
	// photographed cards under uneven light. Threshold must then be 0.
	Adaptive bool `json:"adaptive,omitempty"`
	// Analog makes each cell output its light level in [0, 1] instead of
	// 0 or 1 (the theory's cells are on/off; the real circuit is unknown).
	Analog bool `json:"analog"`
	// Spread is the standard deviation of a fixed per-cell offset added to
	// the threshold (manufacturing spread of the photocells).
	Spread float64 `json:"spread"`
	// Noise is the probability that a cell's reading flips on any one
	// presentation.
	Noise float64 `json:"noise"`
	// Dead is the fraction of cells that never respond, drawn from the seed.
	Dead float64 `json:"dead"`
}

// Size returns the grid size with defaults applied.
func (c Config) Size() (w, h int) {
	w, h = c.Width, c.Height
	if w == 0 {
		w = 20
	}
	if h == 0 {
		h = 20
	}
	return w, h
}

// MaxSide bounds the retina's width and height, in photocells.
const MaxSide = 1024

// Validate reports a setting out of range as a *FieldError.
func (c Config) Validate() error {
	w, h := c.Size()
	switch {
	case w < 1 || w > MaxSide:
		return fieldErr("width", w, nil, "[1, %d] photocells", MaxSide)
	case h < 1 || h > MaxSide:
		return fieldErr("height", h, nil, "[1, %d] photocells", MaxSide)
	case c.Threshold < 0 || c.Threshold >= 1 || math.IsNaN(c.Threshold):
		return fieldErr("threshold", c.Threshold, nil, "a light level in [0, 1) (0 = automatic)")
	case c.Adaptive && c.Threshold != 0:
		return fieldErr("threshold", c.Threshold, []string{"adaptive"}, "0 with an adaptive threshold (a fixed threshold and an adaptive one at once)")
	case !(c.Spread >= 0) || c.Spread > 1:
		return fieldErr("spread", c.Spread, nil, "[0, 1]")
	case !(c.Noise >= 0) || c.Noise > 1:
		return fieldErr("noise", c.Noise, nil, "a probability in [0, 1]")
	case !(c.Dead >= 0) || c.Dead > 1:
		return fieldErr("dead", c.Dead, nil, "a fraction in [0, 1]")
	case c.Polarity < Auto || c.Polarity > Light:
		return fieldErr("polarity", int(c.Polarity), nil, "auto, dark or light")
	}
	return nil
}

// Retina is a photocell grid built from a Config and a seed: the seed fixes
// which cells are dead and each cell's threshold offset.
type Retina struct {
	cfg    Config
	w, h   int
	offset []float64 // per-cell threshold offsets
	dead   []bool
	stuck  []bool // stuck on: the cell reads light whatever falls on it
	// scratch keeps the adaptive threshold's working arrays between
	// presentations, one set per goroutine at a time.
	scratch sync.Pool
}

// New builds a retina. The seed draws the dead cells and threshold spread.
func New(cfg Config, seed uint64) (*Retina, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	r := &Retina{cfg: cfg}
	r.scratch.New = func() any { return new(scratch) }
	r.w, r.h = cfg.Size()
	n := r.w * r.h
	r.offset = make([]float64, n)
	r.dead = make([]bool, n)
	r.stuck = make([]bool, n)
	rng := rand.New(rand.NewPCG(seed, 0x5e5e))
	for i := range n {
		if cfg.Spread > 0 {
			r.offset[i] = cfg.Spread * rng.NormFloat64()
		}
		if cfg.Dead > 0 && rng.Float64() < cfg.Dead {
			r.dead[i] = true
		}
	}
	return r, nil
}

// Config returns the retina's configuration.
func (r *Retina) Config() Config { return r.cfg }

// Size returns the grid's width and height in cells.
func (r *Retina) Size() (w, h int) { return r.w, r.h }

// Cells returns the number of S-units.
func (r *Retina) Cells() int { return r.w * r.h }

// Dead reports whether cell i never responds.
func (r *Retina) Dead(i int) bool { return r.dead[i] }

// Kill makes cell i dead (a fault injected after construction). A dead
// cell reads 0 even if it was stuck on.
func (r *Retina) Kill(i int) { r.dead[i] = true }

// StuckOn reports whether cell i is stuck on.
func (r *Retina) StuckOn(i int) bool { return r.stuck[i] }

// StickOn makes cell i stuck on (a fault injected after construction): a
// shorted photocell that reads 1 (full light, for an analog retina) on every
// presentation, without reading noise. A dead cell stays dead.
func (r *Retina) StickOn(i int) { r.stuck[i] = true }

// Expose returns the S-unit outputs for a fitted field in dst (allocated if
// nil or short): 0 or 1 per cell in row-major order, or the light level for
// an analog retina. rng draws the reading noise; it may be nil when the
// retina has none. Expose panics if len(field) != Cells().
func (r *Retina) Expose(dst []float64, field []float32, rng *rand.Rand) []float64 {
	n := r.w * r.h
	if len(field) != n {
		panic("retina: field size does not match the grid")
	}
	if cap(dst) < n {
		dst = make([]float64, n)
	}
	dst = dst[:n]
	t := r.cfg.Threshold
	var local []float64
	switch {
	case r.cfg.Adaptive && !r.cfg.Analog:
		sc := r.scratch.Get().(*scratch)
		defer r.scratch.Put(sc)
		sc.local = localThresholds(sc.local, field, r.w, r.h, sc)
		local = sc.local
	case t == 0:
		t = Otsu(field)
	}
	noisy := r.cfg.Noise > 0 && rng != nil
	for i, v := range field {
		var out float64
		if r.stuck[i] && !r.dead[i] {
			dst[i] = 1
			continue
		}
		if local != nil {
			t = local[i]
		}
		if !r.dead[i] {
			if r.cfg.Analog {
				out = float64(v)
			} else if float64(v) >= t+r.offset[i] {
				out = 1
			}
			if noisy && rng.Float64() < r.cfg.Noise {
				out = 1 - out // a flipped reading (the complement, for analog cells)
			}
		}
		dst[i] = out
	}
	return dst
}

// Otsu returns the threshold that best splits the field's light levels into
// two classes (Otsu 1979, maximum between-class variance over a 64-bin
// histogram), kept within [0.1, 0.9] so that a blank or faint field does not
// light up its noise. A uniform field gives 0.5.
func Otsu(field []float32) float64 {
	const bins = 64
	var hist [bins]float64
	for _, v := range field {
		b := int(v * bins)
		if b >= bins {
			b = bins - 1
		} else if b < 0 {
			b = 0
		}
		hist[b]++
	}
	total := float64(len(field))
	var sumAll float64
	for i, c := range hist {
		sumAll += float64(i) * c
	}
	var wB, sumB, best float64
	bestT, bestHi := -1, -1 // a plateau of equally good thresholds: take its middle
	for i := range bins - 1 {
		wB += hist[i]
		if wB == 0 {
			continue
		}
		wF := total - wB
		if wF == 0 {
			break
		}
		sumB += float64(i) * hist[i]
		mB, mF := sumB/wB, (sumAll-sumB)/wF
		v := wB * wF * (mB - mF) * (mB - mF)
		switch {
		case v > best*(1+1e-12):
			best, bestT, bestHi = v, i, i
		case v >= best*(1-1e-12) && bestHi == i-1:
			bestHi = i
		}
	}
	if bestT < 0 {
		return 0.5
	}
	t := (float64(bestT+bestHi)/2 + 1) / bins
	return min(max(t, 0.1), 0.9)
}

// AdaptiveOffset is how much more light than the mean around it a cell of
// an adaptive retina needs to turn on (see LocalThresholds).
const AdaptiveOffset = 0.05

// LocalThresholds returns, for a w×h field, each cell's adaptive threshold
// in dst (allocated if nil or short). Around each cell it takes the square
// of cells within a radius of max(2, min(w, h)/4), and the threshold is the
// larger of the square's mean light level plus AdaptiveOffset and the
// midpoint of its darkest and lightest cells: light that changes slowly
// across the card — a photographed sheet lit from one side — moves the
// threshold with it, so a cell turns on where it is lighter than its
// surroundings, and, near a figure, where at least about half of it is
// figure. Past the grid's edges the field is continued by odd reflection
// (the cell at distance d outside reads 2·edge − the cell at d inside), so
// light falling off evenly towards an edge gives an edge cell its own level
// as the mean and the midpoint, not its neighbours'. A figure wider than
// the square loses its middle (the mean there is the figure's own level),
// so the default remains Otsu's one threshold per card, for evenly lit
// printed cards. LocalThresholds panics if len(field) != w*h.
func LocalThresholds(dst []float64, field []float32, w, h int) []float64 {
	return localThresholds(dst, field, w, h, new(scratch))
}

// scratch holds LocalThresholds' working arrays, kept between calls by a
// Retina (in a sync.Pool, so that presentations on several goroutines do
// not share one).
type scratch struct {
	pad, sum, lo, hi, local []float64
}

func grow(b []float64, n int) []float64 {
	if cap(b) < n {
		return make([]float64, n)
	}
	return b[:n]
}

func localThresholds(dst []float64, field []float32, w, h int, sc *scratch) []float64 {
	n := w * h
	if len(field) != n {
		panic("retina: field size does not match the grid")
	}
	if cap(dst) < n {
		dst = make([]float64, n)
	}
	dst = dst[:n]
	rad := max(2, min(w, h)/4)
	k := 2*rad + 1
	pw, ph := w+2*rad, h+2*rad
	// The field continued past its edges by odd reflection: first each
	// row across its ends, then whole padded rows above and below.
	pad := grow(sc.pad, pw*ph)
	sc.pad = pad
	for y := range h {
		row := pad[(y+rad)*pw : (y+rad+1)*pw]
		for x, v := range field[y*w : (y+1)*w] {
			row[x+rad] = float64(v)
		}
		for d := 1; d <= rad; d++ {
			row[rad-d] = 2*row[rad] - row[rad+min(d, w-1)]
			row[rad+w-1+d] = 2*row[rad+w-1] - row[rad+max(w-1-d, 0)]
		}
	}
	for d := 1; d <= rad; d++ {
		reflectRow(pad[(rad-d)*pw:][:pw], pad[rad*pw:][:pw], pad[(rad+min(d, h-1))*pw:][:pw])
		reflectRow(pad[(rad+h-1+d)*pw:][:pw], pad[(rad+h-1)*pw:][:pw], pad[(rad+max(h-1-d, 0))*pw:][:pw])
	}
	// Sums, minima and maxima over k padded cells across each row, then
	// down the columns.
	sum, lo, hi := grow(sc.sum, ph*w), grow(sc.lo, ph*w), grow(sc.hi, ph*w)
	sc.sum, sc.lo, sc.hi = sum, lo, hi
	for py := range ph {
		row := pad[py*pw : (py+1)*pw]
		var s float64
		for _, v := range row[:k-1] {
			s += v
		}
		for x := range w {
			s += row[x+k-1]
			win := row[x : x+k]
			a, b := win[0], win[0]
			for _, v := range win[1:] {
				a, b = min(a, v), max(b, v)
			}
			sum[py*w+x], lo[py*w+x], hi[py*w+x] = s, a, b
			s -= row[x]
		}
	}
	for y := range h {
		for x := range w {
			var s float64
			a, b := lo[y*w+x], hi[y*w+x]
			for py := y; py < y+k; py++ {
				i := py*w + x
				s += sum[i]
				a, b = min(a, lo[i]), max(b, hi[i])
			}
			dst[y*w+x] = max(s/float64(k*k)+AdaptiveOffset, (a+b)/2)
		}
	}
	return dst
}

// reflectRow sets out to 2·edge − mirror, element by element.
func reflectRow(out, edge, mirror []float64) {
	for i := range out {
		out[i] = 2*edge[i] - mirror[i]
	}
}

// Fit projects a picture onto the grid and returns its field of light levels
// in [0, 1] (1 = figure), row-major, in dst (allocated if nil or short).
func (r *Retina) Fit(dst []float32, img *image.Gray) []float32 {
	return FitField(dst, img, r.w, r.h, r.cfg.Polarity, r.cfg.Crop)
}

// FitField is Fit for a grid of w x h cells without building a Retina.
func FitField(dst []float32, img *image.Gray, w, h int, pol Polarity, crop bool) []float32 {
	n := w * h
	if cap(dst) < n {
		dst = make([]float32, n)
	}
	dst = dst[:n]
	clear(dst)
	b := img.Rect
	if b.Empty() {
		return dst
	}
	dark := pol == Dark || (pol == Auto && borderMean(img) >= 128)
	figure := func(x, y int) float64 {
		g := float64(img.Pix[img.PixOffset(x, y)]) / 255
		if dark {
			return 1 - g
		}
		return g
	}
	if crop {
		b = bbox(img, b, figure)
		if b.Empty() {
			return dst
		}
	}
	sw, sh := float64(b.Dx()), float64(b.Dy())
	s := min(float64(w)/sw, float64(h)/sh)
	// The picture covers [ox, ox+sw*s) x [oy, oy+sh*s) of the grid.
	ox, oy := (float64(w)-sw*s)/2, (float64(h)-sh*s)/2
	xs := coverage(w, b.Dx(), s, ox)
	ys := coverage(h, b.Dy(), s, oy)
	for cy, yc := range ys {
		for cx, xc := range xs {
			var sum float64
			for _, yy := range yc {
				for _, xx := range xc {
					sum += yy.w * xx.w * figure(b.Min.X+xx.i, b.Min.Y+yy.i)
				}
			}
			dst[cy*w+cx] = float32(min(sum, 1))
		}
	}
	return dst
}

type span struct {
	i int     // source pixel
	w float64 // fraction of the cell covered by it
}

// coverage returns, for each of n cells along one axis, the source pixels
// overlapping it and the fraction of the cell's length each covers, for a
// source of m pixels scaled by s and offset by off cells.
func coverage(n, m int, s, off float64) [][]span {
	out := make([][]span, n)
	for c := range n {
		lo, hi := float64(c), float64(c+1)
		first := int(math.Floor((lo - off) / s))
		last := int(math.Ceil((hi-off)/s)) - 1
		for p := max(first, 0); p <= last && p < m; p++ {
			a := max(lo, off+float64(p)*s)
			b := min(hi, off+float64(p+1)*s)
			if b > a {
				out[c] = append(out[c], span{p, b - a})
			}
		}
	}
	return out
}

func borderMean(img *image.Gray) float64 {
	b := img.Rect
	var sum, n float64
	add := func(x, y int) { sum += float64(img.Pix[img.PixOffset(x, y)]); n++ }
	for x := b.Min.X; x < b.Max.X; x++ {
		add(x, b.Min.Y)
		if b.Dy() > 1 {
			add(x, b.Max.Y-1)
		}
	}
	for y := b.Min.Y + 1; y < b.Max.Y-1; y++ {
		add(b.Min.X, y)
		if b.Dx() > 1 {
			add(b.Max.X-1, y)
		}
	}
	return sum / n
}

func bbox(img *image.Gray, b image.Rectangle, figure func(x, y int) float64) image.Rectangle {
	out := image.Rectangle{}
	first := true
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if figure(x, y) > 0.5 {
				p := image.Rect(x, y, x+1, y+1)
				if first {
					out, first = p, false
				} else {
					out = out.Union(p)
				}
			}
		}
	}
	return out
}

// ParseThreshold reads a photocell threshold: "otsu" (Threshold 0, found
// per card), "adaptive", or a light level in (0, 1).
func ParseThreshold(s string) (level float64, adaptive bool, err error) {
	switch s {
	case "otsu":
		return 0, false, nil
	case "adaptive":
		return 0, true, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !(v >= 0 && v < 1) {
		return 0, false, fmt.Errorf("%q is not otsu, adaptive or a light level in (0, 1)", s)
	}
	return v, false, nil
}
