// Package labsite holds the lab's WebAssembly, built once and embedded in
// mark1, so that mark1 lab --site writes the static lab site anywhere with
// the mark1 binary alone: no Go toolchain, no source.
//
// The build (go generate ./internal/labsite, command internal/gen) is
// mark1/lab/wasm for GOOS=js GOARCH=wasm, gzipped (lab.wasm.gz), with the
// same toolchain's wasm_exec.js that runs it in the page, and beside them
// lab.wasm.sources: the sources it was built from with their SHA-256. The
// test TestEmbeddedCurrent fails when those sources have changed since: a
// change to the lab (or anything it imports from mark1) needs a go generate
// in the same commit.
package labsite

//go:generate go run ./internal/gen

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"io"
)

//go:embed lab.wasm.gz
var wasmGz []byte

//go:embed wasm_exec.js
var wasmExec []byte

// WriteWasm writes the lab's WebAssembly, lab.wasm, to w.
func WriteWasm(w io.Writer) error {
	zr, err := gzip.NewReader(bytes.NewReader(wasmGz))
	if err != nil {
		return fmt.Errorf("the embedded lab.wasm.gz: %w", err)
	}
	if _, err := io.Copy(w, zr); err != nil { // to the end, where gzip checks its CRC
		return fmt.Errorf("the embedded lab.wasm.gz: %w", err)
	}
	return zr.Close()
}

// WasmExec returns wasm_exec.js, the JavaScript side of Go's WebAssembly,
// from the Go toolchain that built lab.wasm.
func WasmExec() []byte {
	return bytes.Clone(wasmExec)
}
