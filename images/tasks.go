package images

import (
	"context"
	"fmt"
	"hash/fnv"
	"mark1/internal/base/atomicfile"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"mark1/internal/base/limit"
)

// TaskInfo describes a built-in task: its name for Generate, one sentence
// for people, and its class names in label order.
type TaskInfo struct {
	Name        string
	Description string
	Classes     []string
}

// taskDef is a TaskInfo with the function that draws one sample.
type taskDef struct {
	TaskInfo
	// draw inks sample j of class onto c, taking every random number from
	// rng.
	draw func(c *card, faces []*typeface, class, j int, rng *rand.Rand)
	// letters is true for tasks that need the typefaces.
	letters bool
}

// Limits of Generate's arguments.
const (
	minCardSize = 8
	maxCardSize = 4096
)

// Letter layout. Capital letters are scaled so that the cap height (of 'H')
// is letterFill of the card, then shrunk if needed so the letter's box, once
// jittered and rotated, is at most letterMaxFill of the card.
const (
	letterFill    = 0.75
	letterMaxFill = 0.92
	jitterScale   = 0.15 // letters: scale factor drawn from 1 ± jitterScale
	jitterShift   = 0.10 // letters: shift drawn from ±jitterShift × size (±2 pixels on a 20-pixel card)
	// The 1960 deck's card holder: a printed card sits in the holder a
	// little off centre and a little askew. The record gives no tolerance;
	// these are guesses: a shift of up to ±holderShift of the card (±0.8
	// pixel on 20) in each direction, a tilt of up to ±holderTilt degrees,
	// and no change of size (the cards were printed alike).
	holderShift = 0.04
	holderTilt  = 2.0
)

// placement says how a letter is placed on its card: a scale factor drawn
// from 1 ± scale, a shift from ±shift × the card's size in each direction,
// and a turn: through a uniformly random angle if spin, else through an
// angle drawn from ±tilt degrees. The zero placement centres the letter.
type placement struct {
	scale, shift, tilt float64
	spin               bool
}

