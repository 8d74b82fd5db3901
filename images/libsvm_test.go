package images

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"mark1/dataset"
)

// TestLoadLibSVMLimits: Load reads libsvm text through dataset's reader
// within the Limits — the largest index within MaxPixels, rows × pixels
// within MaxValues, the rows within MaxSamples — and each refusal wraps
// dataset.ErrTooLarge and names the file.
func TestLoadLibSVMLimits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.libsvm")
	// 3 rows × 4 features = 12 values.
	if err := os.WriteFile(path, []byte("1 4:1\n2 1:1\n3 2:1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if d, err := Load(path, Limits{MaxValues: 12}); err != nil || d.Len() != 3 {
		t.Fatalf("at the limit: %v", err)
	}
	for _, tc := range []struct {
		lim  Limits
		want string
	}{
		{Limits{MaxValues: 11}, path + ": picture data (3 rows × 4 pixels) 12 exceeds the limit of 11"},
		{Limits{MaxPixels: 3}, path + ":1: field 2: feature index 4 is above the limit of 3 features"},
		{Limits{MaxSamples: 2}, path + ":3: more than 2 rows"},
	} {
		_, err := Load(path, tc.lim)
		if !errors.Is(err, dataset.ErrTooLarge) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: got %v; want dataset.ErrTooLarge saying %q", tc.lim, err, tc.want)
		}
	}
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
			set, err := dataset.Read(strings.NewReader(tt.in), "in", dataset.Options{Format: dataset.LibSVM})
			if err != nil {
				t.Fatal(err)
			}
			d, err := libsvmDataset(set, Limits{}.withDefaults())
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

// TestLibSVMClassNames: the classes are the labels sorted by value, each
// sample named by its row.
func TestLibSVMClassNames(t *testing.T) {
	in := "+1 1:1\n-1 1:1\n10 1:1\n2.5 1:1\n-1 1:0\n"
	set, err := dataset.Read(strings.NewReader(in), "in", dataset.Options{Format: dataset.LibSVM})
	if err != nil {
		t.Fatal(err)
	}
	d, err := libsvmDataset(set, Limits{}.withDefaults())
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
	if want := "in[0]=1 in[1]=-1 in[2]=10 in[3]=2.5 in[4]=-1"; strings.Join(got, " ") != want {
		t.Errorf("samples %s; want %s", strings.Join(got, " "), want)
	}
}
