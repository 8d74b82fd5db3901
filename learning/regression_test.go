package learning

import (
	"math"
	"testing"
)

// TestRegressionScores checks the scores against values worked by hand and
// scikit-learn's r2_score (r2_score([3, -0.5, 2, 7], [2.5, 0.0, 2, 8]) =
// 0.9486081370449679; Python's statistics.correlation squared: 0.9699681653424412).
func TestRegressionScores(t *testing.T) {
	tests := []struct {
		name         string
		p, z         []float64
		mse, r2, sqc float64
	}{
		{"sklearn doc", []float64{2.5, 0, 2, 8}, []float64{3, -0.5, 2, 7}, 0.375, 0.9486081370449679, 0.9699681653424412},
		{"perfect", []float64{1, 2, 3}, []float64{1, 2, 3}, 0, 1, 1},
		{"mean", []float64{2, 2, 2}, []float64{1, 2, 3}, 2.0 / 3, 0, math.NaN()},
		{"reversed", []float64{3, 2, 1}, []float64{1, 2, 3}, 8.0 / 3, -3, 1},
		{"constant truth", []float64{1, 2}, []float64{5, 5}, 12.5, math.NaN(), math.NaN()},
	}
	same := func(a, b float64) bool {
		return (math.IsNaN(a) && math.IsNaN(b)) || math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b))
	}
	for _, tt := range tests {
		got := RegressionScores(tt.p, tt.z)
		if !same(got.MSE, tt.mse) || !same(got.R2, tt.r2) || !same(got.SquaredCorrelation, tt.sqc) {
			t.Errorf("%s: %+v; want MSE %v, R² %v, r² %v", tt.name, got, tt.mse, tt.r2, tt.sqc)
		}
	}
}
