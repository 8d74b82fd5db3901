package lab

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Generators lists the data sets Generate draws, as the teaching tools do
// (TensorFlow Playground, scikit-learn's make_*): two Gaussian blobs, the
// XOR quadrants, a ring inside a ring, two interleaved spirals, two moons.
func Generators() []string { return []string{"blobs", "xor", "circles", "spiral", "moons"} }

// GenOptions say what Generate draws. The zero value of N means 60.
type GenOptions struct {
	Kind string `json:"kind"`
	// N is the number of points, 2 to MaxGenPoints, half of each class.
	N int `json:"n"`
	// Noise is the standard deviation of Gaussian jitter added to every
	// coordinate, 0 to 2 (the data span about ±4).
	Noise float64 `json:"noise"`
	// LabelNoise is the fraction of labels flipped, 0 to 0.5: that many
	// points, chosen at random, change class.
	LabelNoise float64 `json:"label_noise"`
	Seed       uint64  `json:"seed"`
	// Classes is the number of classes: 0 or 2 draws two (Generate), 3
	// or 4 more (GenerateMulti; every kind but moons).
	Classes int `json:"classes,omitempty"`
}

// MaxGenPoints bounds Generate's points.
const MaxGenPoints = 200

// Check reports an option out of range, naming it.
func (o GenOptions) Check() error {
	switch {
	case !isGenerator(o.Kind):
		return fmt.Errorf("kind %q: want one of %s", o.Kind, strings.Join(Generators(), ", "))
	case o.N != 0 && (o.N < 2 || o.N > MaxGenPoints):
		return fmt.Errorf("n %d out of range [2, %d]", o.N, MaxGenPoints)
	case !(o.Noise >= 0 && o.Noise <= 2):
		return fmt.Errorf("noise %v out of range [0, 2]", o.Noise)
	case !(o.LabelNoise >= 0 && o.LabelNoise <= 0.5):
		return fmt.Errorf("label_noise %v out of range [0, 0.5]", o.LabelNoise)
	case o.Classes != 0 && (o.Classes < 2 || o.Classes > MaxClasses):
		return fmt.Errorf("classes %d out of range [2, %d]", o.Classes, MaxClasses)
	case o.Classes > 2 && o.Kind == "moons":
		return fmt.Errorf("classes %d: two moons are two classes; blobs, xor, circles and spiral draw up to %d", o.Classes, MaxClasses)
	}
	return nil
}

func isGenerator(k string) bool {
	for _, g := range Generators() {
		if g == k {
			return true
		}
	}
	return false
}

// Generate draws a two-class data set from o.Seed: the same options give
// the same points (rounded to 0.01) on every machine.
func Generate(o GenOptions) (Example, error) {
	if err := o.Check(); err != nil {
		return Example{}, err
	}
	if o.Classes > 2 {
		return Example{}, fmt.Errorf("classes %d: Generate draws two classes (GenerateMulti more)", o.Classes)
	}
	if o.N == 0 {
		o.N = 60
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x9e3779b97f4a7c15))
	x := make([][]float64, o.N)
	y := make([]int, o.N)
	for i := range x {
		c := 1 - 2*(i%2) // +1, −1, +1, …
		var p [2]float64
		switch o.Kind {
		case "blobs":
			p = [2]float64{1.5*float64(c) + 0.7*rng.NormFloat64(), 1.2*float64(c) + 0.7*rng.NormFloat64()}
		case "xor":
			for {
				p = [2]float64{6*rng.Float64() - 3, 6*rng.Float64() - 3}
				if math.Abs(p[0]) > 0.3 && math.Abs(p[1]) > 0.3 {
					break
				}
			}
			c = 1
			if p[0]*p[1] < 0 {
				c = -1
			}
		case "circles":
			r, a := 1.0+0.3*rng.Float64(), 2*math.Pi*rng.Float64()
			if c < 0 {
				r = 2.6 + 0.4*rng.Float64()
			}
			p = [2]float64{r * math.Cos(a), r * math.Sin(a)}
		case "spiral":
			p = spiralArm(rng, math.Pi*float64(1-c)/2)
		case "moons":
			p = moon(rng, c > 0)
		}
		x[i] = jitter(rng, p, o.Noise)
		y[i] = c
	}
	flips := int(math.Round(o.LabelNoise * float64(o.N)))
	for _, i := range rng.Perm(o.N)[:flips] {
		y[i] = -y[i]
	}
	name := fmt.Sprintf("%s (n = %d, noise %s, label noise %s, seed %d)", o.Kind, o.N, Num(o.Noise), Num(o.LabelNoise), o.Seed)
	e, err := NewExample(name, x, y)
	if err != nil {
		return Example{}, err
	}
	e.Teaches = generatorTeaches(o.Kind)
	return e, nil
}

// spiralArm draws a point of the spiral arm that starts at angle a0.
func spiralArm(rng *rand.Rand, a0 float64) [2]float64 {
	t := 0.25 + 3.25*rng.Float64()
	a := 1.75*t + a0
	return [2]float64{t * math.Cos(a), t * math.Sin(a)}
}