// alphabet returns the class names of the letter tasks, A to Z.
func alphabet() []string { return strings.Split("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "") }

// taskTable returns the built-in tasks, freshly built on each call.
func taskTable() []taskDef {
	shapeNames := []string{"square", "circle", "diamond", "triangle"}
	shapesOf := func(names ...string) func(c *card, _ []*typeface, class, _ int, rng *rand.Rand) {
		return func(c *card, _ []*typeface, class, _ int, rng *rand.Rand) {
			drawShape(c, names[class], rng)
		}
	}
	lettersOf := func(letters string, faces []int, pl placement) func(c *card, tf []*typeface, class, j int, rng *rand.Rand) {
		return func(c *card, tf []*typeface, class, j int, rng *rand.Rand) {
			drawLetter(c, tf[faces[j%len(faces)]], int(letters[class]-'A'), pl, rng)
		}
	}
	jittered := placement{scale: jitterScale, shift: jitterShift}
	holder := placement{shift: holderShift, tilt: holderTilt}
	const az = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	return []taskDef{
		{TaskInfo: TaskInfo{Name: "leftright",
			Description: "a filled black square of random side (20–40% of the card) in the left or the right half, at a random height; the 1958 press demonstration, learned in about 50 trials",
			Classes:     []string{"left", "right"}},
			draw: func(c *card, _ []*typeface, class, _ int, rng *rand.Rand) { drawLeftRight(c, class == 1, rng) }},
		{TaskInfo: TaskInfo{Name: "shapes",
			Description: "a filled square, circle, diamond or triangle, its box 50–84% of the card, at a random position",
			Classes:     shapeNames},
			draw: shapesOf(shapeNames...)},
		{TaskInfo: TaskInfo{Name: "square-circle",
			Description: "a filled square or circle, as in shapes; a pair quoted in 1958–62 with 500–1,000 A-units",
			Classes:     []string{"square", "circle"}},
			draw: shapesOf("square", "circle")},
		{TaskInfo: TaskInfo{Name: "square-diamond",
			Description: "a filled square or the same square turned 45°, as in shapes",
			Classes:     []string{"square", "diamond"}},
			draw: shapesOf("square", "diamond")},
		{TaskInfo: TaskInfo{Name: "letters",
			Description: "the capitals A–Z, alternately in Go Regular and Go Mono, shifted up to 10% of the card and scaled ±15%; with a second typeface the 1960 Mark I reached 85%",
			Classes:     alphabet()},
			draw: lettersOf(az, []int{faceRegular, faceMono}, jittered), letters: true},
		{TaskInfo: TaskInfo{Name: "letters1",
			Description: "the capitals A–Z in Go Regular, centred, without jitter, so every sample of a class is the same card: held-out cards are copies of training cards, and P_g only repeats P_r (letters1960-regular has genuinely different cards); the 1960 Mark I learned one typeface without error",
			Classes:     alphabet()},
			draw: lettersOf(az, []int{faceRegular}, placement{}), letters: true},
		{TaskInfo: TaskInfo{Name: "letters1960",
			Description: fmt.Sprintf("the 1960 deck as printed cards: A–Z, card j of a letter in Go Regular (j even) or Go Mono (j odd), each set in the card holder up to ±%.0f%% of the card off centre and ±%.0f° askew, same size; every card a different card. The 1960 Mark I: error-free on one typeface, 85%% with two", 100*holderShift, holderTilt),
			Classes:     alphabet()},
			draw: lettersOf(az, []int{faceRegular, faceMono}, holder), letters: true},
		{TaskInfo: TaskInfo{Name: "letters1960-regular",
			Description: "letters1960 in Go Regular only (one typeface; test on letters1960-mono cards for a cross-typeface test)",
			Classes:     alphabet()},
			draw: lettersOf(az, []int{faceRegular}, holder), letters: true},
		{TaskInfo: TaskInfo{Name: "letters1960-mono",
			Description: "letters1960 in Go Mono only",
			Classes:     alphabet()},
			draw: lettersOf(az, []int{faceMono}, holder), letters: true},
		{TaskInfo: TaskInfo{Name: "e-f",
			Description: "E or F in both typefaces, jittered as in letters",
			Classes:     []string{"E", "F"}},
			draw: lettersOf("EF", []int{faceRegular, faceMono}, jittered), letters: true},
		{TaskInfo: TaskInfo{Name: "x-e",
			Description: "X or E in both typefaces, turned through a random angle and jittered as in letters",
			Classes:     []string{"X", "E"}},
			draw: lettersOf("XE", []int{faceRegular, faceMono}, placement{scale: jitterScale, shift: jitterShift, spin: true}), letters: true},
		{TaskInfo: TaskInfo{Name: "mp-four",
			Description: fmt.Sprintf("Minsky and Papert's four figures (1969): three strands %d cells long joined at each end top–middle or middle–bottom; connected (X01, X10) or not (X00, X11); no perceptron whose A-units each see less than the figure's span can tell them all apart (mark1 limits figures)", FourDefaultLength),
			Classes:     []string{"disconnected", "connected"}},
			draw: func(c *card, _ []*typeface, class, j int, _ *rand.Rand) {
				i := j % 2 // class 0: X00, X11; class 1: X01, X10
				drawFour(c, FourDefaultLength, i, i^class)
			}},
		{TaskInfo: TaskInfo{Name: "ideal-environment",
			Description: "PR58's ideal environment: each cell of the card inked at random with probability 0.2, whatever the class; the labels are arbitrary, so nothing can be generalised (P_g is chance) and P_r measures memory alone",
			Classes:     []string{"a", "b"}},
			draw: func(c *card, _ []*typeface, _, _ int, rng *rand.Rand) { drawRandomPoints(c, 0.2, rng) }},
	}
}

// Tasks lists the built-in tasks, leftright first.
func Tasks() []TaskInfo {
	var out []TaskInfo
	for _, t := range taskTable() {
		out = append(out, t.TaskInfo)
	}
	return out
}

// Generate draws perClass samples of each class of the named task on square
// white cards of size × size pixels (20 is the retina's size), dark ink
// antialiased to grey. Samples are interleaved by class: sample i has label
// i mod len(Classes). Each sample's random choices come from its own stream,
// derived from seed, the task, the class and its number within the class,
// so the same seed gives identical pixels, and a larger perClass only adds
// samples after the ones a smaller one gives.
//
// It returns an error for an unknown task (listing the known ones), perClass
// below 1, size outside [8, 4096], or a set over the default Limits.
func Generate(task string, perClass, size int, seed uint64) (*Dataset, error) {
	return GenerateContext(context.Background(), task, perClass, size, seed)
}

// GenerateContext is Generate stopped by ctx: it looks at ctx before each
// card and returns ctx's error once it is cancelled.
func GenerateContext(ctx context.Context, task string, perClass, size int, seed uint64) (*Dataset, error) {
	tasks := taskTable()
	i := slices.IndexFunc(tasks, func(t taskDef) bool { return t.Name == task })
	if i < 0 {
		return nil, fmt.Errorf("images: unknown task %q; the tasks are %s", task, strings.Join(TaskNames(), ", "))
	}
	t := tasks[i]
	if perClass < 1 {
		return nil, fmt.Errorf("images: task %s: %d samples per class; want at least 1", task, perClass)
	}
	if size < minCardSize || size > maxCardSize {
		return nil, fmt.Errorf("images: task %s: card size %d; want %d to %d pixels", task, size, minCardSize, maxCardSize)
	}
	n, ok := limit.Mul(perClass, len(t.Classes), DefaultMaxSamples)
	if !ok {
		return nil, fmt.Errorf("images: task %s: %d samples per class × %d classes exceeds the limit of %d samples", task, perClass, len(t.Classes), DefaultMaxSamples)
	}
	if _, ok := limit.Mul(n, size*size, DefaultMaxValues); !ok {
		return nil, fmt.Errorf("images: task %s: %d cards of %dx%d pixels exceed the limit of %d pixels", task, n, size, size, DefaultMaxValues)
	}
	var faces []*typeface
	if t.letters {
		var err error
		if faces, err = typefaces(); err != nil {
			return nil, err
		}
	}
	h := fnv.New64a()
	h.Write([]byte(task))
	taskHash := h.Sum64()
	d := &Dataset{Name: task, Classes: slices.Clone(t.Classes), Samples: make([]Sample, 0, n)}
	c := newCard(size)
	for j := range perClass {
		for class := range t.Classes {
			if atomicfile.Done(ctx) { // by the Done channel, as the readers of data look
				return nil, ctx.Err()
			}
			clear(c.ink.Pix)
			rng := rand.New(rand.NewPCG(seed, sampleStream(taskHash, class, j)))
			t.draw(c, faces, class, j, rng)
			d.Samples = append(d.Samples, Sample{
				Image:  c.gray(),
				Label:  class,
				Source: fmt.Sprintf("task %s #%d", task, len(d.Samples)),
			})
		}
	}
	return d, nil
}

// sampleStream mixes the task, class and sample number into a PCG stream
// selector (SplitMix64's finaliser).
func sampleStream(taskHash uint64, class, j int) uint64 {
	z := taskHash ^ uint64(class)<<40 ^ uint64(j)
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// drawLeftRight inks a square with integer corners in the left half of the
// card, or the right half if right. Its side is 20–40% of the card (4 to 8
// pixels on 20) and it lies wholly inside its half.
func drawLeftRight(c *card, right bool, rng *rand.Rand) {
	lo := max(1, int(math.Round(0.2*float64(c.size))))
	hi := max(lo, int(math.Round(0.4*float64(c.size))))
	s := lo + rng.IntN(hi-lo+1)
	half := c.size / 2 // the left half is [0, half), the right [size-half, size)
	x := rng.IntN(half - s + 1)
	if right {
		x += c.size - half
	}
	y := rng.IntN(c.size - s + 1)
	c.rect(float64(x), float64(y), float64(x+s), float64(y+s))
}

// drawRandomPoints inks each pixel of the card with probability p.
func drawRandomPoints(c *card, p float64, rng *rand.Rand) {
	for y := range c.size {
		for x := range c.size {
			if rng.Float64() < p {
				c.rect(float64(x), float64(y), float64(x+1), float64(y+1))
			}
		}
	}
}

// drawShape inks the named filled shape, inscribed in a square box whose
// side is 50–84% of the card, at a random position wholly on the card. The
// triangle is equilateral, point up; the diamond is the square turned 45°.
func drawShape(c *card, shape string, rng *rand.Rand) {
	size := float64(c.size)
	r := size * (0.25 + 0.17*rng.Float64()) // half the box's side
	const margin = 0.5
	cx := r + margin + rng.Float64()*(size-2*(r+margin))
	cy := r + margin + rng.Float64()*(size-2*(r+margin))
	switch shape {
	case "square":
		c.rect(cx-r, cy-r, cx+r, cy+r)
	case "circle":
		c.fill(circle(cx, cy, r), identity())
	case "diamond":
		c.fill(polygon([2]float64{cx, cy - r}, [2]float64{cx + r, cy}, [2]float64{cx, cy + r}, [2]float64{cx - r, cy}), identity())
	case "triangle":
		h := r * math.Sqrt(3) // height of the equilateral triangle of side 2r
		top := cy - h/2
		c.fill(polygon([2]float64{cx, top}, [2]float64{cx + r, top + h}, [2]float64{cx - r, top + h}), identity())
	default:
		panic("images: unknown shape " + shape)
	}
}

// drawLetter inks capital letter (0 for A) of face, centred, then placed
// as pl says. The random numbers are drawn in the same order whatever the
// placement, and the shift is clamped so the letter's box stays on the
// card.
func drawLetter(c *card, face *typeface, letter int, pl placement, rng *rand.Rand) {
	sc := 1 + pl.scale*(2*rng.Float64()-1)
	dx := pl.shift * (2*rng.Float64() - 1)
	dy := pl.shift * (2*rng.Float64() - 1)
	u := rng.Float64()
	theta := pl.tilt * math.Pi / 180 * (2*u - 1)
	if pl.spin {
		theta = 2 * math.Pi * u
	}
	g := &face.letters[letter]
	size := float64(c.size)
	sin, cos := math.Sincos(theta)
	// The box of the turned glyph box, in em units.
	w := math.Abs(g.width()*cos) + math.Abs(g.height()*sin)
	h := math.Abs(g.width()*sin) + math.Abs(g.height()*cos)
	k := min(letterFill*size/face.capHeight*sc, letterMaxFill*size/max(w, h))
	room := func(extent float64) float64 { return max(0, (size-extent*k)/2) }
	dx = min(max(dx*size, -room(w)), room(w))
	dy = min(max(dy*size, -room(h)), room(h))
	gx, gy := (g.minX+g.maxX)/2, (g.minY+g.maxY)/2
	// p ↦ k·R(θ)·(p − g) + centre
	m := affine{
		a: k * cos, b: -k * sin, d: k * sin, e: k * cos,
	}
	m.c = size/2 + dx - (m.a*gx + m.b*gy)
	m.f = size/2 + dy - (m.d*gx + m.e*gy)
	c.fill(g.outline, m)
}
