package modelfile

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"mark1/learning"
	"mark1/learning/kernel"
	"mark1/learning/svm"
)

// TestPredictStopping: a pair task's votes predicted a block of rows at a
// time are PredictRows's, row for row, on grey, float32 and sparse rows
// of more than two blocks; interrupted, they stop with the context's
// error.
func TestPredictStopping(t *testing.T) {
	const n, dim = 2*voteRows + 300, 12
	rng := rand.New(rand.NewPCG(39, 4))
	grey := make([]uint8, n*dim)
	f32 := make([]float32, n*dim)
	var start []int
	var index []int32
	var value []float64
	start = append(start, 0)
	y := make([]int, n)
	for i := range n {
		y[i] = i % 2
		for k := range dim {
			b := uint8(rng.IntN(256))
			if k%3 != 0 && y[i] == 0 {
				b = 0
			}
			grey[i*dim+k], f32[i*dim+k] = b, float32(b)/255+0.001
			if b != 0 && k%4 == 0 {
				index, value = append(index, int32(k)), append(value, float64(b)/255)
			}
		}
		start = append(start, len(index))
	}
	g, err := learning.GreyOf(dim, grey)
	if err != nil {
		t.Fatal(err)
	}
	f, err := learning.Float32Of(dim, f32)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := learning.NewSparse(dim, start, index, value)
	if err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, rows := range []learning.Rows{g, f, sp} {
		train := learning.Subset(rows, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
		res, err := (svm.Kernel{Kernel: kernel.Gaussian{Sigma: 1}, Settings: svm.Settings{C: 10}}).Fit(context.Background(), &learning.Data{Rows: train, Y: y[:16], Classes: 2}, nil)
		if err != nil {
			t.Fatal(err)
		}
		want, err := PredictRows(res.Model, rows, 0)
		if err != nil {
			t.Fatal(err)
		}
		got, err := predictStopping(context.Background(), res.Model, rows)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%T: votes differ from PredictRows's (%v)", rows, err)
		}
		if _, err := predictStopping(cancelled, res.Model, rows); !errors.Is(err, context.Canceled) {
			t.Errorf("%T, interrupted: %v; want context.Canceled", rows, err)
		}
	}
}
