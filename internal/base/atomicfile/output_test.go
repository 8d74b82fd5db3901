package atomicfile

import (
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
