//go:build !amd64

package bytedot

// Dot returns Σ a[k]·b[k] over len(a) bytes, exactly. It panics if b is
// shorter than a.
func Dot(a, b []uint8) int64 { return dotGo(a, b) }
