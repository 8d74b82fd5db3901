package bytedot

import "golang.org/x/sys/cpu"

// hasAVX2 says whether Dot may use the AVX2 kernel; it is set once, from
// the processor, when the program starts.
var hasAVX2 = cpu.X86.HasAVX2

//go:noescape
func dotAVX2(a, b []uint8) int64

// Dot returns Σ a[k]·b[k] over len(a) bytes, exactly. It panics if b is
// shorter than a.
func Dot(a, b []uint8) int64 {
	if hasAVX2 && len(a) <= maxAVX2Bytes {
		b = b[:len(a)]
		return dotAVX2(a, b)
	}
	return dotGo(a, b)
}
