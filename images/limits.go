package images

import (
	"fmt"
	"math"

	"mark1/dataset"
	"mark1/internal/base/param"
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
	// MaxSamples bounds the samples in one data set. Default 10,000,000,
	// or one more than MaxBytes holds at SampleOverhead bytes a sample
	// when that is more: the memory budget (MaxBytes), checked on the
	// same samples, is then the limit that speaks, and a larger budget
	// reads more samples.
	MaxSamples int
	// MaxValues bounds the pixels (or libsvm values) held for a whole data
	// set, the sum over its samples. Default 1<<28 (256 MiB of grey
	// pixels; MNIST's 70,000 × 784 is 55 million), or one more than
	// MaxBytes holds at a byte a pixel when that is more, as MaxSamples.
	MaxValues int
	// MaxDecodeBytes bounds the memory one picture's decoding may take,
	// estimated from its header before decoding (see LoadImage); a folder
	// of pictures decoded on several goroutines shares this budget, so
	// their decoders together never take more. Default 256 MiB: a
	// 24-megapixel phone JPEG takes about 42 MiB, or 180 MiB if
	// progressive.
	MaxDecodeBytes int
	// MaxBytes bounds the memory a loaded data set takes, estimated before
	// it is allocated as samples × (pixels + SampleOverhead) bytes: a small
	// file declaring millions of tiny pictures is refused, not allowed to
	// exhaust memory. Default 1<<29 (512 MiB; MNIST's 70,000 samples take
	// 66 MB). The command line sets it with --max-memory.
	MaxBytes int64
}

// Default limits; see Limits. DefaultMaxSamples and DefaultMaxValues
// bound the built-in tasks' cards, and a data set's unless MaxBytes holds
// more.
const (
	DefaultMaxPixels      = 1 << 25
	DefaultMaxSamples     = 10_000_000
	DefaultMaxValues      = 1 << 28
	DefaultMaxDecodeBytes = 256 << 20
	DefaultMaxBytes       = dataset.DefaultMaxBytes // one budget for pictures and numeric rows
	// SampleOverhead is the memory a sample takes besides its pixels: the
	// Sample, its image.Gray and its source name, about 150 bytes, rounded
	// up.
	SampleOverhead = 200
)

// Validate reports MaxPixels or MaxBytes below zero as a
// *param.FieldError naming the field as a Source's JSON spells it
// (max_pixels, max_bytes), as Source.Validate does: where the loaders read
// 0 and below as the default, a front end given 0 asks for none at all
// (param.None), which is refused. The other fields are not checked.
func (lim Limits) Validate() error {
	switch {
	case lim.MaxPixels < 0:
		return param.Errorf("max_pixels", lim.MaxPixels, "a positive number of pixels")
	case lim.MaxBytes < 0:
		return param.Errorf("max_bytes", lim.MaxBytes, "a positive number of bytes")
	}
	return nil
}

// withDefaults returns lim with zero fields replaced by their defaults.
func (lim Limits) withDefaults() Limits {
	if lim.MaxPixels <= 0 {
		lim.MaxPixels = DefaultMaxPixels
	}
	if lim.MaxBytes <= 0 {
		lim.MaxBytes = DefaultMaxBytes
	}
	if lim.MaxSamples <= 0 {
		lim.MaxSamples = int(max(DefaultMaxSamples, min(lim.MaxBytes/SampleOverhead+1, math.MaxInt32)))
	}
	if lim.MaxValues <= 0 {
		lim.MaxValues = int(max(DefaultMaxValues, min(lim.MaxBytes, math.MaxInt-1)+1))
	}
	if lim.MaxDecodeBytes <= 0 {
		lim.MaxDecodeBytes = DefaultMaxDecodeBytes
	}
	return lim
}

// ErrMemory is wrapped by errors that refuse something whose estimated
// memory exceeds the memory budget (Limits.MaxBytes, or a budget given
// elsewhere in those bytes); it wraps dataset.ErrTooLarge. A front end
// tells people how to raise the budget in its own words.
var ErrMemory = fmt.Errorf("the memory budget: %w", dataset.ErrTooLarge)

// ErrFormat is wrapped by errors that report malformed or unrecognised
// content: a file that is not a picture, a corrupt IDX header, a libsvm line
// that does not parse. It is dataset.ErrFormat: one error for malformed
// data, whichever package read it.
var ErrFormat = dataset.ErrFormat

// ErrUnsupported is wrapped by errors that report valid content mark1 does
// not read, such as an IDX file of 32-bit floats (dataset.ErrUnsupported).
var ErrUnsupported = dataset.ErrUnsupported

// kindError gives an error message a kind (dataset.ErrTooLarge, ErrFormat,
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
	return errorf(dataset.ErrTooLarge, "%s: %s %d exceeds the limit of %d", name, what, got, limit)
}

// checkMemory refuses a data set of samples pictures of pixels each (or,
// for a mixed set, pixels in all) whose estimated memory exceeds
// lim.MaxBytes, before it is allocated. pixelsTotal is the sum over the
// samples.
func checkMemory(name string, samples, pixelsTotal int, lim Limits) error {
	need := int64(samples)*SampleOverhead + int64(pixelsTotal)
	if samples < 0 || pixelsTotal < 0 || need > lim.MaxBytes || need < 0 {
		return errorf(ErrMemory, "%s: %d samples of %d pixels in all would take about %d bytes of memory, over the limit of %d",
			name, samples, pixelsTotal, need, lim.MaxBytes)
	}
	return nil
}
