package dataset

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"
)

// TestFromDenseRoundTrip: dense rows become a Set whose libsvm text is the
// expected one and reads back to the same rows and labels.
func TestFromDenseRoundTrip(t *testing.T) {
	tests := []struct {
		name   string
		X      [][]float64
		labels []float64
		want   string
	}{
		{"sparse", [][]float64{{0, 1.5, 0}, {2, 0, 1e-300}}, []float64{1, -1}, "1 2:1.5\n-1 1:2 3:1e-300\n"},
		{"last column all zero keeps the dimension", [][]float64{{1, 0, 0}, {0, 1, 0}}, []float64{0, 1}, "0 1:1 3:0\n1 2:1\n"},
		{"no features", [][]float64{{}, {}}, []float64{3, 4}, "3\n4\n"},
		{"awkward floats", [][]float64{{0.1, math.Copysign(0, -1), math.MaxFloat64, math.SmallestNonzeroFloat64}}, []float64{0.30000000000000004}, "0.30000000000000004 1:0.1 3:1.7976931348623157e+308 4:5e-324\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := FromDense("in", tt.X, tt.labels)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := WriteLibSVM(&b, s); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Errorf("wrote %q; want %q", b.String(), tt.want)
			}
			back, err := Read(&b, "written", Options{Format: LibSVM})
			if err != nil {
				t.Fatal(err)
			}
			if back.Dim != len(tt.X[0]) || back.Rows() != len(tt.X) {
				t.Fatalf("read back %d rows × %d; want %d × %d", back.Rows(), back.Dim, len(tt.X), len(tt.X[0]))
			}
			for i, x := range tt.X {
				if got := back.DenseRow(nil, i); !slices.Equal(got, x) && !(len(x) == 0 && len(got) == 0) {
					t.Errorf("row %d read back %v; want %v", i, got, x)
				}
				if got, want := back.Label(i), s.Label(i); got != want {
					t.Errorf("row %d label %q; want %q", i, got, want)
				}
			}
		})
	}
}

func TestFromDenseErrors(t *testing.T) {
	tests := []struct {
		name   string
		X      [][]float64
		labels []float64
		msg    string
	}{
		{"ragged", [][]float64{{1, 2}, {1}}, []float64{1, 2}, "in: row 1 has 1 features; row 0 has 2"},
		{"NaN value", [][]float64{{1, math.NaN()}}, []float64{1}, "in: row 0, feature 2: value NaN is not finite"},
		{"Inf label", [][]float64{{1}}, []float64{math.Inf(1)}, "in: row 0: label +Inf is not finite"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := FromDense("in", tt.X, tt.labels)
			if err == nil || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("got %v; want an error saying %q", err, tt.msg)
			}
		})
	}
	defer func() {
		if recover() == nil {
			t.Error("no panic for mismatched lengths")
		}
	}()
	FromDense("in", [][]float64{{1}}, nil)
}
