package labsite

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"mark1/internal/base/atomicfile"
	"mark1/panel"
)

// WriteSite writes the static lab site to dir: the lab page set to answer
// with its WebAssembly, lab.wasm (WriteWasm), the wasm_exec.js of the Go
// that built it (WasmExec), and an index.html that leads to the page. Any
// static file server serves it; it needs nothing but the mark1 binary.
// Each file is written atomically; an interrupt (ctx) stops the
// WebAssembly's writing.
func WriteSite(ctx context.Context, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	wasm := func(f *os.File) error { return WriteWasm(atomicfile.ContextWriter(ctx, f)) }
	if err := atomicfile.Write(filepath.Join(dir, "lab.wasm"), wasm); err != nil {
		return err
	}
	files := panel.LabSiteFiles()
	page := string(files["lab.html"])
	page = strings.Replace(page, `<meta charset="utf-8">`, `<meta charset="utf-8">`+"\n"+`<meta name="mark1-static" content="1">`, 1)
	page = strings.Replace(page, `<script src="lab.js"></script>`, `<script src="wasm_exec.js"></script>`+"\n"+`<script src="lab.js"></script>`, 1)
	files["lab.html"] = []byte(page)
	files["index.html"] = []byte(`<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0; url=lab.html"><title>mark1: the lab</title><a href="lab.html">the lab</a>` + "\n")
	files["wasm_exec.js"] = WasmExec()
	for name, b := range files {
		if err := atomicfile.Write(filepath.Join(dir, name), func(f *os.File) error { _, err := f.Write(b); return err }); err != nil {
			return err
		}
	}
	return nil
}
