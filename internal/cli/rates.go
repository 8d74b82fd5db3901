package cli

import (
	"fmt"
	"math"

	"mark1/learning"
)

// rateCI formats an accuracy p measured on n cards with its 95% Wilson
// interval: "71.9% (95% CI 64.3–78.6%)".
func rateCI(p float64, n int) string {
	if n < 1 || math.IsNaN(p) {
		return "-"
	}
	right := int(math.Round(p * float64(n)))
	lo, hi := learning.Wilson(right, n)
	return fmt.Sprintf("%.1f%% (95%% CI %.1f–%.1f%%)", 100*p, 100*lo, 100*hi)
}

// ciRange formats only the 95% Wilson interval of p on n cards, "64–79%".
func ciRange(p float64, n int) string {
	if n < 1 || math.IsNaN(p) {
		return "-"
	}
	lo, hi := learning.Wilson(int(math.Round(p*float64(n))), n)
	return fmt.Sprintf("%.0f–%.0f%%", 100*lo, 100*hi)
}

// rate formats a learning.Rate as rateCI does: "71.9% (95% CI 64.3–78.6%)".
func rate(r learning.Rate) string {
	if r.N < 1 || math.IsNaN(r.P) {
		return "-"
	}
	return fmt.Sprintf("%.1f%% (95%% CI %.1f–%.1f%%)", 100*r.P, 100*r.Lo, 100*r.Hi)
}
