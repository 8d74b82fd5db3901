package atomicfile_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"mark1/internal/base/atomicfile"
)

// An output is checked by the rules of its kind before anything is
// written, and kept off the inputs by SameFile, which sees through links.
func ExampleOutput_Check() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	data := filepath.Join(dir, "data.csv")
	os.WriteFile(data, []byte("1,2\n"), 0o644)
	os.Symlink(data, filepath.Join(dir, "link.csv"))

	out := atomicfile.Output{Path: filepath.Join(dir, "link.csv"), Kind: atomicfile.File}
	fmt.Println("check:", out.Check())
	fmt.Println("same file as the input:", atomicfile.SameFile(out.Path, data))

	out.Kind = atomicfile.NewFile
	fmt.Println("new file exists:", errors.Is(out.Check(), atomicfile.ErrExists))

	results := atomicfile.Output{Path: dir, Kind: atomicfile.Results, Owns: func(name string) bool { return filepath.Ext(name) == ".json" }}
	fmt.Println("results folder holding data:", results.Check() != nil)
	// Output:
	// check: <nil>
	// same file as the input: true
	// new file exists: true
	// results folder holding data: true
}

// A job's outputs checked against its inputs and each other before any
// work: the first trouble is a typed Clash that the caller words in its
// own terms (the command line names its flags).
func ExampleCheckOutputs() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	data := filepath.Join(dir, "data.csv")
	os.WriteFile(data, []byte("1,2\n"), 0o644)
	os.Symlink(data, filepath.Join(dir, "link.csv"))

	ins := []string{data}
	outs := []atomicfile.Output{{Path: filepath.Join(dir, "model.json")}, {Path: filepath.Join(dir, "link.csv")}}
	var c *atomicfile.Clash
	if err := atomicfile.CheckOutputs(outs, ins, nil); errors.As(err, &c) {
		fmt.Printf("output %d clashes with input %d (kind %d)\n", c.Out, c.With, c.Kind)
	}
	outs[1].Path = outs[0].Path
	if err := atomicfile.CheckOutputs(outs, ins, nil); errors.As(err, &c) {
		fmt.Printf("output %d clashes with output %d (kind %d)\n", c.Out, c.With, c.Kind)
	}
	fmt.Println(atomicfile.CheckOutputs(outs[:1], ins, nil))
	// Output:
	// output 1 clashes with input 0 (kind 0)
	// output 0 clashes with output 1 (kind 2)
	// <nil>
}
