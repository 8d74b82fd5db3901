package images

import (
	"errors"
	"fmt"
)

// Limits protect the loaders against hostile or mistaken files. Every field
// whose value is zero (or negative) means its documented default, so the
// zero Limits is the usual choice.
type Limits struct {
	// MaxPixels bounds the pixels of one picture (width × height; for an
	// IDX file the product of the dimensions after the first; for libsvm
	// the largest feature index). It is checked from the header, before
	// any pixel is decoded or allocated. Default 1<<25 (33,554,432: a
	// 24-megapixel photo passes, a 50-megapixel one does not).
	MaxPixels int
	// MaxSamples bounds the samples in one data set. Default 10_000_000.
	MaxSamples int
	// MaxValues bounds the pixels (or libsvm values) held for a whole data
	// set, the sum over its samples. Default 1<<28 (256 MiB of grey
	// pixels; MNIST's 70,000 × 784 is 55 million).
	MaxValues int
	// MaxDecodeBytes bounds the memory one picture's decoding may take,
	// estimated from its header before decoding (see LoadImage); a folder
	// of pictures decoded on several goroutines shares this budget, so
	// their decoders together never take more. Default 256 MiB: a
	// 24-megapixel phone JPEG takes about 42 MiB, or 180 MiB if
	// progressive.
	MaxDecodeBytes int
}

// Default limits; see Limits.
const (
	DefaultMaxPixels      = 1 << 25
	DefaultMaxSamples     = 10_000_000
	DefaultMaxValues      = 1 << 28
	DefaultMaxDecodeBytes = 256 << 20
)

// withDefaults returns lim with zero fields replaced by their defaults.
func (lim Limits) withDefaults() Limits {
	if lim.MaxPixels <= 0 {
		lim.MaxPixels = DefaultMaxPixels
	}
	if lim.MaxSamples <= 0 {
		lim.MaxSamples = DefaultMaxSamples
	}
	if lim.MaxValues <= 0 {
		lim.MaxValues = DefaultMaxValues
	}
	if lim.MaxDecodeBytes <= 0 {
		lim.MaxDecodeBytes = DefaultMaxDecodeBytes
	}
	return lim
}

// ErrTooLarge is wrapped by every error that reports a file exceeding a
// Limits bound, so callers can tell "too big" from "malformed" with
// errors.Is.
var ErrTooLarge = errors.New("exceeds limit")

// ErrFormat is wrapped by errors that report malformed or unrecognised
// content: a file that is not a picture, a corrupt IDX header, a libsvm line
// that does not parse.
var ErrFormat = errors.New("malformed")

// ErrUnsupported is wrapped by errors that report valid content this package
// does not handle, such as an IDX file of 32-bit floats.
var ErrUnsupported = errors.New("unsupported")

// kindError gives an error message a kind (ErrTooLarge, ErrFormat,
// ErrUnsupported) for errors.Is without putting the kind's text in the
// message.
type kindError struct {
	kind error
	err  error
}

func (e *kindError) Error() string   { return e.err.Error() }
func (e *kindError) Unwrap() []error { return []error{e.kind, e.err} }

// errorf is fmt.Errorf (so %w wraps) marked as being of the given kind.
func errorf(kind error, format string, args ...any) error {
	return &kindError{kind: kind, err: fmt.Errorf(format, args...)}
}

// tooLarge reports that name's what is got, over limit.
func tooLarge(name, what string, got, limit int) error {
	return errorf(ErrTooLarge, "%s: %s %d exceeds the limit of %d", name, what, got, limit)
}

// mulLimit returns a*b, or ok == false if a or b is negative or the product
// exceeds limit (which also rules out overflow).
func mulLimit(a, b, limit int) (p int, ok bool) {
	if a < 0 || b < 0 {
		return 0, false
	}
	if a == 0 || b == 0 {
		return 0, true
	}
	if a > limit/b {
		return 0, false
	}
	return a * b, true
}
