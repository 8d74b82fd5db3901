package images

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"mark1/dataset"
)

func TestIDXRoundTrip(t *testing.T) {
	for _, x := range []*IDX{
		{Dims: []int{3}, Data: []byte{1, 2, 3}},
		{Dims: []int{2, 2, 3}, Data: []byte{0, 1, 2, 3, 4, 5, 250, 251, 252, 253, 254, 255}},
		{Dims: []int{0, 28, 28}, Data: []byte{}},
		{Dims: []int{48, 0}, Data: []byte{}}, // found by FuzzReadIDX
		{Dims: []int{1, 1, 1, 1, 2}, Data: []byte{9, 8}},
	} {
		var b bytes.Buffer
		if err := WriteIDX(&b, x); err != nil {
			t.Fatal(err)
		}
		y, err := ReadIDX(&b, "buf", Limits{})
		if err != nil {
			t.Fatalf("%v: %v", x.Dims, err)
		}
		if !slices.Equal(x.Dims, y.Dims) || !bytes.Equal(x.Data, y.Data) {
			t.Errorf("read back %v %v; want %v %v", y.Dims, y.Data, x.Dims, x.Data)
		}
	}
}

func TestReadIDXErrors(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		lim  Limits
		msg  string
		kind error
	}{
		{"empty", nil, Limits{}, "f: not an IDX file: 0 bytes", ErrFormat},
		{"bad magic", []byte{1, 0, 8, 1, 0, 0, 0, 0}, Limits{}, "f: not an IDX file: magic number 0x01000801", ErrFormat},
		{"unknown type", []byte{0, 0, 0x42, 1, 0, 0, 0, 0}, Limits{}, "unknown element type 0x42", ErrFormat},
		{"int32 type", idxHeader(0x0C, 1), Limits{}, "f: IDX element type 0x0c (int32) is not supported", ErrUnsupported},
		{"zero dimensions", []byte{0, 0, 8, 0}, Limits{}, "declares zero dimensions", ErrFormat},
		{"truncated header", idxHeader(8, 5, 5)[:7], Limits{}, "truncated IDX header: 2 dimension sizes declared", ErrFormat},
		{"truncated data", append(idxHeader(8, 4), 1, 2), Limits{}, "f: truncated IDX data: header [4] declares 4 bytes, file has 2", ErrFormat},
		{"trailing data", append(idxHeader(8, 1), 1, 2), Limits{}, "f: trailing data after the 1 bytes", ErrFormat},
		{"too many items", idxHeader(8, 1001, 1), Limits{MaxSamples: 1000}, "f: IDX item count 1001 exceeds the limit of 1000", dataset.ErrTooLarge},
		{"item too large", idxHeader(8, 1, 100, 101), Limits{MaxPixels: 10000}, "f: IDX item size (product of dimensions 1..2, [100 101]) 10100 exceeds the limit of 10000", dataset.ErrTooLarge},
		{"set too large", idxHeader(8, 100, 100), Limits{MaxValues: 9999}, "f: IDX size [100 100] in bytes 10000 exceeds the limit of 9999", dataset.ErrTooLarge},
		{"overflowing product", idxHeader(8, 1<<32-1, 1<<32-1, 1<<32-1, 1<<32-1), Limits{MaxPixels: 1 << 62, MaxValues: 1 << 62, MaxSamples: 1 << 62}, "exceeds the limit", dataset.ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadIDX(bytes.NewReader(tt.in), "f", tt.lim)
			if err == nil || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("got %v; want an error saying %q", err, tt.msg)
			}
			if !errors.Is(err, tt.kind) {
				t.Errorf("error %q is not %v", err, tt.kind)
			}
		})
	}
}

func TestWriteIDXErrors(t *testing.T) {
	for _, x := range []*IDX{
		{Dims: nil, Data: nil},
		{Dims: []int{2, 2}, Data: []byte{1, 2, 3}},
		{Dims: []int{-1}, Data: nil},
		{Dims: []int{1 << 40, 1 << 40}, Data: []byte{1}},
	} {
		if err := WriteIDX(new(bytes.Buffer), x); err == nil {
			t.Errorf("WriteIDX(%v, %d bytes): no error", x.Dims, len(x.Data))
		}
	}
}
