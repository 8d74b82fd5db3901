//go:build !amd64

package vexp

// expAVX2 replaces none: Exp calls math.Exp for every value.
func expAVX2(x []float64) int { return 0 }
