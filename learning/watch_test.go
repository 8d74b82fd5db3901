package learning

import (
	"context"
	"math"
	"slices"
	"testing"
)

// notes004 is the worked example of lecture notes 004 in its order; class 1
// is +.
func notes004() *Data {
	return &Data{
		X:       [][]float64{{-1, 2}, {1, 0}, {1, 1}, {-1, 0}, {-1, -2}, {1, -1}},
		Y:       []int{0, 1, 1, 0, 0, 1},
		Classes: 2,
	}
}

// TestPerceptronWatch checks that Watch sees every presentation with the
// weights the notes write (w₂ = (1, −2), w₃ = (2, −1), w₄ = (3, 1)) and that
// watching changes nothing.
func TestPerceptronWatch(t *testing.T) {
	var visits []Visit
	var ws [][]float64
	p := Perceptron{NoBias: true, InOrder: true, Watch: func(v Visit) {
		visits = append(visits, v)
		if v.Mistake {
			ws = append(ws, slices.Clone(v.W))
		}
	}}
	res, err := p.Fit(context.Background(), notes004(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float64{{1, -2}, {2, -1}, {3, 1}}
	if !slices.EqualFunc(ws, want, slices.Equal[[]float64]) {
		t.Errorf("weights after the mistakes: %v; want %v", ws, want)
	}
	if len(visits) != 12 || visits[0].Row != 0 || visits[11].Row != 5 || visits[11].Epoch != 2 {
		t.Errorf("%d visits (first row %d, last row %d epoch %d); want 12, two epochs in order", len(visits), visits[0].Row, visits[11].Row, visits[11].Epoch)
	}
	if visits[2].Score != -1 || !visits[2].Mistake || visits[1].Mistake {
		t.Errorf("visit 3 score %v mistake %v, visit 2 mistake %v; want −1, true, false", visits[2].Score, visits[2].Mistake, visits[1].Mistake)
	}
	plain, _ := Perceptron{NoBias: true, InOrder: true}.Fit(context.Background(), notes004(), nil)
	if !slices.Equal(res.Model.(*LinearModel).W[0], plain.Model.(*LinearModel).W[0]) || res.Updates != plain.Updates {
		t.Errorf("watching changed the run")
	}
}

// TestKernelPerceptronWatch checks the kernel perceptron's visits against
// the linear perceptron's: with the linear kernel they are the same run.
func TestKernelPerceptronWatch(t *testing.T) {
	var lin, ker []Visit
	if _, err := (Perceptron{NoBias: true, InOrder: true, Watch: func(v Visit) { lin = append(lin, v) }}).Fit(context.Background(), notes004(), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := (KernelPerceptron{NoBias: true, InOrder: true, Watch: func(v Visit) { ker = append(ker, v) }}).Fit(context.Background(), notes004(), nil); err != nil {
		t.Fatal(err)
	}
	if len(lin) != len(ker) {
		t.Fatalf("%d linear visits, %d kernel visits", len(lin), len(ker))
	}
	for i := range lin {
		if lin[i].Row != ker[i].Row || lin[i].Score != ker[i].Score || lin[i].Mistake != ker[i].Mistake {
			t.Errorf("visit %d: linear %+v, kernel %+v", i+1, lin[i], ker[i])
		}
	}
}

// TestBatchGDWatch checks the reported steps against the notes' loop done
// by hand on notes 004 without bias: from w = 0 every row is in V, so the
// first step is w = Σ y_i x_i.
func TestBatchGDWatch(t *testing.T) {
	var steps []GDStep
	var ws [][]float64
	g := BatchGD{NoBias: true, Watch: func(s GDStep) {
		steps = append(steps, s)
		ws = append(ws, slices.Clone(s.W))
	}}
	res, err := g.Fit(context.Background(), notes004(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != res.Updates || len(steps) == 0 {
		t.Fatalf("%d steps watched, %d taken", len(steps), res.Updates)
	}
	// Σ y x = (1,−2) + (1,0) + (1,1) + (1,0) + (1,2) + (1,−1) = (6, 0).
	if !slices.Equal(steps[0].V, []int{0, 1, 2, 3, 4, 5}) || !slices.Equal(ws[0], []float64{6, 0}) || steps[0].Risk != 0 {
		t.Errorf("first step: V %v, R %v, w %v; want all six rows, 0, (6, 0)", steps[0].V, steps[0].Risk, ws[0])
	}
	last := res.Model.(*LinearModel).W[0]
	if !slices.Equal(ws[len(ws)-1], last) {
		t.Errorf("last watched w %v, model w %v", ws[len(ws)-1], last)
	}
}

// TestStart checks a given starting point: from the notes' final w = (3, 1)
// nothing changes; from (0, 1) the first presentation, (−1, 2) with label
// −, scores 2, is a mistake, and gives (1, −1). Batch GD from (0, 1) takes
// the notes' step w + ε Σ_{i∈V} y_i x_i.
func TestStart(t *testing.T) {
	res, err := Perceptron{NoBias: true, InOrder: true, Start: []float64{3, 1}}.Fit(context.Background(), notes004(), nil)
	if err != nil || res.Updates != 0 || !res.Status.Converged() || !slices.Equal(res.Model.(*LinearModel).W[0], []float64{3, 1}) {
		t.Errorf("from (3, 1): %v, %d updates, %v", err, res.Updates, res.Summary)
	}
	var first Visit
	var w1 []float64
	p := Perceptron{NoBias: true, InOrder: true, Start: []float64{0, 1}, Watch: func(v Visit) {
		if first.Epoch == 0 {
			first, w1 = v, slices.Clone(v.W)
		}
	}}
	if _, err := p.Fit(context.Background(), notes004(), nil); err != nil {
		t.Fatal(err)
	}
	if first.Score != 2 || !first.Mistake || !slices.Equal(w1, []float64{1, -1}) {
		t.Errorf("from (0, 1): first score %v mistake %v, w %v; want 2, true, (1, −1)", first.Score, first.Mistake, w1)
	}
	// From (0, 1), y·w·x = (−2, 0, 1, 0, 2, −1): V = {1, 2, 4, 6},
	// Σ y x = (1, −2) + (1, 0) + (1, 0) + (1, −1) = (4, −3); ε = 1 gives (4, −2).
	var steps []GDStep
	g := BatchGD{NoBias: true, Start: []float64{0, 1}, Watch: func(s GDStep) {
		s.V = slices.Clone(s.V)
		s.W = slices.Clone(s.W)
		steps = append(steps, s)
	}}
	if _, err := g.Fit(context.Background(), notes004(), nil); err != nil {
		t.Fatal(err)
	}
	if len(steps) == 0 || !slices.Equal(steps[0].V, []int{0, 1, 3, 5}) || !slices.Equal(steps[0].W, []float64{4, -2}) {
		t.Errorf("batch GD from (0, 1): first step %+v; want V = {0, 1, 3, 5}, w = (4, −2)", steps)
	}
	for _, bad := range [][]float64{{1}, {1, 2, 3}, {math.NaN(), 1}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Start %v: no panic", bad)
				}
			}()
			Perceptron{NoBias: true, Start: bad}.Fit(context.Background(), notes004(), nil)
		}()
	}
}
