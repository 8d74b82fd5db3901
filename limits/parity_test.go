package limits

import (
	"fmt"
	"testing"
)

func TestParityOrderIsK(t *testing.T) {
	for k := 1; k <= 8; k++ {
		r, err := ParityOrder(k)
		if err != nil {
			t.Fatalf("k = %d: %v", k, err)
		}
		if r.Order != k || !r.Checked {
			t.Errorf("k = %d: order %d (checked %v); want %d", k, r.Order, r.Checked, k)
		}
		for j, ok := range r.Feasible {
			if ok != (j == k) {
				t.Errorf("k = %d: order %d feasible = %v", k, j, ok)
			}
		}
	}
}

// TestParityCertificatesCanFail: the exact checks reject a wrong answer.
func TestParityCertificatesCanFail(t *testing.T) {
	a := make([]int64, 1<<3)
	a[0], a[1], a[2], a[4] = -1, 2, 2, 2 // order 1: wrong on {0,1}
	if checkParityCoefficients(3, a) == nil {
		t.Error("a wrong order-1 solution passed the exact check")
	}
	y, err := parityDual(3, 2)
	if err != nil {
		t.Fatal(err)
	}
	if err := checkParityDual(3, 2, y); err != nil {
		t.Fatal(err)
	}
	if checkParityDual(3, 3, y) == nil {
		t.Error("the order-2 certificate passed as a certificate against order 3")
	}
}

func ExampleParityOrder() {
	r, err := ParityOrder(3)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("order", r.Order, "feasible by order", r.Feasible, "checked", r.Checked)
	fmt.Println("Farkas vector", r.Dual)
	// Output:
	// order 3 feasible by order [false false false true] checked true
	// Farkas vector [1/8 1/8 1/8 1/8 1/8 1/8 1/8 1/8]
}
