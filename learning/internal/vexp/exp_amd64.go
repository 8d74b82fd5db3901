package vexp

import "golang.org/x/sys/cpu"

// useFMA is math's condition for its FMA path on amd64 (AVX and FMA),
// with AVX2 for the integer steps here; it is set once, when the program
// starts.
var useFMA = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// expAVX2 replaces x[k] by math.Exp(x[k]) four values a step from the
// start while all four lie in [-708, 709], and returns how many it
// replaced (a multiple of 4).
func expAVX2(x []float64) int {
	if !useFMA {
		return 0
	}
	return expAVX2FMA(x)
}

//go:noescape
func expAVX2FMA(x []float64) int
