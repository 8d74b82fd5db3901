// Package sources lists the sources of the lab's WebAssembly — what
// mark1/lab/wasm is built from for GOOS=js GOARCH=wasm, as far as mark1
// owns it — with their SHA-256, and reads and writes that list
// (lab.wasm.sources beside the embedded build). The generator records it
// when it builds the WebAssembly; the staleness test recomputes it.
//
// The list holds, for every package of module mark1 in
//
//	GOOS=js GOARCH=wasm go list -deps ./lab/wasm
//
// the Go files that build for js/wasm (and any assembly or embedded files),
// plus go.mod, go.sum and the generator itself. It does not depend on the
// Go toolchain's version (the standard library is not in it) nor on the
// machine: paths are relative to the module, with forward slashes, and a
// text file's CRLF line ends (a Windows checkout) are read as LF.
package sources

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// Main is the WebAssembly's main package, relative to the module's root.
const Main = "./lab/wasm"

// Generator returns the program that builds the WebAssembly and this package,
// relative to the module's root: the build's flags are a source of the
// build too.
func Generator() []string {
	return []string{"internal/labsite/internal/gen/main.go", "internal/labsite/internal/sources/sources.go"}
}

// BuildFlags returns go build's flags for the WebAssembly (GOOS=js
// GOARCH=wasm): no paths of the machine that built it, no version control
// stamp (the bytes do not depend on the commit), no symbols or DWARF.
func BuildFlags() []string { return []string{"-trimpath", "-buildvcs=false", "-ldflags=-s -w"} }

// BuildEnv returns the environment the WebAssembly is listed and built in, on
// top of the caller's: GOFLAGS is cleared so that no -tags of the caller's
// chooses other files.
func BuildEnv() []string { return []string{"GOOS=js", "GOARCH=wasm", "GOFLAGS="} }

// File is one source: its path relative to the module's root (forward
// slashes) and the hex SHA-256 of its content.
type File struct {
	Path, Sum string
}

// List returns the sources of the WebAssembly of the module rooted at
// root, sorted by path. It runs go list (the go command on PATH).
func List(ctx context.Context, root string) ([]File, error) {
	cmd := exec.CommandContext(ctx, "go", "list", "-deps", "-json=ImportPath,Dir,GoFiles,CgoFiles,SFiles,HFiles,EmbedFiles,Module,Error", Main)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), BuildEnv()...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("GOOS=js GOARCH=wasm go list -deps %s: %v\n%s", Main, err, stderr.Bytes())
	}
	names := append([]string{"go.mod", "go.sum"}, Generator()...)
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath, Dir                               string
			GoFiles, CgoFiles, SFiles, HFiles, EmbedFiles []string
			Module                                        *struct{ Path, Dir string }
			Error                                         *struct{ Err string }
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list -json: %w", err)
		}
		if p.Error != nil {
			return nil, fmt.Errorf("go list: %s: %s", p.ImportPath, p.Error.Err)
		}
		if p.Module == nil || p.Module.Path != "mark1" {
			continue
		}
		rel, err := filepath.Rel(root, p.Dir)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return nil, fmt.Errorf("package %s in %s is outside the module at %s", p.ImportPath, p.Dir, root)
		}
		for _, group := range [][]string{p.GoFiles, p.CgoFiles, p.SFiles, p.HFiles, p.EmbedFiles} {
			for _, f := range group {
				names = append(names, path.Join(filepath.ToSlash(rel), filepath.ToSlash(f)))
			}
		}
	}
	slices.Sort(names)
	names = slices.Compact(names)
	files := make([]File, len(names))
	for i, name := range names {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			return nil, err
		}
		if text(name) {
			b = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
		}
		sum := sha256.Sum256(b)
		files[i] = File{name, hex.EncodeToString(sum[:])}
	}
	return files, nil
}

// text reports whether the file is read as text, its CRLFs as LFs.
func text(name string) bool {
	return strings.HasSuffix(name, ".go") || name == "go.mod" || name == "go.sum"
}

// Digest is the hex SHA-256 of the list: of its lines "SUM  PATH\n", in
// order (the format of sha256sum).
func Digest(files []File) string {
	h := sha256.New()
	for _, f := range files {
		fmt.Fprintf(h, "%s  %s\n", f.Sum, f.Path)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Header is the comment that opens a written list.
const Header = `# The sources of lab.wasm.gz (mark1/lab/wasm built for GOOS=js GOARCH=wasm):
# module mark1's Go (and assembly, embedded) files in GOOS=js GOARCH=wasm go list -deps ./lab/wasm,
# go.mod, go.sum and the generator (internal/gen, internal/sources), each with its SHA-256 (CRLF read as LF in text files), and
# "sha256" the SHA-256 of those lines. Written by go generate ./internal/labsite; the test
# TestEmbeddedCurrent recomputes it and fails when the sources changed since.
`

// Write writes the list to w: Header, the Go version that built the
// WebAssembly (a comment: the digest does not depend on it), the digest,
// then one line "SUM  PATH" per file.
func Write(w io.Writer, goVersion string, files []File) error {
	var b bytes.Buffer
	b.WriteString(Header)
	fmt.Fprintf(&b, "# built with %s\nsha256 %s\n", goVersion, Digest(files))
	for _, f := range files {
		fmt.Fprintf(&b, "%s  %s\n", f.Sum, f.Path)
	}
	_, err := w.Write(b.Bytes())
	return err
}

// Read reads a list Write wrote: its recorded digest and files.
func Read(r io.Reader) (digest string, files []File, err error) {
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSuffix(sc.Text(), "\r")
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "sha256 "):
			digest = strings.TrimPrefix(line, "sha256 ")
		default:
			sum, name, ok := strings.Cut(line, "  ")
			if !ok {
				return "", nil, fmt.Errorf("line %d: %q is not \"SUM  PATH\"", n, line)
			}
			files = append(files, File{name, sum})
		}
	}
	if err := sc.Err(); err != nil {
		return "", nil, err
	}
	if digest == "" {
		return "", nil, errors.New("no sha256 line")
	}
	return digest, files, nil
}

// Changed returns the paths that differ between the lists was and now:
// added, removed or with another content, each marked +, - or ~.
func Changed(was, now []File) []string {
	old := map[string]string{}
	for _, f := range was {
		old[f.Path] = f.Sum
	}
	var out []string
	for _, f := range now {
		sum, ok := old[f.Path]
		switch {
		case !ok:
			out = append(out, "+ "+f.Path)
		case sum != f.Sum:
			out = append(out, "~ "+f.Path)
		}
		delete(old, f.Path)
	}
	for p := range old {
		out = append(out, "- "+p)
	}
	slices.SortFunc(out, func(a, b string) int { return cmp.Compare(a[2:], b[2:]) })
	return out
}
