package svm

import "golang.org/x/sys/cpu"

// useDotAtAVX says whether dotAt takes four products at a time
// (dotat_amd64.s).
var useDotAtAVX = cpu.X86.HasAVX

// dotAtAVX is dotAt four products at a time, the same value to the bit
// (dotat_amd64.s); 1.5 times as fast as the Go loop on 106 non-zeros of
// 400 features (BenchmarkDotAt).
//
//go:noescape
func dotAtAVX(w []float64, idx []int32, val []float64) float64

// dotsAtAVX sets dst[r] = dotAtAVX(w, idx[r], val[r]) for r < len(dst)
// (dotat_amd64.s): idx and val at least as long as dst, each val[r] at
// least as long as idx[r].
//
//go:noescape
func dotsAtAVX(dst, w []float64, idx [][]int32, val [][]float64)
