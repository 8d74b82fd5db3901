package curves_test

import (
	"fmt"

	"mark1/curves"
)

// RT58's worked point from the constants solved for it: 100 A-units per
// set, 100 squares and 100 circles.
func ExampleRT58() {
	c := curves.RT58(100)
	fmt.Printf("P_r %.2f, P_g %.2f, limit %.3f\n", curves.P(1, c, 100), curves.P(1, c.Generalisation(), 100), c.Limit())
	// Output: P_r 0.92, P_g 0.85, limit 0.887
}

// PR58's Fig. 10 at n_sr = 100: γ above α above β.
func ExampleVariableGamma() {
	ne := curves.Fig10Ne()
	pa, q := curves.Fig10.Pa, curves.Fig10.Q
	o := curves.Overlap{Responses: curves.Fig10.Responses, Omega: curves.Fig10.Omega}
	for _, s := range []struct {
		name string
		c    curves.Constants
	}{
		{"α", curves.VariableAlpha(pa, ne, q, o)},
		{"β", curves.VariableBeta(pa, ne, q, o)},
		{"γ", curves.VariableGamma(pa, ne, o)},
	} {
		fmt.Printf("%s %.3f\n", s.name, curves.P(curves.PNar(pa, ne), s.c, 100))
	}
	// Output:
	// α 0.556
	// β 0.504
	// γ 0.726
}

// Eq. 11 in a differentiated environment: P_r and P_g tend to one limit.
func ExampleDifferentiated() {
	s := curves.PcStats{Pc11: 0.16, Pc12: 0.016, VarS11: 0.0015, VarS12: 0.00025, VarA11: 0.0075, VarA12: 0.00076}
	c := curves.Differentiated(s, 0.047, 256)
	fmt.Printf("n_sr 10: P_r %.3f, P_g %.3f; limit %.3f\n", curves.P(1, c, 10), curves.P(1, c.Generalisation(), 10), c.Limit())
	// Output: n_sr 10: P_r 1.000, P_g 0.991; limit 0.998
}
