//go:build unix

package atomicfile

import (
	"bytes"
	"errors"
	"io/fs"
	"math"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// names returns the sorted names in dir.
func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// withUmask runs f with the process umask set to m.
func withUmask(m int, f func()) {
	old := syscall.Umask(m)
	defer syscall.Umask(old)
	f()
}

// TestWriteTargets writes to each kind of thing a path can name and checks
// what is there afterwards: regular files are replaced, links written
// through, everything else refused with a message naming the path and the
// kind, and left as it was.
func TestWriteTargets(t *testing.T) {
	type result struct {
		errHas   []string    // substrings of the error; nil for success
		content  string      // the content of check (if success)
		perm     fs.FileMode // the mode of check (if success)
		linkKept bool        // path is still a symbolic link
	}
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string) (path, check string)
		want  result
	}{
		{"new file", func(t *testing.T, dir string) (string, string) {
			p := filepath.Join(dir, "new.json")
			return p, p
		}, result{content: "new", perm: 0o640}}, // 0666 &^ umask 027
		{"regular file keeps its mode", func(t *testing.T, dir string) (string, string) {
			p := filepath.Join(dir, "old.json")
			os.WriteFile(p, []byte("old"), 0o600)
			os.Chmod(p, 0o604)
			return p, p
		}, result{content: "new", perm: 0o604}},
		{"symlink to a file", func(t *testing.T, dir string) (string, string) {
			os.Mkdir(filepath.Join(dir, "real"), 0o755)
			tgt := filepath.Join(dir, "real", "m.json")
			os.WriteFile(tgt, []byte("old"), 0o644)
			os.Chmod(tgt, 0o644)
			p := filepath.Join(dir, "link.json")
			os.Symlink("real/m.json", p)
			return p, tgt
		}, result{content: "new", perm: 0o644, linkKept: true}},
		{"chain of links", func(t *testing.T, dir string) (string, string) {
			tgt := filepath.Join(dir, "end.json")
			os.WriteFile(tgt, []byte("old"), 0o644)
			os.Chmod(tgt, 0o644)
			os.Symlink(tgt, filepath.Join(dir, "mid.json"))
			p := filepath.Join(dir, "start.json")
			os.Symlink("mid.json", p)
			return p, tgt
		}, result{content: "new", perm: 0o644, linkKept: true}},
		{"dangling link", func(t *testing.T, dir string) (string, string) {
			p := filepath.Join(dir, "dangling.json")
			os.Symlink("made.json", p)
			return p, filepath.Join(dir, "made.json")
		}, result{content: "new", perm: 0o640, linkKept: true}},
		{"link loop", func(t *testing.T, dir string) (string, string) {
			p := filepath.Join(dir, "loop.json")
			os.Symlink("loop.json", p)
			return p, ""
		}, result{errHas: []string{"loop.json", "symbolic links"}}},
		{"named pipe", func(t *testing.T, dir string) (string, string) {
			p := filepath.Join(dir, "fifo")
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Skip(err)
			}
			return p, ""
		}, result{errHas: []string{"fifo", "named pipe", "refusing"}}},
		{"link to a named pipe", func(t *testing.T, dir string) (string, string) {
			p := filepath.Join(dir, "fifo2")
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Skip(err)
			}
			l := filepath.Join(dir, "tofifo")
			os.Symlink("fifo2", l)
			return l, ""
		}, result{errHas: []string{"tofifo", "a link to", "named pipe"}}},
		{"socket", func(t *testing.T, dir string) (string, string) {
			p := filepath.Join(dir, "sock")
			ln, err := net.Listen("unix", p)
			if err != nil {
				t.Skip(err)
			}
			t.Cleanup(func() { ln.Close() })
			return p, ""
		}, result{errHas: []string{"sock", "a socket"}}},
		{"character device", func(t *testing.T, dir string) (string, string) {
			// A private copy of /dev/null (major 1, minor 3), so that a
			// failure of this test cannot harm the real one.
			p := filepath.Join(dir, "null")
			if err := syscall.Mknod(p, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
				t.Skipf("cannot make a device node: %v", err)
			}
			return p, ""
		}, result{errHas: []string{"null", "character device"}}},
		{"folder", func(t *testing.T, dir string) (string, string) {
			p := filepath.Join(dir, "sub")
			os.Mkdir(p, 0o755)
			return p, ""
		}, result{errHas: []string{"sub", "a folder", "not a regular file"}}},
		{"trailing slash", func(t *testing.T, dir string) (string, string) {
			return dir + "/", ""
		}, result{errHas: []string{"names a folder"}}},
		{"missing folder", func(t *testing.T, dir string) (string, string) {
			return filepath.Join(dir, "nowhere", "m.json"), ""
		}, result{errHas: []string{"nowhere", "does not exist"}}},
		{"file as folder", func(t *testing.T, dir string) (string, string) {
			f := filepath.Join(dir, "plain")
			os.WriteFile(f, []byte("x"), 0o644)
			return filepath.Join(f, "m.json"), ""
		}, result{errHas: []string{"plain", "not a folder"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path, check := tt.setup(t, dir)
			before := snapshot(t, dir)
			var err error
			withUmask(0o027, func() { err = WriteBytes(path, []byte("new")) })
			if tt.want.errHas != nil {
				if err == nil {
					t.Fatalf("no error; want one with %q", tt.want.errHas)
				}
				for _, s := range tt.want.errHas {
					if !strings.Contains(err.Error(), s) {
						t.Errorf("error %q lacks %q", err, s)
					}
				}
				if after := snapshot(t, dir); !slices.Equal(before, after) {
					t.Errorf("folder changed:\nbefore %v\nafter  %v", before, after)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(check)
			if err != nil || string(b) != tt.want.content {
				t.Errorf("content %q, %v; want %q", b, err, tt.want.content)
			}
			fi, err := os.Lstat(check)
			if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != tt.want.perm {
				t.Errorf("%s: mode %v, %v; want a regular file %v", check, fi.Mode(), err, tt.want.perm)
			}
			if tt.want.linkKept {
				if fi, err := os.Lstat(path); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
					t.Errorf("%s is no longer a link", path)
				}
			}
			for _, n := range names(t, filepath.Dir(check)) {
				if strings.Contains(n, ".tmp-") {
					t.Errorf("temporary file %s left behind", n)
				}
			}
		})
	}
}

