//go:build !amd64

package svm

const useSelectAVX2 = false

func selectJAVX2(grad, low, qd []float64, qi []float32, c *[12]float64, out *[16]float64) {
	panic("svm: selectJAVX2 without amd64")
}

func addRowsAVX2(grad []float64, qi, qj []float32, di, dj float64) {
	panic("svm: addRowsAVX2 without amd64")
}

func selectIAVX2(grad, up []float64, c *[12]float64, out *[16]float64) {
	panic("svm: selectIAVX2 without amd64")
}
