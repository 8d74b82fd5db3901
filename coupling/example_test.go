package coupling_test

import (
	"fmt"

	"mark1/coupling"
)

// Two stimuli follow each other, j then k; the A_I units 0 and 1 fire for
// j, unit 2 for k. After one step of the rule the couplings from j's units
// to A_II unit 2 are η·Δt each, and together they bring it to θ: A_II unit 2
// now fires for j, the stimulus that came before its own.
func Example() {
	l, _ := coupling.New(3, 1)
	j, k := []int{0, 1}, []int{2}
	fmt.Println("A_II for j before:", fire(l, j))
	alpha := l.Input(nil, k)
	phi := make([]float64, len(alpha))
	for nu, a := range alpha {
		phi[nu] = coupling.Phi(a, l.Theta)
	}
	l.Learn(j, phi, 0.5, 0.01, 1)
	fmt.Printf("γ_2 for j: %.2f\n", l.Gamma(j, 2))
	fmt.Println("A_II for j after: ", fire(l, j))
	// Output:
	// A_II for j before: [0 1]
	// γ_2 for j: 1.00
	// A_II for j after:  [0 1 2]
}

func fire(l *coupling.Layer, active []int) []int {
	out, _ := l.Fire(nil, nil, active)
	return out
}