// snapshot lists every path under dir with its type, to see that a
// refused write changed nothing.
func snapshot(t *testing.T, dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil {
			out = append(out, p+" "+d.Type().String())
		}
		return nil
	})
	return out
}

// TestWriteDevNull checks that the system's /dev/null is refused and left a
// device, whoever runs the test (root could otherwise replace it).
func TestWriteDevNull(t *testing.T) {
	err := WriteBytes("/dev/null", []byte("x"))
	if err == nil || !strings.Contains(err.Error(), "/dev/null: is a character device") {
		t.Errorf("error %v; want a refusal naming /dev/null", err)
	}
	if err := Check("/dev/null"); err == nil {
		t.Error("Check(/dev/null) passed")
	}
	fi, err := os.Lstat("/dev/null")
	if err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
		t.Fatalf("/dev/null is now %v (%v)", fi.Mode(), err)
	}
}

// TestWriteReadOnlyFolder checks a folder where no file can be created.
func TestWriteReadOnlyFolder(t *testing.T) {
	dir := t.TempDir()
	ro := filepath.Join(dir, "ro")
	os.Mkdir(ro, 0o555)
	probe := filepath.Join(ro, "probe")
	if os.WriteFile(probe, nil, 0o644) == nil {
		os.Remove(probe)
		t.Skip("running with the power to write into read-only folders (root)")
	}
	p := filepath.Join(ro, "m.json")
	for _, err := range []error{WriteBytes(p, []byte("x")), Check(p)} {
		if err == nil || !strings.Contains(err.Error(), ro) || !errors.Is(err, fs.ErrPermission) {
			t.Errorf("error %v; want permission denied naming %s", err, ro)
		}
	}
}

// TestWriteFillFails checks that a failing fill leaves the old file and no
// temporary file.
func TestWriteFillFails(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "m.json")
	os.WriteFile(p, []byte("old"), 0o644)
	boom := errors.New("disk full")
	err := Write(p, func(f *os.File) error {
		f.WriteString("half")
		return boom
	})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), p) {
		t.Errorf("error %v; want the fill's error naming %s", err, p)
	}
	if b, _ := os.ReadFile(p); string(b) != "old" {
		t.Errorf("content %q; want the old file", b)
	}
	if n := names(t, dir); !slices.Equal(n, []string{"m.json"}) {
		t.Errorf("folder holds %v", n)
	}
}

