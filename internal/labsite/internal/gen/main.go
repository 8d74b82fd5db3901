// Command gen builds the lab's WebAssembly for the static lab site and
// writes it into package mark1/internal/labsite, which embeds it in mark1:
//
//	lab.wasm.gz       GOOS=js GOARCH=wasm go build -trimpath -buildvcs=false -ldflags="-s -w" ./lab/wasm, gzip -9
//	wasm_exec.js      the same Go toolchain's lib/wasm/wasm_exec.js
//	lab.wasm.sources  the sources it was built from, with their SHA-256 (package sources)
//
// Run it as go generate ./internal/labsite (from anywhere in the module).
// The build uses the go command on PATH, which go generate puts first.
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"mark1/internal/labsite/internal/sources"
)

func main() {
	if err := generate(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "labsite gen:", err)
		os.Exit(1)
	}
}

// goCmd runs the go command in dir with the extra environment and returns
// its standard output.
func goCmd(ctx context.Context, dir string, env []string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return strings.TrimSpace(string(out)), nil
}

func generate(ctx context.Context) error {
	root, err := goCmd(ctx, "", nil, "list", "-m", "-f", "{{.Dir}}")
	if err != nil {
		return err
	}
	if mod, err := goCmd(ctx, root, nil, "list", "-m"); err != nil || mod != "mark1" {
		return fmt.Errorf("run me inside module mark1 (the module here is %q)", mod)
	}
	out := filepath.Join(root, "internal", "labsite")
	wasmEnv := sources.BuildEnv()
	// The sources before the build and after it: a file edited while it
	// builds would leave a list that does not describe the build.
	before, err := sources.List(ctx, root)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "labsite-gen-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	wasm := filepath.Join(tmp, "lab.wasm")
	if _, err := goCmd(ctx, root, wasmEnv, append(append([]string{"build"}, sources.BuildFlags()...), "-o", wasm, sources.Main)...); err != nil {
		return err
	}
	goVersion, err := goCmd(ctx, root, wasmEnv, "env", "GOVERSION")
	if err != nil {
		return err
	}
	goroot, err := goCmd(ctx, root, wasmEnv, "env", "GOROOT")
	if err != nil {
		return err
	}
	after, err := sources.List(ctx, root)
	if err != nil {
		return err
	}
	if sources.Digest(before) != sources.Digest(after) {
		return fmt.Errorf("the sources changed during the build (%s): run it again", strings.Join(sources.Changed(before, after), ", "))
	}
	b, err := os.ReadFile(wasm)
	if err != nil {
		return err
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression) // no name, no time: the same bytes for the same build
	if _, err := zw.Write(b); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	var wasmExec []byte
	for _, p := range []string{filepath.Join(goroot, "lib", "wasm", "wasm_exec.js"), filepath.Join(goroot, "misc", "wasm", "wasm_exec.js")} {
		if wasmExec, err = os.ReadFile(p); err == nil {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("the Go toolchain at %s has no wasm_exec.js (lib/wasm or misc/wasm)", goroot)
	}
	var list bytes.Buffer
	if err := sources.Write(&list, goVersion, after); err != nil {
		return err
	}
	for name, data := range map[string][]byte{"lab.wasm.gz": gz.Bytes(), "wasm_exec.js": wasmExec, "lab.wasm.sources": list.Bytes()} {
		if err := writeFile(filepath.Join(out, name), data); err != nil {
			return err
		}
	}
	fmt.Printf("labsite: lab.wasm %d bytes, gzipped %d, built with %s; sources sha256 %s\n", len(b), gz.Len(), goVersion, sources.Digest(after))
	return nil
}

// writeFile writes data to path by a rename, so that a reader never sees
// half a file.
func writeFile(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
