package selection

import (
	"fmt"
	"math/rand/v2"
)

// FoldError is Folds' error: too few rows of a class for the folds asked.
type FoldError struct {
	Folds int // the folds asked for
	Class int // the class with too few rows (-1 when the problem is the fold count, -2 the rows of a regression)
	Rows  int // its rows
}

// Error says which class has too few rows.
func (e *FoldError) Error() string {
	switch e.Class {
	case -1:
		return fmt.Sprintf("folds %d out of range: want at least 2", e.Folds)
	case -2:
		return fmt.Sprintf("folds %d: %d rows; cross-validation needs at least one row in every fold", e.Folds, e.Rows)
	}
	return fmt.Sprintf("folds %d: class %d has %d rows; stratified cross-validation needs at least one row of every class in every fold", e.Folds, e.Class, e.Rows)
}

// Folds returns the fold, in [0, k), of every row: stratified by class
// (labels[i] in [0, classes)), each class's rows shuffled with seed and
// dealt as LIBSVM's svm_cross_validation deals them (fold f gets rows
// [n·f/k, n·(f+1)/k) of a class of n). With k the number of rows it is
// leave-one-out: row i is fold i. It returns a *FoldError when k < 2 or,
// short of leave-one-out, a class has fewer than k rows. It panics if a label is out of range.
func Folds(labels []int, classes, k int, seed uint64) ([]int, error) {
	if k < 2 {
		return nil, &FoldError{Folds: k, Class: -1}
	}
	if k == len(labels) { // leave-one-out: every row its own fold, nothing to stratify
		fold := make([]int, k)
		for i, c := range labels {
			if c < 0 || c >= classes {
				panic(fmt.Sprintf("selection: Folds: row %d: label %d out of range [0, %d)", i, c, classes))
			}
			fold[i] = i
		}
		return fold, nil
	}
	byClass := make([][]int, classes)
	for i, c := range labels {
		if c < 0 || c >= classes {
			panic(fmt.Sprintf("selection: Folds: row %d: label %d out of range [0, %d)", i, c, classes))
		}
		byClass[c] = append(byClass[c], i)
	}
	rng := rand.New(rand.NewPCG(seed, 0xf01d5))
	fold := make([]int, len(labels))
	for c, idx := range byClass {
		n := len(idx)
		if n < k {
			return nil, &FoldError{Folds: k, Class: c, Rows: n}
		}
		rng.Shuffle(n, func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
		for f := range k {
			for _, i := range idx[n*f/k : n*(f+1)/k] {
				fold[i] = f
			}
		}
	}
	return fold, nil
}