// TestRemoveStale checks that only stale temporary files of the exact name
// are removed: not other names, not fresh ones, not locked ones, not links,
// not folders holding something unexpected.
func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	old := processStart.Add(-time.Hour)
	mk := func(name string, stale bool) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte("x"), 0o644)
		if stale {
			os.Chtimes(p, old, old)
		}
		return p
	}
	mkdir := func(name string, files map[string]string) string {
		p := filepath.Join(dir, name)
		for f := range files {
			os.MkdirAll(filepath.Join(p, filepath.Dir(f)), 0o755)
			os.WriteFile(filepath.Join(p, f), []byte("x"), 0o644)
		}
		os.MkdirAll(p, 0o755)
		os.Chtimes(p, old, old)
		return p
	}
	mk("m.json", true)
	mk(".m.json.tmp-123", true)                                                    // stale: removed
	mk(".m.json.tmp-4567890123", true)                                             // stale: removed
	mk(".m.json.tmp-99", false)                                                    // fresh: kept
	mk(".m.json.tmp-12x", true)                                                    // not digits: kept
	mk(".m.json.tmp-", true)                                                       // no digits: kept
	mk(".mm.json.tmp-1", true)                                                     // another file's: kept
	mk("m.json.tmp-1", true)                                                       // not hidden: kept
	mk(".m.json.tmp-123456789012345678901", true)                                  // too many digits: kept
	locked := mk(".m.json.tmp-777", true)                                          // a live writer's: kept
	os.Symlink("m.json", filepath.Join(dir, ".m.json.tmp-55"))                     // a link: kept
	mkdir(".m.json.tmp-31", map[string]string{"a/0001.png": "", "b/0002.png": ""}) // removed
	mkdir(".m.json.tmp-32", map[string]string{"a/notes.txt": ""})                  // kept
	mkdir(".m.json.tmp-33", map[string]string{"top.png": ""})                      // kept

	f, err := os.Open(locked)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	// The lock is per open file: the cleaner's own open must not get it.
	if n := RemoveStale(filepath.Join(dir, "m.json")); n != 3 {
		t.Errorf("removed %d; want 3", n)
	}
	want := []string{".m.json.tmp-", ".m.json.tmp-123456789012345678901", ".m.json.tmp-12x",
		".m.json.tmp-32", ".m.json.tmp-33", ".m.json.tmp-55", ".m.json.tmp-777", ".m.json.tmp-99",
		".mm.json.tmp-1", "m.json", "m.json.tmp-1"}
	if got := names(t, dir); !slices.Equal(got, want) {
		t.Errorf("left %v\nwant %v", got, want)
	}
	// Write cleans up on its own.
	mk(".m.json.tmp-5", true)
	if err := WriteBytes(filepath.Join(dir, "m.json"), []byte("new")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(dir, ".m.json.tmp-5")); err == nil {
		t.Error("Write left a stale temporary file")
	}
}

// TestWriteDir covers folder outputs: a new folder, an empty one replaced,
// and every refusal.
func TestWriteDir(t *testing.T) {
	fill := func(tmp string) error {
		os.Mkdir(filepath.Join(tmp, "a"), 0o777)
		return os.WriteFile(filepath.Join(tmp, "a", "0001.png"), []byte("png"), 0o666)
	}
	tests := []struct {
		name   string
		setup  func(dir string) string
		errHas string
	}{
		{"new", func(dir string) string { return filepath.Join(dir, "out") }, ""},
		{"empty folder", func(dir string) string {
			os.Mkdir(filepath.Join(dir, "out"), 0o755)
			return filepath.Join(dir, "out")
		}, ""},
		{"full folder", func(dir string) string {
			os.MkdirAll(filepath.Join(dir, "out", "x"), 0o755)
			return filepath.Join(dir, "out")
		}, "not empty"},
		{"file", func(dir string) string {
			os.WriteFile(filepath.Join(dir, "out"), nil, 0o644)
			return filepath.Join(dir, "out")
		}, "a regular file, not a folder"},
		{"link", func(dir string) string {
			os.Mkdir(filepath.Join(dir, "real"), 0o755)
			os.Symlink("real", filepath.Join(dir, "out"))
			return filepath.Join(dir, "out")
		}, "symbolic link"},
		{"missing parent", func(dir string) string { return filepath.Join(dir, "no", "out") }, "does not exist"},
		{"dot", func(dir string) string { return "." }, "new folder"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			out := tt.setup(dir)
			before := snapshot(t, dir)
			var err error
			withUmask(0o022, func() { err = WriteDir(out, fill) })
			if tt.errHas != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errHas) {
					t.Errorf("error %v; want %q", err, tt.errHas)
				}
				if after := snapshot(t, dir); !slices.Equal(before, after) {
					t.Errorf("folder changed:\nbefore %v\nafter  %v", before, after)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			fi, err := os.Stat(out)
			if err != nil || fi.Mode().Perm() != 0o755 {
				t.Errorf("folder mode %v, %v; want 0755", fi.Mode(), err)
			}
			if b, _ := os.ReadFile(filepath.Join(out, "a", "0001.png")); !bytes.Equal(b, []byte("png")) {
				t.Errorf("content %q", b)
			}
			if n := names(t, dir); len(n) != 1 {
				t.Errorf("folder holds %v", n)
			}
		})
	}
}

