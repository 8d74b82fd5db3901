package svm

import "golang.org/x/sys/cpu"

// useSelectAVX2 says whether selectPair's second loop runs four entries
// at a time (selectJAVX2).
var useSelectAVX2 = cpu.X86.HasAVX2

// selectJAVX2 is selectPair's second loop in four lanes (selectj_amd64.s).
//
//go:noescape
func selectJAVX2(grad, low, qd []float64, qi []float32, c *[12]float64, out *[16]float64)

// addRowsAVX2 is step's update of the gradient, four entries at a time
// (selectj_amd64.s).
//
//go:noescape
func addRowsAVX2(grad []float64, qi, qj []float32, di, dj float64)

// selectIAVX2 is selectPair's first loop in four lanes (selectj_amd64.s).
//
//go:noescape
func selectIAVX2(grad, up []float64, c *[12]float64, out *[16]float64)
