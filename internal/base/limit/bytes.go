package limit

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ParseBytes reads a size in bytes: a whole number (536870912,
// 0x20000000), a number with an exponent (2e9), or with a unit: kB, MB,
// GB, TB (powers of 1000; K, M, G, T alone too) or KiB, MiB, GiB, TiB
// (powers of 1024). It refuses negative, fractional and NaN sizes and
// those above 2^62.
func ParseBytes(s string) (int64, error) {
	if v, err := strconv.ParseInt(s, 0, 64); err == nil {
		return v, nil
	}
	num, unit := strings.TrimSpace(s), ""
	if i := strings.IndexFunc(num, func(r rune) bool { return r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' && r != 'e' }); i > 0 {
		num, unit = strings.TrimSpace(num[:i]), strings.TrimSpace(num[i:])
	}
	scale := map[string]float64{"": 1, "B": 1, "k": 1e3, "K": 1e3, "kB": 1e3, "KB": 1e3, "M": 1e6, "MB": 1e6, "G": 1e9, "GB": 1e9, "T": 1e12, "TB": 1e12,
		"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40}[unit]
	f, err := strconv.ParseFloat(num, 64)
	if scale == 0 || err != nil || math.IsNaN(f) || f < 0 || f*scale > 1<<62 || f*scale != math.Trunc(f*scale) {
		return 0, fmt.Errorf("%q is not a size in bytes (536870912, 2e9, 512MB, 2GiB)", s)
	}
	return int64(f * scale), nil
}

// Bytes is a size in bytes that reads and writes itself as text, as a
// memory budget given on a command line does: Set reads what ParseBytes
// reads, String writes the whole number.
type Bytes int64

// String writes b as a whole number of bytes.
func (b Bytes) String() string { return strconv.FormatInt(int64(b), 10) }

// Set reads a size in bytes as ParseBytes does.
func (b *Bytes) Set(s string) error {
	v, err := ParseBytes(s)
	if err != nil {
		return err
	}
	*b = Bytes(v)
	return nil
}
