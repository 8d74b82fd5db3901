package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestSameFile checks the one rule every output is kept off every input by.
func TestSameFile(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	os.WriteFile("a", []byte("x"), 0o644)
	os.WriteFile("b", []byte("x"), 0o644) // same contents, another file
	os.Symlink("a", "link")
	os.Link("a", "hard")
	os.Mkdir("sub", 0o755)
	os.Symlink("sub", "sublink")
	tests := []struct {
		a, b string
		want bool
	}{
		{"a", "a", true},
		{"a", "./a", true},
		{"a", "sub/../a", true},
		{"a", filepath.Join(dir, "a"), true},
		{"a", "link", true},
		{"a", "hard", true},
		{"a", "b", false},
		{"new", "new", true},             // neither exists yet
		{"sub/new", "sublink/new", true}, // made through a linked folder
		{"sub/new", "sub/other", false},
	}
	for _, tt := range tests {
		if got := SameFile(tt.a, tt.b); got != tt.want {
			t.Errorf("SameFile(%q, %q) = %v; want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestCheckOutputs: outputs against inputs (through links, inside input
// folders), against each other, an exempt pair, and each on its own.
func TestCheckOutputs(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	os.WriteFile("in.csv", []byte("x"), 0o644)
	os.Symlink("in.csv", "link.csv")
	os.Mkdir("folder", 0o755)
	os.WriteFile("folder/old.json", []byte("x"), 0o644)
	os.WriteFile("exists.txt", []byte("x"), 0o644)
	ins := []string{"in.csv", "folder"}
	tests := []struct {
		name   string
		outs   []Output
		exempt func(out, in int) bool
		want   any // *Clash, *OutputError or nil
	}{
		{"apart", []Output{{Path: "a.json"}, {Path: "b.json"}}, nil, nil},
		{"an input", []Output{{Path: "in.csv"}}, nil, &Clash{Kind: ClashInput, Out: 0, With: 0}},
		{"a link to an input", []Output{{Path: "a.json"}, {Path: "link.csv"}}, nil, &Clash{Kind: ClashInput, Out: 1, With: 0}},
		{"exempt", []Output{{Path: "in.csv"}}, func(out, in int) bool { return in == 0 }, nil},
		{"inside an input folder", []Output{{Path: "folder/old.json"}}, nil, &Clash{Kind: ClashInside, Out: 0, With: 1}},
		{"new inside an input folder", []Output{{Path: "folder/new.json"}}, nil, nil},
		{"two outputs", []Output{{Path: "a.json"}, {Path: "./a.json"}}, nil, &Clash{Kind: ClashOutput, Out: 0, With: 1}},
		{"a new file that exists", []Output{{Path: "a.json"}, {Path: "exists.txt", Kind: NewFile}}, nil, &OutputError{Out: 1}},
	}
	for _, tt := range tests {
		err := CheckOutputs(tt.outs, ins, tt.exempt)
		var c *Clash
		var o *OutputError
		switch want := tt.want.(type) {
		case nil:
			if err != nil {
				t.Errorf("%s: %v; want nil", tt.name, err)
			}
		case *Clash:
			if !errors.As(err, &c) || c.Kind != want.Kind || c.Out != want.Out || c.With != want.With {
				t.Errorf("%s: %v; want a clash %+v", tt.name, err, *want)
			}
		case *OutputError:
			if !errors.As(err, &o) || o.Out != want.Out || !errors.Is(err, ErrExists) {
				t.Errorf("%s: %v; want output %d refused as existing", tt.name, err, want.Out)
			}
		}
	}
}
