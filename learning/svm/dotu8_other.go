//go:build !amd64

package svm

// dotU8 returns Σ a[k]·b[k] over len(a) bytes, exactly.
func dotU8(a, b []uint8) int64 { return dotU8Go(a, b) }
