package images

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestReadLibSVM(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		X      [][]float64
		labels []float64
	}{
		{"dense", "1 1:1 2:2 3:3\n-1 1:4 2:5 3:6\n", [][]float64{{1, 2, 3}, {4, 5, 6}}, []float64{1, -1}},
		{"sparse, dimension from the largest index", "+1 3:0.5\n0 1:-2\n", [][]float64{{0, 0, 0.5}, {-2, 0, 0}}, []float64{1, 0}},
		{"comments, blank lines, tabs, CRLF", "# head\n\n2\t1:1 # tail\r\n3 2:1e-3\r\n", [][]float64{{1, 0}, {0, 0.001}}, []float64{2, 3}},
		{"byte-order mark", "\ufeff1 1:1\n", [][]float64{{1}}, []float64{1}},
		{"a line with no features", "7\n8 2:1\n", [][]float64{{0, 0}, {0, 1}}, []float64{7, 8}},
		{"explicit zeros count for the dimension", "1 1:1 4:0\n", [][]float64{{1, 0, 0, 0}}, []float64{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			X, labels, err := ReadLibSVM(strings.NewReader(tt.in), "in", Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(X, tt.X, slices.Equal) {
				t.Errorf("X = %v; want %v", X, tt.X)
			}
			if !slices.Equal(labels, tt.labels) {
				t.Errorf("labels = %v; want %v", labels, tt.labels)
			}
		})
	}
}

func TestReadLibSVMLimits(t *testing.T) {
	// 3 rows × 4 features = 12 values.
	in := "1 4:1\n2 1:1\n3 2:1\n"
	if _, _, err := ReadLibSVM(strings.NewReader(in), "in", Limits{MaxValues: 12}); err != nil {
		t.Errorf("at the limit: %v", err)
	}
	_, _, err := ReadLibSVM(strings.NewReader(in), "in", Limits{MaxValues: 11})
	if err == nil || !strings.Contains(err.Error(), "in: dense size (3 rows × 4 features) 12 exceeds the limit of 11") {
		t.Errorf("got %v; want a dense-size limit error", err)
	}
	_, _, err = ReadLibSVM(strings.NewReader(in), "in", Limits{MaxPixels: 3})
	if err == nil || !strings.Contains(err.Error(), "in:1: feature index 4 exceeds the limit of 3") {
		t.Errorf("got %v; want a feature-index limit error", err)
	}
}

func TestWriteLibSVMRoundTrip(t *testing.T) {
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
			var b bytes.Buffer
			if err := WriteLibSVM(&b, tt.X, tt.labels); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Errorf("wrote %q; want %q", b.String(), tt.want)
			}
			X, labels, err := ReadLibSVM(&b, "written", Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(X, tt.X, slices.Equal) || !slices.Equal(labels, tt.labels) {
				t.Errorf("read back %v %v; want %v %v", X, labels, tt.X, tt.labels)
			}
		})
	}
}

func TestWriteLibSVMErrors(t *testing.T) {
	tests := []struct {
		name   string
		X      [][]float64
		labels []float64
		msg    string
	}{
		{"ragged", [][]float64{{1, 2}, {1}}, []float64{1, 2}, "row 1 has 1 features; row 0 has 2"},
		{"NaN value", [][]float64{{1, math.NaN()}}, []float64{1}, "row 0, feature 2: value NaN is not finite"},
		{"Inf label", [][]float64{{1}}, []float64{math.Inf(1)}, "row 0: label +Inf is not finite"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := WriteLibSVM(new(bytes.Buffer), tt.X, tt.labels)
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
	WriteLibSVM(new(bytes.Buffer), [][]float64{{1}}, nil)
}

// TestLibSVMScaling checks the rule that turns libsvm values into grey
// levels.
func TestLibSVMScaling(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []byte // first row's pixels
	}{
		{"[0,1] times 255", "1 1:1 2:0.5 4:0.25\n2 1:0\n", []byte{255, 128, 0, 64}},
		{"[0,255] kept", "1 1:255 2:3.4 3:100 4:0\n2 1:0\n", []byte{255, 3, 100, 0}},
		{"otherwise min-max", "1 1:-1 2:1 3:0 4:3\n2 1:0\n", []byte{0, 128, 64, 255}},
		{"min-max with implicit zeros", "1 1:300 2:600 3:600 4:600\n2 1:600 2:600 3:600 4:600\n", []byte{0, 255, 255, 255}},
		{"constant outside [0,255]", "1 1:300 2:300 3:300 4:300\n2 1:300 2:300 3:300 4:300\n", []byte{0, 0, 0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows, dim, err := readSparse(strings.NewReader(tt.in), "in", Limits{}.withDefaults())
			if err != nil {
				t.Fatal(err)
			}
			d, err := libsvmDataset("in", rows, dim, Limits{}.withDefaults())
			if err != nil {
				t.Fatal(err)
			}
			if got := d.Samples[0].Image.Pix; !bytes.Equal(got, tt.want) {
				t.Errorf("pixels %v; want %v", got, tt.want)
			}
			if got := d.Samples[0].Image.Rect.Dx(); got != 2 {
				t.Errorf("width %d; want 2", got)
			}
		})
	}
}

func TestLibSVMClassNames(t *testing.T) {
	in := "+1 1:1\n-1 1:1\n10 1:1\n2.5 1:1\n-1 1:0\n"
	rows, dim, err := readSparse(strings.NewReader(in), "in", Limits{}.withDefaults())
	if err != nil {
		t.Fatal(err)
	}
	d, err := libsvmDataset("in", rows, dim, Limits{}.withDefaults())
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"-1", "1", "2.5", "10"}; !slices.Equal(d.Classes, want) {
		t.Errorf("classes %q; want %q", d.Classes, want)
	}
	var got []string
	for _, s := range d.Samples {
		got = append(got, fmt.Sprintf("%s=%s", s.Source, d.Classes[s.Label]))
	}
	if want := "in:1=1 in:2=-1 in:3=10 in:4=2.5 in:5=-1"; strings.Join(got, " ") != want {
		t.Errorf("samples %s; want %s", strings.Join(got, " "), want)
	}
}