// TestWriteDirFails checks that a failing fill leaves nothing.
func TestWriteDirFails(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	err := WriteDir(out, func(tmp string) error {
		os.WriteFile(filepath.Join(tmp, "x"), nil, 0o644)
		return errors.New("interrupted")
	})
	if err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Errorf("error %v", err)
	}
	if n := names(t, dir); len(n) != 0 {
		t.Errorf("left %v", n)
	}
}

// TestReadFile covers the bounded reader on each kind of input.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.json")
	os.WriteFile(small, []byte(`{"a":1}`), 0o644)
	big := filepath.Join(dir, "big.json")
	os.WriteFile(big, bytes.Repeat([]byte(" "), 101), 0o644)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	os.Symlink("small.json", link)
	tests := []struct {
		name, path string
		want       string
		errHas     []string
	}{
		{"regular", small, `{"a":1}`, nil},
		{"link to regular", link, `{"a":1}`, nil},
		{"over the limit", big, "", []string{"big.json", "limit of 100 bytes", "raise it with --max-input"}},
		{"named pipe without writer", fifo, "", []string{"fifo", "named pipe"}},
		{"folder", dir, "", []string{dir, "a folder"}},
		{"device", "/dev/zero", "", []string{"/dev/zero", "character device"}},
		{"missing", filepath.Join(dir, "no.json"), "", []string{"no.json", "no such file"}},
	}
	// The largest limit: limit+1 must not overflow into a limit of nothing.
	if b, err := ReadFile(small, math.MaxInt64, ""); err != nil || string(b) != `{"a":1}` {
		t.Errorf("ReadFile with the largest limit: %q, %v", b, err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			done := make(chan struct{})
			var b []byte
			var err error
			go func() {
				b, err = ReadFile(tt.path, 100, "--max-input")
				close(done)
			}()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("ReadFile blocked")
			}
			if tt.errHas == nil {
				if err != nil || string(b) != tt.want {
					t.Errorf("got %q, %v; want %q", b, err, tt.want)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error; want %q", tt.errHas)
			}
			for _, s := range tt.errHas {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q lacks %q", err, s)
				}
			}
		})
	}
}

// TestWriteDirMarked: a folder made with a marker may be made again in
// place, whole; a folder of another kind, or unmarked, is refused and kept;
// system folders are never outputs.
func TestWriteDirMarked(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "site")
	write := func(name string) func(string) error {
		return func(tmp string) error { return os.WriteFile(filepath.Join(tmp, name), []byte(name), 0o644) }
	}
	if err := WriteDirMarked(out, "lab site", write("a.html")); err != nil {
		t.Fatal(err)
	}
	if err := WriteDirMarked(out, "lab site", write("b.html")); err != nil {
		t.Fatalf("made again: %v", err)
	}
	entries, _ := os.ReadDir(out)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != Marker+" b.html" {
		t.Errorf("after the second run: %v; want the marker and b.html only", names)
	}
	if err := WriteDirMarked(out, "cards", write("c")); err == nil || !strings.Contains(err.Error(), "did not make it as cards") {
		t.Errorf("another kind: %v", err)
	}
	mine := filepath.Join(dir, "mine")
	os.Mkdir(mine, 0o755)
	os.WriteFile(filepath.Join(mine, "keep.txt"), []byte("x"), 0o644)
	if err := WriteDirMarked(mine, "lab site", write("a.html")); err == nil {
		t.Error("an unmarked folder was written into")
	}
	if b, err := os.ReadFile(filepath.Join(mine, "keep.txt")); err != nil || string(b) != "x" {
		t.Errorf("the user's file: %q, %v", b, err)
	}
	home, _ := os.UserHomeDir()
	for _, sys := range []string{"/", "/tmp", "/usr", home} {
		if err := CheckPlace(sys); err == nil || !strings.Contains(err.Error(), "system folder") {
			t.Errorf("CheckPlace(%q) = %v; want a system folder refused", sys, err)
		}
	}
	if err := CheckPlace(filepath.Join(dir, "new")); err != nil {
		t.Errorf("a new folder: %v", err)
	}
	if !IsTemp(tempName("x")) || IsTemp("x") || IsTemp(".x.tmp-") {
		t.Error("IsTemp")
	}
}
