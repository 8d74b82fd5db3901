package images

import (
	"bytes"
	"context"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteFolderRoundTrip writes a generated set and loads it back: the
// same classes (Load sorts them), the same pixels in the same order within
// each class.
func TestWriteFolderRoundTrip(t *testing.T) {
	d, err := Generate("shapes", 3, 20, 11)
	if err != nil {
		t.Fatal(err)
	}
	for _, existing := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), "stimuli")
		if existing {
			must(t, os.Mkdir(dir, 0o755)) // an empty folder may be replaced
		}
		if err := WriteFolder(context.Background(), d, dir); err != nil {
			t.Fatal(err)
		}
		back, err := Load(dir, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := strings.Join(back.Classes, " "), "circle diamond square triangle"; got != want {
			t.Errorf("classes %q; want %q", got, want)
		}
		want := map[string][]*image.Gray{}
		for _, s := range d.Samples {
			want[d.Classes[s.Label]] = append(want[d.Classes[s.Label]], s.Image)
		}
		next := map[string]int{}
		for _, s := range back.Samples {
			c := back.Classes[s.Label]
			if !bytes.Equal(s.Image.Pix, want[c][next[c]].Pix) {
				t.Errorf("%s: pixels differ from sample %d of %s", s.Source, next[c], c)
			}
			next[c]++
		}
		if _, err := os.Stat(filepath.Join(dir, "square", "0001.png")); err != nil {
			t.Error(err)
		}
		if leftovers(t, filepath.Dir(dir)) != 1 {
			t.Error("temporary folder left behind")
		}
	}
}

// leftovers counts the entries of dir.
func leftovers(t *testing.T, dir string) int {
	entries, err := os.ReadDir(dir)
	must(t, err)
	return len(entries)
}

func TestWriteFolderErrors(t *testing.T) {
	gray := image.NewGray(image.Rect(0, 0, 2, 2))
	ok := func(classes ...string) *Dataset {
		d := &Dataset{Classes: classes}
		for i := range classes {
			d.Samples = append(d.Samples, Sample{Image: gray, Label: i})
		}
		return d
	}
	tests := []struct {
		name  string
		d     *Dataset
		setup func(dir string) // prepares dir before the call
		msg   string
	}{
		{"folder not empty", ok("a", "b"), func(dir string) { must(t, os.MkdirAll(filepath.Join(dir, "x"), 0o755)) }, "exists and is not empty"},
		{"a file in the way", ok("a", "b"), func(dir string) { must(t, os.WriteFile(dir, []byte("x"), 0o644)) }, "not a folder"},
		{"slash in a class name", ok("a", "b/c"), nil, `class 1 name "b/c" contains '/'`},
		{"hidden class name", ok("a", ".b"), nil, "starts with '.'"},
		{"empty class name", ok("a", ""), nil, "class 1 has an empty name"},
		{"duplicate class names", ok("a", "a"), nil, `class name "a" appears twice`},
		{"label out of range", &Dataset{Classes: []string{"a"}, Samples: []Sample{{Image: gray, Label: 3}}}, nil, "label 3 out of range"},
		{"nil image", &Dataset{Classes: []string{"a"}, Samples: []Sample{{Label: 0}}}, nil, "empty image"},
		// Fails half way (the second folder name is too long for the file
		// system): nothing may be left behind.
		{"failure half way", ok("a", strings.Repeat("b", 300)), nil, "file name too long"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parent := t.TempDir()
			dir := filepath.Join(parent, "out")
			if tt.setup != nil {
				tt.setup(dir)
			}
			before := leftovers(t, parent)
			err := WriteFolder(context.Background(), tt.d, dir)
			if err == nil || !strings.Contains(err.Error(), tt.msg) || !strings.Contains(err.Error(), dir) {
				t.Fatalf("got %v; want an error naming %s and saying %q", err, dir, tt.msg)
			}
			if after := leftovers(t, parent); after != before {
				t.Errorf("%d entries beside the output after the error; want %d", after, before)
			}
		})
	}
}
