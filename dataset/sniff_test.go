package dataset

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"
)

// TestIsNumericFile: text and gzipped text are numeric; a header with a
// NUL byte, an empty file, a folder and a missing file are not.
func TestIsNumericFile(t *testing.T) {
	dir := t.TempDir()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("1 1:0.5\n"))
	zw.Close()
	for _, tt := range []struct {
		name    string
		content []byte
		want    bool
	}{
		{"a.libsvm", []byte("1 1:0.5 2:1\n0 2:3\n"), true},
		{"a.csv.gz", gz.Bytes(), true},
		{"a.idx", []byte{0, 0, 8, 1, 0, 0, 0, 2}, false},
		{"empty", nil, false},
	} {
		p := filepath.Join(dir, tt.name)
		if err := os.WriteFile(p, tt.content, 0o644); err != nil {
			t.Fatal(err)
		}
		if got := IsNumericFile(p); got != tt.want {
			t.Errorf("IsNumericFile(%s) = %v; want %v", tt.name, got, tt.want)
		}
	}
	for _, p := range []string{dir, filepath.Join(dir, "missing")} {
		if IsNumericFile(p) {
			t.Errorf("IsNumericFile(%s) = true; want false", p)
		}
	}
}

// TestWriteTempLibSVM: the copy reads back as the set, and remove removes
// it.
func TestWriteTempLibSVM(t *testing.T) {
	s, err := Read(bytes.NewReader([]byte("1 1:0.5 3:2\n2 2:1\n")), "x.libsvm", Options{})
	if err != nil {
		t.Fatal(err)
	}
	path, remove, err := WriteTempLibSVM(s)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ReadFile(path, Options{})
	remove()
	if err != nil {
		t.Fatal(err)
	}
	if back.Dim != s.Dim || len(back.Y) != len(s.Y) || len(back.Classes) != len(s.Classes) {
		t.Errorf("read back %d rows of %d features, %v; want %d of %d, %v", len(back.Y), back.Dim, back.Classes, len(s.Y), s.Dim, s.Classes)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("after remove: %v; want the file gone", err)
	}
}
