//go:build !amd64

package svm

const useDotAtAVX = false

func dotAtAVX(w []float64, idx []int32, val []float64) float64 {
	panic("svm: dotAtAVX without amd64")
}

func dotsAtAVX(dst, w []float64, idx [][]int32, val [][]float64) {
	panic("svm: dotsAtAVX without amd64")
}
