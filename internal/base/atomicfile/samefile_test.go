package atomicfile_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"mark1/internal/base/atomicfile"
)

// TestSameFile checks the one rule every command's paths are compared by.
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
		if got := atomicfile.SameFile(tt.a, tt.b); got != tt.want {
			t.Errorf("SameFile(%q, %q) = %v; want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// An output is kept off an input however the two are spelled: through a
// link, or as a file not made yet in a linked folder.
func ExampleSameFile() {
	dir, _ := os.MkdirTemp("", "samefile")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "data.csv"), []byte("x,label\n"), 0o644)
	os.Symlink("data.csv", filepath.Join(dir, "link.csv"))
	os.Mkdir(filepath.Join(dir, "out"), 0o755)
	os.Symlink("out", filepath.Join(dir, "outlink"))
	fmt.Println(atomicfile.SameFile(filepath.Join(dir, "data.csv"), filepath.Join(dir, "link.csv")))
	fmt.Println(atomicfile.SameFile(filepath.Join(dir, "out", "m.json"), filepath.Join(dir, "outlink", "m.json")))
	fmt.Println(atomicfile.SameFile(filepath.Join(dir, "data.csv"), filepath.Join(dir, "out", "data.csv")))
	// Output:
	// true
	// true
	// false
}
