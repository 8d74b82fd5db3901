package learning

import "math"

// Regression holds how well predicted values match true ones.
type Regression struct {
	// MSE is the mean squared error Σ(p_i − z_i)²/n (LIBSVM's svm-predict
	// prints it as "Mean squared error").
	MSE float64
	// R2 is the coefficient of determination 1 − Σ(p_i − z_i)²/Σ(z_i − z̄)²
	// (scikit-learn's r2_score): 1 for a perfect fit, 0 for predicting the
	// mean, negative for worse; NaN when all z_i are equal.
	R2 float64
	// SquaredCorrelation is the squared Pearson correlation of p and z
	// (svm-predict's "Squared correlation coefficient"); NaN when either
	// is constant.
	SquaredCorrelation float64
}

// RegressionScores compares predictions p with true values z. It panics if
// their lengths differ; with no values every score is NaN.
func RegressionScores(p, z []float64) Regression {
	if len(p) != len(z) {
		panic("learning: RegressionScores: lengths differ")
	}
	n := float64(len(z))
	if len(z) == 0 {
		return Regression{MSE: math.NaN(), R2: math.NaN(), SquaredCorrelation: math.NaN()}
	}
	var se, sp, sz, spp, szz, spz float64
	for i, v := range p {
		y := z[i]
		se += (v - y) * (v - y)
		sp += v
		sz += y
		spp += v * v
		szz += y * y
		spz += v * y
	}
	mean := sz / n
	var tot float64
	for _, y := range z {
		tot += (y - mean) * (y - mean)
	}
	r := Regression{MSE: se / n, R2: math.NaN(), SquaredCorrelation: math.NaN()}
	if tot > 0 {
		r.R2 = 1 - se/tot
	}
	if d := (n*spp - sp*sp) * (n*szz - sz*sz); d > 0 {
		r.SquaredCorrelation = (n*spz - sp*sz) * (n*spz - sp*sz) / d
	}
	return r
}
