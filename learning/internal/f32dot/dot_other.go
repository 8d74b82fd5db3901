//go:build !amd64

package f32dot

const useAVX2 = false

func dotAVX2(a, b []float32) float64 { return dotGo(a, b) }

func dotsAVX2(x []float32, rows [][]float32, dst []float64) {
	for r, row := range rows {
		dst[r] = dotGo(x, row)
	}
}
