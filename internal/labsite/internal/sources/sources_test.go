package sources

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func TestWriteRead(t *testing.T) {
	files := []File{{"go.mod", strings.Repeat("a", 64)}, {"lab/run.go", strings.Repeat("b", 64)}}
	var b bytes.Buffer
	if err := Write(&b, "go1.26.0", files); err != nil {
		t.Fatal(err)
	}
	digest, got, err := Read(strings.NewReader(strings.ReplaceAll(b.String(), "\n", "\r\n"))) // a Windows checkout
	if err != nil {
		t.Fatal(err)
	}
	if digest != Digest(files) || !reflect.DeepEqual(got, files) {
		t.Fatalf("read %s %v; wrote %s %v", digest, got, Digest(files), files)
	}
	now := []File{{"go.mod", strings.Repeat("c", 64)}, {"lab/new.go", strings.Repeat("d", 64)}}
	if c := Changed(files, now); !reflect.DeepEqual(c, []string{"~ go.mod", "+ lab/new.go", "- lab/run.go"}) {
		t.Fatalf("Changed: %q", c)
	}
	if Digest(files) == Digest(now) {
		t.Fatal("two lists, one digest")
	}
}
