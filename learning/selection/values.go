package selection

import (
	"context"
	"fmt"
	"math/rand/v2"

	"mark1/dataset"
	"mark1/learning"
)

// RegressionFolds returns the fold, in [0, k), of each of n rows for the
// cross-validation of a regression: plain folds, not stratified (a target
// is a number, not a class), the rows shuffled with seed and dealt as
// LIBSVM's svm_cross_validation deals a regression's (fold f gets rows
// [n·f/k, n·(f+1)/k) of the shuffled order). It returns a *FoldError when
// k < 2 or there are fewer than k rows.
func RegressionFolds(n, k int, seed uint64) ([]int, error) {
	if k < 2 {
		return nil, &FoldError{Folds: k, Class: -1}
	}
	if n < k {
		return nil, &FoldError{Folds: k, Class: -2, Rows: n}
	}
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	rng := rand.New(rand.NewPCG(seed, 0xf01d5))
	rng.Shuffle(n, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	fold := make([]int, n)
	for f := range k {
		for _, i := range perm[n*f/k : n*(f+1)/k] {
			fold[i] = f
		}
	}
	return fold, nil
}

// A ValueFitFunc trains a regression on train's rows with targets z (one a
// row) and returns its predicted value for every row of test. Its answers
// must depend on its arguments alone.
type ValueFitFunc func(ctx context.Context, train *dataset.Set, z []float64, test *dataset.Set) ([]float64, error)

// RegressionCV is what CrossValidateRegression found: every row predicted
// by the model trained without its fold, scored together as svm-train -v
// scores a regression (learning.Regression: the mean squared error, R²,
// the squared correlation coefficient).
type RegressionCV struct {
	Folds int       `json:"folds"`
	Rows  int       `json:"rows"`
	Seed  uint64    `json:"seed"`
	Pred  []float64 `json:"-"`
	learning.Regression
}

// CrossValidateRegression runs k-fold cross-validation of a regression on
// s with targets z (one a row): RegressionFolds with seed, then fit on the
// other folds for each fold, in fold order. It stops with ctx's error when
// ctx is cancelled.
func CrossValidateRegression(ctx context.Context, s *dataset.Set, z []float64, k int, seed uint64, fit ValueFitFunc) (*RegressionCV, error) {
	if len(z) != s.Rows() {
		panic(fmt.Sprintf("selection: CrossValidateRegression: %d targets for %d rows", len(z), s.Rows()))
	}
	folds, err := RegressionFolds(s.Rows(), k, seed)
	if err != nil {
		return nil, err
	}
	pred := make([]float64, s.Rows())
	for f := range k {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var tr, te []int
		for r, g := range folds {
			if g == f {
				te = append(te, r)
			} else {
				tr = append(tr, r)
			}
		}
		zt := make([]float64, len(tr))
		for i, r := range tr {
			zt[i] = z[r]
		}
		p, err := fit(ctx, s.Subset(tr), zt, s.Subset(te))
		if err != nil {
			return nil, fmt.Errorf("fold %d: %w", f, err)
		}
		if len(p) != len(te) {
			return nil, fmt.Errorf("fold %d: %d predictions for %d rows", f, len(p), len(te))
		}
		for i, r := range te {
			pred[r] = p[i]
		}
	}
	return &RegressionCV{Folds: k, Rows: s.Rows(), Seed: seed, Pred: pred, Regression: learning.RegressionScores(pred, z)}, nil
}
