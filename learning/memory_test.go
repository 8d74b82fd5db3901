package learning_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"mark1/learning"
	"mark1/learning/kernel"
)

// wideData returns rows with one row per class and the largest feature
// index far out: a small file whose classes × features is huge (issue 26:
// 1,000 classes of 2²⁴ features, 134 GB of perceptron weights from 19 kB).
func wideData(t *testing.T, classes, dim int) *learning.Data {
	t.Helper()
	start := []int{0}
	var idx []int32
	var val []float64
	y := make([]int, classes)
	for i := range classes {
		idx = append(idx, 0, int32(dim-1))
		val = append(val, float64(i%7)+1, 1)
		start = append(start, len(idx))
		y[i] = i
	}
	r, err := learning.NewSparse(dim, start, idx, val)
	if err != nil {
		t.Fatal(err)
	}
	return &learning.Data{Rows: r, Y: y, Classes: classes}
}

// TestMemoryRefusedBeforeAllocation gives every learner of the learning
// package data whose working memory is far over the context's budget: each
// refuses with a *MemoryError naming the need, the budget and the cause
// before allocating (the test would die of an out-of-memory fault if one
// allocated), and fits the same data without a budget when they are small.
func TestMemoryRefusedBeforeAllocation(t *testing.T) {
	const budget = 64 << 20
	ctx := learning.WithMemoryBudget(context.Background(), budget)
	wide := wideData(t, 1000, 1<<24)
	tall := wideData(t, 1<<16, 4) // 65,536 rows × 65,536 machines of kernel state
	tests := []struct {
		name  string
		l     learning.Learner
		d     *learning.Data
		cause string
	}{
		{"perceptron", learning.Perceptron{}, wide, "1000 machines × 16777217 weights"},
		{"averaged", learning.AveragedPerceptron{}, wide, "1000 machines"},
		{"pocket", learning.Pocket{}, wide, "1000 machines"},
		{"voted", learning.VotedPerceptron{}, wide, "1000 machines"},
		{"batch-gd", learning.BatchGD{}, wide, "1000 machines × 16777217 weights"},
		{"kernel perceptron", learning.KernelPerceptron{Kernel: kernel.Linear{}}, tall, "65536 rows × 65536 machines"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.l.Fit(ctx, tt.d, nil)
			var me *learning.MemoryError
			if !errors.As(err, &me) {
				t.Fatalf("err = %v; want a *MemoryError", err)
			}
			if me.Budget != budget || me.Need <= budget {
				t.Errorf("need %d, budget %d; want a need over the budget %d", me.Need, me.Budget, budget)
			}
			for _, w := range []string{tt.cause, "over the budget of 67108864 bytes"} {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q lacks %q", err, w)
				}
			}
		})
	}
	// The same learner on small data within the budget fits.
	small := wideData(t, 3, 8)
	if _, err := (learning.Perceptron{MaxEpochs: 2}).Fit(ctx, small, nil); err != nil {
		t.Errorf("small data within the budget: %v", err)
	}
}

// TestMemoryNeedSaturates: a need past int64 is reported as the largest
// int64, never wrapped around to a small or negative count.
func TestMemoryNeedSaturates(t *testing.T) {
	n := learning.Times(1<<40, 1<<40)
	if n.Bytes() != 1<<63-1 {
		t.Errorf("Times(2^40, 2^40).Bytes() = %d", n.Bytes())
	}
	err := learning.CheckMemory(learning.WithMemoryBudget(context.Background(), 1<<20), "x", n, "y")
	if err == nil || !strings.Contains(err.Error(), "more than 9.2 EB") {
		t.Errorf("err = %v", err)
	}
	if err := learning.CheckMemory(context.Background(), "x", n, "y"); err != nil {
		t.Errorf("without a budget: %v", err)
	}
}

// noisyData returns n rows of dim random features in two classes drawn
// independently of them: no separator, so a perceptron errs on about half
// the rows in every epoch.
func noisyData(t *testing.T, n, dim int) *learning.Data {
	t.Helper()
	rng := rand.New(rand.NewPCG(5, 6))
	start := []int{0}
	var idx []int32
	var val []float64
	y := make([]int, n)
	for i := range n {
		for j := range dim {
			idx = append(idx, int32(j))
			val = append(val, rng.Float64()-0.5)
		}
		start = append(start, len(idx))
		y[i] = rng.IntN(2)
	}
	r, err := learning.NewSparse(dim, start, idx, val)
	if err != nil {
		t.Fatal(err)
	}
	return &learning.Data{Rows: r, Y: y, Classes: 2}
}

// TestVotedHistoryCounted: the voted perceptron keeps one weight vector a
// mistake, which the data's shape does not tell ahead; its history is
// counted before each growth, and a fit on data it cannot separate stops
// with a *MemoryError naming the history once it would pass the budget
// (it was watched only by the CLI's live guard). Within the budget the
// counting changes nothing: the model is the one fitted without a budget.
func TestVotedHistoryCounted(t *testing.T) {
	d := noisyData(t, 400, 200) // about 200 mistakes an epoch: 320 kB of history
	const budget = 8 << 20
	_, err := learning.VotedPerceptron{MaxEpochs: 1000}.Fit(learning.WithMemoryBudget(context.Background(), budget), d, nil)
	var me *learning.MemoryError
	if !errors.As(err, &me) {
		t.Fatalf("err = %v; want a *MemoryError", err)
	}
	t.Log(err)
	if me.Budget != budget || me.Need <= budget || me.Learner != "voted perceptron" {
		t.Errorf("learner %q, need %d, budget %d; want the voted perceptron, a need over %d", me.Learner, me.Need, me.Budget, budget)
	}
	for _, w := range []string{"retired weight vectors of 201 values", "over the budget of 8388608 bytes"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%q lacks %q", err, w)
		}
	}
	// The history it was refused at fills most of the budget: 8 MiB holds
	// 4,969 vectors of 200 weights and their bookkeeping (1,688 bytes
	// each), less the fit's fixed memory and a block of 1 MiB.
	var vectors int
	fmt.Sscanf(err.Error()[strings.Index(err.Error(), ": ")+2:], "%d retired", &vectors)
	if vectors < 4000 || vectors > 4969 {
		t.Errorf("refused at %d vectors; want between 4,000 and 4,969 (the budget's worth)", vectors)
	}

	free, err := learning.VotedPerceptron{MaxEpochs: 5}.Fit(context.Background(), d, nil)
	if err != nil {
		t.Fatal(err)
	}
	held, err := learning.VotedPerceptron{MaxEpochs: 5}.Fit(learning.WithMemoryBudget(context.Background(), 1<<30), d, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, b := free.Model.(*learning.VotedModel), held.Model.(*learning.VotedModel)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("with a budget the model differs: %d vectors, %d without", b.Vectors(), a.Vectors())
	}
}
