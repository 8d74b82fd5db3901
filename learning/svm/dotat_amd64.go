package svm

import "golang.org/x/sys/cpu"

// useDotAtAVX says whether dotAt and dotsAt take four products at a time
// (dotsAtAVX).
var useDotAtAVX = cpu.X86.HasAVX

// dotsAtAVX sets dst[r] = dotAt(w, idx[r], val[r]) for r < len(dst), four
// products at a time, the same values to the bit (dotat_amd64.s): idx and
// val at least as long as dst, each val[r] at least as long as idx[r]. On
// rows of 106 non-zeros of 400 features, a dot product takes half the Go
// loop's time (BenchmarkDotAt).
//
//go:noescape
func dotsAtAVX(dst, w []float64, idx [][]int32, val [][]float64)
