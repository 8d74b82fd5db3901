package learning_test

import (
	"math"
	"math/rand/v2"

	"mark1/learning"
)

// ptPlanted draws n points uniformly from [−1, 1]^dim labelled by a random
// unit separator w* (and a bias b* in [−0.3, 0.3] when bias is set), keeping
// only the points at distance ≥ gamma from the hyperplane.
func ptPlanted(seed uint64, n, dim int, gamma float64, bias bool) (d *learning.Data, w []float64, b float64) {
	r := rand.New(rand.NewPCG(seed, 1))
	w = make([]float64, dim)
	var norm float64
	for j := range w {
		w[j] = r.NormFloat64()
		norm += w[j] * w[j]
	}
	for j := range w {
		w[j] /= math.Sqrt(norm)
	}
	if bias {
		b = 0.6*r.Float64() - 0.3
	}
	d = &learning.Data{Classes: 2}
	for len(d.X) < n {
		x := make([]float64, dim)
		var f float64
		for j := range x {
			x[j] = 2*r.Float64() - 1
			f += w[j] * x[j]
		}
		f += b
		if math.Abs(f) < gamma {
			continue
		}
		y := 0
		if f > 0 {
			y = 1
		}
		d.X = append(d.X, x)
		d.Y = append(d.Y, y)
	}
	return d, w, b
}

// ptNoisy is ptPlanted without a margin and with each label flipped with
// probability flip.
func ptNoisy(seed uint64, n, dim int, flip float64) *learning.Data {
	d, _, _ := ptPlanted(seed, n, dim, 0, true)
	r := rand.New(rand.NewPCG(seed, 2))
	for i := range d.Y {
		if r.Float64() < flip {
			d.Y[i] = 1 - d.Y[i]
		}
	}
	return d
}

// ptBlobs draws n points around k well separated centres (the unit vectors
// ±e_j scaled by 3), one class per centre.
func ptBlobs(seed uint64, n, dim, k int, spread float64) *learning.Data {
	r := rand.New(rand.NewPCG(seed, 3))
	d := &learning.Data{Classes: k}
	for i := range n {
		c := i % k
		x := make([]float64, dim)
		for j := range x {
			x[j] = spread * r.NormFloat64()
		}
		if c%2 == 0 {
			x[c/2] += 3
		} else {
			x[c/2] -= 3
		}
		d.X = append(d.X, x)
		d.Y = append(d.Y, c)
	}
	return d
}

// ptXOR is the XOR problem, each corner repeated reps times.
func ptXOR(reps int) *learning.Data {
	d := &learning.Data{Classes: 2}
	for range reps {
		d.X = append(d.X, []float64{0, 0}, []float64{1, 1}, []float64{0, 1}, []float64{1, 0})
		d.Y = append(d.Y, 0, 0, 1, 1)
	}
	return d
}

// ptErrors returns the fraction of rows of d that m misclassifies.
func ptErrors(m learning.Model, d *learning.Data) float64 {
	n := 0
	for i, x := range d.X {
		if m.Predict(x) != d.Y[i] {
			n++
		}
	}
	return float64(n) / float64(len(d.X))
}
