package f32dot

import "golang.org/x/sys/cpu"

// useAVX2 says whether Dot may use the AVX2 and FMA kernel; it is set
// once, from the processor, when the program starts.
var useAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// dotAVX2 returns Σ a[k]·b[k] for len(a) a multiple of 8 (b as long),
// summed in 32 float32 lanes and the lanes in float64.
//
//go:noescape
func dotAVX2(a, b []float32) float64

// dotsAVX2 sets dst[r] = dotAVX2(x, rows[r]) for len(x) a multiple of 8
// and every row at least as long (dst as long as rows).
//
//go:noescape
func dotsAVX2(x []float32, rows [][]float32, dst []float64)
