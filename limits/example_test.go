package limits_test

import (
	"fmt"
	"os"

	"mark1/limits"
)

// Cover's count for a threshold unit with 2 weights: every labeling of 1
// or 2 points, half of those of 4 (N = 2d, the capacity).
func ExampleCapacityResult_WriteText() {
	r, err := limits.Capacity(2, 5)
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := r.WriteText(os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output:
	// Cover's count in d = 2 dimensions: labelings of N points a threshold unit realises
	//
	//      N     fraction  C(N,d) of 2^N
	//      1     1.000000  2
	//      2     1.000000  4
	//      3     0.750000  6
	//      4     0.500000  8   ← N = 2d: exactly 1/2, the capacity
	//      5     0.312500  10
}
