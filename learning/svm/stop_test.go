package svm

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"mark1/learning"
	"mark1/learning/kernel"
)

// stopRows returns n random float32 rows of dim features and labels ±1 in
// turn.
func stopRows(t *testing.T, n, dim int) (*learning.Float32, []float64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(4, 39))
	X := make([][]float64, n)
	y := make([]float64, n)
	for i := range X {
		X[i] = make([]float64, dim)
		for k := range X[i] {
			X[i][k] = rng.Float64()
		}
		y[i] = float64(1 - 2*(i%2))
	}
	r, err := learning.NewFloat32(X)
	if err != nil {
		t.Fatal(err)
	}
	return r, y
}

// TestLongStretchesStop: the solver's stretches of many kernel rows
// outside its iterations — a warm start's gradient (a row over every
// variable for each α ≠ 0) and the gradient rebuilt when the shrunk
// variables come back (both of its ways round) — look at the context
// every window of rows, as does ‖w‖² of the solution (O(SVs²) kernel
// values, TestW2StopsPromptly): cancelled, they return its error having computed
// less than a window of rows, where they would compute hundreds.
func TestLongStretchesStop(t *testing.T) {
	const n, dim = 600, 20
	r, y := stopRows(t, n, dim)
	yy, err := binaryLabels(y)
	if err != nil {
		t.Fatal(err)
	}
	free := func(p *problem, active int) {
		p.cp, p.cn = 1, 1
		for i := range p.alpha {
			p.alpha[i] = 0.5
			p.setStatus(i)
		}
		p.active = active
	}
	tests := []struct {
		name string
		run  func(ctx context.Context, p *problem) error
	}{
		{"warm start's gradient", func(ctx context.Context, p *problem) error {
			alpha0 := make([]float64, n)
			for i := range alpha0 {
				alpha0[i] = 0.5
			}
			_, err := p.run(ctx, 1, 1, alpha0, nil)
			return err
		}},
		{"gradient rebuilt over the shrunk variables", func(ctx context.Context, p *problem) error {
			free(p, 3*n/4) // many free variables: the rows of the shrunk ones
			return p.reconstruct(ctx)
		}},
		{"gradient rebuilt from the free variables", func(ctx context.Context, p *problem) error {
			free(p, n/4) // few active: the free ones' rows
			return p.reconstruct(ctx)
		}},
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range tests {
		for _, ctx := range []context.Context{cancelled, context.Background()} {
			p := newProblem(r, nil, nil, yy, kernel.Gaussian{Sigma: 2}, Settings{C: 1, CacheMB: 100, Eps: 1e-3, rowThreads: 1})
			err := tc.run(ctx, p)
			rows := 0
			for _, row := range p.c.rows {
				if row != nil {
					rows++
				}
			}
			switch {
			case ctx == cancelled && (!errors.Is(err, context.Canceled) || rows >= window):
				t.Errorf("%s, cancelled: %v after %d kernel rows; want context.Canceled within %d", tc.name, err, rows, window)
			case ctx != cancelled && (err != nil || rows < 8*window):
				t.Errorf("%s: %v after %d kernel rows; want no error after more than %d", tc.name, err, rows, 8*window)
			}
		}
	}
}

// TestW2StopsPromptly interrupts ‖w‖² of a machine whose every one of
// 3,000 grey rows is a support vector (millions of kernel values, each
// its own dot product of bytes): it returns the context's error within a
// small part of the time it takes whole, on grey, float32 and sparse rows.
func TestW2StopsPromptly(t *testing.T) {
	if testing.Short() {
		t.Skip("millions of kernel values")
	}
	const n, dim = 3000, 400
	f, y := stopRows(t, n, dim)
	yy, err := binaryLabels(y)
	if err != nil {
		t.Fatal(err)
	}
	b := make([]uint8, n*dim)
	var start []int
	var index []int32
	var value []float64
	start = append(start, 0)
	for i := range b {
		b[i] = uint8(f.V[i] * 255)
		if i%dim%3 == 0 {
			index, value = append(index, int32(i%dim)), append(value, float64(f.V[i]))
		}
		if i%dim == dim-1 {
			start = append(start, len(index))
		}
	}
	g, err := learning.GreyOf(dim, b)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := learning.NewSparse(dim, start, index, value)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []learning.Rows{g, f, sp} {
		p := newProblem(r, nil, nil, yy, kernel.Gaussian{Sigma: 8}, Settings{C: 1, CacheMB: 1, rowThreads: 1})
		for i := range p.alpha {
			p.alpha[i] = 0.5
		}
		// Three tries: on a loaded machine one run can be descheduled for
		// longer than the bound; without the checks every try takes the
		// whole time.
		var failure string
		for range 3 {
			begin := time.Now()
			if _, err := p.w2(context.Background()); err != nil {
				t.Fatal(err)
			}
			whole := time.Since(begin)
			ctx, cancel := context.WithTimeout(context.Background(), whole/20)
			begin = time.Now()
			_, err := p.w2(ctx)
			took := time.Since(begin)
			cancel()
			t.Logf("%T: %v whole, %v interrupted", r, whole, took)
			if failure = ""; !errors.Is(err, context.DeadlineExceeded) || took > whole/3 {
				failure = fmt.Sprintf("%T: interrupted after %v: %v after %v; want context.DeadlineExceeded well within the %v of the whole", r, whole/20, err, took, whole)
				continue
			}
			break
		}
		if failure != "" {
			t.Error(failure)
		}
	}
}

// TestWarmSolveStopsPromptly interrupts a warm-started solve whose start
// (the gradient of every α ≠ 0, thousands of kernel rows) takes most of a
// second: it returns the context's error within a small part of that
// time, as it does within its iterations.
func TestWarmSolveStopsPromptly(t *testing.T) {
	if testing.Short() {
		t.Skip("a solve of 3,000 rows")
	}
	const n, dim = 3000, 400
	r, y := stopRows(t, n, dim)
	alpha := make([]float64, n)
	for i := range alpha {
		alpha[i] = 0.5
	}
	s := Settings{C: 1, CacheMB: 1, MaxIter: 1}
	k := kernel.Gaussian{Sigma: 8}
	start := time.Now()
	if _, err := SolveRowsFrom(context.Background(), r, y, k, s, alpha); err != nil {
		t.Fatal(err)
	}
	whole := time.Since(start) // the start's gradient and one iteration
	ctx, cancel := context.WithTimeout(context.Background(), whole/20)
	defer cancel()
	start = time.Now()
	_, err := SolveRowsFrom(ctx, r, y, k, s, alpha)
	if took := time.Since(start); !errors.Is(err, context.DeadlineExceeded) || took > whole/3 {
		t.Errorf("interrupted after %v: %v after %v; want context.DeadlineExceeded well within the %v of the start", whole/20, err, took, whole)
	}
}
