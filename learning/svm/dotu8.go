package svm

// maxAVX2Bytes is the longest row whose byte dot product the AVX2 kernel
// sums exactly in 32-bit lanes: 32768 · 255² < 2³¹.
const maxAVX2Bytes = 32768

// dotU8Go is the portable dot product of byte rows, with four accumulators.
func dotU8Go(a, b []uint8) int64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 int64
	n := len(a) &^ 3
	for k := 0; k < n; k += 4 {
		s0 += int64(a[k]) * int64(b[k])
		s1 += int64(a[k+1]) * int64(b[k+1])
		s2 += int64(a[k+2]) * int64(b[k+2])
		s3 += int64(a[k+3]) * int64(b[k+3])
	}
	for k := n; k < len(a); k++ {
		s0 += int64(a[k]) * int64(b[k])
	}
	return s0 + s1 + s2 + s3
}
