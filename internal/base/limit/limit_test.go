package limit

import (
	"math"
	"math/big"
	"testing"
)

// Mul and Product agree with exact big-integer products.
func TestMulProduct(t *testing.T) {
	vals := []int{0, 1, 2, 3, 7, 1 << 20, 1<<31 - 1, 1 << 32, 1<<62 - 1, math.MaxInt}
	for _, a := range vals {
		for _, b := range vals {
			exact := new(big.Int).Mul(big.NewInt(int64(a)), big.NewInt(int64(b)))
			for _, lim := range []int{0, 100, 1 << 40, math.MaxInt} {
				p, ok := Mul(a, b, lim)
				want := exact.Cmp(big.NewInt(int64(lim))) <= 0
				if ok != want || (ok && int64(p) != exact.Int64()) {
					t.Errorf("Mul(%d, %d, %d) = %d, %v; exact %s", a, b, lim, p, ok, exact)
				}
			}
			p := Product([]int{a, b})
			capped := big.NewInt(1 << 62)
			if exact.Cmp(capped) > 0 && a != 0 && b != 0 {
				exact = capped
			}
			if int64(p) != exact.Int64() && !(p == 1<<62 && exact.Cmp(capped) >= 0) {
				t.Errorf("Product(%d, %d) = %d; exact %s", a, b, p, exact)
			}
		}
	}
	if _, ok := Mul(-1, 2, 10); ok {
		t.Error("Mul(-1, 2, 10) ok")
	}
}
