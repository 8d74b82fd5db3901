//go:build !amd64

package svm

const useDotAtAVX = false

func dotsAtAVX(dst, w []float64, idx [][]int32, val [][]float64) {
	panic("svm: dotsAtAVX without amd64")
}
