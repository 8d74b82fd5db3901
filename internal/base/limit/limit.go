// Package limit multiplies the sizes a file's header declares (an IDX
// file's dimensions, a picture's width and height) against a limit, without
// overflow, so that a reader refuses an array before allocating it.
package limit

// Mul returns a*b, or ok == false if a or b is negative or the product
// exceeds limit (which also rules out overflow).
func Mul(a, b, limit int) (p int, ok bool) {
	if a < 0 || b < 0 {
		return 0, false
	}
	if a == 0 || b == 0 {
		return 0, true
	}
	if a > limit/b {
		return 0, false
	}
	return a * b, true
}

// Product multiplies dims, stopping at 1<<62 to avoid overflow; it is for
// messages, which give the size asked for.
func Product(dims []int) int {
	for _, d := range dims {
		if d == 0 {
			return 0
		}
	}
	p := 1
	for _, d := range dims {
		if p > (1<<62)/d {
			return 1 << 62
		}
		p *= d
	}
	return p
}
