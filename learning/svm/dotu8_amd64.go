package svm

import "golang.org/x/sys/cpu"

// hasAVX2 says whether dotU8 may use the AVX2 kernel; it is set once, from
// the processor, when the program starts.
var hasAVX2 = cpu.X86.HasAVX2

//go:noescape
func dotU8AVX2(a, b []uint8) int64

// dotU8 returns Σ a[k]·b[k] over len(a) bytes, exactly.
func dotU8(a, b []uint8) int64 {
	if hasAVX2 && len(a) <= maxAVX2Bytes {
		b = b[:len(a)]
		return dotU8AVX2(a, b)
	}
	return dotU8Go(a, b)
}