// moon draws a point of the first moon (the upper one) or the second.
func moon(rng *rand.Rand, first bool) [2]float64 {
	a := math.Pi * rng.Float64()
	if first {
		return [2]float64{2*math.Cos(a) - 1, 2*math.Sin(a) - 0.5}
	}
	return [2]float64{1 - 2*math.Cos(a), 0.5 - 2*math.Sin(a)}
}

// jitter returns p with Gaussian noise of standard deviation noise added
// to each coordinate, rounded to 0.01.
func jitter(rng *rand.Rand, p [2]float64, noise float64) []float64 {
	p[0] += noise * rng.NormFloat64()
	p[1] += noise * rng.NormFloat64()
	return []float64{math.Round(p[0]*100) / 100, math.Round(p[1]*100) / 100}
}

func generatorTeaches(kind string) string {
	switch kind {
	case "blobs":
		return "two Gaussian clouds: linearly separable unless the noise makes them overlap"
	case "xor":
		return "the XOR quadrants: no line separates them; (x·z)² does"
	case "circles":
		return "a ring inside a ring: a Gaussian or (x·z + 1)² kernel separates them"
	case "spiral":
		return "two interleaved spirals: hard even for kernels; a narrow Gaussian follows them"
	}
	return "two moons: curved classes, nearly separable by a line, exactly by a kernel"
}

// GenerateMulti draws a data set of o.Classes classes (2 to MaxClasses)
// from o.Seed, point i of class i mod Classes: Classes blobs around a
// circle, the XOR quadrants (quadrant q of class q mod Classes), rings
// inside rings, or as many interleaved spiral arms. Label noise moves
// that fraction of points, chosen at random, to another class. The
// classes are named 1, 2, ….
func GenerateMulti(o GenOptions) (Multi, error) {
	if err := o.Check(); err != nil {
		return Multi{}, err
	}
	k := max(o.Classes, 2)
	if o.Kind == "moons" && k > 2 {
		return Multi{}, fmt.Errorf("classes %d: two moons are two classes", k)
	}
	if o.N == 0 {
		o.N = 60
	}
	if o.N < k {
		return Multi{}, fmt.Errorf("n %d: fewer points than the %d classes", o.N, k)
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x9e3779b97f4a7c15^uint64(k)))
	x := make([][]float64, o.N)
	y := make([]int, o.N)
	for i := range x {
		c := i % k
		var p [2]float64
		switch o.Kind {
		case "blobs":
			a := math.Pi/4 + 2*math.Pi*float64(c)/float64(k)
			p = [2]float64{2.2*math.Cos(a) + 0.7*rng.NormFloat64(), 2.2*math.Sin(a) + 0.7*rng.NormFloat64()}
		case "xor":
			for {
				p = [2]float64{6*rng.Float64() - 3, 6*rng.Float64() - 3}
				if math.Abs(p[0]) > 0.3 && math.Abs(p[1]) > 0.3 {
					break
				}
			}
			q := 0 // the quadrants counterclockwise from x₁, x₂ > 0
			switch {
			case p[0] < 0 && p[1] > 0:
				q = 1
			case p[0] < 0 && p[1] < 0:
				q = 2
			case p[0] > 0 && p[1] < 0:
				q = 3
			}
			c = q % k
		case "circles":
			r, a := 0.6+3.0*float64(c)/float64(k)+0.3*rng.Float64(), 2*math.Pi*rng.Float64()
			p = [2]float64{r * math.Cos(a), r * math.Sin(a)}
		case "spiral":
			p = spiralArm(rng, 2*math.Pi*float64(c)/float64(k))
		case "moons":
			p = moon(rng, c == 0)
		}
		x[i] = jitter(rng, p, o.Noise)
		y[i] = c
	}
	flips := int(math.Round(o.LabelNoise * float64(o.N)))
	for _, i := range rng.Perm(o.N)[:flips] {
		y[i] = (y[i] + 1 + rng.IntN(k-1)) % k
	}
	classes := make([]string, k)
	for c := range classes {
		classes[c] = strconv.Itoa(c + 1)
	}
	name := fmt.Sprintf("%s, %d classes (n = %d, noise %s, label noise %s, seed %d)", o.Kind, k, o.N, Num(o.Noise), Num(o.LabelNoise), o.Seed)
	// A class the label noise emptied (a few points) is kept out: the
	// classes are those that have points.
	present := map[int]bool{}
	for _, c := range y {
		present[c] = true
	}
	if len(present) < k {
		return Multi{}, fmt.Errorf("%s: label noise left a class with no points; draw more points", name)
	}
	m, err := NewMulti(name, x, y, classes)
	if err != nil {
		return Multi{}, err
	}
	m.Teaches = fmt.Sprintf("%d classes: %s", k, multiTeaches(o.Kind))
	return m, nil
}

func multiTeaches(kind string) string {
	switch kind {
	case "blobs":
		return "Gaussian clouds around a circle: lines separate each from the rest, unless the noise makes them overlap"
	case "xor":
		return "the quadrants: one-vs-rest lines cannot cut one quadrant from three; one-vs-one lines can"
	case "circles":
		return "rings inside rings: the middle rings need a kernel against the rest"
	case "spiral":
		return "interleaved spiral arms: a narrow Gaussian follows them"
	}
	return "two moons"
}
