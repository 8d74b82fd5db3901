//go:build js && wasm

// Command wasm is the lab compiled to WebAssembly for the static lab site
// (mark1 lab --site DIR): it answers the lab page's requests in the
// browser, with the same code as the panel's POST /api/lab, so that the
// page needs no mark1 server. It sets three functions on the page's
// global object, each taking and returning JSON text:
//
//	mark1Lab(request)       a lab.Request → its lab.Frame, or {"error": …}
//	mark1LabCatalog()       the examples, learners, generators and losses
//	mark1LabTrace(request)  the run's trace as mark1 lab --json writes it
//
// and then waits for calls for as long as the page lives.
//
// mark1 does not build it when it writes the site: go generate
// ./internal/labsite builds it once and mark1 embeds the build
// (internal/labsite), whose test fails when this package, or anything of
// mark1's it imports, changed since.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"syscall/js"

	"mark1/lab"
)

func main() {
	js.Global().Set("mark1Lab", js.FuncOf(func(this js.Value, args []js.Value) any {
		var q lab.Request
		if err := decode(args, &q); err != nil {
			return fail(err)
		}
		fr, err := q.Answer(context.Background(), 60)
		if err != nil {
			return fail(err)
		}
		b, err := json.Marshal(fr)
		if err != nil {
			return fail(err)
		}
		return string(b)
	}))
	js.Global().Set("mark1LabCatalog", js.FuncOf(func(this js.Value, args []js.Value) any {
		b, _ := json.Marshal(lab.Contents())
		return string(b)
	}))
	js.Global().Set("mark1LabTrace", js.FuncOf(func(this js.Value, args []js.Value) any {
		var q lab.Request
		if err := decode(args, &q); err != nil {
			return fail(err)
		}
		e, _, err := q.Data()
		if err != nil {
			return fail(err)
		}
		run, err := lab.Start(context.Background(), e, q.Setup)
		if err != nil {
			return fail(err)
		}
		var buf bytes.Buffer
		if err := run.WriteJSON(&buf); err != nil {
			return fail(err)
		}
		return buf.String()
	}))
	js.Global().Get("document").Get("body").Get("dataset").Set("wasm", "ready")
	select {}
}

func decode(args []js.Value, v any) error {
	if len(args) != 1 || args[0].Type() != js.TypeString {
		return errString("want one argument: the request as JSON text")
	}
	return json.Unmarshal([]byte(args[0].String()), v)
}

type errString string

func (e errString) Error() string { return string(e) }

func fail(err error) string {
	b, _ := json.Marshal(map[string]string{"error": err.Error()})
	return string(b)
}
