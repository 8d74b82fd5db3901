package labsite

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"mark1/internal/labsite/internal/sources"
	"mark1/internal/testtool"
)

// TestEmbeddedCurrent fails when the embedded WebAssembly is stale: when
// the sources it is built from (lab.wasm.sources: mark1's packages in
// GOOS=js GOARCH=wasm go list -deps ./lab/wasm, go.mod, go.sum and the
// generator) are no longer those it was built from. It compares their
// SHA-256, not the build's bytes, which depend on the Go version.
func TestEmbeddedCurrent(t *testing.T) {
	f, err := os.Open("lab.wasm.sources")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	digest, was, err := sources.Read(f)
	if err != nil {
		t.Fatalf("lab.wasm.sources: %v", err)
	}
	if got := sources.Digest(was); got != digest {
		t.Fatalf("lab.wasm.sources: its lines' digest is %s, it records %s: edited by hand? run go generate ./internal/labsite", got, digest)
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	now, err := sources.List(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	if got := sources.Digest(now); got != digest {
		t.Fatalf("the embedded lab WebAssembly is stale: its sources changed since it was built (sha256 %s, recorded %s):\n  %s\nrun go generate ./internal/labsite (or go generate ./...) and commit lab.wasm.gz, wasm_exec.js and lab.wasm.sources",
			got, digest, strings.Join(sources.Changed(was, now), "\n  "))
	}
}

// TestEmbedded checks that what is embedded is WebAssembly with its
// JavaScript side.
func TestEmbedded(t *testing.T) {
	var b bytes.Buffer
	if err := WriteWasm(&b); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b.Bytes(), []byte("\x00asm")) || b.Len() < 1<<20 {
		t.Fatalf("the embedded lab.wasm is not WebAssembly (%d bytes, %q…)", b.Len(), b.Bytes()[:min(8, b.Len())])
	}
	if js := WasmExec(); !bytes.Contains(js, []byte("globalThis.Go")) {
		t.Fatalf("the embedded wasm_exec.js is not Go's (%d bytes)", len(js))
	}
}

// TestEmbeddedReproduces rebuilds the WebAssembly, as go generate does, and
// compares it byte for byte with the embedded one when this Go is the one
// that built it (lab.wasm.sources says which): the build is reproducible,
// and what is embedded is what the generator makes. With another Go
// version the bytes differ; it skips then.
func TestEmbeddedReproduces(t *testing.T) {
	testtool.Long(t, "builds the lab's WebAssembly")
	list, err := os.ReadFile("lab.wasm.sources")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		t.Fatal(err)
	}
	v := strings.TrimSpace(string(out))
	if !bytes.Contains(list, []byte("\n# built with "+v+"\n")) {
		t.Skipf("the embedded build is not %s's: its bytes may differ", v)
	}
	wasm := filepath.Join(t.TempDir(), "lab.wasm")
	build := exec.Command("go", append(append([]string{"build"}, sources.BuildFlags()...), "-o", wasm, sources.Main)...)
	build.Dir = "../.."
	build.Env = append(os.Environ(), sources.BuildEnv()...)
	if msg, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, msg)
	}
	got, err := os.ReadFile(wasm)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := WriteWasm(&want); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("the WebAssembly built now (%d bytes) differs from the embedded one (%d bytes) with the same Go and sources: run go generate ./internal/labsite", len(got), want.Len())
	}
}
